package experiment

import (
	"context"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"dpsim/core/scenario"
)

// TestSweepEstimateCovers: the per-record estimate covers what the
// engine's records really take, held and written as the result.
func TestSweepEstimateCovers(t *testing.T) {
	for _, name := range []string{"field", "iteration"} {
		text := strings.Replace(small[name], `"iterations":60,"record.every":20`, `"iterations":400,"record.every":1`, 1)
		p := plan(t, text)
		var m0, m1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&m0)
		recs, err := p.Execute(context.Background(), p.AllTasks(), 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		runtime.ReadMemStats(&m1)
		held := int64(m1.HeapAlloc) - int64(m0.HeapAlloc)
		r, err := Assemble(p, recs, nil)
		if err != nil {
			t.Fatal(err)
		}
		written := int64(2 * len(r.JSON())) // the text and its buffer's growth
		runtime.KeepAlive(recs)
		est := p.Estimate(p.Tasks(), 1)
		t.Logf("%s: %d records: estimate %d, held %d + written %d", name, len(recs), est.Records+est.Summaries, held, written)
		if est.Records+est.Summaries < held+written {
			t.Errorf("%s: records and summaries estimated at %s, but they took %s held and %s written", name, scenario.Bytes(est.Records+est.Summaries), scenario.Bytes(held), scenario.Bytes(written))
		}
	}
}

// TestSweepMemoryRefused: a sweep whose records or runs could not be
// held is refused at once, in one line with the number and the knob (a
// long record × many runs died at 6 GB after 40 s; 10 million tiny tasks
// at 7 GB).
func TestSweepMemoryRefused(t *testing.T) {
	for _, c := range []struct{ from, to, want string }{
		// 100 000 runs × 2 series × 200 001 recorded points.
		{`"iterations":60,"record.every":20`, `"iterations":200000,"record.every":1`, "runs: this sweep needs about"},
		{`"runs":5`, `"runs":100000`, ""},
	} {
		text := strings.Replace(small["iteration"], c.from, c.to, 1)
		if c.want == "" {
			// 100 000 runs of a short curve: fits.
			if _, err := NewPlan(mustParse(t, []byte(text))); err != nil {
				t.Errorf("%s: %v", c.to, err)
			}
			continue
		}
		text = strings.Replace(text, `"runs":5`, `"runs":100000`, 1)
		start := time.Now()
		_, err := NewPlan(mustParse(t, []byte(text)))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "lower runs") {
			t.Errorf("%s: got %v, want one line starting %q that names the knob", c.to, err, c.want)
		}
		t.Logf("refused in %v: %v", time.Since(start), err)
	}
}

