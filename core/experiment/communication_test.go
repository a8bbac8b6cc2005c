package experiment

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"

	"strings"
	"testing"

	"dpsim/core/check"
	"dpsim/core/method"
	"dpsim/core/metrics"
	"dpsim/core/privacy"
	"dpsim/core/runner"
	"dpsim/core/scenario"
	"dpsim/core/sim"
)

// ringVsComplete is GT-DP on a ring of 6 (12 links: 24 messages per
// iteration on its two channels) against a complete graph of 6 (30
// links: 60), on the messages axis.
const ringVsComplete = `{"format":"dpsim-experiment/1","name":"comm","title":"T",
 "base":{"scenario":{"name":"inline","seed":1,"graph":{"kind":"ring","n":6},
   "weights":{"kind":"metropolis"},"problem":{"kind":"rendezvous","params":{"dim":2,"box":2}},
   "algorithm":{"kind":"gt-dp","params":{"alpha":0.1,"gradient_bound":20}},
   "noise":{"eta":{"dist":"laplace","scale":0.1},"xi":{"dist":"laplace","scale":0.1}},
   "iterations":20,"record":{"every":5}}},
 "series":[{"name":"ring"},{"name":"complete","set":{"graph":{"kind":"complete","n":6}}}],
 "x":{"kind":"communication","counter":"messages"%s,"label":"messages sent"},"runs":3,"seed":4,
 "metrics":[{"name":"optimality"},{"name":"consensus"}],"statistic":"mean",
 "figure":{"title":"T","y":{"metric":"optimality","label":"err","scale":"log"}},
 "expectations":[{"claim":"falls","kind":"decreasing","series":"complete"}]}`

// directRun runs task t of p outside the engine and returns its recorded
// iterations' counter and metric columns.
func directRun(t *testing.T, p *Plan, task int, counter, metric string) (cs, ms []float64) {
	t.Helper()
	sc, err := p.Scenario(task)
	if err != nil {
		t.Fatal(err)
	}
	b, err := scenario.Build(sc)
	if err != nil {
		t.Fatal(err)
	}
	r := runner.New(b)
	for {
		if _, err := r.Advance(); err != nil {
			if !errors.Is(err, runner.ErrDone) {
				t.Fatal(err)
			}
			break
		}
	}
	s := &r.Metrics.Series
	ci, mi := -1, -1
	for k, n := range s.ExtraNames {
		if n == counter {
			ci = k
		}
	}
	if ci < 0 {
		t.Fatalf("no %s column in %q", counter, s.ExtraNames)
	}
	for i := range s.Len() {
		pt := s.At(i)
		cs = append(cs, pt.Extra[ci])
		switch metric {
		case "optimality":
			ms = append(ms, pt.Optimality)
		default:
			t.Fatalf("directRun reads optimality only (got %s)", metric)
		}
	}
	_ = mi
	return cs, ms
}

