package ldponline_test

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"dpsim/core/algorithms/internal/online"
	"dpsim/core/algorithms/ldponline"
	_ "dpsim/core/data/files"
	"dpsim/core/noise"
	"dpsim/core/objective"
	"dpsim/core/runner"
	"dpsim/core/runner/runnertest"
	"dpsim/core/scenario"
)

// spec74 sets spec §7.4's reference parameters: d = 1, λ_0 = 1,
// v = 0.71, ν_0 = σ_0/√2 = 0.1, ς = 0.51 for every agent, w̄ = 0.6.
func spec74(s *scenario.Scenario) {
	s.Algorithm.Params = json.RawMessage(`{"lambda0": 1, "v": 0.71, "batch": 2, "gradient_bound": 1}`)
	th := s.Noise["theta"]
	th.Scale, th.Decays, th.Decay = 0.1, nil, noise.Poly(1, 1, 0.51)
}

// Theorem 5(1) gives spec §7.4's checked values. A run of K iterations
// has published y_0, …, y_{K−1}: the paper's ε(T) with T = K − 1. The
// ledger of a run and the accountant's prediction agree.
func TestTheorem5Values(t *testing.T) {
	for _, c := range []struct {
		T        int
		want     float64
		run      bool
		relative float64
	}{{10, 289.645, true, 2e-6}, {100, 1720.93, true, 3e-6}, {1000, 10550.0, false, 5e-6}, {10000, 66134.7, false, 2e-6}} {
		b := runnertest.Preset(t, "ldp-online-mushrooms", func(s *scenario.Scenario) { spec74(s); s.Iterations = c.T + 1 })
		ac := b.Accountant.(*online.Accountant)
		got := ac.Epsilon(3, c.T+1).Value()
		if math.Abs(got-c.want) > c.relative*c.want {
			t.Errorf("predicted ε(T = %d) = %.6f, spec %.6g", c.T, got, c.want)
		}
		if !c.run {
			continue
		}
		r := runnertest.Run(t, b)
		if led := r.Ledger().Max.Value(); led != got {
			t.Errorf("T = %d: the run's ledger says %.12g, the prediction %.12g", c.T, led, got)
		}
	}
}

// The ledger is the literal sum of Theorem 5(1) with ϱ_t in closed form,
// per agent with its own ς^i, and grows with T.
func TestLedgerIsTheLiteralSum(t *testing.T) {
	b := runnertest.Preset(t, "ldp-online-mushrooms", func(s *scenario.Scenario) { s.Iterations = 40 })
	r := runnertest.Run(t, b)
	l := r.Ledger()
	const d, cw = 21.0, 0.4
	lam := func(t int) float64 { return 1 / math.Pow(float64(t+1), 0.71) }
	prev := 0.0
	for i, e := range l.Agents {
		vs := 0.5 + float64(0.01*float64(i+1))
		want := 0.0
		for tt := 1; tt <= 39; tt++ {
			rho := lam(tt - 1)
			for p := 1; p <= tt-1; p++ {
				rho += float64(math.Pow(cw, float64(tt-p)) * lam(p-1))
			}
			want += 2 * math.Sqrt2 * d * rho * math.Pow(float64(tt+1), vs) / (0.1 * math.Sqrt2)
		}
		if got := e.Epsilon.Value(); math.Abs(got-want) > 1e-11*want {
			t.Errorf("agent %d: ε = %.15g, literal sum %.15g", i, got, want)
		}
		if e.Epsilon.Value() <= prev {
			t.Errorf("agent %d: ε = %g not above agent %d's %g (ς^i grows with i)", i, e.Epsilon.Value(), i-1, prev)
		}
		prev = e.Epsilon.Value()
	}
	if l.Max.Value() != prev {
		t.Errorf("max ε = %g, the last agent's %g", l.Max.Value(), prev)
	}
	if !strings.Contains(strings.Join(l.Notes, " "), "Theorem 5(2)") {
		t.Errorf("the ledger does not state the paper's infinite-horizon claim: %q", l.Notes)
	}
}

