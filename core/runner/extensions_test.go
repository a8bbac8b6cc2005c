package runner_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"dpsim/core/check"
	"dpsim/core/metrics"
	"dpsim/core/runner"
	"dpsim/core/runner/runnertest"
	"dpsim/core/scenario"
	"dpsim/core/sim"
	"dpsim/render/scene"
)

// stepLog is a recorder that keeps, per step, the senders, channels and
// rounds of its releases, and its active agents.
type stepLog struct {
	iters     []int
	from      [][]int
	rounds    [][]int
	chans     [][]string
	active    [][]int
	msgRounds [][]int // Step.Messages' rounds, in order
}

func (l *stepLog) Record(s *sim.Step) {
	l.iters = append(l.iters, s.Iter)
	var from, rounds []int
	var chans []string
	for _, r := range s.Releases {
		from, rounds, chans = append(from, r.From), append(rounds, r.Round), append(chans, r.Channel)
	}
	var mf []int
	for m := range s.Messages() {
		mf = append(mf, m.Round)
	}
	l.from, l.rounds, l.chans = append(l.from, from), append(l.rounds, rounds), append(l.chans, chans)
	l.active = append(l.active, slices.Clone(s.Active))
	l.msgRounds = append(l.msgRounds, mf)
}

// exportDoc writes r's export and decodes it generically.
func exportDoc(t *testing.T, r *runner.Runner) (raw []byte, doc map[string]any) {
	t.Helper()
	var buf bytes.Buffer
	if err := r.WriteExport(&buf); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), doc
}

// Only the baton's holder computes and speaks; the runner counts every
// agent's activations, the releases and the messages, and the metrics
// measure the shared estimate.
func TestBatonOnlyHolderSpeaks(t *testing.T) {
	register(t)
	const n, iters = 4, 10
	b := toyScenario(t, "toy-baton", n, iters, `{"dim": 2}`, "")
	log := &stepLog{}
	r := runner.New(b, log)
	if err := r.Run(); err != nil {
		t.Fatal(err)
	}
	for k, it := range log.iters {
		if it == 0 {
			if len(log.from[k]) != 0 {
				t.Fatalf("initial step releases %v", log.from[k])
			}
			continue
		}
		h := (it - 1) % n
		if !slices.Equal(log.active[k], []int{h}) || !slices.Equal(log.from[k], []int{h}) {
			t.Fatalf("iteration %d: active %v, senders %v; want only holder %d", it, log.active[k], log.from[k], h)
		}
	}
	c := r.Counters()
	if want := []int64{3, 3, 2, 2}; !slices.Equal(c.Activations, want) || c.Releases != iters || c.Messages != iters {
		t.Fatalf("counters %+v; want activations %v, %d releases and messages", c, want, iters)
	}
	acc := b.Accountant.(*toyAccountant)
	for i, a := range c.Activations {
		if int64(acc.released[i]) != a {
			t.Errorf("agent %d released %d times, active %d times", i, acc.released[i], a)
		}
	}
	ser := &r.Metrics.Series
	last := ser.At(ser.Len() - 1)
	for name, want := range map[string]float64{metrics.ColMessages: iters, metrics.ColReleases: iters, metrics.ColActivations: 3} {
		if got := last.Extra[slices.Index(ser.ExtraNames, name)]; got != want {
			t.Errorf("last point's %s = %v, want %v", name, got, want)
		}
	}
	// The optimality is ‖x − x*‖² at the shared x, the objective f(x).
	x := r.Built().Algorithm.State()[0].Data
	opt := b.Env.Problem.Optimum()
	d2 := 0.0
	for c := range x {
		d2 += float64((x[c] - opt[c]) * (x[c] - opt[c]))
	}
	if math.Abs(last.Optimality-d2) > 1e-15*math.Max(1, d2) || last.Objective != b.Env.Problem.Objective(x) {
		t.Errorf("optimality %v objective %v; want %v and %v at the shared estimate", last.Optimality, last.Objective, d2, b.Env.Problem.Objective(x))
	}
	_, doc := exportDoc(t, r)
	comm := doc["communication"].(map[string]any)
	if comm["messages"].(float64) != iters || len(comm["activations"].([]any)) != n {
		t.Errorf("export communication %v", comm)
	}
	if lab := doc["metric_labels"].(map[string]any); lab["optimality"] != metrics.OutputOptimalityLabel {
		t.Errorf("export labels %v", lab)
	}
}