// On the messages axis each series' point is the counter at a recorded
// iteration and its statistic the metric there, computed here from runs
// made outside the engine.
func TestCommunicationAxisAgainstDirectRuns(t *testing.T) {
	p := plan(t, fmt.Sprintf(ringVsComplete, ""))
	res := executeAll(t, p, 2)
	perIter := []float64{24, 60}
	for si := range p.Exp.Series {
		var cs [][]float64
		var ms [][]float64
		for r := range p.Exp.Runs {
			c, m := directRun(t, p, p.TaskIndex(si, 0, r), metrics.ColMessages, "optimality")
			cs, ms = append(cs, c), append(ms, m)
		}
		pts := res.Series[si].Points
		if len(pts) != 5 {
			t.Fatalf("series %d: %d points, want the 5 recorded iterations 0, 5, …, 20", si, len(pts))
		}
		for gi, pt := range pts {
			if want := perIter[si] * float64(5*gi); float64(pt.X) != want || cs[0][gi] != want {
				t.Errorf("series %d point %d: x = %v, direct counter %v; want %v messages", si, gi, pt.X, cs[0][gi], want)
			}
			var at []float64
			for r := range ms {
				at = append(at, ms[r][gi])
			}
			if want := Summarize(at); !sameStats(pt.Metrics["optimality"], want) {
				t.Errorf("series %d point %d: stats %+v, direct %+v", si, gi, pt.Metrics["optimality"], want)
			}
		}
	}
	fd := p.Figure(res)
	if fd.XLabel != "messages sent" || fd.Markers || !strings.Contains(fd.Subtitle, "per-link messages sent so far, at each recorded iteration") {
		t.Errorf("figure: x label %q, markers %v, subtitle %q", fd.XLabel, fd.Markers, fd.Subtitle)
	}
	if got := fd.Series[1].X; len(got) != 5 || got[4] != 1200 {
		t.Errorf("figure x of the complete graph: %v, want 0 … 1200", got)
	}
	csv := string(p.CSV(res))
	if !strings.Contains(csv, "comm,complete,complete,4,1200,,optimality,metric,3,0,") {
		t.Errorf("CSV has no row for the complete graph's last point at x = 1200:\n%s", csv)
	}
	if v := res.Expectations[0]; v.Verdict == "" || !strings.Contains(v.Comparisons[0].What, "complete at messages = 1200") {
		t.Errorf("expectation: %+v", v)
	}
}

// A grid of counter values resamples every run by steps; on a
// deterministic counter the grid's values at recorded counts read those
// points, and between them the last point below.
func TestCommunicationGridDeterministic(t *testing.T) {
	p := plan(t, fmt.Sprintf(ringVsComplete, `,"values":[0,100,240,700]`))
	res := executeAll(t, p, 1)
	// ring: counts 0, 120, 240, 360, 480 → grid 0, 100, 240, 700 reads
	// points 0, 0, 2 and none (700 > 480); complete: 0, 300, … 1200 →
	// points 0, 0, 0, 2.
	want := [][]int{{0, 0, 2, -1}, {0, 0, 0, 2}}
	for si := range p.Exp.Series {
		var ms [][]float64
		for r := range p.Exp.Runs {
			_, m := directRun(t, p, p.TaskIndex(si, 0, r), metrics.ColMessages, "optimality")
			ms = append(ms, m)
		}
		for vi, pt := range res.Series[si].Points {
			at := make([]float64, len(ms))
			for r := range ms {
				at[r] = math.NaN()
				if j := want[si][vi]; j >= 0 {
					at[r] = ms[r][j]
				}
			}
			if float64(pt.X) != p.Exp.X.Values[vi] || !sameStats(pt.Metrics["optimality"], Summarize(at)) {
				t.Errorf("series %d grid %v: x %v, stats %+v; want %+v", si, p.Exp.X.Values[vi], pt.X, pt.Metrics["optimality"], Summarize(at))
			}
		}
	}
}

// Results on the communication axis are byte-identical for any worker
// count, and shards merge into the unsharded result.
func TestCommunicationWorkersAndShards(t *testing.T) {
	registerWalk(t)
	for name, text := range map[string]string{
		"messages": fmt.Sprintf(ringVsComplete, ""),
		"walk":     walkExperiment(`,"values":[0,2,4,5,6,7,8]`),
	} {
		p := plan(t, text)
		one := sweep(t, p, p.AllTasks(), 1, nil)
		two := sweep(t, p, p.AllTasks(), 2, nil)
		if !bytes.Equal(one, two) {
			t.Errorf("%s: 1 and 2 workers differ", name)
		}
		var parts [][]byte
		for i := range 3 {
			sh := Shard{Index: i, Count: 3}
			parts = append(parts, sweep(t, p, p.ShardTasks(sh), 2, &sh))
		}
		m, err := Merge(parts)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(m.JSON(), one) {
			t.Errorf("%s: merged shards differ from the unsharded sweep", name)
		}
	}
}

