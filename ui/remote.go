//go:build js && wasm

package ui

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"syscall/js"
	"time"

	"dpsim/core/data"
	"dpsim/core/method"
	"dpsim/core/metrics"
	"dpsim/core/objective"
	"dpsim/core/privacy"
	"dpsim/core/runner"
	"dpsim/core/scenario"
	"dpsim/core/sim"
	"dpsim/render/scene"
	"dpsim/ui/datafiles"
	"dpsim/ui/stream"
)

// Heavy scenarios run in a Web Worker (docs/bridge.md, "Heavy scenarios
// in a Worker"). A scenario that trains on a dataset, has a calibration
// over many iterations or carries much data would take the page's thread
// for seconds to build and for more than a frame per iteration; the
// simulator hands it to public/run-worker.js, which runs the same
// dpsim.wasm in worker mode (Serve: the page's build, runner, recorders
// and ghost) and streams each iteration back (package stream). Here the
// steps are animated and recorded as a run of the page's own: the
// picture's model records them, the plot's history and the state come
// from their points, counters and ledger. The page's thread never waits
// on the Worker, and terminating it interrupts at once.

// errPending says that a scenario is being built in a Worker: the call
// succeeded, and the run it asked for replaces the current one when the
// Worker has built it (or says why not).
var errPending = errors.New("building in a background thread")

// RemoteJS is window.dpsimState.remote: what a Worker is doing for the
// page.
type RemoteJS struct {
	// Phase is "" (nothing), "building" (a scenario is being built; the
	// current run stays until it is), "computing" (the run's next
	// iterations are being computed), "stopped" (the user stopped the
	// computation: Play resumes it) or "failed".
	Phase string `js:"phase"`
	// What names the scenario, and Why says why it runs in a Worker.
	What string `js:"what"`
	Why  string `js:"why"`
	// Seconds is how long the current phase has lasted.
	Seconds float64 `js:"seconds"`
	// Iter is how far the Worker has computed; Ahead how many of those
	// iterations the picture has still to show.
	Iter  int `js:"iter"`
	Ahead int `js:"ahead"`
	// Active is true while the page's run is computed in a Worker.
	Active bool `js:"active"`
	// BuildMs is how long the Worker took to build the scenario.
	BuildMs float64 `js:"buildMs"`
	// Workers is how many Workers compute the run's gradients now (the
	// run's and its helpers: ui/farm.go); WorkersNote says why helpers
	// were given up, "" if they were not.
	Workers     int    `js:"workers"`
	WorkersNote string `js:"workersNote"`
}

// remote is one Worker and the run it computes.
type remote struct {
	a        *App
	w        js.Value
	handlers []js.Func
	seq      int
	calls    map[int]func(v js.Value, err error)

	src  *scenario.Scenario // the scenario as loaded (App.scen)
	text []byte             // the scenario the Worker builds (seed and calibration applied)
	why  string
	// prev is the run shown before this one was asked for: a build that
	// fails or is cancelled leaves it (scenario and seed).
	prev struct {
		scen *scenario.Scenario
		seed int64
	}
	phase string
	since time.Time

	head   remoteHead
	model  *scene.Model
	queue  []stream.Item
	series metrics.Series
	ghost  map[int]float64
	sum    remoteSummary
	// iter is the iteration shown; received the last one received.
	iter, received int
	last           stream.Item // the latest item shown, for its counters
	eps            float64
	epsText        string
	end            *stream.End
	busy           bool // an advance in flight
	wantStep       bool // a Step waits for its step
	exporting      *remoteExport
	led            *privacy.Ledger // sum.Ledger decoded, when asked
	// tight is the tight bound shown (tightShown).
	tight      TightView
	counters   *metrics.Counters
	pinnedScen *scenario.Scenario
	// target is an iteration to replay to unseen (restore), 0 for none.
	target int
	// cands are the comparison candidates the Worker built on its
	// scenario (candidates), nil until it has answered; candsAsked says
	// it was asked.
	cands      []scenario.Candidate
	candsAsked bool
}

