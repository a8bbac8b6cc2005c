package ui

import (
	"math"
	"sort"
	"time"

	"dpsim/core/noise"
	"dpsim/core/runner"
	"dpsim/core/scenario"
)

// Ghost is the noise-free twin of the page's run: the same scenario with
// every noise scale set to zero and no calibration, run up to the main
// run's iteration so that the plot can draw, faintly, what the same
// algorithm reaches without privacy noise (the cost of privacy is the
// gap between the two curves). It holds no syscall/js, so that it is
// tested natively.
type Ghost struct {
	run  *runner.Runner
	live *Live
	err  error
}

// NewGhost builds the noise-free twin of s. It returns nil when s adds
// no noise (the ghost would be the run itself) or when the noise-free
// scenario does not build (an algorithm that refuses zero noise): the
// page then draws no ghost.
func NewGhost(s *scenario.Scenario) *Ghost {
	if !Noisy(s) {
		return nil
	}
	b, err := scenario.BuildFor(noiseFree(s), scenario.Page)
	if err != nil {
		return nil
	}
	r := runner.New(b)
	r.Start()
	return &Ghost{run: r, live: NewLive(b, 1)}
}

// noiseFree returns the ghost's scenario: s with every noise scale zero
// and no calibration. An algorithm's own privacy target (method.Target)
// calibrates its noise channels like a calibrate section, so on zero
// noise it applies to nothing (the build warns and draws no noise): the
// ghost is noise-free for every algorithm.
func noiseFree(s *scenario.Scenario) *scenario.Scenario {
	cp := *s
	cp.Calibrate = nil
	cp.Stop = nil
	cp.Record.Checkpoints = nil // resuming is the main run's business
	cp.Noise = zeroNoise(s)
	return &cp
}

// Noisy reports whether s adds any privacy noise to its messages. s
// need not have been built: a decay left out (the zero schedule, which
// the build makes constant 1) does not turn the noise off.
func Noisy(s *scenario.Scenario) bool {
	for _, sp := range s.Noise {
		if sp == nil {
			continue
		}
		cp := *sp
		if cp.Decays == nil && cp.Decay == (noise.Schedule{}) {
			cp.Decay = noise.Const(1)
		}
		if cp.Var > 0 || !cp.IsOff() {
			return true
		}
	}
	return false
}

// zeroNoise returns s's noise channels with every scale zero.
func zeroNoise(s *scenario.Scenario) map[string]*noise.Spec {
	out := make(map[string]*noise.Spec, len(s.Noise))
	for k, sp := range s.Noise {
		if sp == nil {
			out[k] = nil
			continue
		}
		z := *sp
		z.Scale, z.Scales, z.Var, z.VarOf = 0, nil, 0, ""
		out[k] = &z
	}
	return out
}

// CatchUp advances the ghost towards iteration iter for at most budget
// of wall-clock time (checked after every iteration: on a large network
// one iteration is milliseconds); a zero budget runs nothing, which is
// what fast-forward asks (its frames are the run's). It returns the
// ghost's iteration.
func (g *Ghost) CatchUp(iter int, budget time.Duration) int {
	if g == nil {
		return 0
	}
	if g.err != nil || budget <= 0 {
		return g.run.Iter()
	}
	start := time.Now()
	for g.run.Iter() < iter {
		if time.Since(start) >= budget {
			break
		}
		if _, err := g.run.Advance(); err != nil {
			g.err = err
			break
		}
	}
	return g.run.Iter()
}

// Iter returns the ghost's iteration (0 for a nil ghost).
func (g *Ghost) Iter() int {
	if g == nil {
		return 0
	}
	return g.run.Iter()
}

// At returns the ghost's headline metric (optimality, or stationarity
// for a problem without a known optimum) at each of iters, NaN where the
// ghost has not got there yet or recorded nothing.
func (g *Ghost) At(iters []float64, stationarity bool) []float64 {
	out := make([]float64, len(iters))
	if g == nil {
		for i := range out {
			out[i] = math.NaN()
		}
		return out
	}
	s := &g.run.Metrics.Series
	g.live.bind(s)
	n := s.Len()
	// The page keeps its series in memory: search the iterations there,
	// without building a Point (and its extra columns) per probe.
	iterAt := func(j int) int { return s.At(j).Iter }
	if n == len(s.Iter) {
		iterAt = func(j int) int { return s.Iter[j] }
	}
	for i, it := range iters {
		k := sort.Search(n, func(j int) bool { return float64(iterAt(j)) >= it })
		if k >= n || float64(iterAt(k)) != it {
			out[i] = math.NaN()
			continue
		}
		p := s.At(k)
		if stationarity {
			out[i] = g.live.Stationarity(p)
		} else {
			out[i] = p.Optimality
		}
	}
	return out
}
