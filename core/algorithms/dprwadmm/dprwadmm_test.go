package dprwadmm_test

import (
	"math"
	"slices"
	"strings"
	"testing"

	"dpsim/core/algorithms/dprwadmm"
	"dpsim/core/algorithms/internal/basetest"
	"dpsim/core/privacy"
	"dpsim/core/runner"
	"dpsim/core/runner/runnertest"
	"dpsim/core/scenario"
	"dpsim/core/sim"
)

// Without noise DP-RWADMM is Walkman with a linearized local step: the
// token's estimate reaches the central solver's x*.
func TestNoiseFreeReachesOptimum(t *testing.T) {
	basetest.CheckOptimum(t, 1e-9,
		basetest.Setup{Algorithm: "dp-rwadmm", Channel: "xbar", Loss: "squares", Regularizer: "elastic-net", L1: 0.02, Iterations: 12000},
		basetest.Setup{Algorithm: "dp-rwadmm", Channel: "xbar", Loss: "logistic", Regularizer: "elastic-net", L1: 0.01, Iterations: 25000},
		basetest.Setup{Algorithm: "dp-rwadmm", Channel: "xbar", Loss: "squares", Regularizer: "none", L1: 0, Iterations: 12000},
	)
}

// walkLog records each step's active agent and its one message.
type walkLog struct {
	active, from, to []int
}

func (w *walkLog) Record(s *sim.Step) {
	if s.Iter == 0 {
		return
	}
	w.active = append(w.active, s.Active...)
	for m := range s.Messages() {
		w.from = append(w.from, m.From)
		w.to = append(w.to, m.To)
	}
}

// Only the holder speaks, once, to the next holder, a neighbour; the
// ledger's per-agent count is the number of activations, PLF their
// maximum, and ε is the hand computation ρ_1(R^τ_i − 1)/(R − 1) with
// ρ_1 = Δ²/(2σ_1²), Δ = 4αc/n, through the simple conversion.
func TestWalkAndLedger(t *testing.T) {
	const alpha, c, sigma, R, delta, n = 0.3, 0.5, 2.0, 1.05, 1e-4, 8
	b := basetest.Setup{Algorithm: "dp-rwadmm", Channel: "xbar", Scale: sigma, L1: 0.02, Iterations: 400,
		Params: `"alpha": 0.3, "gradient_bound": 0.5, "attenuation": 1.05, "delta": 1e-4, "conversion": "simple"`}.Build(t)
	log := &walkLog{}
	r := runner.New(b, log)
	if err := r.Run(); err != nil {
		t.Fatal(err)
	}
	if len(log.active) != 400 || len(log.from) != 400 {
		t.Fatalf("%d activations and %d messages in 400 iterations, want one each", len(log.active), len(log.from))
	}
	counts := make([]int, n)
	for k, i := range log.active {
		counts[i]++
		if log.from[k] != i {
			t.Fatalf("iteration %d: agent %d active but %d speaks", k+1, i, log.from[k])
		}
		if k+1 < len(log.active) && log.to[k] != log.active[k+1] {
			t.Fatalf("iteration %d: the token goes to %d but %d is active next", k+1, log.to[k], log.active[k+1])
		}
		if !b.Env.Graph.HasLink(i, log.to[k]) {
			t.Fatalf("iteration %d: %d → %d is not a link", k+1, i, log.to[k])
		}
	}
	l := r.Ledger()
	d := 4 * alpha * c / n
	rho1 := d * d / (2 * sigma * sigma)
	for i, e := range l.Agents {
		rho := rho1 * (math.Pow(R, float64(counts[i])) - 1) / (R - 1)
		want := rho + 2*math.Sqrt(rho*math.Log(1/delta))
		if got := e.Epsilon.Value(); math.Abs(got-want) > 1e-12*want {
			t.Errorf("agent %d (%d activations): ε = %.15g, hand %.15g", i, counts[i], got, want)
		}
	}
	if got, want := basetest.PLF(l), slices.Max(counts); got != want {
		t.Errorf("PLF %d, largest activation count %d", got, want)
	}
	// The prediction replays the walk: it is what the run spent.
	p := b.Accountant.(privacy.Predictor)
	if got, want := p.PredictEpsilon(400, 1).Value(), l.Max.Value(); got != want {
		t.Errorf("predicted ε after 400 iterations %.17g, the run's ledger %.17g", got, want)
	}
}

