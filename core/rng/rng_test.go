package rng

import "testing"

func TestStreamsAreReproducibleAndDistinct(t *testing.T) {
	a, b := New(7, "noise/eta"), New(7, "noise/eta")
	c := New(7, "noise/xi")
	same, diff := true, false
	for range 100 {
		x, y, z := a.Uint64(), b.Uint64(), c.Uint64()
		same = same && x == y
		diff = diff || x != z
	}
	if !same {
		t.Error("same seed and label gave different streams")
	}
	if !diff {
		t.Error("different labels gave the same stream")
	}
}

// A fixed seed must give the same first draw on every architecture; the
// value pins the generator so that a library change cannot slip by.
func TestGolden(t *testing.T) {
	if got := New(1, "graph").Uint64(); got != goldenFirst {
		t.Errorf("first draw = %d, want %d", got, goldenFirst)
	}
	s := FromOne(42)
	if s.Data == s.Graph || s.Graph == s.Noise || s.Noise == s.Algorithm {
		t.Errorf("FromOne gave repeated seeds: %+v", s)
	}
}

const goldenFirst uint64 = 12778046055154205321