// candidates returns the comparison candidates the Worker built on its
// scenario, where its data is (WorkerCandidates), asking it the first
// time: ok is false until it has answered. A Worker that could not
// answer gives every algorithm its reason.
func (r *remote) candidates() (cs []scenario.Candidate, ok bool) {
	if r.cands != nil {
		return r.cands, true
	}
	if r.w.IsUndefined() {
		return scenario.Unavailable("the background thread that ran this scenario is gone"), true
	}
	if !r.candsAsked {
		r.candsAsked = true
		r.call("candidates", nil, nil, func(v js.Value, err error) {
			var got []scenario.Candidate
			if err == nil {
				err = json.Unmarshal([]byte(v.String()), &got)
			}
			if err != nil {
				got = scenario.Unavailable("the background thread could not check the algorithms: " + err.Error())
			} else if got == nil {
				// A null answer would leave the card "checking" for good.
				got = scenario.Unavailable("the background thread sent no list of algorithms")
			}
			r.cands = got
		})
	}
	return nil, false
}

// remoteExport is an export asked of the Worker.
type remoteExport struct {
	kind, name, mime string
	bytes            []byte
	err              error
	done             bool
	stream           bool // for exportNext; else downloaded when it comes
	sent             int
	asked            bool // the Worker was asked for it
}

func (a *App) newRemote(s *scenario.Scenario, cp *scenario.Scenario, why string) (*remote, error) {
	r := &remote{a: a, src: s, text: cp.JSON(), why: why, phase: "building", since: time.Now(), ghost: map[int]float64{}}
	return r, r.spawn()
}

// spawn starts r's Worker.
func (r *remote) spawn() error {
	ctor := js.Global().Get("Worker")
	if ctor.IsUndefined() {
		return errors.New("this browser has no Web Workers, which a scenario this heavy needs (" + r.why + ")")
	}
	r.calls, r.seq = map[int]func(js.Value, error){}, 0
	r.w = ctor.New("run-worker.js")
	onMsg := js.FuncOf(func(_ js.Value, args []js.Value) any {
		d := args[0].Get("data")
		id := d.Get("id").Int()
		f := r.calls[id]
		delete(r.calls, id)
		if f == nil {
			return nil
		}
		if d.Get("ok").Bool() {
			f(d.Get("value"), nil)
		} else {
			f(js.Undefined(), errors.New(d.Get("error").String()))
		}
		return nil
	})
	onErr := js.FuncOf(func(_ js.Value, args []js.Value) any {
		msg := "the background thread failed"
		if len(args) > 0 && args[0].Get("message").Truthy() {
			msg += ": " + args[0].Get("message").String()
		}
		for id, f := range r.calls {
			delete(r.calls, id)
			f(js.Undefined(), errors.New(msg))
		}
		return nil
	})
	r.handlers = []js.Func{onMsg, onErr}
	r.w.Set("onmessage", onMsg)
	r.w.Set("onerror", onErr)
	return nil
}

// boot starts the simulator in r's Worker, hands it the dataset files the
// scenario uses and has it build the scenario; done hears the head, or
// why not.
func (r *remote) boot(done func(remoteHead, error)) {
	a := r.a
	failed := false
	fail := func(err error) {
		if !failed {
			failed = true
			done(remoteHead{}, err)
		}
	}
	init := map[string]any{}
	if m := js.Global().Get("dpsimSimModule"); m.Truthy() {
		init["module"] = m // compiled once, by the page
	}
	r.call("init", init, nil, func(_ js.Value, err error) {
		if err != nil {
			fail(err)
		}
	})
	for _, f := range a.needs(r.src).Uses {
		raw := a.data.Raw(f.File)
		if raw == nil {
			continue
		}
		file := f.File
		r.call("provide", map[string]any{"file": file, "bytes": bytesJS(raw)}, nil, func(_ js.Value, err error) {
			if err != nil {
				a.data.Forget(file) // a bad copy: fetched again next time
				fail(err)
			}
		})
	}
	// The user's files the scenario names, each with the sha256 the
	// page read (Load pinned those it named without one): the Worker
	// keeps them as the page does, and the build checks them there.
	for _, f := range scenario.UserFiles(r.src) {
		b, sha, err := data.UserBytes(f.Name, f.SHA256)
		if err != nil {
			fail(err)
			return
		}
		r.call("provideUser", map[string]any{"name": f.Name, "bytes": bytesJS(b), "pin": sha}, nil, func(_ js.Value, err error) {
			if err != nil {
				fail(err)
			}
		})
	}
	r.call("open", map[string]any{"text": string(r.text), "workers": a.workers}, nil, func(v js.Value, err error) {
		if failed {
			return
		}
		var h remoteHead
		if err == nil {
			err = json.Unmarshal([]byte(v.String()), &h)
		}
		if err == nil && h.Error != "" {
			err = errors.New(h.Error)
		}
		if err != nil {
			fail(err)
			return
		}
		done(h, nil)
	})
}

