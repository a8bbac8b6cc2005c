//go:build js && wasm

package ui

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"syscall/js"
	"time"

	"dpsim/core/jsonout"
	"dpsim/core/method"
	"dpsim/core/metrics"
	"dpsim/core/pool"
	"dpsim/core/runner"
	"dpsim/core/scenario"
	"dpsim/core/sim"
	"dpsim/render/scene"
	"dpsim/render/sceneof"
	"dpsim/ui/datafiles"
	"dpsim/ui/stream"
)

// Serve is the simulator in a Web Worker (public/run-worker.js): it
// builds and runs a heavy scenario for the page's simulator, which
// animates it (ui/remote.go; docs/bridge.md, "Heavy scenarios in a
// Worker"). It registers self.dpsimRemote and serves its calls until the
// page terminates the worker. The run is the page's own: the same build
// (scenario.BuildFor for the page), runner, recorders and noise-free
// ghost as App.install, so its exports are the CLI's bytes.
func Serve() {
	w := &worker{}
	var h helper // what this Worker holds as a helper of another (ui/farm.go)
	api := js.Global().Get("Object").New()
	fn := func(name string, f func(args []js.Value) any) {
		api.Set(name, js.FuncOf(func(_ js.Value, args []js.Value) (out any) {
			defer func() {
				if r := recover(); r != nil {
					out = fmt.Sprintf(`{"error":%q}`, fmt.Sprintf("internal error in the worker's %s: %v", name, r))
				}
			}()
			return f(args)
		}))
	}
	fn("provideData", func(args []js.Value) any { return w.data.ProvideJS(args) })
	fn("provideUserFile", func(args []js.Value) any { return datafiles.ProvideUserJS(args) })
	fn("open", func(args []js.Value) any {
		if len(args) == 0 || args[0].Type() != js.TypeString {
			return `{"error":"open needs the scenario's JSON text"}`
		}
		workers, cores := 1, 1
		if len(args) > 2 && args[1].Type() == js.TypeNumber && args[2].Type() == js.TypeNumber {
			workers, cores = args[1].Int(), args[2].Int()
		}
		return w.open([]byte(args[0].String()), workers, cores)
	})
	fn("farmOpen", func(args []js.Value) any {
		if len(args) == 0 || args[0].Type() != js.TypeString {
			return "farmOpen needs the scenario's JSON text"
		}
		return farmOpen(&w.data, &h, args[0].String())
	})
	fn("farmGrads", func(args []js.Value) any { return farmGrads(&h, args) })
	fn("farmReady", func(args []js.Value) any {
		if w.farm != nil && len(args) > 0 {
			w.farm.ready(args[0].String())
		}
		return nil
	})
	fn("farmReply", func(args []js.Value) any {
		if w.farm != nil {
			w.farm.reply(args)
		}
		return nil
	})
	fn("advance", func(args []js.Value) any {
		n, budget, fast := 1, 50*time.Millisecond, false
		if len(args) > 0 && args[0].Type() == js.TypeNumber {
			n = max(args[0].Int(), 0)
		}
		if len(args) > 1 && args[1].Type() == js.TypeNumber {
			budget = time.Duration(args[1].Float() * float64(time.Millisecond))
		}
		if len(args) > 2 && args[2].Type() == js.TypeBoolean {
			fast = args[2].Bool()
		}
		// In a goroutine of its own, answered by a Promise: the run may
		// wait there for its helper Workers' gradients.
		return promise("advance", func() any { return w.advance(n, budget, fast) })
	})
	// The comparison card's candidates on this run's scenario, built
	// here, where its data is (CompareCandidatesOn).
	fn("candidates", func([]js.Value) any {
		cs := scenario.Unavailable("the background thread runs no scenario")
		if w.b != nil {
			cs = WorkerCandidates(w.b.Scenario.JSON())
		}
		out, err := jsonout.Marshal(cs)
		if err != nil {
			return "[]"
		}
		return string(out)
	})
	fn("exportBytes", func(args []js.Value) any {
		o := js.Global().Get("Object").New()
		kind := ""
		if len(args) > 0 && args[0].Type() == js.TypeString {
			kind = args[0].String()
		}
		name, mime, write, err := exportOf(w.b, w.run, kind, nil)
		var buf bytes.Buffer
		if err == nil {
			err = write(&buf)
		}
		if err != nil {
			o.Set("error", err.Error())
			return o
		}
		o.Set("name", name)
		o.Set("mime", mime)
		o.Set("bytes", bytesJS(buf.Bytes()))
		return o
	})
	js.Global().Set("dpsimRemote", api)
	select {}
}

