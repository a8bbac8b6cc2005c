package rng

import (
	"slices"
	"testing"
)

// IntN stays in range and is close to uniform (a fixed stream, so the
// counts are deterministic: within 5 % of n/k over 10⁵ draws), and Shuffle
// gives a permutation that depends on the stream's position.
func TestIntNShuffle(t *testing.T) {
	for _, k := range []int{1, 3, 7, 1 << 20} {
		s := NewStream(1, "intn")
		const draws = 100_000
		counts := map[int]int{}
		for range draws {
			v := s.IntN(k)
			if v < 0 || v >= k {
				t.Fatalf("IntN(%d) = %d", k, v)
			}
			counts[v]++
		}
		if k <= 7 {
			for v := range k {
				if c, want := float64(counts[v]), float64(draws)/float64(k); c < 0.95*want || c > 1.05*want {
					t.Errorf("IntN(%d): %d drawn %v times, want about %v", k, v, c, want)
				}
			}
		}
	}
	s := NewStream(2, "shuffle")
	a, b := []int{0, 1, 2, 3, 4, 5, 6, 7}, []int{0, 1, 2, 3, 4, 5, 6, 7}
	s.Shuffle(a)
	s.Shuffle(b)
	if slices.Equal(a, b) {
		t.Error("two shuffles in a row gave the same order")
	}
	slices.Sort(a)
	if !slices.Equal(a, []int{0, 1, 2, 3, 4, 5, 6, 7}) {
		t.Errorf("not a permutation: %v", a)
	}
}