// call posts a request to the Worker; done runs on its answer.
func (r *remote) call(cmd string, fields map[string]any, transfer []any, done func(js.Value, error)) {
	r.seq++
	msg := js.Global().Get("Object").New()
	msg.Set("id", r.seq)
	msg.Set("cmd", cmd)
	for k, v := range fields {
		msg.Set(k, v)
	}
	r.calls[r.seq] = done
	if transfer != nil {
		r.w.Call("postMessage", msg, transfer)
	} else {
		r.w.Call("postMessage", msg)
	}
}

// close terminates the Worker at once and forgets what it owed.
func (r *remote) close() {
	if r == nil || r.w.IsUndefined() {
		return
	}
	r.w.Call("terminate")
	r.w = js.Undefined()
	r.calls = map[int]func(js.Value, error){}
	r.busy = false
	for _, f := range r.handlers {
		f.Release()
	}
	r.handlers = nil
}

// stopRemote ends any run in a Worker and any build under way (a run of
// the page's own is being installed).
func (a *App) stopRemote() {
	a.rem.close()
	a.next.close()
	a.rem, a.next = nil, nil
}

// loadRemote hands cp (s as loaded, with the seed and calibration
// applied) to a new Worker to build. The current run stays on show until
// the Worker has built it; a.scen and a.seed already say the new one, so
// that a seed or a calibration asked for meanwhile applies to it.
func (a *App) loadRemote(s, cp *scenario.Scenario, why string) error {
	if r := a.needs(cp); r.Error != "" {
		return errors.New(r.Error)
	} else if len(r.Need) > 0 {
		return datafiles.Missing(r.Need)
	}
	if err := checkUserFiles(cp); err != nil {
		return err
	}
	r, err := a.newRemote(s, cp, why)
	if err != nil {
		return err
	}
	if a.next != nil {
		r.prev = a.next.prev // what was on show before the first of them
		a.next.close()
	} else {
		r.prev.scen, r.prev.seed = a.scen, a.seed
	}
	a.next = r
	a.scen = s
	if a.seed < 0 && s.Seed != nil {
		a.seed = int64(*s.Seed)
	}
	r.boot(func(h remoteHead, err error) {
		if err != nil {
			r.fail(err)
			return
		}
		r.head = h
		a.installRemote(r)
	})
	a.publish()
	return errPending
}

// fail ends a build that did not succeed: the run on show stays, and
// a.scen and a.seed say it again; the error is shown.
func (r *remote) fail(err error) {
	a := r.a
	if a.next != r {
		return // superseded or cancelled: nothing to say
	}
	r.close()
	a.next = nil
	a.scen, a.seed = r.prev.scen, r.prev.seed
	a.lastErr = err.Error()
	a.publish()
}

// cancelRemote interrupts what a Worker is doing for the page: a build
// under way is dropped (the run on show stays), and the computation of a
// run's next iterations stops (the run stays where it is shown, paused;
// Play computes on from there in a new Worker). It reports what it
// stopped ("" for nothing).
func (a *App) cancelRemote() string {
	if r := a.next; r != nil {
		r.close()
		a.next = nil
		a.scen, a.seed = r.prev.scen, r.prev.seed
		a.lastErr = ""
		a.publish()
		return "build"
	}
	if r := a.rem; r != nil && r.phase != "stopped" && r.end == nil {
		r.close()
		r.phase, r.since = "stopped", time.Now()
		r.queue = nil
		r.received = r.iter
		if a.player != nil {
			a.player.Pause()
		}
		a.fast = false
		a.publish()
		return "run"
	}
	return ""
}