// The paper's W (0.3 on a ring of 10) breaks Assumption 3: a warning that
// names it, not an error. A W whose I + W reaches −1 warns of divergence;
// a stochastic W is refused (A3 needs zero row sums); d is required with
// noise on.
func TestWeightsAndInputs(t *testing.T) {
	b := runnertest.Preset(t, "ldp-online-mushrooms", nil)
	if !warned(b, "Assumption 3") {
		t.Errorf("no warning naming Assumption 3: %v", b.Warnings)
	}
	s, _ := scenario.PresetScenario("ldp-online-mushrooms")
	s.Weights.C = 0.5
	if b, err := scenario.Build(s); err != nil || !warned(b, "oscillates or diverges") {
		t.Errorf("w_ij = 0.5 on a ring: err %v, warnings %v", err, b)
	}
	for _, c := range []struct {
		edit func(*scenario.Scenario)
		want string
	}{
		{func(s *scenario.Scenario) { s.Weights = scenario.Weights{Kind: "metropolis"} }, "zero row sums"},
		{func(s *scenario.Scenario) {
			s.Algorithm.Params = json.RawMessage(`{"gradient_bound": 0}`)
		}, "algorithm.params.gradient_bound: is required"},
		{func(s *scenario.Scenario) { s.Algorithm.Params = json.RawMessage(`{"batch": 0}`) }, "algorithm.params.batch"},
	} {
		s, _ := scenario.PresetScenario("ldp-online-mushrooms")
		c.edit(s)
		if _, err := scenario.Build(s); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("want an error with %q, got %v", c.want, err)
		}
	}
}

func warned(b *scenario.Built, what string) bool {
	for _, w := range b.Warnings {
		if strings.Contains(w.String(), what) {
			return true
		}
	}
	return false
}

// Clipping (a modification) scales the gradient to ‖g‖₁ ≤ d: with a tiny
// d every gradient is clipped, and the iterates move by at most λ_t·d
// beyond the mixing.
func TestClipping(t *testing.T) {
	b := runnertest.Preset(t, "ldp-online-mushrooms", func(s *scenario.Scenario) {
		s.Iterations = 5
		s.Noise["theta"].Scale = 0
		s.Algorithm.Params = json.RawMessage(`{"gradient_bound": 0.01, "clip_gradients": true}`)
	})
	r := runner.New(b)
	if err := r.Run(); err != nil {
		t.Fatal(err)
	}
	a := b.Algorithm.(*ldponline.Algorithm)
	if a.Clipped != 5*10 {
		t.Errorf("%d gradients clipped, want 50", a.Clipped)
	}
	// From θ_0 = 0 with no noise every agent moves by −λ_0·g, ‖g‖₁ = d.
	b1 := runnertest.Preset(t, "ldp-online-mushrooms", func(s *scenario.Scenario) {
		s.Iterations = 1
		s.Noise["theta"].Scale = 0
		s.Algorithm.Params = json.RawMessage(`{"gradient_bound": 0.01, "clip_gradients": true}`)
	})
	r1 := runnertest.Run(t, b1)
	_ = r1
	x := b1.Algorithm.State()[0].Data
	for i := range 10 {
		s := 0.0
		for _, v := range x[i*112 : (i+1)*112] {
			s += math.Abs(v)
		}
		if math.Abs(s-0.01) > 1e-15 {
			t.Errorf("agent %d: ‖θ_1‖₁ = %.17g, want λ_0·d = 0.01", i, s)
		}
	}
}

// A scenario pins each agent's stream (samples.order): after 3 iterations
// with batch 2 over the pinned order [5, 3, 5, 3, …] the agent has
// received rows 5 and 3 three times each, and its gradient is theirs.
func TestPinnedStream(t *testing.T) {
	order := make([][]int, 10)
	for i := range order {
		order[i] = []int{5, 3}
	}
	b := runnertest.Preset(t, "ldp-online-mushrooms", func(s *scenario.Scenario) {
		s.Iterations = 3
		s.Samples = &scenario.Samples{Order: order}
		s.Problem.Params = json.RawMessage(`{"dataset": "synthetic", "rows": 200, "features": 6, "test_rows": 0, "l2": 0.05}`)
	})
	runnertest.Run(t, b)
	a := b.Algorithm.(*ldponline.Algorithm)
	st := b.Env.Problem.(objective.Stochastic)
	x := []float64{1, -2, 0.5, 0, 0.25, 3}
	got, want := make([]float64, 6), make([]float64, 6)
	for i := range 10 {
		if a.Hist.Rows(i) != 2 || a.Hist.Received() != 3 {
			t.Fatalf("agent %d: %d distinct rows after %d batches, want 2 after 3", i, a.Hist.Rows(i), a.Hist.Received())
		}
		a.Hist.Grad(i, x, got)
		st.GradBatch(i, x, []int{5, 3}, want)
		for j := range want {
			if math.Abs(got[j]-want[j]) > 1e-15*(1+math.Abs(want[j])) {
				t.Fatalf("agent %d: gradient %v, rows 5 and 3 give %v", i, got, want)
			}
		}
	}
}