// A bad communication axis is refused in one line naming the field.
func TestCommunicationAxisRefused(t *testing.T) {
	for _, c := range []struct{ x, want string }{
		{`"kind":"communication","counter":"bytes"`, `x.counter: must be one of ["messages" "releases" "activations"] (got "bytes")`},
		{`"kind":"communication"`, `x.counter: must be one of`},
		{`"kind":"iteration","counter":"messages"`, `x.counter: belongs to kind "communication" only`},
		{`"kind":"communication","counter":"messages","values":[0,10,10]`, `x.values[2]: must be greater than the value before it, 10 (got 10)`},
		{`"kind":"communication","counter":"messages","values":[-1]`, `x.values[0]: must be a finite count ≥ 0 (got -1)`},
		{`"kind":"communication","counter":"messages","fields":["iterations"],"values":[1]`, `x: the communication axis takes no fields or quantity`},
	} {
		text := strings.Replace(fmt.Sprintf(ringVsComplete, ""), `"kind":"communication","counter":"messages"`, c.x, 1)
		_, err := Parse([]byte(text))
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("x {%s}: error %v, want one line containing %q", c.x, err, c.want)
		}
	}
	text := strings.Replace(fmt.Sprintf(ringVsComplete, ""), `"series":[{"name":"ring"}`, `"series":[{"name":"ring","sweep":{"fields":["iterations"],"values":[5]}}`, 1)
	if _, err := Parse([]byte(text)); err == nil || !strings.Contains(err.Error(), "the communication axis sweeps nothing") {
		t.Errorf("a series sweep on the communication axis: %v", err)
	}
}

// A random walk's busiest-agent activations differ between runs: without
// a grid the result is refused, naming the series and the iteration;
// with one, every run is resampled by steps, checked against runs made
// outside the engine. Its messages (one per iteration) are the same in
// every run and need no grid.
func TestCommunicationRandomCounter(t *testing.T) {
	registerWalk(t)
	p := plan(t, walkExperiment(""))
	const refusal = `x.counter: series "walk": the activations counter differs between runs at recorded iteration `
	// The sweep stops at the first two runs that differ, well before
	// its end; Assemble refuses any set of records that differ.
	recs, err := p.Execute(context.Background(), p.AllTasks(), 1, nil)
	if err == nil || !strings.HasPrefix(err.Error(), refusal) || strings.Contains(err.Error(), "\n") || len(recs) == p.Tasks() {
		t.Fatalf("a random counter without a grid: %d of %d runs, error %v", len(recs), p.Tasks(), err)
	}
	var all []RunRecord
	for task := range p.Tasks() {
		rec, err := p.RunTask(context.Background(), task)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, rec)
	}
	if _, err = Assemble(p, all, nil); err == nil || !strings.HasPrefix(err.Error(), refusal) || strings.Contains(err.Error(), "\n") {
		t.Fatalf("Assemble with a random counter without a grid: %v", err)
	}
	if _, err = Assemble(p, all[:1], nil); err != nil {
		t.Errorf("one run cannot differ from another: %v", err)
	}

	msgs := plan(t, strings.Replace(walkExperiment(""), `"counter":"activations"`, `"counter":"messages"`, 1))
	recs, err = msgs.Execute(context.Background(), msgs.AllTasks(), 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Assemble(msgs, recs, nil)
	if err != nil {
		t.Fatal(err)
	}
	for gi, pt := range res.Series[0].Points {
		if float64(pt.X) != float64(4*gi) {
			t.Errorf("walk on the messages axis: point %d at %v, want %d (one message per iteration, recorded every 4)", gi, pt.X, 4*gi)
		}
	}

	grid := []float64{0, 2, 4, 5, 6, 7, 8}
	p = plan(t, walkExperiment(`,"values":[0,2,4,5,6,7,8]`))
	res = executeAll(t, p, 2)
	var cs, ms [][]float64
	for r := range p.Exp.Runs {
		c, m := directRun(t, p, p.TaskIndex(0, 0, r), metrics.ColActivations, "optimality")
		cs, ms = append(cs, c), append(ms, m)
	}
	differ := false
	for r := range cs {
		differ = differ || cs[r][len(cs[r])-1] != cs[0][len(cs[0])-1]
	}
	if !differ {
		t.Fatalf("the walk's final activations are the same in every run (%v): the test needs them to differ", cs)
	}
	missing := 0
	for vi, pt := range res.Series[0].Points {
		at := make([]float64, len(ms))
		for r := range ms {
			// The step rule written out: the last recorded point whose
			// count is ≤ the grid value, none past the final count.
			at[r] = math.NaN()
			for j := range cs[r] {
				if cs[r][j] <= grid[vi] {
					at[r] = ms[r][j]
				}
			}
			if cs[r][len(cs[r])-1] < grid[vi] {
				at[r] = math.NaN()
				missing++
			}
		}
		if float64(pt.X) != grid[vi] || !sameStats(pt.Metrics["optimality"], Summarize(at)) {
			t.Errorf("grid %v: x %v, stats %+v; want %+v", grid[vi], pt.X, pt.Metrics["optimality"], Summarize(at))
		}
	}
	if missing == 0 {
		t.Errorf("no run fell short of the grid's last value %v: the test does not exercise the missing rule", grid[len(grid)-1])
	}
	if fd := p.Figure(res); !strings.Contains(fd.Subtitle, "resampled onto the grid by steps") {
		t.Errorf("subtitle %q does not say the runs are resampled", fd.Subtitle)
	}
}