// installRemote makes r's run the page's run.
func (a *App) installRemote(r *remote) {
	snapBytes, err := base64.StdEncoding.DecodeString(r.head.Snapshot)
	var snap scene.Snapshot
	if err == nil {
		err = snap.UnmarshalBinary(snapBytes)
	}
	first, ferr := decodeBatch(r.head.First)
	if err == nil {
		err = ferr
	}
	if err != nil {
		r.fail(fmt.Errorf("the background thread's first frame: %w", err))
		return
	}
	old := a.rem
	a.next = nil
	a.rem = nil
	a.stopRemoteOld(old)
	if a.run != nil || a.built != nil {
		a.built, a.run = nil, nil
	}
	r.phase, r.since = "", time.Now()
	r.model = snap.Model()
	r.model.Hold = false
	r.sum = r.head.Summary
	live := newLiveOf(r.head.Desc, HistoryBuckets)
	r.series.ExtraNames = r.head.Columns
	r.series.Extra = make([]metrics.Floats, len(r.head.Columns))
	// The first batch is iteration 0, recorded as the run starts.
	for _, it := range first.Items {
		r.take(it)
	}
	r.takeGhost(first.Ghost)
	player := scene.NewPlayer(&remoteStepper{r})
	a.fast = false
	player.SetSpeed(a.speed)
	r.model.Slow = a.slow
	a.player, a.live = player, live
	a.rem = r
	a.ghost, a.ghostOf = nil, nil
	a.twin, a.assumptions = nil, nil // the Worker's theory card holds the assumptions
	a.loads++
	a.rate = rateMeter{}
	a.warnings = append(a.warnings[:0], r.head.Warnings...)
	a.lastErr = ""
	a.game.Set(player, r.model)
	a.cmp = nil
	a.player.Pause()
	r.request(2) // the first steps (or a restore's), so that Play and Step start at once
	a.publish()
}

// stopRemoteOld terminates the Worker of a run that is no longer shown.
func (a *App) stopRemoteOld(r *remote) { r.close() }

func decodeBatch(b64 string) (*stream.Batch, error) {
	b, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		return nil, err
	}
	return stream.Decode(b)
}

// take records item it as the run's: its point joins the series, its
// step the picture (when it carries one), its counters and ε the state.
func (r *remote) take(it stream.Item) {
	if p := it.Point; p != nil {
		r.series.Append(*p)
	}
	if it.Step != nil {
		r.model.Record(it.Step)
	}
	if it.HasEpsilon {
		r.eps, r.epsText = it.Epsilon, it.EpsilonText
	}
	r.iter, r.last = it.Iter, it
}

func (r *remote) takeGhost(g []stream.GhostPoint) {
	for _, p := range g {
		r.ghost[p.Iter] = p.Value
	}
}

// remoteStepper plays a remote run: each Advance takes the next received
// iteration, ErrPending while it is being computed.
type remoteStepper struct{ r *remote }

// Advance implements scene.Stepper.
func (s *remoteStepper) Advance() (*sim.Step, error) {
	r := s.r
	if len(r.queue) == 0 {
		if r.end != nil {
			return nil, remoteEnd(r.end)
		}
		r.request(0)
		return nil, scene.ErrPending
	}
	it := r.queue[0]
	r.queue = r.queue[1:]
	r.take(it)
	if it.Step == nil {
		// Left out of a fast-forward batch: nothing to draw of it.
		return &sim.Step{Iter: it.Iter}, nil
	}
	return it.Step, nil
}

// remoteEnd is the error a run's end gives the player (runner.ErrDone
// for a run that completed or stopped).
func remoteEnd(e *stream.End) error {
	if e.Status == "done" || e.Status == "stopped" {
		return runner.ErrDone
	}
	return errors.New(e.Reason)
}

// RemoteAhead is how many seconds of play a remote run keeps computed
// ahead of what the picture shows, at the chosen speed.
const RemoteAhead = 0.5

