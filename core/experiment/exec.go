package experiment

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"sync"
	"sync/atomic"

	"dpsim/core/audit"
	"dpsim/core/runner"
	"dpsim/core/scenario"
)

// Run statuses.
const (
	StatusCompleted = "completed" // every planned iteration ran
	// StatusStopped: the scenario's stop rule (a message budget, a
	// maximum activation count) ended the run early; its final values are
	// those at the stop.
	StatusStopped  = "stopped"
	StatusDiverged = "diverged" // the estimates left the finite range; no final values
	StatusFailed   = "failed"   // the scenario did not build with this run's seeds (e.g. no connected random graph)
)

// RunRecord is what one task leaves: its final metrics and quantities
// (missing, as NaN, unless the run completed) and, on the iteration axis,
// its metric curves at the series' recorded iterations (on the
// communication axis also the counter's curve there).
type RunRecord struct {
	Task   int    `json:"task"`
	Series int    `json:"series"`
	Point  int    `json:"point"`
	Run    int    `json:"run"`
	Status string `json:"status"`
	Error  string `json:"error,omitempty"`
	// Iterations is the number of iterations run.
	Iterations int           `json:"iterations"`
	Metrics    map[string]F  `json:"metrics"`
	Quantities map[string]FI `json:"quantities,omitempty"`
	Curves     map[string]Fs `json:"curves,omitempty"`
	// Counter is the communication axis's counter at the same recorded
	// iterations as Curves.
	Counter Fs `json:"counter,omitempty"`
}

// cancelEvery is how many iterations a run goes between looks at its
// context: often enough that Ctrl-C stops a long run within milliseconds,
// rarely enough to cost nothing.
const cancelEvery = 256

// RunTask runs task t and returns its record. The error is non-nil only
// when ctx is cancelled first; a run that diverges or fails to build is a
// record with that status.
func (p *Plan) RunTask(ctx context.Context, t int) (RunRecord, error) {
	return p.RunTaskReporting(ctx, t, nil)
}

// RunTaskReporting is RunTask calling report(done, total) after every
// iteration of the run (total is the scenario's horizon; a run may stop
// before it), so that a long single run — a CNN in a browser Worker —
// can show how far it is. report decides itself how often to pass it on.
func (p *Plan) RunTaskReporting(ctx context.Context, t int, report func(done, total int)) (RunRecord, error) {
	k := p.Task(t)
	e := p.Exp
	s := e.Series[k.Series]
	sp := p.series[k.Series]
	pp := sp.points[k.Point]
	rec := RunRecord{Task: t, Series: k.Series, Point: k.Point, Run: k.Run, Metrics: map[string]F{}}
	nan := F(math.NaN())
	for _, m := range e.Metrics {
		rec.Metrics[m.id()] = nan
	}
	if len(p.Quantities) > 0 {
		rec.Quantities = map[string]FI{}
		for _, q := range p.Quantities {
			rec.Quantities[q] = FI(nan)
		}
	}
	b, err := p.build(ctx, &pp, sp.hook, s, e.runSeeds(k.Run, s.Name, k.Point))
	if err != nil {
		if ctx.Err() != nil {
			// Interrupted while building (a calibration search): not a
			// failed run, just one that did not happen.
			return RunRecord{}, ctx.Err()
		}
		rec.Status, rec.Error = StatusFailed, err.Error()
		return rec, nil
	}
	var lis *audit.Listener
	var r *runner.Runner
	if p.audit != nil {
		lis = p.audit.listener()
		r = runner.New(b, lis)
	} else {
		r = runner.New(b)
	}
	rec.Status = StatusCompleted
	for i := 0; ; i++ {
		if i%cancelEvery == 0 && ctx.Err() != nil {
			return RunRecord{}, ctx.Err()
		}
		if _, err := r.Advance(); err != nil {
			if !errors.Is(err, runner.ErrDone) {
				rec.Status, rec.Error = StatusDiverged, err.Error()
			}
			break
		}
		if report != nil {
			report(r.Iter(), b.Scenario.Iterations)
		}
	}
	rec.Iterations = r.Iter()
	if rec.Status == StatusCompleted && r.Stopped() != "" {
		rec.Status = StatusStopped
	}
	final := rec.Status == StatusCompleted || rec.Status == StatusStopped
	run := &Run{Built: b, Runner: r}
	// curve returns a curve on the plan's grid of recorded iterations.
	curve := func(iters []int, vals []float64) (Fs, error) {
		if rec.Status == StatusStopped && len(iters) > 0 && !slices.Contains(pp.grid, iters[len(iters)-1]) {
			// The stop's own point is off the grid: the curve is the
			// prefix on it (the final value is still the stop's).
			iters, vals = iters[:len(iters)-1], vals[:len(vals)-1]
		}
		return onGrid(iters, vals, pp.grid, rec.Status == StatusCompleted)
	}
	if e.X.alongRun() {
		rec.Curves = map[string]Fs{}
	}
	if e.X.Kind == XCommunication {
		c, err := curve(columnMetric(e.X.Counter, "").Curve(run))
		if err != nil {
			return RunRecord{}, fmt.Errorf("task %d, counter %s: %w", t, e.X.Counter, err)
		}
		rec.Counter = c
	}
	for _, m := range e.Metrics {
		iters, vals := metricDef(m.Name).Curve(run)
		if e.X.alongRun() {
			c, err := curve(iters, vals)
			if err != nil {
				return RunRecord{}, fmt.Errorf("task %d, metric %s: %w", t, m.id(), err)
			}
			rec.Curves[m.id()] = c
		}
		if final {
			rec.Metrics[m.id()] = F(canon(reduce(m, iters, vals, r.Iter())))
		}
	}
	if final {
		for _, q := range p.Quantities {
			if def, ok := quantities[q]; ok {
				// ±Inf stays: ε = ∞ is a value (see FI).
				rec.Quantities[q] = FI(def.Value(run))
			}
		}
	}
	if lis != nil {
		p.audit.auditRecord(&rec, r, lis)
	}
	return rec, nil
}

