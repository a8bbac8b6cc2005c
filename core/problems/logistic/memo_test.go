package logistic

import (
	"slices"
	"testing"

	"dpsim/core/problems/internal/learn"
)

// Dataset-backed instances are shared between builds: contiguous shards
// ignore the seed, so two seeds share one x*, yet each instance pins its
// own seed (an export never depends on what the process built before);
// shuffled shards read the seed and are not shared across seeds.
func TestBuildShares(t *testing.T) {
	for _, shards := range []string{learn.Contiguous, learn.Shuffled} {
		p := params(func(p *Params) { p.Dataset = "mushrooms"; p.Shards = shards })
		a, _, err := build(env(4, 1), p)
		if err != nil {
			t.Fatal(err)
		}
		b, _, err := build(env(4, 2), p)
		if err != nil {
			t.Fatal(err)
		}
		c, _, err := build(env(4, 1), p)
		if err != nil {
			t.Fatal(err)
		}
		sa, sb, sc := pinnedSeed(a), pinnedSeed(b), pinnedSeed(c)
		if sa == sb || sa != sc {
			t.Errorf("%s: pinned seeds %d, %d, %d; want each build's own", shards, sa, sb, sc)
		}
		same := a.(*Model).opt[0] == b.(*Model).opt[0] && &a.(*Model).opt[0] == &b.(*Model).opt[0]
		if same != (shards == learn.Contiguous) {
			t.Errorf("%s: x* shared between seeds: %v", shards, same)
		}
		if !slices.Equal(a.Optimum(), c.Optimum()) {
			t.Errorf("%s: the same parameters gave two x*", shards)
		}
	}
}
