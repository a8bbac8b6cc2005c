//go:build js && wasm

package ui

import (
	"dpsim/core/jsonout"
	"syscall/js"
)

// registerInspect adds the keyboard's side of the inspector to
// window.dpsim (docs/bridge.md): agents() — where every agent is drawn —
// and inspectAgent(i) — agent i as the inspector shows it, with the
// messages it released in the latest iteration.
func (a *App) registerInspect(fn func(name string, f func(args []js.Value) any)) {
	fn("agents", func([]js.Value) any {
		m, f := a.game.Model(), a.game.Frame()
		if m == nil || f == nil {
			return "[]"
		}
		out, _ := jsonout.Marshal(Agents(f, cssRatio(m)))
		return string(out)
	})
	fn("inspectAgent", func(args []js.Value) any {
		m, f := a.game.Model(), a.game.Frame()
		if (a.run == nil && a.rem == nil) || m == nil || f == nil || len(args) == 0 || args[0].Type() != js.TypeNumber {
			return `{"kind":""}`
		}
		led, kind, counters := a.privacyNow()
		out, _ := jsonout.Marshal(InspectAgent(m, f, cssRatio(m), args[0].Int(), led, kind, counters))
		return string(out)
	})
}
