package dpp2_test

import (
	"strings"
	"testing"

	"dpsim/core/scenario"
)

// TestValidation checks the refusals of spec §3.1 and §3.5: one line
// naming the field, the rule and the numbers.
func TestValidation(t *testing.T) {
	for _, tc := range []struct {
		name  string
		edit  func(s *scenario.Scenario)
		field string
		words []string
	}{
		{"raw Laplacian: G indefinite", func(s *scenario.Scenario) { s.Weights = scenario.Weights{Kind: "laplacian"} },
			"algorithm.params.beta", []string{"positive definite", "λ_max(P)"}},
		{"β too large", func(s *scenario.Scenario) { s.Algorithm.Params = []byte(`{"beta": 0.2}`) },
			"algorithm.params.beta", []string{"β < α/λ_max(P)"}},
		{"doubly stochastic W is not a Laplacian", func(s *scenario.Scenario) { s.Weights = scenario.Weights{Kind: "metropolis"} },
			"weights", []string{"zero-row-sums"}},
		{"δ = 0 with noise", func(s *scenario.Scenario) { s.Algorithm.Params = []byte(`{"delta": 0}`) },
			"algorithm.params.delta", []string{"positive"}},
		{"η = 1", func(s *scenario.Scenario) { s.Algorithm.Params = []byte(`{"eta": 1}`) },
			"algorithm.params.eta", nil},
	} {
		s, err := scenario.PresetScenario("dpp2-classifier")
		if err != nil {
			t.Fatal(err)
		}
		s.Graph.N = 12
		s.Graph.Radius = 0.5
		s.Problem.Params = []byte(`{"samples": 10, "dim": 3, "scale": 3.6}`)
		tc.edit(s)
		_, err = scenario.Build(s)
		if err == nil {
			t.Errorf("%s: built, want an error on %s", tc.name, tc.field)
			continue
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, tc.field) || strings.Contains(msg, "\n") {
			t.Errorf("%s: error %q, want one line on %s", tc.name, msg, tc.field)
		}
		for _, w := range tc.words {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: error %q does not say %q", tc.name, msg, w)
			}
		}
	}
}

// TestScaledLaplacian checks that the raw Laplacian divided by its
// λ_max (scale_p lambda-max) is accepted, and that α·M̄ ≥ 1 warns and
// gives no finite ε.
func TestScaledLaplacian(t *testing.T) {
	s, err := scenario.PresetScenario("dpp2-classifier")
	if err != nil {
		t.Fatal(err)
	}
	s.Graph.N, s.Graph.Radius = 12, 0.5
	s.Problem.Params = []byte(`{"samples": 10, "dim": 3, "scale": 3.6}`)
	s.Weights = scenario.Weights{Kind: "laplacian"}
	s.Algorithm.Params = []byte(`{"scale_p": "lambda-max", "smoothness": 20}`)
	s.Iterations = 5
	b, err := scenario.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	warned := false
	for _, w := range b.Warnings {
		warned = warned || strings.Contains(w.Message, "α·M̄")
	}
	if !warned {
		t.Errorf("α·M̄ = 2: no warning in %v", b.Warnings)
	}
	b.Accountant.Record(b.Algorithm.Advance())
	l := b.Accountant.Ledger()
	if !l.Max.IsInf() || !strings.Contains(l.Agents[0].Reason, "α·M̄") {
		t.Errorf("α·M̄ = 2: ε = %v (%q), want ∞ naming α·M̄", l.Max, l.Agents[0].Reason)
	}
}