// A shared variable is pinned as one row of its own length; anything
// else is refused naming init.<var>.
func TestSharedInitValidation(t *testing.T) {
	register(t)
	b := toyScenario(t, "toy-baton", 3, 5, `{"dim": 2}`, `"init": {"x": [[1, -2]], "u": [[0.5, 0.25]]},`)
	st := b.Algorithm.Initial()
	if !slices.Equal(st.Output, []float64{1, -2}) {
		t.Fatalf("initial output %v", st.Output)
	}
	for _, c := range []struct{ init, field string }{
		{`{"x": [[1, 2], [3, 4]]}`, "init.x"},
		{`{"x": [[1]]}`, "init.x[0]"},
		{`{"u": [[1, 2e13]]}`, "init.u[0][1]"},
		{`{"w": [[1, 2]]}`, "init.w"},
		{`{"z": [[1, 2]]}`, "init.z"},
	} {
		js := `{"name": "toy", "seed": 1, "graph": {"kind": "ring", "n": 3}, "weights": {"kind": "metropolis"},
			"problem": {"kind": "toy", "params": {"dim": 2}}, "algorithm": {"kind": "toy-baton"}, "noise": {},
			"init": ` + c.init + `, "iterations": 5}`
		s, err := scenario.Parse([]byte(js))
		if err != nil {
			t.Fatal(err)
		}
		_, err = scenario.Build(s)
		var ce *check.Error
		if !errors.As(err, &ce) || ce.Field != c.field {
			t.Errorf("init %s: error %v; want one naming %s", c.init, err, c.field)
		}
	}
}

// replay builds the scenario of an export and runs it.
func replay(t *testing.T, raw []byte) *runner.Runner {
	t.Helper()
	var e struct {
		Scenario json.RawMessage `json:"scenario"`
	}
	if err := json.Unmarshal(raw, &e); err != nil {
		t.Fatal(err)
	}
	return runToEnd(t, runner.New(runnertest.Parse(t, e.Scenario, nil)))
}

// The baton's export pins the shared state as one row, its checkpoints
// hold it as one row and the counters, and the export replays byte for
// byte — also when a stop rule ended the run.
func TestBatonExportReplays(t *testing.T) {
	register(t)
	for _, extra := range []string{
		`"init": {"x": [[3, -1]]}, "record": {"checkpoints": [0, 5, 12]},`,
		`"init": {"x": [[3, -1]]}, "stop": {"max_activations": 3}, "record": {"checkpoints": [5]},`,
	} {
		b := toyScenario(t, "toy-baton", 4, 12, `{"dim": 2}`, extra)
		r := runner.New(b)
		if err := r.Run(); err != nil {
			t.Fatal(err)
		}
		raw, doc := exportDoc(t, r)
		init := doc["scenario"].(map[string]any)["init"].(map[string]any)
		if len(init["x"].([]any)) != 1 || len(init["u"].([]any)) != 1 || len(init["z"].([]any)) != 4 {
			t.Fatalf("pinned init %v: want x and u as one row, z as 4", init)
		}
		cp := r.Export().States[0]
		if cp.Iter == 5 {
			if len(cp.States[0].Values) != 1 || !slices.Equal(cp.Communication.Activations, []int64{2, 1, 1, 1}) {
				t.Fatalf("checkpoint at 5: x has %d rows, counters %+v", len(cp.States[0].Values), cp.Communication)
			}
		}
		again, _ := exportDoc(t, replay(t, raw))
		if !bytes.Equal(raw, again) {
			t.Fatalf("%s: the replayed export differs", extra)
		}
	}
}

// The baton resumes from a checkpoint's state and continues bit for bit;
// the runner's counters continue from the checkpoint's.
func TestBatonResumes(t *testing.T) {
	register(t)
	full := toyScenario(t, "toy-baton", 4, 12, `{"dim": 3}`, `"record": {"checkpoints": [7]},`)
	rf := runner.New(full)
	if err := rf.Run(); err != nil {
		t.Fatal(err)
	}
	cp := rf.Export().States[0]
	var state []sim.Var
	for _, s := range cp.States {
		v := sim.Var{Name: s.Name, Dim: 3}
		for _, row := range s.Values {
			v.Data = append(v.Data, row...)
		}
		state = append(state, v)
	}
	part := toyScenario(t, "toy-baton", 4, 12, `{"dim": 3}`, "")
	if err := part.Algorithm.(sim.Resumable).Resume(cp.Iter, state); err != nil {
		t.Fatal(err)
	}
	rp := runner.New(part)
	runner.RestoreCounters(rp, &cp)
	for range 12 - cp.Iter {
		part.Algorithm.Advance()
	}
	for k, v := range part.Algorithm.State() {
		if !slices.Equal(v.Data, full.Algorithm.State()[k].Data) {
			t.Fatalf("%s after resume: %v, want %v", v.Name, v.Data, full.Algorithm.State()[k].Data)
		}
	}
	if !slices.Equal(rp.Counters().Activations, cp.Communication.Activations) {
		t.Fatalf("restored counters %+v, want %+v", rp.Counters(), cp.Communication)
	}
}

