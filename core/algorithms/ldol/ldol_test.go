package ldol_test

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	_ "dpsim/core/data/files"
	"dpsim/core/runner"
	"dpsim/core/runner/runnertest"
	"dpsim/core/scenario"
)

func small(s *scenario.Scenario) {
	s.Problem.Params = json.RawMessage(`{"dataset": "synthetic", "rows": 200, "features": 6, "test_rows": 0, "l2": 0.05}`)
}

// LDOL's noise grows as ν̌_0·(t+1)^{ς^i}: the mean |ϑ̌| of agent 9
// (ς = 0.19) over iterations 900–999 is about (951/51)^0.19 ≈ 1.74 times
// that over 0–99 (to 15 %: 100·6 Laplace draws each).
func TestNoiseGrows(t *testing.T) {
	b := runnertest.Preset(t, "ldol-mushrooms", func(s *scenario.Scenario) { small(s); s.Iterations = 1000 })
	r := runner.New(b)
	var early, late float64
	for k := range 1000 {
		st, err := r.Advance()
		if err != nil {
			t.Fatal(err)
		}
		s := 0.0
		for _, v := range st.Releases[9].Noise {
			s += math.Abs(v)
		}
		switch {
		case k < 100:
			early += s
		case k >= 900:
			late += s
		}
	}
	want := 0.0
	for k := 900; k < 1000; k++ {
		want += math.Pow(float64(k+1), 0.19)
	}
	norm := 0.0
	for k := range 100 {
		norm += math.Pow(float64(k+1), 0.19)
	}
	if ratio := late / early; math.Abs(ratio/(want/norm)-1) > 0.15 {
		t.Errorf("late/early noise = %.3f, want %.3f ± 15%%", ratio, want/norm)
	}
}

// The ledger is baselines.md §7.1's recursion
// Δ_{t+1} = max_i|1 + γ_t·w_ii|·Δ_t + 2d·λ̌_t/(t+1), summed as Δ_t/ν̌_t.
func TestLedgerIsTheRecursion(t *testing.T) {
	b := runnertest.Preset(t, "ldol-mushrooms", func(s *scenario.Scenario) { small(s); s.Iterations = 50 })
	l := runnertest.Run(t, b).Ledger()
	for _, i := range []int{0, 9} {
		vs := 0.09 + float64(0.01*float64(i+1))
		delta, want := 0.0, 0.0
		for tt := range 50 {
			if delta > 0 {
				want += delta / (0.1 * math.Pow(float64(tt+1), vs))
			}
			g := 1 / math.Pow(float64(tt+1), 0.7)
			delta = float64(math.Abs(1-float64(0.6*g))*delta) + 2*21*(1/math.Pow(float64(tt+1), 0.71))/float64(tt+1)
		}
		if got := l.Agents[i].Epsilon.Value(); math.Abs(got-want) > 1e-11*want {
			t.Errorf("agent %d: ε = %.15g, recursion %.15g", i, got, want)
		}
	}
}

// eq. (17) needs v > u > ς + ½: a warning, not an error; a stochastic W is
// refused.
func TestConditions(t *testing.T) {
	b := runnertest.Preset(t, "ldol-mushrooms", func(s *scenario.Scenario) {
		small(s)
		s.Algorithm.Params = json.RawMessage(`{"u": 0.6, "gradient_bound": 21}`)
	})
	found := false
	for _, w := range b.Warnings {
		found = found || strings.Contains(w.String(), "v > u > ς + ½")
	}
	if !found {
		t.Errorf("u = 0.6 < ς + ½ = 0.69: no warning in %v", b.Warnings)
	}
	s, _ := scenario.PresetScenario("ldol-mushrooms")
	s.Weights = scenario.Weights{Kind: "metropolis"}
	if _, err := scenario.Build(s); err == nil || !strings.Contains(err.Error(), "zero row sums") {
		t.Errorf("metropolis W: %v", err)
	}
}
