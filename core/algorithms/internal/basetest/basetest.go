// Package basetest holds what the tests of the DP-RECAL paper's baselines
// share: a small composite problem on the paper's ring of 8 agents, built
// for any of them with the parameters a test gives, and the distance of a
// run's estimates from the central solver's x*.
package basetest

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	_ "dpsim/core/data/files" // the committed datasets, for Bench
	"dpsim/core/num"
	"dpsim/core/privacy"
	"dpsim/core/runner"
	"dpsim/core/runner/runnertest"
	"dpsim/core/scenario"
	"dpsim/core/sim"
)

// Setup is one test scenario.
type Setup struct {
	// Algorithm and Params ({"alpha": 0.1, …}, a JSON object's inside).
	Algorithm, Params string
	// Channel is the noise channel and Scale its σ_1 (0: no noise).
	Channel string
	Scale   float64
	// Loss is "squares" or "logistic"; L1 the ℓ1 weight of r (with
	// Regularizer "elastic-net", the default) or Regularizer "none".
	Loss, Regularizer string
	L1                float64
	// Graph is a graph section ({"kind": "ring", "n": 8} by default).
	Graph      string
	Iterations int
	Seed       int
}

// JSON returns the scenario's text.
func (s Setup) JSON() string {
	if s.Loss == "" {
		s.Loss = "squares"
	}
	if s.Regularizer == "" {
		s.Regularizer = "elastic-net"
	}
	if s.Graph == "" {
		s.Graph = `{"kind": "ring", "n": 8}`
	}
	if s.Seed == 0 {
		s.Seed = 7
	}
	l2 := 0.0
	if s.Regularizer == "none" {
		l2 = 1
	}
	return fmt.Sprintf(`{"name": "t", "seed": %d, "graph": %s, "weights": {"kind": "metropolis"},
  "problem": {"kind": "logistic", "params": {"dataset": "synthetic", "rows": 160, "features": 5, "test_rows": 20, "loss": %q, "l2": %v, "regularizer": %q, "r_l1": %v, "r_l2": 1}},
  "algorithm": {"kind": %q, "params": {%s}},
  "noise": {%q: {"dist": "gaussian", "scale": %v}},
  "iterations": %d, "record": {"every": 1}}`, s.Seed, s.Graph, s.Loss, l2, s.Regularizer, s.L1, s.Algorithm, s.Params, s.Channel, s.Scale, s.Iterations)
}

// Build builds the scenario, failing the test on an error.
func (s Setup) Build(t testing.TB) *scenario.Built {
	t.Helper()
	return runnertest.Parse(t, []byte(s.JSON()), nil)
}

// Run builds and runs the scenario.
func (s Setup) Run(t testing.TB) *runner.Runner {
	t.Helper()
	return runnertest.Run(t, s.Build(t))
}

// Error returns the largest relative distance max_i ‖x_i − x*‖/‖x*‖ of
// the run's last estimates (or its shared output) from the problem's x*,
// the central solver's.
func Error(t testing.TB, r *runner.Runner, est []float64) float64 {
	t.Helper()
	opt := r.Built().Env.Problem.Optimum()
	d := len(opt)
	no := 0.0
	for _, v := range opt {
		no += float64(v * v)
	}
	if no == 0 {
		t.Fatal("x* = 0: the relative error is undefined; give the test a smaller ℓ1 weight")
	}
	worst := 0.0
	for i := 0; i+d <= len(est); i += d {
		s := 0.0
		for c := range d {
			e := est[i+c] - opt[c]
			s += float64(e * e)
		}
		worst = math.Max(worst, math.Sqrt(s/no))
	}
	return worst
}

// PLF returns the ledger's privacy leakage frequency input.
func PLF(l privacy.Ledger) int {
	for _, in := range l.Inputs {
		if in.Name == "PLF" {
			return int(in.Value)
		}
	}
	return -1
}