// worker is the run a worker computes.
type worker struct {
	data  datafiles.Provided
	b     *scenario.Built
	run   *runner.Runner
	enc   *encoder
	ghost *Ghost
	// ghostOf is the scenario whose ghost is built after the first batch
	// (as on the page: the first step does not wait for it).
	ghostOf   *scenario.Scenario
	ghostSent int // ghost points sent
	live      *Live
	// assumptions are the run's verdicts on its algorithm's assumptions.
	assumptions []method.Checked
	// summarised is when the last summary (ledger, counters, theory) was
	// sent.
	summarised time.Time
	// farm is the run's helper Workers (nil: the run is computed here
	// alone; ui/farm.go).
	farm *jsFarm
}

// encoder records each step of the run into the batch being filled.
type encoder struct {
	run   *runner.Runner
	items []stream.Item
	// fast keeps only the batch's last step (its points all travel).
	fast bool
	// points is how many metrics points have gone into items.
	points int
}

// Record implements sim.Recorder: it runs after the runner's metrics
// and ledger have recorded the step, so its point and ε are current.
func (e *encoder) Record(s *sim.Step) {
	it := stream.Item{Iter: s.Iter, Step: cloneStep(s)}
	ser := &e.run.Metrics.Series
	if ser.Len() > e.points {
		p := ser.At(ser.Len() - 1)
		it.Point = &p
		e.points = ser.Len()
	}
	c := e.run.Counters()
	_, most := c.MaxActivations()
	it.Messages, it.Activations = c.Messages, most
	if e.fast && len(e.items) > 0 {
		// Only the last step travels in fast-forward: drop the previous
		// one's vectors, keep its point and counters.
		e.items[len(e.items)-1].Step = nil
	}
	e.items = append(e.items, it)
}

// cloneStep copies s: an algorithm reuses its buffers from one step to
// the next.
func cloneStep(s *sim.Step) *sim.Step {
	c := *s
	c.Estimates = cloneFloats(s.Estimates)
	c.Prices = cloneFloats(s.Prices)
	c.Output = cloneFloats(s.Output)
	if s.Active != nil {
		c.Active = append([]int{}, s.Active...)
	}
	c.Releases = make([]sim.Release, len(s.Releases))
	for i, r := range s.Releases {
		r.Sent, r.Noise, r.Factor = cloneFloats(r.Sent), cloneFloats(r.Noise), cloneFloats(r.Factor)
		if r.To != nil {
			r.To = append([]int{}, r.To...)
		}
		c.Releases[i] = r
	}
	return &c
}

func cloneFloats(v []float64) []float64 {
	if v == nil {
		return nil
	}
	return append([]float64{}, v...)
}

// remoteHead is what open returns: the run's description, its first
// frame and its first batch.
type remoteHead struct {
	Error    string   `json:"error,omitempty"`
	Warnings []string `json:"warnings"`
	// Scenario is the built scenario as pinned JSON (dpsim.scenario()).
	Scenario    json.RawMessage `json:"scenario"`
	Name        string          `json:"name"`
	Title       string          `json:"title"`
	Description string          `json:"description"`
	Algorithm   string          `json:"algorithm"`
	Iterations  int             `json:"iterations"`
	Nodes       int             `json:"nodes"`
	Links       int             `json:"links"`
	// Snapshot is the first frame's scene.Snapshot (base64), from which
	// the page's model starts.
	Snapshot string `json:"snapshot"`
	// Desc says what the metrics are (metrics.Describe); Columns names the
	// recorded points' extra values (metrics.Series.ExtraNames).
	Desc    metrics.Description `json:"desc"`
	Columns []string            `json:"columns"`
	Reading string              `json:"reading"`
	Noisy   bool                `json:"noisy"`
	// AlgorithmKind and ProblemKind name the plug-ins (their words: the
	// legend); Dim is the problem's dimension; EpsilonFree what the
	// algorithm's words say of its first messages.
	AlgorithmKind string `json:"algorithm_kind"`
	ProblemKind   string `json:"problem_kind"`
	Dim           int    `json:"dim"`
	EpsilonFree   string `json:"epsilon_free"`
	// First is the first batch (iteration 0), base64.
	First   string        `json:"first"`
	Summary remoteSummary `json:"summary"`
	// BuildMs is how long the build took in the worker.
	BuildMs float64 `json:"build_ms"`
	// Range is what the privacy slider spans (RangeOf the built scenario).
	Range json.RawMessage `json:"range"`
}

