//go:build js && wasm

package ui

import (
	"errors"
	"fmt"
	"syscall/js"
	"time"

	"dpsim/core/farm"
	"dpsim/core/objective"
	"dpsim/core/pool"
	"dpsim/core/scenario"
	"dpsim/ui/datafiles"
)

// Every core for a heavy run (docs/bridge.md, "Helper Workers"). The run
// Worker (Serve) hands its agents' gradients to helper Web Workers, each
// running this same dpsim.wasm with its own instance of the run's problem
// (public/farm-worker.js, built by farmOpen from the scenario's text and
// the dataset files the run Worker was given): per iteration the run
// Worker sends every helper its agents' points and rows (core/farm's wire
// format), computes its own share meanwhile, and waits for the
// gradients. Noise, ordering and every byte of the run are those of one
// worker; a helper that fails leaves the run on the run Worker, with one
// line saying so.

type farmState int

const (
	farmIdle farmState = iota
	farmStarting
	farmReady
	farmFailed
)

// jsFarm is the run Worker's farm.Farm: helper Workers started by
// public/run-worker.js (self.dpsimFarm) on the first call that needs
// them, then driven by farm.Helpers, which checks every reply and gives
// up a helper that answers amiss or not at all (farm.Wait).
type jsFarm struct {
	h     farm.Helpers
	prob  objective.Problem
	state farmState
	err   error
	// async is true while the run advances in a goroutine of its own
	// (Serve's advance): only then may Grads wait for the helpers.
	async bool
	// sent counts the calls the helpers answered.
	sent int
}

// newFarm returns the farm of size workers (the run Worker's among them)
// for prob.
func newFarm(size int, prob objective.Problem) *jsFarm {
	f := &jsFarm{prob: prob}
	f.h = farm.Helpers{Workers: size, Own: prob, Replies: make(chan farm.Reply, 4*MaxHelpers+4),
		Post: func(helper, seq int, req []byte) {
			js.Global().Get("dpsimFarm").Call("post", helper, seq, bytesJS(req))
		}}
	return f
}

// Size implements farm.Farm.
func (f *jsFarm) Size() int { return f.h.Workers }

// Grads implements farm.Farm.
func (f *jsFarm) Grads(tasks []farm.Task) error {
	switch f.state {
	case farmIdle:
		f.state = farmStarting
		js.Global().Get("dpsimFarm").Call("start", f.h.Workers-1, f.h.Workers)
		return farm.ErrNotReady
	case farmStarting:
		return farm.ErrNotReady
	case farmFailed:
		return f.err
	}
	if !f.async {
		return farm.ErrNotReady
	}
	f.h.Wait = testWait()
	if err := f.h.Grads(tasks); err != nil {
		return f.fail(err)
	}
	f.sent++
	return nil
}

// testWait is a test hook (e2e/farm.test.js): self.dpsimFarmWait, a
// number of milliseconds set in the run's Worker, replaces farm.Wait, so
// that a silent helper is given up without the 10 s a real run allows.
// Without it (nil) the farm waits farm.Wait.
func testWait() func(time.Duration) time.Duration {
	v := js.Global().Get("dpsimFarmWait")
	if v.Type() != js.TypeNumber || !(v.Float() > 0 && v.Float() <= float64(farm.MaxWait/time.Millisecond)) {
		return nil
	}
	d := time.Duration(v.Float() * float64(time.Millisecond))
	return func(time.Duration) time.Duration { return d }
}

// fail gives the farm up: the helpers are stopped and the run goes on in
// the run Worker alone.
func (f *jsFarm) fail(err error) error {
	if f.state != farmFailed {
		f.state = farmFailed
		f.err = fmt.Errorf("the helper Workers were stopped: %v; the run's Worker now computes every gradient itself, with the same results", err)
		js.Global().Get("dpsimFarm").Call("stop")
	}
	return f.err
}