// request asks the Worker for more iterations, unless one is on its
// way: at least min, else what the speed plays in RemoteAhead seconds
// beyond those waiting; in fast-forward, as many as fit in 100 ms and
// only the last one's step.
func (r *remote) request(min int) {
	a := r.a
	if r.phase == "stopped" {
		r.resume() // Play or Step after Stop: compute on, in a new Worker
		return
	}
	if r.busy || r.w.IsUndefined() || r.end != nil || r.exporting != nil {
		return
	}
	fast := a.player != nil && a.fast && a.player.Running()
	n := min
	if r.target > r.received {
		fast, n = true, r.target-r.received
	}
	if fast {
		n = 1 << 30
	} else if a.player != nil && a.player.Running() {
		rate := a.speed
		if a.slow {
			rate = 1 / math.Max(a.player.Slow(), 0.1)
		}
		n = max(n, int(math.Ceil(rate*RemoteAhead))+1-len(r.queue))
	}
	if n <= 0 {
		return
	}
	r.busy = true
	r.phase, r.since = "computing", time.Now()
	budget := 40 // ms: a frame or two of play
	if fast {
		budget = 100 // fast-forward: fewer round trips
	}
	r.call("advance", map[string]any{"n": n, "budget": budget, "fast": fast}, nil, func(v js.Value, err error) {
		r.busy = false
		if err == nil && v.Get("error").Truthy() {
			err = errors.New(v.Get("error").String())
		}
		var b *stream.Batch
		if err == nil {
			u8 := v.Get("batch")
			raw := make([]byte, u8.Get("length").Int())
			js.CopyBytesToGo(raw, u8)
			b, err = stream.Decode(raw)
		}
		if err == nil {
			err = json.Unmarshal([]byte(v.Get("summary").String()), &r.sum)
			r.led, r.counters = nil, nil
		}
		if err != nil {
			r.end = &stream.End{Status: "failed", Reason: "the background thread failed: " + err.Error()}
			r.phase = "failed"
			a.publish()
			return
		}
		r.phase = ""
		for _, it := range b.Items {
			if it.Iter > r.received {
				r.queue = append(r.queue, it)
				r.received = it.Iter
			}
		}
		r.takeGhost(b.Ghost)
		if b.End != nil {
			r.end = b.End
		}
		if r.target > 0 {
			// A restore: shown at once, up to its iteration.
			for len(r.queue) > 0 && r.queue[0].Iter <= r.target {
				r.take(r.queue[0])
				r.queue = r.queue[1:]
			}
			if r.iter >= r.target || r.end != nil {
				r.target = 0
			} else {
				r.request(0)
			}
			a.publish()
		}
		if r.exportWaiting() {
			return
		}
		if r.wantStep && len(r.queue) > 0 {
			r.wantStep = false
			a.player.StepOnce()
			a.publish()
		}
		if a.player.Running() {
			r.request(0) // keep the Worker busy: the next batch is computed while this one plays
		}
	})
}

// remoteFrame keeps a remote run computed ahead of the picture (from
// each frame, as compareFrame catches a comparison up).
func (a *App) remoteFrame() {
	if r := a.rem; r != nil && a.player != nil && a.player.Running() {
		r.request(0)
	}
}

// step is the Step button on a remote run: the next received iteration
// at once, or as soon as it comes.
func (r *remote) step() {
	a := r.a
	if len(r.queue) > 0 || r.end != nil {
		a.player.StepOnce()
		return
	}
	a.player.Pause()
	r.wantStep = true
	r.request(1)
}

// resume computes a stopped run on in a new Worker: it builds the
// scenario again and runs it, unseen, to the iteration shown (the same
// seeds: the same trajectory), then goes on.
func (r *remote) resume() {
	a := r.a
	if err := r.spawn(); err != nil {
		a.lastErr = err.Error()
		return
	}
	r.phase, r.since, r.busy = "building", time.Now(), true
	r.boot(func(_ remoteHead, err error) {
		if err != nil {
			r.busy = false
			r.end = &stream.End{Status: "failed", Reason: "the background thread failed again: " + err.Error()}
			r.phase = "failed"
			a.publish()
			return
		}
		// Run unseen to the iteration shown; what follows is new.
		r.call("advance", map[string]any{"n": r.iter, "budget": 1e9, "fast": true}, nil, func(js.Value, error) {
			r.busy = false
			r.phase = ""
			r.request(0)
		})
	})
}

// ended reports whether the picture shows the run's end.
func (r *remote) ended() bool { return r.end != nil && len(r.queue) == 0 && r.iter >= r.received }