// CheckCalibrate runs s with the scenario's "calibrate" at target ε over
// its iterations and fails the test unless the ledger reports the target
// to 1e-9.
func CheckCalibrate(t testing.TB, s Setup, eps float64) {
	t.Helper()
	b := runnertest.Parse(t, []byte(s.JSON()), func(sc *scenario.Scenario) {
		sc.Calibrate = &scenario.Calibrate{Epsilon: eps}
	})
	r := runnertest.Run(t, b)
	if got := r.Ledger().Max.Value(); math.Abs(got-eps) > 1e-9*eps {
		t.Errorf("%s calibrated to ε = %g over %d iterations: the ledger reports %.15g", s.Algorithm, eps, s.Iterations, got)
	}
}

// CheckCalibrateConversions is CheckCalibrate with each conversion,
// tight and simple, added to s's parameters.
func CheckCalibrateConversions(t testing.TB, s Setup, eps float64) {
	t.Helper()
	for _, conv := range []string{"tight", "simple"} {
		c := s
		c.Params = `"conversion": "` + conv + `"`
		if s.Params != "" {
			c.Params = s.Params + ", " + c.Params
		}
		CheckCalibrate(t, c, eps)
	}
}

// CheckTargetEpsilon runs s with each conversion and each target ε of
// epsilons set through the algorithm's target_epsilon at plf publications,
// and fails the test unless the ledger reports the target to 1e-9 after
// s's iterations (which must make plf publications).
func CheckTargetEpsilon(t testing.TB, s Setup, plf int, epsilons ...float64) {
	t.Helper()
	for _, conv := range []string{"tight", "simple"} {
		for _, eps := range epsilons {
			c := s
			c.Params = fmt.Sprintf(`"conversion": %q, "target_epsilon": %s, "plf": %d`, conv, strconv.FormatFloat(eps, 'g', -1, 64), plf)
			if got := c.Run(t).Ledger().Max.Value(); math.Abs(got-eps) > 1e-9*eps {
				t.Errorf("%s, %s, target %g: ε = %.15g after %d iterations (PLF %d)", s.Algorithm, conv, eps, got, s.Iterations, plf)
			}
		}
	}
}

// CheckFactorFor builds s and fails the test unless its accountant's
// inverse predictor gives a noise factor whose predicted ε over s's
// iterations is eps to 1e-9.
func CheckFactorFor(t testing.TB, s Setup, eps float64) {
	t.Helper()
	p, ok := s.Build(t).Accountant.(privacy.InversePredictor)
	if !ok {
		t.Fatalf("%s's accountant is not a privacy.InversePredictor", s.Algorithm)
	}
	f, err := p.FactorFor(s.Iterations, eps)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.PredictEpsilon(s.Iterations, f).Value(); math.Abs(got-eps) > 1e-9*eps {
		t.Errorf("%s: calibrated factor %g predicts ε = %.15g, want %g", s.Algorithm, f, got, eps)
	}
}

// CheckOptimum runs every setup and fails the test unless the estimates
// in the algorithm's state variable "x" are within the relative distance
// tol of x* (Error).
func CheckOptimum(t testing.TB, tol float64, setups ...Setup) {
	t.Helper()
	for _, s := range setups {
		r := s.Run(t)
		if got := Error(t, r, runnertest.State(r.Built().Algorithm, "x")); got > tol {
			t.Errorf("%s, %s/%s, ℓ1 %g: max_i ‖x_i − x*‖/‖x*‖ = %g after %d iterations, want ≤ %g", s.Algorithm, s.Loss, s.Regularizer, s.L1, got, s.Iterations, tol)
		}
	}
}

// CheckConfidence fails the test unless the source confidence of
// baselines.md is shown where people read: in the factory's description
// paper, as "(confidence …)", and in the ledger's source of a run of s.
func CheckConfidence(t testing.TB, paper, confidence string, s Setup) {
	t.Helper()
	if !strings.Contains(paper, "(confidence "+confidence+")") {
		t.Errorf("the factory's Paper does not carry the confidence: %s", paper)
	}
	if l := s.Run(t).Ledger(); !strings.Contains(l.Source, confidence) {
		t.Errorf("the ledger's source does not carry the confidence: %s", l.Source)
	}
}

