//go:build js && wasm

package ui

import (
	"syscall/js"

	"dpsim/core/eavesdrop"
	"dpsim/core/scenario"
	"dpsim/core/sim"
)

// spy is the page's eavesdropper tap: off (agent −1) until the panel asks
// for one, so that a run without the panel pays nothing.
type spy struct {
	agent int
	rec   *eavesdrop.Recorder
}

// taps returns the recorders to attach to a new run of b: the
// eavesdropper's, when the panel has chosen an agent that b has.
func (a *App) taps(b *scenario.Built) []sim.Recorder {
	a.spy.rec = nil
	if a.spy.agent < 0 || a.spy.agent >= b.Env.Problem.Agents() {
		return nil
	}
	rec, err := eavesdrop.New(b.Env.Problem, b.Algorithm, a.spy.agent, 1)
	if err != nil {
		return nil
	}
	rec.Keep = EavesdropWindow
	a.spy.rec = rec
	return []sim.Recorder{rec}
}

// registerEavesdrop adds dpsim.eavesdrop(agent) — tap agent's links from
// iteration 0 (the run restarts, since the listener rebuilds the dual
// variables from the first message; −1 removes the tap) — and
// dpsim.eavesdropView(), the JSON of EavesdropView or null.
func (a *App) registerEavesdrop(fn func(name string, f func(args []js.Value) any)) {
	fn("eavesdrop", func(args []js.Value) any {
		agent := -1
		if len(args) > 0 && args[0].Type() == js.TypeNumber {
			agent = args[0].Int()
		}
		if a.rem != nil && agent >= 0 {
			return js.Global().Get("Error").New("the eavesdropper listens on the page's thread: not on a scenario computed in a background thread (" + a.rem.why + ")")
		}
		if a.built != nil && agent >= a.built.Env.Problem.Agents() {
			return js.Global().Get("Error").New("the agent must be from 0 to " + itoa(a.built.Env.Problem.Agents()-1))
		}
		a.spy.agent = agent
		return a.result(a.reset())
	})
	fn("eavesdropView", func([]js.Value) any {
		if a.built == nil {
			return nil
		}
		b, err := EavesdropJSON(a.spy.rec, a.built.Factory.Name, a.built.Env.Problem.Agents(), a.built.Env.Problem.Dim())
		if err != nil {
			return js.Global().Get("Error").New(err.Error())
		}
		return string(b)
	})
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}