// Every toy of the contract's extensions — the baton with its shared
// state and counters, the two-round toy, a problem without an optimum and
// one with an expensive metric — resumes from its export's checkpoints
// and writes the uninterrupted run's export byte for byte.
func TestToysResumeFromExport(t *testing.T) {
	register(t)
	for _, c := range []struct{ alg, problem, extra string }{
		{"toy-baton", `{"dim": 3}`, `"stop": {"max_messages": 11},`},
		{"toy-baton", `{"dim": 2, "wave": true}`, ""},
		{"toy-rounds", `{"dim": 2}`, ""},
		{"toy-rounds", `{"dim": 2, "expensive": true}`, `"record": {"every": 1, "eval_every": 3, "checkpoints": [0, 1, 5, 9, 12]},`},
	} {
		extra := c.extra
		if !strings.Contains(extra, "record") {
			extra += `"record": {"checkpoints": [0, 1, 5, 9, 12]},`
		}
		name := c.alg + " " + c.problem + " " + c.extra
		want, _ := exportDoc(t, runToEnd(t, runner.New(toyScenario(t, c.alg, 4, 12, c.problem, extra))))
		for _, k := range []int{0, 1, 5, 9, -1} { // -1: the last, where a stop rule ended the run
			r, err := runner.ResumeExport(want, k, scenario.CLI)
			if err != nil {
				t.Fatalf("%s: resuming at %d: %v", name, k, err)
			}
			got, _ := exportDoc(t, runToEnd(t, r))
			if !bytes.Equal(got, want) {
				t.Fatalf("%s resumed at %d: the export differs:\n%s", name, k, firstDiff(string(got), string(want)))
			}
		}
	}
}

// runToEnd runs r until it completes or a stop rule ends it.
func runToEnd(t *testing.T, r *runner.Runner) *runner.Runner {
	t.Helper()
	if err := r.Run(); err != nil {
		t.Fatal(err)
	}
	return r
}

// Stop rules end the run at the first iteration that reaches a limit;
// the series ends there and the export says why.
func TestStopRules(t *testing.T) {
	register(t)
	for _, c := range []struct {
		stop   string
		iter   int
		reason string
	}{
		{`{"max_activations": 3}`, 9, "stop.max_activations: agent 0 was active 3 times"},
		{`{"max_messages": 7}`, 7, "stop.max_messages: 7 messages"},
		{`{"max_messages": 7, "max_activations": 1}`, 1, "stop.max_activations: agent 0 was active 1 times"},
		{`{"max_activations": 100}`, 12, ""},
	} {
		b := toyScenario(t, "toy-baton", 4, 12, `{"dim": 2}`, `"record": {"every": 5}, "stop": `+c.stop+`,`)
		r := runner.New(b)
		if err := r.Run(); err != nil {
			t.Fatal(err)
		}
		if r.Iter() != c.iter || !strings.HasPrefix(r.Stopped(), c.reason) || (c.reason == "") != (r.Stopped() == "") {
			t.Errorf("stop %s: stopped after %d (%q); want %d (%q)", c.stop, r.Iter(), r.Stopped(), c.iter, c.reason)
		}
		if _, err := r.Advance(); !errors.Is(err, runner.ErrDone) {
			t.Errorf("stop %s: Advance after the stop: %v", c.stop, err)
		}
		ser := &r.Metrics.Series
		if last := ser.At(ser.Len() - 1).Iter; last != c.iter {
			t.Errorf("stop %s: the series ends at %d", c.stop, last)
		}
		want := "completed"
		if c.reason != "" {
			want = "stopped"
		}
		if e := r.Export(); e.Status != want || e.StopReason != r.Stopped() {
			t.Errorf("stop %s: export status %q reason %q", c.stop, e.Status, e.StopReason)
		}
	}
}