// err is the run's error once shown: it diverged or the Worker failed.
func (r *remote) err() error {
	if r.ended() && (r.end.Status == "diverged" || r.end.Status == "failed") {
		return errors.New(r.end.Reason)
	}
	return nil
}

// status is a remote run's status for the page, as Status is a local
// run's (with how its headline error ended, from l).
func (r *remote) status(running bool, l *Live) (string, string) {
	if r.ended() {
		switch r.end.Status {
		case "failed":
			return "diverged", r.end.Reason
		case "diverged", "stopped":
			return r.end.Status, r.end.Reason
		}
		if o, why := l.Outcome(&r.series); o != "" {
			return o, why
		}
		return "done", ""
	}
	switch {
	case running:
		return "running", ""
	case r.iter == 0:
		return "ready", ""
	}
	return "paused", ""
}

// remoteState says what the Worker does, for dpsimState.remote.
func (a *App) remoteState() RemoteJS {
	var js RemoteJS
	r := a.next
	if r == nil {
		r = a.rem
	}
	if r == nil {
		return js
	}
	js.What, js.Why, js.Active = r.src.Title, r.why, a.rem != nil
	if js.What == "" {
		js.What = r.src.Name
	}
	js.Phase = r.phase
	if a.next != nil {
		js.Phase = "building"
	}
	if js.Phase != "" {
		js.Seconds = time.Since(r.since).Seconds()
	}
	if a.rem != nil {
		js.Iter, js.Ahead, js.BuildMs = a.rem.received, len(a.rem.queue), a.rem.head.BuildMs
		js.Workers, js.WorkersNote = max(a.rem.sum.Workers, 1), a.rem.sum.WorkersNote
	}
	return js
}

// publishRemote fills the state of a remote run (the local run's part of
// publish).
func (a *App) publishRemote(st *State) {
	r := a.rem
	h := &r.head
	st.Scenario, st.Title, st.Algorithm = h.Name, h.Title, h.Algorithm
	st.Description, st.Loads = h.Description, a.loads
	st.Iterations = h.Iterations
	st.Nodes, st.Links = h.Nodes, h.Links
	st.Iter = r.iter
	a.live.Feed(&r.series)
	st.HistoryRev = a.histRev()
	st.Rate = a.rate.update(st.Iter)
	last := metrics.Point{Optimality: math.NaN(), Consensus: math.NaN(), Objective: math.NaN()}
	if n := r.series.Len(); n > 0 {
		last = r.series.At(n - 1)
	}
	st.Optimality, st.Consensus = last.Optimality, last.Consensus
	st.Stationarity = a.live.Stationarity(last)
	st.Headline, st.HeadlineLabel = a.live.Headline()
	st.ConsensusLabel, st.MetricNote = a.live.Desc.Consensus, a.live.Desc.Note
	st.Messages, st.Activations = float64(r.last.Messages), float64(r.last.Activations)
	st.Epsilon, st.EpsilonText = r.eps, r.epsText
	st.EpsilonKind, st.EpsilonReason, st.EpsilonSource, st.EpsilonNote = r.sum.EpsilonKind, r.sum.Reason, r.sum.Source, r.sum.Note
	st.Delta, st.EpsilonFree = r.sum.Delta, h.EpsilonFree
	// The tight bound, from the Worker's ledger: never the one a run
	// built here before left in the state.
	st.setTight(r.tightShown())
	st.Running = a.player.Running()
	st.Slow, st.SlowSeconds = a.slow, a.player.Slow()
	a.modelState(st)
	st.Reading = h.Reading
	st.AlgorithmKind, st.ProblemKind = h.AlgorithmKind, h.ProblemKind
	if af, pf := factoryNamed(h.AlgorithmKind), problemNamed(h.ProblemKind); af != nil && pf != nil {
		k := keyOf(af, pf, h.Nodes, h.Dim, a.game.Model(), a.game.Frame())
		st.Legend, st.PictureWhere, st.Panels = k.Text, k.Where, k.Panels
	}
	start, _ := a.live.Ends(&r.series)
	st.HeadlineStart, st.RoundingFloor = start, start*RoundingShare
	status, why := r.status(st.Running, a.live)
	a.endState(st, &r.series, status, why, r.err(), r.ended())
	st.GhostIter = r.sum.GhostIter
	if a.noiseFor != a.loads && h.Noisy {
		st.NoiseWarning = ""
		it, own, g := a.live.noiseAt(&r.series, r.sum.GhostIter, r.ghostAt1)
		if w := NoiseWarning(st.Headline, it, own, g, st.RoundingFloor); w != "" {
			st.NoiseWarning, a.noiseFor = w, a.loads // said once per build
		}
	}
}