// onGrid checks that a run recorded the series' grid — all of it when the
// run completed, a prefix when it diverged (the figure then says so) — and
// returns its values there. A completed run with a shortened curve would
// otherwise pass for a run that stopped early, and bias the late points'
// statistics towards the runs that recorded them.
func onGrid(iters []int, vals []float64, grid []int, completed bool) (Fs, error) {
	if len(iters) > len(grid) || (completed && len(iters) != len(grid)) {
		return nil, fmt.Errorf("the run recorded %d points; the plan expects %d", len(iters), len(grid))
	}
	out := make(Fs, len(iters))
	for i, k := range iters {
		if grid[i] != k {
			return nil, fmt.Errorf("the run recorded iteration %d where the plan expects %d", k, grid[i])
		}
		out[i] = canon(vals[i])
	}
	return out, nil
}

// reduce turns one run's curve into one number.
func reduce(m Metric, iters []int, vals []float64, last int) float64 {
	if len(vals) == 0 {
		return math.NaN()
	}
	if m.Reduce != ReduceTailMean {
		return vals[len(vals)-1]
	}
	sum, n := 0.0, 0
	for i, k := range iters {
		if k > last-m.Last {
			sum += vals[i]
			n++
		}
	}
	return sum / float64(n) // n ≥ 1: the last iteration is always recorded
}

// RunMajor returns tasks reordered run by run (run 0 of every series and
// point, then run 1, …), the order Execute and the page run them in: a
// sweep stopped early then has a few runs at every point, not all the runs
// of the first points. The order never changes a result, which is keyed by
// task index.
func (p *Plan) RunMajor(tasks []int) []int {
	out := append([]int(nil), tasks...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := p.Task(out[i]), p.Task(out[j])
		if a.Run != b.Run {
			return a.Run < b.Run
		}
		return a.Index < b.Index
	})
	return out
}

// Execute runs tasks on workers goroutines, each pulling the next task
// (in RunMajor order), once their memory is checked (CheckMemory, unless
// the caller's last check was of the same tasks and workers), and returns the records of the tasks that
// finished, in task order. progress, if not nil, is called (never concurrently) after each
// task with the number finished. When ctx is cancelled no new task starts,
// running tasks stop within cancelEvery iterations, and Execute returns
// what finished with ctx's error. On a communication axis without a grid,
// a counter that differs between two finished runs of a series stops the
// sweep the same way, with Assemble's one-line refusal as the error.
func (p *Plan) Execute(ctx context.Context, tasks []int, workers int, progress func(done int)) ([]RunRecord, error) {
	// Checked with workers as given, which the refusal quotes, unless
	// the caller has just checked the same (dpsim sweep, before its
	// progress bar): one check, one message.
	if !p.MemoryChecked(len(tasks), workers) {
		if err := p.CheckMemory(len(tasks), workers, scenario.CLIBudget); err != nil {
			return nil, err
		}
	}
	workers = max(1, min(workers, len(tasks)))
	tasks = p.RunMajor(tasks)
	// A counter the communication axis cannot use stops the sweep early.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	ref := make([]*RunRecord, len(p.series))
	recs := make([]RunRecord, len(tasks))
	ok := make([]bool, len(tasks))
	var next atomic.Int64
	var mu sync.Mutex
	var firstErr error
	done := 0
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= len(tasks) || ctx.Err() != nil {
					return
				}
				rec, err := p.RunTask(ctx, tasks[i])
				mu.Lock()
				if err != nil {
					if firstErr == nil {
						firstErr = err
					}
					mu.Unlock()
					return
				}
				var cerr error
				if ref[rec.Series], cerr = p.sameCounter(ref[rec.Series], &rec); cerr != nil {
					if firstErr == nil {
						firstErr = cerr
					}
					cancel()
				}
				recs[i], ok[i] = rec, true
				done++
				if progress != nil {
					progress(done)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if p.problems != nil {
		p.problems.reset() // the sweep is over: free its problems
	}
	out := make([]RunRecord, 0, done)
	for i := range recs {
		if ok[i] {
			out = append(out, recs[i])
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Task < out[j].Task })
	if firstErr == nil {
		firstErr = ctx.Err()
	}
	return out, firstErr
}