// Bad stop rules and evaluation intervals are refused in one line naming
// the field.
func TestStopAndEvalValidation(t *testing.T) {
	register(t)
	for _, c := range []struct{ extra, field string }{
		{`"stop": {},`, "stop"},
		{`"stop": {"max_messages": -1},`, "stop.max_messages"},
		{`"stop": {"max_activations": 9007199254740993},`, "stop.max_activations"},
		{`"record": {"every": 2, "eval_every": 3},`, "record.eval_every"},
		{`"record": {"eval_every": -4},`, "record.eval_every"},
	} {
		js := `{"name": "toy", "seed": 1, "graph": {"kind": "ring", "n": 3}, "weights": {"kind": "metropolis"},
			"problem": {"kind": "toy"}, "algorithm": {"kind": "toy-baton"}, "noise": {}, ` + c.extra + ` "iterations": 5}`
		s, err := scenario.Parse([]byte(js))
		if err == nil {
			_, err = scenario.Build(s)
		}
		var ce *check.Error
		if !errors.As(err, &ce) || ce.Field != c.field || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v; want one line naming %s", c.extra, err, c.field)
		}
	}
}

// Every recorder — metrics, ledger, export view (Step.Messages) and the
// animation model — sees round 0's releases before round 1's, even from
// an algorithm that lists them the other way round.
func TestRoundsReachRecordersInOrder(t *testing.T) {
	register(t)
	for _, reverse := range []bool{false, true} {
		params := `{"step": 0.3, "reverse": false}`
		if reverse {
			params = `{"step": 0.3, "reverse": true}`
		}
		s, err := scenario.Parse([]byte(`{"name": "toy", "seed": 1, "graph": {"kind": "ring", "n": 5},
			"weights": {"kind": "metropolis"}, "problem": {"kind": "toy"},
			"algorithm": {"kind": "toy-rounds", "params": ` + params + `}, "noise": {}, "iterations": 6}`))
		if err != nil {
			t.Fatal(err)
		}
		b, err := scenario.Build(s)
		if err != nil {
			t.Fatal(err)
		}
		log := &stepLog{}
		model := scene.NewModel(b.Env.Graph, nil)
		var packetRounds [][]int
		snap := recorderFunc(func(*sim.Step) {
			var rs []int
			for _, p := range model.Packets() {
				rs = append(rs, p.Round)
			}
			packetRounds = append(packetRounds, rs)
		})
		r := runner.New(b, log, model, snap)
		for {
			st, err := r.Advance()
			if errors.Is(err, runner.ErrDone) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			if !st.InRoundOrder() {
				t.Fatalf("reverse %v: Advance returned releases out of round order", reverse)
			}
		}
		for k, it := range log.iters {
			if it == 0 {
				continue
			}
			want := slices.Repeat([]int{0}, 5)
			want = append(want, slices.Repeat([]int{1}, 5)...)
			if !slices.Equal(log.rounds[k], want) || log.chans[k][0] != "y" || log.chans[k][9] != "z" {
				t.Fatalf("reverse %v, iteration %d: rounds %v channels %v", reverse, it, log.rounds[k], log.chans[k])
			}
			if !slices.IsSorted(log.msgRounds[k]) || len(log.msgRounds[k]) != 20 {
				t.Fatalf("reverse %v, iteration %d: message rounds %v", reverse, it, log.msgRounds[k])
			}
			if !slices.IsSorted(packetRounds[k]) || len(packetRounds[k]) != 20 || packetRounds[k][0] != 0 || packetRounds[k][19] != 1 {
				t.Fatalf("reverse %v, iteration %d: the animation's packet rounds %v", reverse, it, packetRounds[k])
			}
		}
		if c := r.Counters(); c.Releases != 6*10 || c.Messages != 6*20 || c.Activations[0] != 6 {
			t.Fatalf("counters %+v", c)
		}
	}
}

type recorderFunc func(*sim.Step)

func (f recorderFunc) Record(s *sim.Step) { f(s) }