// Bench times one iteration of s's algorithm on the DP-RECAL paper's
// setting — ijcnn1 (least squares, ℓ1 weight 0.01 with ½‖x‖², or an ℓ2
// term for reg "none"), a ring of 8, noise at scale 1 — and reports the
// time per message (Table IV's time column divided by its Comm. column)
// beside ns/op.
func Bench(b *testing.B, alg, channel, reg string) {
	s := Setup{Algorithm: alg, Channel: channel, Scale: 1, Regularizer: reg, L1: 0.01, Iterations: 10_000_000}
	js := strings.Replace(s.JSON(), `"dataset": "synthetic", "rows": 160, "features": 5, "test_rows": 20`, `"dataset": "ijcnn1", "test_accuracy": false`, 1)
	bt := runnertest.Parse(b, []byte(js), nil)
	a := bt.Algorithm
	msgs := 0
	b.ResetTimer()
	for range b.N {
		msgs += a.Advance().Links()
	}
	b.StopTimer()
	if msgs > 0 {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(msgs), "ns/message")
	}
}

// noiseLog collects every release's noise, sender and iteration.
type noiseLog struct {
	from, iter []int
	noise      [][]float64
}

func (l *noiseLog) Record(s *sim.Step) {
	for _, r := range s.Releases {
		l.from = append(l.from, r.From)
		l.iter = append(l.iter, s.Iter)
		l.noise = append(l.noise, append([]float64(nil), r.Noise...))
	}
}

// CheckNoise runs s (its Scale is σ_1) and checks that the noise drawn is
// the noise the ledger accounts for: a sender's t-th noisy release has
// standard deviation σ_1·R^(−(t−1)/2)·extra(i, t, k) (extra = 1 when nil;
// k is the iteration), releases without noise only at iterations free(k)
// says cost nothing, and the standardised squares average 1 within four
// standard errors (a χ² test over every coordinate).
func CheckNoise(t testing.TB, s Setup, r float64, extra func(i, t, k int) float64, free func(k int) bool) {
	t.Helper()
	b := s.Build(t)
	log := &noiseLog{}
	run := runner.New(b, log)
	if err := run.Run(); err != nil {
		t.Fatal(err)
	}
	pubs := map[int]int{}
	sum, m := 0.0, 0
	for k, nz := range log.noise {
		zero := true
		for _, v := range nz {
			zero = zero && v == 0
		}
		if zero {
			if free == nil || !free(log.iter[k]) {
				t.Fatalf("%s: agent %d released without noise at iteration %d", s.Algorithm, log.from[k], log.iter[k])
			}
			continue
		}
		if free != nil && free(log.iter[k]) {
			t.Fatalf("%s: agent %d released noise at the free iteration %d", s.Algorithm, log.from[k], log.iter[k])
		}
		i := log.from[k]
		pubs[i]++
		sd := s.Scale * num.Pow(r, -0.5*float64(pubs[i]-1))
		if extra != nil {
			sd *= extra(i, pubs[i], log.iter[k])
		}
		for _, v := range nz {
			sum += float64((v / sd) * (v / sd))
			m++
		}
	}
	if m < 1000 {
		t.Fatalf("%s: only %d noise values; the test needs more", s.Algorithm, m)
	}
	mean := sum / float64(m)
	if se := math.Sqrt(2 / float64(m)); math.Abs(mean-1) > 4*se {
		t.Errorf("%s: mean standardised square %.4f over %d values, want 1 ± %.4f: the drawn noise is not the noise the ledger assumes", s.Algorithm, mean, m, 4*se)
	}
}

// CheckStepWarning builds s with α = 100 and with a small α (0.01), and
// fails the test unless the first warns, in one line naming
// algorithm.params.alpha, that the step breaks the algorithm's condition,
// and the second does not.
func CheckStepWarning(t testing.TB, s Setup) {
	t.Helper()
	for _, c := range []struct {
		alpha string
		warn  bool
	}{{"100", true}, {"0.01", false}} {
		c2 := s
		c2.Params = `"alpha": ` + c.alpha
		warned := false
		for _, w := range c2.Build(t).Warnings {
			warned = warned || (w.Field == "algorithm.params.alpha" && strings.Contains(w.Message, "is not below") && !strings.Contains(w.Message, "\n"))
		}
		if warned != c.warn {
			t.Errorf("%s with α = %s: warned %v, want %v", s.Algorithm, c.alpha, warned, c.warn)
		}
	}
}