// remoteSummary is what the page reads of the run beyond its steps, as
// of the batch's last iteration.
type remoteSummary struct {
	Ledger      json.RawMessage `json:"ledger,omitempty"`
	Counters    json.RawMessage `json:"counters,omitempty"`
	Theory      json.RawMessage `json:"theory,omitempty"`
	EpsilonKind string          `json:"epsilon_kind"`
	Reason      string          `json:"epsilon_reason"`
	Source      string          `json:"epsilon_source"`
	Note        string          `json:"epsilon_note"`
	GhostIter   int             `json:"ghost_iter"`
	// Delta is the ledger's largest δ (0 for pure ε-DP).
	Delta float64 `json:"delta"`
	// Workers is how many Workers compute the run's gradients now;
	// WorkersNote says why a farm of helpers was given up ("" if not).
	Workers     int    `json:"workers"`
	WorkersNote string `json:"workers_note,omitempty"`
}

// open builds the scenario text and starts its run, on the given number
// of workers (pool.Auto: the machine's cores, once an iteration is long
// enough to gain; 1: this Worker alone) with cores the machine's.
func (w *worker) open(text []byte, workers, cores int) string {
	fail := func(err error) string {
		out, _ := json.Marshal(remoteHead{Error: err.Error(), Warnings: []string{}})
		return string(out)
	}
	if w.b != nil {
		return fail(errors.New("this worker already runs a scenario"))
	}
	t0 := time.Now()
	s, err := scenario.Parse(text)
	if err != nil {
		return fail(err)
	}
	if r := w.data.Report(s); r.Error != "" {
		return fail(errors.New(r.Error))
	} else if len(r.Need) > 0 {
		return fail(datafiles.Missing(r.Need))
	}
	b, err := scenario.BuildFor(s, scenario.Page)
	if err != nil {
		return fail(err)
	}
	w.b = b
	w.enc = &encoder{}
	w.run = newRun(b, w.enc)
	w.enc.run = w.run
	w.run.Start()
	if workers != 1 && pool.Check(workers) == nil {
		if size := farmSize(workers, cores, b.Env.Problem.Agents()); size >= 2 {
			w.farm = newFarm(size, b.Env.Problem)
			b.Env.Pool.Set(workers)
			b.Env.Pool.SetFarm(w.farm)
		}
	}
	w.live = NewLive(b, 1)
	w.assumptions = b.Assumptions()
	w.ghostOf = b.Scenario
	// The first frame: the model of the run's initial step, without its
	// messages (a snapshot holds none; they travel in the first batch).
	model := newModel(b)
	first := w.enc.items
	if len(first) > 0 && first[0].Step != nil {
		st := *first[0].Step
		st.Releases = nil
		model.Record(&st)
		if len(first[0].Step.Releases) == 0 {
			first[0].Step = nil // the snapshot holds it
		}
	}
	h := remoteHead{Warnings: []string{}, Name: b.Scenario.Name, Title: b.Scenario.Title, Description: b.Scenario.Description,
		Algorithm: b.Factory.Title, Iterations: b.Scenario.Iterations, Nodes: b.Env.Graph.N, Links: b.Env.Graph.Links(),
		Desc: metrics.Describe(b.Env.Problem, b.Factory.Output != ""), Reading: readingText(b), Noisy: Noisy(b.Scenario),
		AlgorithmKind: b.Factory.Name, ProblemKind: b.ProblemFactory.Name, Dim: b.Env.Problem.Dim(), EpsilonFree: b.Factory.Words.FreeMessages}
	for _, wn := range b.Warnings {
		h.Warnings = append(h.Warnings, wn.String())
	}
	h.Scenario = json.RawMessage(b.Scenario.JSON())
	h.Columns = append([]string{}, w.run.Metrics.Series.ExtraNames...)
	h.Range, _ = json.Marshal(RangeOf(b))
	snap, err := scene.SnapshotOf(model)
	if err != nil {
		return fail(fmt.Errorf("the first frame: %w", err))
	}
	sb, err := snap.MarshalBinary()
	if err != nil {
		return fail(err)
	}
	h.Snapshot = base64.StdEncoding.EncodeToString(sb)
	h.First = base64.StdEncoding.EncodeToString(w.batch(nil))
	h.Summary = w.summary()
	h.BuildMs = float64(time.Since(t0).Microseconds()) / 1000
	out, err := json.Marshal(h)
	if err != nil {
		return fail(err)
	}
	return string(out)
}

