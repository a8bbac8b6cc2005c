package logistic_test

import (
	"slices"
	"testing"

	"dpsim/core/objective"
	"dpsim/core/scenario"
)

// TestStreams builds the synthetic preset with per-agent sample streams
// (LDP online: every agent receives its shard's samples one after the
// other) and checks that each agent's cursor walks its own shard in
// arrival order, and that a shuffled stream replays under the same seed
// and moves with another.
func TestStreams(t *testing.T) {
	base, err := scenario.PresetScenario("gtdp-logistic-synthetic")
	if err != nil {
		t.Fatal(err)
	}
	walk := func(mode string, seed uint64) [][]int {
		s := base.Clone()
		s.Seed = &seed
		s.Samples = &scenario.Samples{Mode: mode}
		b, err := scenario.Build(s)
		if err != nil {
			t.Fatal(err)
		}
		st := b.Env.Problem.(objective.Stochastic)
		var out [][]int
		for i := range st.Agents() {
			c := b.Env.Samples(i)
			if c.Size() != st.Samples(i) {
				t.Fatalf("agent %d: cursor over %d samples, shard of %d", i, c.Size(), st.Samples(i))
			}
			out = append(out, append([]int(nil), c.Next(2*c.Size())...))
		}
		return out
	}
	for i, got := range walk("in-order", 1) {
		m := len(got) / 2
		for k, v := range got {
			if v != k%m {
				t.Fatalf("agent %d: in-order stream %v, want 0…%d twice", i, got, m-1)
			}
		}
	}
	a, b, c := walk("shuffle", 1), walk("shuffle", 1), walk("shuffle", 2)
	if !slices.EqualFunc(a, b, slices.Equal) {
		t.Errorf("a shuffled stream does not replay under one seed")
	}
	if slices.EqualFunc(a, c, slices.Equal) {
		t.Errorf("two seeds gave the same shuffled streams")
	}
}