// ready hears from public/run-worker.js that the helpers are up (msg ""),
// or why not.
func (f *jsFarm) ready(msg string) {
	if f.state != farmStarting {
		return
	}
	if msg != "" {
		f.fail(errors.New(msg))
		return
	}
	f.state = farmReady
}

// reply hears a helper's answer (or, seq −1, that it failed).
func (f *jsFarm) reply(args []js.Value) {
	if len(args) < 4 || args[0].Type() != js.TypeNumber || args[1].Type() != js.TypeNumber {
		return
	}
	r := farm.Reply{Helper: args[0].Int(), Seq: args[1].Int()}
	if msg := args[3]; msg.Type() == js.TypeString && msg.String() != "" {
		r.Err = errors.New(msg.String())
	} else if u8 := args[2]; u8.InstanceOf(js.Global().Get("Uint8Array")) {
		r.Bytes = make([]byte, u8.Get("length").Int())
		js.CopyBytesToGo(r.Bytes, u8)
	} else {
		r.Err = errors.New("a reply that is not bytes")
	}
	if r.Err != nil && f.state == farmStarting {
		f.fail(r.Err)
		return
	}
	select {
	case f.h.Replies <- r:
	default: // stale answers of a call given up: nobody waits for them
	}
}

// inUse is how many workers compute the run's gradients now, and what the
// page says of them ("" when all is well).
func (f *jsFarm) inUse(p *pool.Pool) (int, string) {
	if f == nil {
		return 1, ""
	}
	if f.state == farmFailed {
		return 1, f.err.Error()
	}
	if f.state == farmReady && f.sent > 0 && p.Farmed(f.prob.Agents()) {
		return f.h.Workers, ""
	}
	return 1, ""
}

// helper is a helper Worker's problem (farmOpen), which farmGrads
// computes gradients on.
type helper struct {
	prob objective.Problem
}

// farmOpen builds the problem of the scenario text for a helper Worker,
// with the dataset files provided; it returns "" or the error.
func farmOpen(data *datafiles.Provided, h *helper, text string) string {
	s, err := scenario.Parse([]byte(text))
	if err != nil {
		return err.Error()
	}
	if r := data.Report(s); r.Error != "" {
		return r.Error
	} else if len(r.Need) > 0 {
		return datafiles.Missing(r.Need).Error()
	}
	p, err := scenario.ProblemOf(s)
	if err != nil {
		return err.Error()
	}
	h.prob = p
	return ""
}

// farmGrads answers one request of the run Worker (a Uint8Array) with
// the gradients (a Uint8Array), or {error}.
func farmGrads(h *helper, args []js.Value) any {
	fail := func(err error) any {
		o := js.Global().Get("Object").New()
		o.Set("error", err.Error())
		return o
	}
	if h.prob == nil {
		return fail(errors.New("farmGrads before farmOpen"))
	}
	if len(args) == 0 || args[0].Get("length").Type() != js.TypeNumber {
		return fail(errors.New("farmGrads needs a Uint8Array"))
	}
	req := make([]byte, args[0].Get("length").Int())
	js.CopyBytesToGo(req, args[0])
	out, err := farm.Serve(h.prob, h.prob.Agents(), h.prob.Dim(), req)
	if err != nil {
		return fail(err)
	}
	return bytesJS(out)
}

// promise runs f in a goroutine of its own and returns a Promise of its
// value: f may then wait for the helpers' answers, which come as events.
// A panic in f becomes {error}.
func promise(name string, f func() any) js.Value {
	exec := js.FuncOf(func(_ js.Value, args []js.Value) any {
		resolve := args[0]
		go func() {
			var out any
			func() {
				defer func() {
					if r := recover(); r != nil {
						o := js.Global().Get("Object").New()
						o.Set("error", fmt.Sprintf("internal error in the worker's %s: %v", name, r))
						out = o
					}
				}()
				out = f()
			}()
			resolve.Invoke(out)
		}()
		return nil
	})
	p := js.Global().Get("Promise").New(exec)
	exec.Release() // the executor runs within the constructor
	return p
}
