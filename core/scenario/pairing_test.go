package scenario

import (
	"strings"
	"testing"

	"dpsim/core/method"
	"dpsim/core/objective"
)

// TestPairing: every algorithm on every preset's problem is refused at
// build time, in one line naming both, exactly when the problem's form is
// not the one the algorithm declares (method.Factory.Solves); GT-DP on
// the dispatch problem used to run with a NaN consensus.
func TestPairing(t *testing.T) {
	// Each algorithm's weights come from a preset that runs it, so that
	// only the pairing can be refused.
	mixing := map[string]Weights{}
	for _, p := range Presets() {
		s, err := PresetScenario(p.Name)
		if err != nil {
			t.Fatal(err)
		}
		mixing[s.Algorithm.Kind] = s.Weights
	}
	for _, p := range Presets() {
		s, err := PresetScenario(p.Name)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Build(s)
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		_, alloc := b.Env.Problem.(objective.Allocation)
		for _, f := range Factories() {
			c := s.Clone()
			c.Algorithm = Algorithm{Kind: f.Name}
			w, ok := mixing[f.Name]
			if !ok {
				t.Fatalf("no preset runs %s", f.Name)
			}
			c.Weights = w.clone()
			if f.Matrices == nil && alloc {
				// A one-matrix algorithm on a dispatch preset's digraph.
				c.Weights = Weights{Kind: "row-stochastic"}
			}
			_, err := Build(c)
			mismatch := (f.Solves == method.Allocation) != alloc
			refused := err != nil && strings.HasPrefix(err.Error(), "algorithm.kind: ") && strings.Contains(err.Error(), "problem.kind")
			if mismatch != refused {
				t.Errorf("%s with %s: mismatch %v, got %v", p.Name, f.Name, mismatch, err)
			}
			if refused && (strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), f.Title) || !strings.Contains(err.Error(), s.Problem.Kind)) {
				t.Errorf("%s with %s: the refusal does not name both on one line: %v", p.Name, f.Name, err)
			}
		}
	}
}

// TestPresetTitles: the list's titles, read alone from each file, are the
// titles of the presets decoded whole (or the name where there is none).
func TestPresetTitles(t *testing.T) {
	for _, p := range Presets() {
		s, err := PresetScenario(p.Name)
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		want := s.Title
		if want == "" {
			want = p.Name
		}
		if p.Title != want {
			t.Errorf("%s: listed as %q, decoded title %q", p.Name, p.Title, want)
		}
	}
}
