package stream

import (
	"math"
	"reflect"
	"testing"

	"dpsim/core/metrics"
	"dpsim/core/sim"
)

func sample() *Batch {
	step := &sim.Step{Iter: 7, Dim: 2, Estimates: []float64{1, -2, math.Inf(1), 5e-324},
		Prices: []float64{}, Active: []int{1}, Output: nil,
		Releases: []sim.Release{
			{From: 0, Channel: "s", Round: 0, Sent: []float64{1, 2}, Noise: []float64{0.5, -0.25}, To: []int{1}, Factor: []float64{0.5}},
			{From: 1, Channel: "x", Round: 1, Sent: []float64{3, 4}, Noise: nil, To: []int{0, 2}, Factor: nil, Pull: true},
			{From: 2, Channel: "s", Round: -1, Sent: []float64{}, Noise: []float64{}, To: []int{}},
		}}
	return &Batch{
		Items: []Item{
			{Iter: 6, Messages: 12, Activations: 3},
			{Iter: 7, Step: step, Point: &metrics.Point{Iter: 7, Optimality: math.NaN(), Consensus: 0.1, Objective: -3, Extra: []float64{0.9}},
				Messages: 14, Activations: 4, HasEpsilon: true, Epsilon: math.Inf(1), EpsilonText: "10^312.4"},
		},
		Ghost: []GhostPoint{{Iter: 5, Value: 1e-30}, {Iter: 6, Value: math.NaN()}},
		End:   &End{Status: "diverged", Reason: "the run diverged at iteration 7"},
	}
}

// TestRoundTrip: a batch reads back as written, every number to the bit
// (NaN, ±Inf, subnormals), nil slices apart from empty ones.
func TestRoundTrip(t *testing.T) {
	want := sample()
	got, err := Decode(Encode(want))
	if err != nil {
		t.Fatal(err)
	}
	// NaN ≠ NaN: compare the bits through a second encoding.
	if string(Encode(got)) != string(Encode(want)) {
		t.Fatalf("the batch does not read back as written:\n%+v\n%+v", got, want)
	}
	g, w := got.Items[1].Step, want.Items[1].Step
	if g.Output != nil || g.Prices == nil || g.Releases[1].Noise != nil || g.Releases[2].Noise == nil || g.Releases[1].Factor != nil {
		t.Errorf("nil and empty slices mixed up: %+v", g)
	}
	if !reflect.DeepEqual(g.Releases[0], w.Releases[0]) || g.Releases[2].Round != -1 || !g.Releases[1].Pull {
		t.Errorf("release: got %+v, want %+v", g.Releases, w.Releases)
	}
	if math.Float64bits(g.Estimates[3]) != math.Float64bits(5e-324) || !math.IsInf(got.Items[1].Epsilon, 1) {
		t.Errorf("numbers changed: %v, ε %v", g.Estimates, got.Items[1].Epsilon)
	}
	if got.Items[0].Step != nil || got.Items[0].Point != nil || got.Items[0].HasEpsilon {
		t.Errorf("an item without step, point or ε gained one: %+v", got.Items[0])
	}
	if got.End == nil || got.End.Status != "diverged" {
		t.Errorf("end: %+v", got.End)
	}
}

// TestDecodeBadBytes: every prefix, and bytes flipped, give an error or a
// batch, never a panic.
func TestDecodeBadBytes(t *testing.T) {
	b := Encode(sample())
	for n := 0; n < len(b); n++ {
		if _, err := Decode(b[:n]); err == nil {
			t.Errorf("a batch cut to %d of %d bytes decoded", n, len(b))
		}
	}
	for i := range b {
		c := append([]byte(nil), b...)
		c[i] ^= 0xff
		Decode(c) // must not panic
	}
	if _, err := Decode(append(append([]byte(nil), b...), 0)); err == nil {
		t.Error("trailing bytes accepted")
	}
}