// walkExperiment is the random-walk toy on a complete graph of 5 on the
// activations axis; grid is spliced into the axis.
func walkExperiment(grid string) string {
	return fmt.Sprintf(`{"format":"dpsim-experiment/1","name":"walk","title":"T",
 "base":{"scenario":{"name":"walk","seed":1,"graph":{"kind":"complete","n":5},
   "weights":{"kind":"metropolis"},"problem":{"kind":"rendezvous","params":{"dim":2,"box":2}},
   "algorithm":{"kind":"toy-walk"},"noise":{},"iterations":24,"record":{"every":4}}},
 "series":[{"name":"walk"}],
 "x":{"kind":"communication","counter":"activations"%s,"label":"activations of the busiest agent"},"runs":6,"seed":3,
 "metrics":[{"name":"optimality"}],"statistic":"median",
 "figure":{"title":"T","y":{"metric":"optimality","label":"err"}}}`, grid)
}

// walk is a random walk on the agents: the holder takes a gradient step
// on the shared estimate x with its own f_h and passes x to the next
// holder, drawn uniformly from the other agents with the algorithm's own
// stream (DP-RECAL's walk). Its busiest agent's activations differ from
// run to run; its messages (one per iteration) do not.
type walk struct {
	n, d   int
	grad   func(i int, x, out []float64)
	next   *method.Source
	k, h   int
	x, g   []float64
	z      []float64
	st     sim.Step
	rels   [1]sim.Release
	to     [1]int
	active [1]int
}

var walkFactory = method.Factory{
	Solves: method.Minimisation,
	Name:   "toy-walk", Title: "toy random walk", Paper: "a test plug-in (DP-RECAL's random walk)",
	States:    []string{"z"},
	Shared:    []method.SharedVar{{Name: "x", Description: "the walker's estimate"}},
	Output:    "x",
	Draws:     []method.Draw{{Name: "next", Description: "the next holder's offset from the current one, minus 1", Min: 0, Max: 1023, Whole: true}},
	NewParams: func() any { return &struct{}{} },
	Build: func(env *method.Env, params any) (*method.Built, []check.Warning, error) {
		n, d := env.Problem.Agents(), env.Problem.Dim()
		a := &walk{n: n, d: d, grad: env.Problem.Grad, next: env.Draws("toy-walk", "next"),
			x: env.InitShared("x", d), g: make([]float64, d), z: env.InitState("z")}
		return &method.Built{Algorithm: a, Accountant: &walkAccountant{n: n}}, nil, nil
	},
}

func (a *walk) Name() string { return "toy-walk" }

