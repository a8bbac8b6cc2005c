package ui

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"dpsim/core/metrics"
	"dpsim/core/runner"
	"dpsim/core/scenario"
	"dpsim/ui/internal/wavetoy"
)

// build parses and builds a scenario's JSON text.
func build(t *testing.T, js string) *scenario.Built {
	t.Helper()
	s, err := scenario.Parse([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	b, err := scenario.BuildFor(s, scenario.Page)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// waveScenario is GT-DP on a ring of six agents with the wave toy, a
// problem without a known optimum; extra is spliced into the object.
func waveScenario(iters int, extra string) string {
	return fmt.Sprintf(`{"name": "wave", "seed": 3, "graph": {"kind": "ring", "n": 6},
		"weights": {"kind": "metropolis"}, "problem": {"kind": %q, "params": {"dim": 2}},
		"algorithm": {"kind": "gt-dp", "params": {"alpha": 0.1, "gradient_bound": 2}},
		"noise": {"eta": {"dist": "laplace", "scale": 0.01, "decay": {"kind": "polynomial", "c": 1, "m": 1, "p": 0.8}},
			"xi": {"dist": "laplace", "scale": 0.01, "decay": {"kind": "polynomial", "c": 1, "m": 1, "p": 0.8}}}, %s "iterations": %d}`, wavetoy.Kind, extra, iters)
}

func registerWave(t *testing.T) {
	t.Helper()
	un, err := wavetoy.Register()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(un)
}

// TestLiveNoOptimum checks that for a problem without a known optimum the
// live plot's headline is stationarity, named as metrics.Describe names
// it, with the note saying why there is no ‖x − x*‖, and that its
// decimated history carries the recorded stationarity: every value one
// the series recorded, the extremes kept, on the same iteration axis as
// the other metrics, whose optimality is NaN throughout.
func TestLiveNoOptimum(t *testing.T) {
	registerWave(t)
	b := build(t, waveScenario(40, ""))
	r := runner.New(b)
	if err := r.Run(); err != nil {
		t.Fatal(err)
	}
	const buckets = 4 // 41 points: the history must decimate
	l := NewLive(b, buckets)
	l.Feed(&r.Metrics.Series)
	if name, label := l.Headline(); name != HeadlineStationarity || label != metrics.StationarityLabel {
		t.Errorf("headline %q %q, want %q %q", name, label, HeadlineStationarity, metrics.StationarityLabel)
	}
	if l.Desc.Note != metrics.NoOptimumNote || l.Desc.Optimality != metrics.NoOptimumLabel {
		t.Errorf("description %+v", l.Desc)
	}
	col := r.Metrics.Series.ExtraColumn(metrics.ColStationarity)
	if len(col) != 41 {
		t.Fatalf("%d stationarity points recorded, want 41", len(col))
	}
	iter, opt, cons, _, stat := l.Points()
	if len(stat) != len(iter) || len(opt) != len(iter) || len(iter) > 2*buckets || len(iter) < 2 {
		t.Fatalf("history: %d iterations, %d stationarity, %d optimality values (at most %d)", len(iter), len(stat), len(opt), 2*buckets)
	}
	for k, v := range stat {
		if !slices.Contains(col, v) || !(v > 0) {
			t.Errorf("point %d (iteration %v): stationarity %v is not a recorded positive value", k, iter[k], v)
		}
		if !math.IsNaN(opt[k]) || !(cons[k] >= 0) {
			t.Errorf("point %d: optimality %v (want NaN), consensus %v", k, opt[k], cons[k])
		}
	}
	if lo, hi := slices.Min(col), slices.Max(col); !slices.Contains(stat, lo) || !slices.Contains(stat, hi) {
		t.Errorf("the history lost an extreme: min %v max %v of %v", lo, hi, stat)
	}
	// The readout and the bridge's metrics(from) read the same column.
	if got := l.Stationarity(r.Metrics.Latest()); got != col[40] {
		t.Errorf("latest stationarity %v, want %v", got, col[40])
	}
	if got := l.StationarityColumn(&r.Metrics.Series, 38); !slices.Equal(got, col[38:]) {
		t.Errorf("StationarityColumn(38) = %v, want %v", got, col[38:])
	}
}

// TestLiveWithOptimum checks that a problem with an optimum keeps
// optimality as the headline and records no stationarity.
func TestLiveWithOptimum(t *testing.T) {
	s, err := scenario.PresetScenario("gtdp-rendezvous")
	if err != nil {
		t.Fatal(err)
	}
	s.Iterations, s.Record.Checkpoints = 5, nil
	b, err := scenario.BuildFor(s, scenario.Page)
	if err != nil {
		t.Fatal(err)
	}
	r := runner.New(b)
	if err := r.Run(); err != nil {
		t.Fatal(err)
	}
	l := NewLive(b, HistoryBuckets)
	l.Feed(&r.Metrics.Series)
	if name, label := l.Headline(); name != HeadlineOptimality || label != metrics.OptimalityLabel || l.Desc.Note != "" {
		t.Errorf("headline %q %q, note %q", name, label, l.Desc.Note)
	}
	iter, opt, _, _, stat := l.Points()
	if stat != nil || len(iter) != 6 || !(opt[5] > 0) {
		t.Errorf("history: iterations %v, optimality %v, stationarity %v", iter, opt, stat)
	}
	if v := l.Stationarity(r.Metrics.Latest()); !math.IsNaN(v) {
		t.Errorf("stationarity %v without the column, want NaN", v)
	}
	if got := l.StationarityColumn(&r.Metrics.Series, 0); got != nil {
		t.Errorf("StationarityColumn = %v, want nil", got)
	}
}

// TestStatus checks the page's status of a run: ready at iteration 0,
// paused or running part-way, done at the end, and stopped with the stop
// rule's reason when a message budget ends it early.
func TestStatus(t *testing.T) {
	registerWave(t)
	for _, c := range []struct {
		name, extra   string
		steps         int // -1: run to the end
		running       bool
		status, cause string
	}{
		{"ready", "", 0, false, "ready", ""},
		{"paused", "", 3, false, "paused", ""},
		{"running", "", 3, true, "running", ""},
		{"done", "", -1, true, "done", ""},
		// A ring of six sends 12 messages per channel and iteration.
		{"stopped", `"stop": {"max_messages": 100},`, -1, true, "stopped", "stop.max_messages"},
	} {
		r := runner.New(build(t, waveScenario(20, c.extra)))
		r.Start()
		if c.steps < 0 {
			if err := r.Run(); err != nil {
				t.Fatal(err)
			}
		}
		for range c.steps {
			if _, err := r.Advance(); err != nil {
				t.Fatal(err)
			}
		}
		status, reason := Status(r, c.running, NewLive(r.Built(), 8))
		if status != c.status || !strings.Contains(reason, c.cause) || (c.cause == "") != (reason == "") {
			t.Errorf("%s: status %q, reason %q; want %q, a reason naming %q", c.name, status, reason, c.status, c.cause)
		}
		if c.status == "stopped" && r.Iter() >= 20 {
			t.Errorf("%s: the stop rule did not stop the run early (iteration %d)", c.name, r.Iter())
		}
	}
}

// noisyRendezvous is GT-DP on a ring of six with constant Laplace noise
// of scale b on both messages: large enough, the run ends far above its
// start.
func noisyRendezvous(b float64) string {
	return fmt.Sprintf(`{"name": "noisy", "seed": 5, "graph": {"kind": "ring", "n": 6},
		"weights": {"kind": "metropolis"}, "problem": {"kind": "rendezvous", "params": {"dim": 2}},
		"algorithm": {"kind": "gt-dp", "params": {"alpha": 0.1, "gradient_bound": 10}},
		"noise": {"eta": {"dist": "laplace", "scale": %g}, "xi": {"dist": "laplace", "scale": %g}}, "iterations": 60}`, b, b)
}

// TestStatusWorseOrDiverged checks that a run whose error ends above its
// start is not "done": "worse" with the numbers, and "diverged" once it
// ends beyond DivergedFactor times its start, while a run that learns
// stays "done" (issue 29: the DP-RECAL baselines at ε = 12 ended at
// 2.6·10⁶ from 0.018 and the page said "done").
func TestStatusWorseOrDiverged(t *testing.T) {
	for _, c := range []struct {
		noise  float64
		status string
	}{{0.001, "done"}, {3, OutcomeWorse}, {1e5, OutcomeDiverged}} {
		b := build(t, noisyRendezvous(c.noise))
		r := runner.New(b)
		if err := r.Run(); err != nil {
			t.Fatal(err)
		}
		l := NewLive(b, 8)
		start, end := l.Ends(&r.Metrics.Series)
		status, reason := Status(r, false, l)
		if status != c.status {
			t.Errorf("noise %g: status %q (%s), want %q; the error went from %.3g to %.3g", c.noise, status, reason, c.status, start, end)
		}
		if c.status != "done" && !strings.Contains(reason, "above its start") {
			t.Errorf("noise %g: reason %q does not give the numbers", c.noise, reason)
		}
	}
}

// TestNoiseWarningAboveRounding checks the noise warning against the
// noise-free ghost (issue 29: the landing compared its error with a
// ghost at 1.9·10⁻²⁹, floating-point rounding, and printed "1.6e24×").
// At the end of that landing, GT-DP's rendezvous, the ghost is at
// rounding: the warning says so and prints no ratio; a ghost above
// rounding gets the ratio; a run within 100× of its ghost gets none.
func TestNoiseWarningAboveRounding(t *testing.T) {
	s, err := scenario.PresetScenario(rendezvous)
	if err != nil {
		t.Fatal(err)
	}
	b := build(t, string(s.JSON()))
	r := runner.New(b)
	if err := r.Run(); err != nil {
		t.Fatal(err)
	}
	g := NewGhost(b.Scenario)
	g.CatchUp(r.Iter(), time.Hour)
	l := NewLive(b, 8)
	start, _ := l.Ends(&r.Metrics.Series)
	it, own, gv := l.NoiseAt(&r.Metrics.Series, g)
	floor := start * RoundingShare
	if it != r.Iter() || !(gv < floor) || !(own > 100*floor) {
		t.Fatalf("%s at iteration %d: run %.3g, ghost %.3g, floor %.3g; want the ghost at rounding", rendezvous, it, own, gv, floor)
	}
	w := NoiseWarning("optimality", it, own, gv, floor)
	if !strings.Contains(w, "floating-point rounding") || strings.Contains(w, "×") {
		t.Errorf("a ghost at rounding: %q", w)
	}
	if w := NoiseWarning("optimality", it, own, 1e6*floor, floor); !strings.Contains(w, "× the noise-free run's") {
		t.Errorf("a ghost above rounding: %q", w)
	}
	if w := NoiseWarning("optimality", it, 50, 1, floor); w != "" {
		t.Errorf("a run within 100× of its ghost: %q", w)
	}
}