// Without a known optimum the headline is stationarity, computed with the
// problem's batch gradient; the optimality is null and the labels say
// why.
func TestNoOptimumStationarity(t *testing.T) {
	register(t)
	for _, alg := range []string{"toy-rounds", "toy-baton"} {
		b := toyScenario(t, alg, 4, 8, `{"dim": 2, "wave": true}`, `"record": {"every": 2},`)
		prob := b.Env.Problem.(*toyProblem)
		var want []float64
		r := runner.New(b, recorderFunc(func(s *sim.Step) {
			if s.Iter%2 != 0 {
				return
			}
			// ‖(1/n)·Σ_i ∇f_i(x_i)‖², x_i the shared estimate if any.
			g, sum := make([]float64, 2), make([]float64, 2)
			for i := range 4 {
				x := s.Output
				if x == nil {
					x = s.Estimate(i)
				}
				prob.Grad(i, x, g)
				sum[0], sum[1] = sum[0]+float64(g[0]/4), sum[1]+float64(g[1]/4)
			}
			want = append(want, float64(sum[0]*sum[0])+float64(sum[1]*sum[1]))
		}))
		if err := r.Run(); err != nil {
			t.Fatal(err)
		}
		ser := &r.Metrics.Series
		col := ser.ExtraColumn(metrics.ColStationarity)
		if len(col) != len(want) || *prob.gradAlls == 0 {
			t.Fatalf("%s: stationarity %v (GradAll calls %d), want %v", alg, col, *prob.gradAlls, want)
		}
		for k := range want {
			if math.Abs(col[k]-want[k]) > 1e-15*math.Max(1, want[k]) || !math.IsNaN(ser.Optimality[k]) {
				t.Fatalf("%s point %d: stationarity %v, want %v; optimality %v", alg, k, col[k], want[k], ser.Optimality[k])
			}
		}
		_, doc := exportDoc(t, r)
		lab := doc["metric_labels"].(map[string]any)
		if lab["note"] != metrics.NoOptimumNote || lab["optimality"] != metrics.NoOptimumLabel || lab["stationarity"] == nil {
			t.Errorf("%s: labels %v", alg, lab)
		}
		if doc["metrics"].(map[string]any)["optimality"].([]any)[0] != nil {
			t.Errorf("%s: optimality is not null in the export", alg)
		}
	}
}

// Expensive metrics are evaluated every record.eval_every iterations, at
// 0 and at the last point (also one a stop rule ends on), null in
// between; the live readout never evaluates them.
func TestExpensiveMetricsEvalEvery(t *testing.T) {
	register(t)
	for _, c := range []struct {
		extra string
		evals []int // iterations with a value
		iters int
	}{
		{`"record": {"every": 2, "eval_every": 6},`, []int{0, 6, 12, 18, 20}, 20},
		{`"record": {"every": 2},`, []int{0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20}, 20},
		{`"record": {"every": 2, "eval_every": 6}, "stop": {"max_activations": 4},`, []int{0, 6, 12, 13}, 13},
		{`"record": {"every": 2, "eval_every": 6}, "stop": {"max_messages": 14},`, []int{0, 6, 12, 14}, 14},
	} {
		b := toyScenario(t, "toy-baton", 4, 20, `{"dim": 2, "expensive": true}`, c.extra)
		prob := b.Env.Problem.(toyExpensive)
		r := runner.New(b)
		for {
			_, err := r.Advance()
			if err != nil {
				break
			}
			before := *prob.evaluated
			for range 3 {
				r.Metrics.Latest() // the page's live readout
			}
			if *prob.evaluated != before {
				t.Fatalf("%s: Latest evaluated the expensive metric", c.extra)
			}
		}
		if r.Iter() != c.iters || *prob.evaluated != len(c.evals) || r.Metrics.Evaluations() != len(c.evals) {
			t.Fatalf("%s: %d iterations, %d evaluations; want %d, %d", c.extra, r.Iter(), *prob.evaluated, c.iters, len(c.evals))
		}
		ser := &r.Metrics.Series
		acc := ser.ExtraColumn("accuracy")
		var got []int
		for k, v := range acc {
			if !math.IsNaN(v) {
				got = append(got, ser.Iter[k])
			}
		}
		if !slices.Equal(got, c.evals) {
			t.Fatalf("%s: evaluated at %v, want %v", c.extra, got, c.evals)
		}
		_, doc := exportDoc(t, r)
		if v := doc["metrics"].(map[string]any)["accuracy"].([]any); (v[1] != nil) != slices.Contains(c.evals, 2) || v[0] == nil {
			t.Errorf("%s: accuracy in the export %v; want null where not evaluated", c.extra, v)
		}
	}
}

// A release from an agent that was not active breaks the contract: the
// run stops with an error that says so, and the export's status is
// "failed".
func TestInactiveReleaseRefused(t *testing.T) {
	register(t)
	s, err := scenario.Parse([]byte(`{"name": "toy", "seed": 1, "graph": {"kind": "ring", "n": 3},
		"weights": {"kind": "metropolis"}, "problem": {"kind": "toy"},
		"algorithm": {"kind": "toy-baton", "params": {"leak": true}}, "noise": {}, "iterations": 5}`))
	if err != nil {
		t.Fatal(err)
	}
	b, err := scenario.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	r := runner.New(b)
	err = r.Run()
	if err == nil || !strings.Contains(err.Error(), "agent 1 released on channel \"baton\" but was not active") {
		t.Fatalf("error %v", err)
	}
	if e := r.Export(); e.Status != "failed" || r.Counters().Releases != 0 {
		t.Fatalf("status %q, %d releases counted", e.Status, r.Counters().Releases)
	}
}
