package method

import (
	"slices"
	"strings"
	"testing"

	"dpsim/core/rng"
)

// shards is a stochastic problem of n agents with m samples each; only
// its shape matters here.
type shards struct{ n, m int }

func (s shards) Kind() string                               { return "shards" }
func (s shards) Agents() int                                { return s.n }
func (s shards) Dim() int                                   { return 1 }
func (s shards) Value(int, []float64) float64               { return 0 }
func (s shards) Grad(int, []float64, []float64)             {}
func (s shards) Objective([]float64) float64                { return 0 }
func (s shards) Optimum() []float64                         { return nil }
func (s shards) Samples(int) int                            { return s.m }
func (s shards) GradBatch(int, []float64, []int, []float64) {}

// Positions then Restore, on a fresh Env, continue every source where the
// first left off: seeded and pinned draws, and shuffled cursors in the
// middle of an epoch.
func TestPositionsRestore(t *testing.T) {
	mk := func() (*Env, *Source, *Source, *Cursor) {
		e := &Env{Problem: shards{3, 4}, Seeds: rng.Seeds{Data: 1, Algorithm: 2}, PinnedDraws: map[string][]float64{"walk": {2, 0, 1}}}
		return e, e.Draws("toy", "eta"), e.Draws("toy", "walk"), e.Samples(1)
	}
	e, eta, walk, cur := mk()
	for range 5 {
		eta.Float64()
		walk.IntN(3)
		cur.Next(3)
	}
	pos := e.Positions()
	var want []float64
	for range 4 {
		want = append(want, eta.Float64(), float64(walk.IntN(3)))
		for _, v := range cur.Next(3) {
			want = append(want, float64(v))
		}
	}
	e2, eta2, walk2, cur2 := mk()
	if err := e2.Restore(pos); err != nil {
		t.Fatal(err)
	}
	var got []float64
	for range 4 {
		got = append(got, eta2.Float64(), float64(walk2.IntN(3)))
		for _, v := range cur2.Next(3) {
			got = append(got, float64(v))
		}
	}
	if !slices.Equal(got, want) {
		t.Fatalf("resumed draws %v, want %v", got, want)
	}
	if !walk.Pinned() || eta.Pinned() {
		t.Error("Pinned reports the wrong sources")
	}
}

// Restore refuses positions of another run, saying which part differs.
func TestRestoreRefusesOtherRuns(t *testing.T) {
	e := &Env{Problem: shards{2, 3}, PinnedDraws: map[string][]float64{"walk": {1, 0}}}
	e.Draws("toy", "walk")
	e.Samples(0)
	good := e.Positions()
	for _, c := range []struct {
		edit func(p *Positions)
		want string
	}{
		{func(p *Positions) { p.Draws = nil }, `no position for the pinned draws "toy/walk"`},
		{func(p *Positions) { p.Draws = map[string]int{"toy/walk": 2} }, "outside their 2 values"},
		{func(p *Positions) { p.Samples = p.Samples[:1] }, "holds 1 sample cursors; this run has 2"},
		{func(p *Positions) { p.Samples = []CursorPosition{{At: 4}, {}} }, "agent 0's sample cursor: position 4 is outside"},
		{func(p *Positions) { p.Streams = append(p.Streams, rng.Position{Label: "noise/x"}) }, "random streams"},
	} {
		p := good
		p.Draws = map[string]int{"toy/walk": 0}
		p.Samples = slices.Clone(good.Samples)
		p.Streams = slices.Clone(good.Streams)
		c.edit(&p)
		if err := e.Restore(p); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("got %v, want %q", err, c.want)
		}
	}
}

// Pinned values are checked against the declaration.
func TestDrawCheck(t *testing.T) {
	d := Draw{Name: "walk", Description: "the next agent", Min: 0, Max: 5, Whole: true}
	for _, c := range []struct {
		vals []float64
		want string
	}{
		{nil, "must list at least one value"},
		{[]float64{1, 6}, "a.walk[1]: must be in [0, 5]: the next agent (got 6)"},
		{[]float64{1.5}, "a.walk[0]: must be a whole number"},
	} {
		if err := d.Check("a.walk", c.vals); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: got %v, want %q", c.vals, err, c.want)
		}
	}
	if err := d.Check("a.walk", []float64{0, 5, 3}); err != nil {
		t.Error(err)
	}
}