// newRun is the page's run of b, not started: the runner with the
// recorders given, ε per agent kept for the CSV (App.install; the
// worker).
func newRun(b *scenario.Built, recs ...sim.Recorder) *runner.Runner {
	run := runner.New(b, recs...)
	run.TrackEpsilon() // the CSV export's ε per agent (ui/export.go)
	// The tight bound beside the paper's (ui/tight.go), where its
	// releases fit the page's memory with the run.
	_, off := b.KeepTight(b.Estimate(scenario.Page), scenario.Page)
	run.TrackTightUnless(off)
	return run
}

// newModel is the picture's model of b's network and panels.
func newModel(b *scenario.Built) *scene.Model {
	model := scene.NewModel(b.Env.Graph, sceneof.Plane(b.Env.Problem))
	model.SetAllocation(sceneof.Allocation(b.Env.Problem))
	return model
}

// advance runs up to n iterations within budget (at least one), and
// returns their batch and the summary.
func (w *worker) advance(n int, budget time.Duration, fast bool) js.Value {
	o := js.Global().Get("Object").New()
	if w.run == nil {
		o.Set("error", "no scenario is open")
		return o
	}
	if w.ghostOf != nil {
		// After the first batch, as the page builds its ghost when the
		// run first advances.
		w.ghost, w.ghostOf = NewGhost(w.ghostOf), nil
	}
	w.enc.fast = fast
	if w.farm != nil {
		w.farm.async = true
		defer func() { w.farm.async = false }()
	}
	start := time.Now()
	var end *stream.End
	for ran := 0; ran < n; ran++ {
		if ran > 0 && time.Since(start) >= budget {
			break
		}
		if _, err := w.run.Advance(); err != nil {
			break
		}
	}
	switch {
	case w.run.Err() != nil:
		end = &stream.End{Status: "diverged", Reason: w.run.Err().Error()}
	case w.run.Stopped() != "":
		end = &stream.End{Status: "stopped", Reason: w.run.Stopped()}
	case w.run.Done():
		end = &stream.End{Status: "done"}
	}
	if !fast {
		w.ghost.CatchUp(w.run.Iter(), 3*time.Millisecond)
	}
	o.Set("batch", bytesJS(w.batch(end)))
	sum := w.summary()
	out, _ := json.Marshal(sum)
	o.Set("summary", string(out))
	o.Set("iter", w.run.Iter())
	return o
}

// batch encodes the items recorded since the last batch, with ε on the
// last, the ghost's new points and the end.
func (w *worker) batch(end *stream.End) []byte {
	items := w.enc.items
	w.enc.items = nil
	if len(items) > 0 {
		led := w.run.LedgerWithin(runner.LiveTightEvery)
		last := &items[len(items)-1]
		last.HasEpsilon, last.Epsilon, last.EpsilonText = true, led.Max.Value(), led.Max.String()
	}
	b := &stream.Batch{Items: items, End: end}
	if w.ghost != nil {
		s := &w.ghost.run.Metrics.Series
		w.ghost.live.bind(s)
		stat := w.live.Desc.Stationarity != ""
		for ; w.ghostSent < s.Len(); w.ghostSent++ {
			p := s.At(w.ghostSent)
			v := p.Optimality
			if stat {
				v = w.ghost.live.Stationarity(p)
			}
			b.Ghost = append(b.Ghost, stream.GhostPoint{Iter: p.Iter, Value: v})
		}
	}
	return stream.Encode(b)
}

// summary is the ledger, counters and theory as of now, at most four
// times a second (they are the slow part: a ledger of every agent).
func (w *worker) summary() remoteSummary {
	led := w.run.LedgerWithin(runner.LiveTightEvery)
	s := remoteSummary{EpsilonKind: epsilonKind(w.b, led), Source: led.Source, GhostIter: w.ghost.Iter(), Delta: maxDelta(led)}
	s.Workers, s.WorkersNote = w.farm.inUse(w.b.Env.Pool)
	if led.Max.NoGuarantee() {
		s.Reason = ledgerReason(led)
	}
	if sm, ok := w.b.Accountant.(interface{ Summary() string }); ok {
		s.Note = sm.Summary()
	}
	ended := w.run.Done() || w.run.Err() != nil
	if time.Since(w.summarised) < 250*time.Millisecond && !ended {
		return s
	}
	w.summarised = time.Now()
	s.Ledger, _ = json.Marshal(led)
	s.Counters, _ = json.Marshal(w.run.Counters())
	s.Theory, _ = json.Marshal(theoryOf(w.b, w.run, w.assumptions, "", ""))
	return s
}

// bytesJS copies b into a new Uint8Array.
func bytesJS(b []byte) js.Value {
	u8 := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(u8, b)
	return u8
}