// TestSweepWorkersRefused: when the runs in progress at once are what
// takes a sweep past its budget (one at a time fits), the one-line
// refusal names the setting that chooses them, what each holds, the
// total, the budget, the most that fit and the value given. It named
// iterations, the largest part's field, with the workers among the
// knobs; dpsim sweep said it in its own words, the engine did not.
func TestSweepWorkersRefused(t *testing.T) {
	// Long runs, each recording every point (a tail mean) but keeping
	// only final values: NewPlan (one worker) accepts them.
	p := plan(t, strings.Replace(small["field"], `"iterations":120`, `"iterations":10000000`, 1))
	tasks := p.Tasks()
	fits := func(k int) bool { return p.Estimate(tasks, k).Total <= scenario.CLIBudget }
	most := 0
	for fits(most + 1) {
		most++
	}
	if most < 1 || most >= 8 {
		t.Fatalf("%d runs at once fit: no case", most)
	}
	for _, c := range []struct {
		setting string
		workers int
		want    string
	}{
		{"", 8, `^workers: each run in progress holds about [0-9.]+ MiB, and 8 at once would take the sweep to about [0-9.]+ GiB of memory, more than the 4\.0 GiB it may use: at most ([0-9]+) fit \(got 8\)$`},
		{"--workers", 8, `^--workers: each run in progress holds about [0-9.]+ MiB, and 8 at once would take the sweep to about [0-9.]+ GiB of memory, more than the 4\.0 GiB it may use: at most ([0-9]+) fit \(got 8\)$`},
		// More workers than runs: as many at once as there are runs, the
		// value given quoted.
		{"--workers", 1000, `^--workers: each run in progress holds about [0-9.]+ MiB, and ` + strconv.Itoa(tasks) + ` at once would take the sweep to about [0-9.]+ GiB of memory, more than the 4\.0 GiB it may use: at most ([0-9]+) fit \(got 1000\)$`},
	} {
		p.WorkersSetting = c.setting
		start := time.Now()
		_, err := p.Execute(context.Background(), p.AllTasks(), c.workers, nil)
		if err == nil {
			t.Fatalf("%q %d: accepted", c.setting, c.workers)
		}
		m := regexp.MustCompile(c.want).FindStringSubmatch(err.Error())
		if m == nil {
			t.Errorf("%q %d: %v; want one line matching %s", c.setting, c.workers, err, c.want)
			continue
		}
		if got, _ := strconv.Atoi(m[1]); got != most {
			t.Errorf("%q %d: says at most %d fit, but %d do", c.setting, c.workers, got, most)
		}
		t.Logf("refused in %v: %v", time.Since(start), err)
	}
	// At the most that fit, the sweep passes the check.
	if err := p.CheckMemory(tasks, most, scenario.CLIBudget); err != nil {
		t.Errorf("%d workers: %v", most, err)
	}
}