// A pinned walk is followed as given (it need not close: 3 → … → 6 on a
// ring of 8), and one that leaves the graph or does not cover the run is
// refused naming the step.
func TestPinnedWalk(t *testing.T) {
	s := basetest.Setup{Algorithm: "dp-rwadmm", Channel: "xbar", Scale: 1, L1: 0.02, Iterations: 6}
	b := runnertest.Parse(t, []byte(s.JSON()), func(sc *scenario.Scenario) {
		sc.Algorithm.Draws = map[string][]float64{"walk": {3, 4, 5, 4, 5, 6, 7}}
	})
	log := &walkLog{}
	r := runner.New(b, log)
	if err := r.Run(); err != nil {
		t.Fatal(err)
	}
	if want := []int{3, 4, 5, 4, 5, 6}; !slices.Equal(log.active, want) {
		t.Errorf("walk %v, pinned %v", log.active, want)
	}
	for msg, walk := range map[string][]float64{
		"algorithm.draws.walk[2]: agent 6 is not a neighbour of agent 4":                  {3, 4, 6, 5, 4, 3, 2},
		"algorithm.draws.walk: lists 4 agents, a walk of 3 steps; the run's 6 iterations": {3, 4, 5, 4},
	} {
		sc, err := scenario.Parse([]byte(s.JSON()))
		if err != nil {
			t.Fatal(err)
		}
		sc.Algorithm.Draws = map[string][]float64{"walk": walk}
		if _, err := scenario.Build(sc); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("walk %v: %v, want %q", walk, err, msg)
		}
	}
}

// A target ε at a PLF is met to 1e-9 with either conversion by the agent
// activated most, once the run stops at that PLF.
func TestCalibration(t *testing.T) {
	for _, conv := range []string{"tight", "simple"} {
		s := basetest.Setup{Algorithm: "dp-rwadmm", Channel: "xbar", Scale: 1, L1: 0.02, Iterations: 5000,
			Params: `"conversion": "` + conv + `", "target_epsilon": 12, "plf": 100`}
		r := runnertest.Run(t, runnertest.Parse(t, []byte(s.JSON()), func(sc *scenario.Scenario) {
			sc.Stop = &scenario.Stop{MaxActivations: 100}
		}))
		l := r.Ledger()
		if got := basetest.PLF(l); got != 100 {
			t.Fatalf("%s: stopped at PLF %d, want 100", conv, got)
		}
		if got := l.Max.Value(); math.Abs(got-12) > 1e-9*12 {
			t.Errorf("%s: ε = %.15g at PLF 100, want 12", conv, got)
		}
	}
}

// The scenario's "calibrate" meets a target ε to 1e-9 (the accountant's
// closed-form inverse, ρ ∝ 1/λ²), with either conversion.
func TestScenarioCalibrate(t *testing.T) {
	basetest.CheckCalibrateConversions(t, basetest.Setup{Algorithm: "dp-rwadmm", Channel: "xbar", Scale: 1, L1: 0.02, Iterations: 1500}, 12)
}

// The noise drawn is the noise the ledger accounts for: σ_1·R^(−(τ−1)/2)
// at the holder's τ-th activation.
func TestNoiseIsAccounted(t *testing.T) {
	basetest.CheckNoise(t, basetest.Setup{Algorithm: "dp-rwadmm", Channel: "xbar", Scale: 0.5, L1: 0.02, Iterations: 400,
		Params: `"attenuation": 1.05`}, 1.05, nil, nil)
}

// The source confidence of baselines.md is shown where people read: the
// factory's description (dpsim plugins, the page) and the ledger's source.
func TestConfidenceShown(t *testing.T) {
	basetest.CheckConfidence(t, dprwadmm.Factory.Paper, dprwadmm.Confidence, basetest.Setup{Algorithm: "dp-rwadmm", Channel: "xbar", Scale: 1, L1: 0.02, Iterations: 2})
}

// A step beyond the algorithm's condition warns, as DP-RECAL's does
// (zcdpgauss.StepWarning); α = 100 was accepted without a word.
func TestStepWarning(t *testing.T) {
	basetest.CheckStepWarning(t, basetest.Setup{Algorithm: "dp-rwadmm", Channel: "xbar", Scale: 1, L1: 0.02, Iterations: 3})
}