// ghostAt1 is the ghost's headline metric at iteration it, NaN where the
// Worker's ghost has not recorded one.
func (r *remote) ghostAt1(it float64) float64 {
	if v, ok := r.ghost[int(it)]; ok {
		return v
	}
	return math.NaN()
}

// theory is the remote run's theory card (as the Worker last sent it)
// with how the run shown ended: the Worker runs ahead of the picture.
func (r *remote) theory(outcome, text string) string {
	var v map[string]json.RawMessage
	if json.Unmarshal(r.sum.Theory, &v) != nil {
		return string(r.sum.Theory)
	}
	delete(v, "outcome")
	delete(v, "outcome_text")
	if outcome != "" {
		v["outcome"], _ = json.Marshal(outcome)
		v["outcome_text"], _ = json.Marshal(text)
	}
	out, err := json.Marshal(v)
	if err != nil {
		return string(r.sum.Theory)
	}
	return string(out)
}

// ledger returns the remote run's ledger and counters as of its latest
// summary, decoded once.
func (r *remote) ledger() (privacy.Ledger, *metrics.Counters) {
	if r.led == nil {
		var led privacy.Ledger
		_ = json.Unmarshal(r.sum.Ledger, &led)
		r.led = &led
	}
	if r.counters == nil {
		var c metrics.Counters
		_ = json.Unmarshal(r.sum.Counters, &c)
		r.counters = &c
	}
	return *r.led, r.counters
}

// tightShown is the tight bound the page shows: the Worker's latest one
// when it is for an iteration shown already, else the last such one. The
// Worker runs ahead of the animation, and its bound for a later iteration
// beside the paper's ε of the one shown read above it (1.9·10⁶ tight
// beside 349239 at iteration 3 of gtdp-logistic-mushrooms: the bound of
// iteration 5).
func (r *remote) tightShown() TightView {
	led, _ := r.ledger()
	if tv := tightOf(led); tv.Iter <= r.iter {
		r.tight = tv
	} else if r.tight.Iter > r.iter {
		r.tight = TightView{} // shown back at an earlier iteration
	}
	return r.tight
}

// ghostAt is the ghost's headline metric at the history's iterations it
// (NaN where the Worker's ghost has not got yet), nil without noise.
func (r *remote) ghostAt(it []float64) []float64 {
	if !r.head.Noisy {
		return nil
	}
	g := make([]float64, len(it))
	for i, k := range it {
		v, ok := r.ghost[int(k)]
		if !ok {
			v = math.NaN()
		}
		g[i] = v
	}
	return g
}

// exportWaiting starts an export asked for once the Worker has answered
// the advance in flight: the picture first shows every iteration
// received, so that the export is of the run as shown. It reports
// whether an export waits.
func (r *remote) exportWaiting() bool {
	x := r.exporting
	if x == nil {
		return false
	}
	if r.busy || x.asked {
		return true
	}
	x.asked = true
	for len(r.queue) > 0 {
		it := r.queue[0]
		r.queue = r.queue[1:]
		r.take(it)
	}
	r.call("export", map[string]any{"kind": x.kind}, nil, func(v js.Value, err error) {
		if err == nil && v.Get("error").Truthy() {
			err = errors.New(v.Get("error").String())
		}
		if err == nil {
			u8 := v.Get("bytes")
			x.bytes = make([]byte, u8.Get("length").Int())
			js.CopyBytesToGo(x.bytes, u8)
			x.name, x.mime = v.Get("name").String(), v.Get("mime").String()
		}
		x.err, x.done = err, true
		r.exporting = nil
		if !x.stream {
			if err != nil {
				r.a.lastErr = "export: " + err.Error()
			} else {
				download(x.name, x.mime, x.bytes)
			}
			r.a.publish()
		}
	})
	return true
}