func (a *walk) Initial() *sim.Step {
	a.st = sim.Step{Iter: a.k, Dim: a.d, Estimates: a.z, Output: a.x}
	return &a.st
}

func (a *walk) Advance() *sim.Step {
	h := a.h
	a.grad(h, a.x, a.g)
	for c := range a.x {
		a.x[c] -= float64(0.5 * a.g[c])
	}
	copy(a.z[h*a.d:(h+1)*a.d], a.x)
	a.h = (h + 1 + a.next.IntN(a.n-1)) % a.n
	a.to[0], a.active[0] = a.h, h
	a.rels[0] = sim.Release{From: h, Channel: "walk", Sent: a.x, To: a.to[:]}
	a.k++
	a.st = sim.Step{Iter: a.k, Dim: a.d, Estimates: a.z, Output: a.x, Releases: a.rels[:], Active: a.active[:]}
	return &a.st
}

func (a *walk) State() []sim.Var {
	return []sim.Var{
		{Name: "x", Dim: a.d, Data: append([]float64(nil), a.x...)},
		{Name: "z", Dim: a.d, Data: append([]float64(nil), a.z...)},
	}
}

// walkAccountant: the toy adds no noise, so every agent's ε is infinite.
type walkAccountant struct{ n, iters int }

func (a *walkAccountant) Record(s *sim.Step) { a.iters = s.Iter }

func (a *walkAccountant) Ledger() privacy.Ledger {
	l := privacy.Ledger{Algorithm: "toy-walk", Notion: "none: a test toy adds no noise", Iterations: a.iters, Max: privacy.Infinite()}
	for i := range a.n {
		l.Agents = append(l.Agents, privacy.Entry{Agent: i, Epsilon: privacy.Infinite(), Reason: "no noise"})
	}
	return l
}

// registerWalk adds the walk toy for the duration of t.
func registerWalk(t *testing.T) {
	t.Helper()
	if scenario.RegisteredForTest(walkFactory.Name) {
		return
	}
	un, err := scenario.RegisterForTest(&walkFactory)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(un)
}

// sameStats compares two statistics bit for bit, NaN equal to NaN.
func sameStats(a, b Stats) bool { return fmt.Sprintf("%#v", a) == fmt.Sprintf("%#v", b) }

// The communication preset's claims hold at its own run count and seed.
func TestCommunicationPresetClaims(t *testing.T) {
	if testing.Short() {
		t.Skip("Monte Carlo claims")
	}
	e, err := PresetExperiment("communication-gtdp-ring-vs-complete")
	if err != nil {
		t.Fatal(err)
	}
	checkClaims(t, e, 3)
}

// A message budget stops runs early: on the communication axis their
// curves are prefixes, and the points no run reached have no x and no
// values.
func TestCommunicationAxisWithStopRule(t *testing.T) {
	text := strings.Replace(fmt.Sprintf(ringVsComplete, ""), `"record":{"every":5}`, `"record":{"every":5},"stop":{"max_messages":250}`, 1)
	p := plan(t, text)
	recs, err := p.Execute(context.Background(), p.AllTasks(), 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Assemble(p, recs, nil)
	if err != nil {
		t.Fatal(err)
	}
	// The ring passes 250 messages at iteration 11 (264), off the grid;
	// the complete graph at iteration 5 (300), on it.
	nan := math.NaN()
	for si, want := range [][]float64{{0, 120, 240, nan, nan}, {0, 300, nan, nan, nan}} {
		var got []float64
		for _, pt := range res.Series[si].Points {
			got = append(got, float64(pt.X))
			if n := pt.Metrics["optimality"].N; (n == 0) != math.IsNaN(float64(pt.X)) {
				t.Errorf("series %d at x %v: %d runs", si, pt.X, n)
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("series %d: x %v, want %v", si, got, want)
		}
	}
	for _, r := range recs {
		if r.Status != StatusStopped {
			t.Errorf("task %d: status %s, want stopped", r.Task, r.Status)
		}
	}
}