// TestAllDiverged: a sweep where every run diverged says so plainly: a
// note in the result, verdicts "not tested", and a figure that says it
// has nothing to plot (it used to be "inconclusive" over a blank figure).
func TestAllDiverged(t *testing.T) {
	text := strings.Replace(small["field"], `"set":{"iterations":120}`, `"set":{"iterations":120,"algorithm.params.alpha":50}`, 1)
	text = strings.Replace(text, `"algorithm.params.alpha":0.05`, `"algorithm.params.alpha":60`, 1)
	p := plan(t, text)
	recs, err := p.Execute(context.Background(), p.AllTasks(), 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Assemble(p, recs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(r.Note, "every one of the 24 runs diverged") {
		t.Errorf("note %q", r.Note)
	}
	for _, x := range r.Expectations {
		if !strings.HasPrefix(x.Summary, "not tested: every one of the 24 runs diverged") {
			t.Errorf("%s: %s, %s", x.Claim, x.Verdict, x.Summary)
		}
	}
	if f := p.Figure(r); !strings.HasPrefix(f.Empty, "nothing to plot: every one") {
		t.Errorf("figure: empty %q", f.Empty)
	}
	// The note survives the result's round trip.
	back, _, err := ReadResult(r.JSON())
	if err != nil || back.Note != r.Note {
		t.Errorf("round trip: %v, %q", err, back.Note)
	}
}

// Issue 28, classes 7 and 9: a sweep's estimate is the sum of parts
// its refusal lists (records, summaries, runs in progress, datasets and
// problem instances, the collector's room), so that the numbers a user
// reads add up; on a communication grid the summaries are per grid value,
// not per recorded iteration (two values were estimated as 10⁵ points).
func TestSweepEstimatePartsAddUp(t *testing.T) {
	text := strings.Replace(small["iteration"], `"iterations":60,"record.every":20`, `"iterations":200000,"record.every":1`, 1)
	text = strings.Replace(text, `"runs":5`, `"runs":100000`, 1)
	_, err := NewPlan(mustParse(t, []byte(text)))
	if err == nil {
		t.Fatal("a sweep of 10⁵ runs × 200 001 points was accepted")
	}
	p := plan(t, strings.Replace(small["iteration"], `"iterations":60,"record.every":20`, `"iterations":2000,"record.every":1`, 1))
	for _, workers := range []int{1, 3} {
		e := p.Estimate(p.Tasks(), workers)
		if sum := e.Records + e.Summaries + e.Runs + e.Data + e.Room; sum != e.Total {
			t.Errorf("parts add up to %d, the total is %d", sum, e.Total)
		}
		for _, part := range []int64{e.Records, e.Summaries, e.Runs, e.Data, e.Room, e.Total} {
			if !strings.Contains(e.String(), scenario.Bytes(part)) {
				t.Errorf("%q does not list %s", e.String(), scenario.Bytes(part))
			}
		}
	}
	msg := err.Error()
	for _, want := range []string{"for the summaries", "runs in progress of about", "for the datasets and problem instances", "for the collector's room"} {
		if !strings.Contains(msg, want) {
			t.Errorf("refusal %q does not say %q", msg, want)
		}
	}
	comm := `{"format":"dpsim-experiment/1","name":"grid","title":"T","base":{"preset":"gtdp-rendezvous"},
	 "set":{"iterations":100000,"record.every":1},"series":[{"name":"a"},{"name":"b"}],
	 "x":{"kind":"communication","counter":"messages","values":[0,1000000],"label":"m"},"runs":2,"seed":1,
	 "metrics":[{"name":"optimality"}],"statistic":"mean","figure":{"title":"T","y":{"metric":"optimality","label":"e"}}}`
	g := plan(t, comm).Estimate(4, 2)
	if want := int64(2 * 2 * 2 * perStat); g.Summaries != want {
		t.Errorf("summaries on a grid of 2 values: %s, want %s (2 series × 2 values × 2 metrics)", scenario.Bytes(g.Summaries), scenario.Bytes(want))
	}
}

// Issue 28, class 9: a sweep whose runs hold their state rather than
// their recorded points is not told to raise record.every, which a
// field axis has already set to the iterations (only the final values
// are recorded): the refusal names the network and the problem.
func TestSweepRefusalAdvisesWhatHelps(t *testing.T) {
	text := strings.Replace(small["field"], `"set":{"iterations":120}`,
		`"set":{"iterations":120,"graph":{"kind":"ring","n":2000},"problem.params.dim":100,"record.checkpoints":[0,60,120]}`, 1)
	p := plan(t, text)
	p.WorkersSetting = "--workers"
	// A budget one run at a time does not fit either: the workers are
	// one knob among others.
	err := p.CheckMemory(p.Tasks(), 8, p.Estimate(p.Tasks(), 1).Total-1)
	if err == nil || !strings.HasPrefix(err.Error(), "graph.n: this sweep needs about") || strings.Contains(err.Error(), "record.every") ||
		!strings.Contains(err.Error(), "lower --workers (now 8), the network or the problem") {
		t.Errorf("runs of large states: %v", err)
	}
}

// TestSweepEstimateScratchPerWorker: a sweep's run computes its agents'
// gradients one at a time, so a CNN sweep holds one scratch per worker,
// however many cores the machine has. The estimate counted one per core
// in every run and in every shared problem instance: on 64 cores, 64
// times over.
func TestSweepEstimateScratchPerWorker(t *testing.T) {
	text := `{"format":"dpsim-experiment/1","name":"cnn-scratch","title":"t","base":{"preset":"gtdp-cnn-mnist"},
		"set":{"iterations":2,"record.every":1},"series":[{"name":"a"}],
		"x":{"kind":"field","fields":["noise.eta.scale"],"values":[0.1,1],"label":"b"},
		"runs":2,"seed":1,"statistic":"mean","metrics":[{"name":"optimality"}],
		"figure":{"title":"t","y":{"metric":"optimality","label":"y"}}}`
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var ests []SweepEstimate
	for _, procs := range []int{1, 8} {
		runtime.GOMAXPROCS(procs)
		p := plan(t, text)
		ests = append(ests, p.Estimate(p.Tasks(), 2))
	}
	if ests[0] != ests[1] {
		t.Errorf("the sweep's estimate depends on the cores: %+v on one, %+v on eight", ests[0], ests[1])
	}
}

// TestExecuteTrustsTheCallersCheck: a caller that checked the memory of
// the tasks and workers it runs (dpsim sweep, before its progress bar)
// is not checked again by Execute, which used to repeat the check — with
// its own budget, so a caller's larger one was overruled; a caller that
// did not check is still checked (mktour, the engine's own callers).
func TestExecuteTrustsTheCallersCheck(t *testing.T) {
	text := strings.Replace(small["field"], `"iterations":120`, `"iterations":10000000`, 1)
	p := plan(t, text)
	if p.Estimate(p.Tasks(), 8).Total <= scenario.CLIBudget {
		t.Fatal("8 workers fit the budget: no case")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // no run starts: what Execute says first is what it checked
	if _, err := p.Execute(ctx, p.AllTasks(), 8, nil); err == nil || !strings.HasPrefix(err.Error(), "workers: ") {
		t.Errorf("unchecked: %v; want the memory refusal", err)
	}
	if err := p.CheckMemory(p.Tasks(), 8, 1<<40); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Execute(ctx, p.AllTasks(), 8, nil); err != context.Canceled {
		t.Errorf("checked by the caller: %v; want %v (no second check)", err, context.Canceled)
	}
	// Another count of workers than the caller checked is checked.
	if _, err := p.Execute(ctx, p.AllTasks(), 7, nil); err == nil || !strings.HasPrefix(err.Error(), "workers: ") {
		t.Errorf("7 workers after a check of 8: %v; want the memory refusal", err)
	}
}

// TestSweepWorkersApart: with workers of their own memory (the page's
// Web Workers), every worker holds the datasets, the problem instances
// and a collector's room of its own and the records are held twice; the
// parts still add up, the estimate grows by Each per worker, and the
// refusal names the page's setting, what one Worker holds and the most
// that fit, which MostWorkers chooses for an automatic count.
func TestSweepWorkersApart(t *testing.T) {
	p := plan(t, strings.Replace(small["field"], `"iterations":120`, `"iterations":10000000`, 1))
	tasks := p.Tasks()
	together := p.Estimate(tasks, 3)
	p.WorkersApart = true
	p.WorkersSetting = "Workers"
	for _, w := range []int{1, 3} {
		e := p.Estimate(tasks, w)
		if sum := e.Records + e.Summaries + e.Runs + e.Data + e.Room; sum != e.Total {
			t.Errorf("%d Workers: parts add up to %d, the total is %d", w, sum, e.Total)
		}
		if e.Records != 2*together.Records {
			t.Errorf("%d Workers: records %d, want twice %d", w, e.Records, together.Records)
		}
	}
	one, three := p.Estimate(tasks, 1), p.Estimate(tasks, 3)
	if got := three.Total - one.Total; got != 2*one.Each {
		t.Errorf("2 more Workers add %d, want 2 × %d", got, one.Each)
	}
	if three.Total <= together.Total {
		t.Errorf("3 Workers apart estimated at %s, no more than 3 goroutines of one process (%s)", scenario.Bytes(three.Total), scenario.Bytes(together.Total))
	}
	most := p.MostWorkers(tasks, 8, scenario.CLIBudget)
	if most < 1 || most >= 8 {
		t.Fatalf("%d Workers fit: no case", most)
	}
	err := p.CheckMemory(tasks, 8, scenario.CLIBudget)
	want := `^Workers: each Web Worker \(its own memory: the datasets, the problem instances and one run\) holds about [0-9.]+ [MG]iB, and 8 at once would take the sweep to about [0-9.]+ GiB of memory, more than the 4\.0 GiB it may use: at most ` + strconv.Itoa(most) + ` fit \(got 8\)$`
	if err == nil || !regexp.MustCompile(want).MatchString(err.Error()) {
		t.Errorf("8 Workers: %v; want one line matching %s", err, want)
	}
	if err := p.CheckMemory(tasks, most, scenario.CLIBudget); err != nil {
		t.Errorf("%d Workers: %v", most, err)
	}
	if p.MostWorkers(tasks, 2, scenario.CLIBudget) != min(2, most) {
		t.Errorf("MostWorkers up to 2: %d", p.MostWorkers(tasks, 2, scenario.CLIBudget))
	}
}