// export asks the Worker for the run's export as shown (kind "json" or
// "csv"); the page streams or downloads it when it comes.
func (r *remote) export(kind string, streamed bool) (*remoteExport, error) {
	if kind != "json" && kind != "csv" {
		return nil, errors.New(`export: the kind must be "json" or "csv" (got "` + kind + `")`)
	}
	if r.w.IsUndefined() {
		return nil, errors.New("export: the run's background thread was stopped; press Play or Step to compute on, then export")
	}
	x := &remoteExport{kind: kind, stream: streamed}
	x.name, x.mime = r.head.Name+"-run.json", "application/json"
	if kind == "csv" {
		x.name, x.mime = r.head.Name+"-metrics.csv", "text/csv"
	}
	r.a.player.Pause()
	r.exporting = x
	r.exportWaiting()
	return x, nil
}

// series is the recorded metrics of the run shown: the page's own run's,
// or a remote run's as received.
func (a *App) series() *metrics.Series {
	if a.rem != nil {
		return &a.rem.series
	}
	if a.run != nil {
		return &a.run.Metrics.Series
	}
	return nil
}

// privacyNow is the ledger, what its ε means and the counters of the run
// shown, for the inspector and the badges.
func (a *App) privacyNow() (privacy.Ledger, string, *metrics.Counters) {
	if r := a.rem; r != nil {
		led, c := r.ledger()
		return led, r.sum.EpsilonKind, c
	}
	led := a.ledger()
	return led, epsilonKind(a.built, led), a.run.Counters()
}

// registerRemote adds dpsim.remoteCancel(): interrupt what a Worker is
// doing for the page (the page's Cancel and Escape); it returns "build",
// "run" or "" for what it stopped.
func (a *App) registerRemote(fn func(string, func([]js.Value) any)) {
	fn("remoteCancel", func([]js.Value) any { return a.cancelRemote() })
}

// pinned is the remote run's scenario as built (pinned), parsed once.
func (r *remote) pinned() *scenario.Scenario {
	if r.pinnedScen == nil {
		s, err := scenario.Parse(r.head.Scenario)
		if err != nil {
			s = r.src
		}
		r.pinnedScen = s
	}
	return r.pinnedScen
}

// restore replays the run, unseen and paused, to iteration k (a reload
// coming back to where it was): the Worker computes it, and the picture
// shows iteration k when it comes. It reports k (or the last iteration).
func (r *remote) restore(k int) restored {
	a := r.a
	a.player.Pause()
	k = min(k, r.head.Iterations)
	if k > r.iter {
		r.target = k
		for len(r.queue) > 0 && r.queue[0].Iter <= k {
			r.take(r.queue[0])
			r.queue = r.queue[1:]
		}
		r.request(0)
	}
	a.publish()
	return restored{Iter: k}
}

// next is exportNext for a remote export: an empty chunk until the
// Worker's bytes are here, then chunks of ExportChunk; finished runs
// when it is done.
func (x *remoteExport) next(o js.Value, finished func()) js.Value {
	switch {
	case x.done && x.err != nil:
		finished()
		o.Set("done", true)
		o.Set("error", "export: "+x.err.Error())
		return o
	case x.done && x.sent >= len(x.bytes):
		finished()
		o.Set("done", true)
		return o
	}
	var chunk []byte
	if x.done {
		chunk = x.bytes[x.sent:min(len(x.bytes), x.sent+ExportChunk)]
		x.sent += len(chunk)
	}
	o.Set("bytes", bytesJS(chunk))
	o.Set("done", false)
	o.Set("written", float64(x.sent))
	p := -1.0
	if x.done && len(x.bytes) > 0 {
		p = float64(x.sent) / float64(len(x.bytes))
	}
	o.Set("progress", p)
	return o
}

// factoryNamed and problemNamed are the registered plug-ins of those
// names (nil for none): what a Worker's run is, for its words.
func factoryNamed(name string) *method.Factory {
	for _, f := range scenario.Factories() {
		if f.Name == name {
			return f
		}
	}
	return nil
}

func problemNamed(name string) *objective.Factory {
	for _, f := range scenario.Problems() {
		if f.Name == name {
			return f
		}
	}
	return nil
}
