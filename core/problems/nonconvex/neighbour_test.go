package nonconvex

import (
	"testing"

	"dpsim/core/objective"
)

// TestNeighbourUnevenCounts: with agents holding different numbers of
// samples (a user's data), the neighbour flips exactly the audited
// agent's labels — all of them for bounded gradients, the one of largest
// ‖z‖ for a record — and no other agent's.
func TestNeighbourUnevenCounts(t *testing.T) {
	counts := []int{2, 3, 1}
	const d = 2
	z := []float64{1, 0, 0, 1, 3, 4, 1, 1, 0.5, 0, 2, 2}
	y := []float64{1, -1, 1, 1, -1, 1}
	c, err := NewCounts(counts, d, z, y, 0.1, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []struct {
		adj  objective.Adjacency
		flip []int // indices into y
	}{
		{objective.Adjacency{Kind: objective.AdjacentBounded, Bound: 1}, []int{2, 3, 4}},
		{objective.Adjacency{Kind: objective.AdjacentRecord}, []int{2}}, // ‖(3, 4)‖ = 5
	} {
		nb, err := c.Neighbour(1, k.adj)
		if err != nil {
			t.Fatal(err)
		}
		q := nb.Problem.(*Classifier)
		want := append([]float64(nil), y...)
		for _, i := range k.flip {
			want[i] = -want[i]
		}
		for i := range y {
			if q.y[i] != want[i] {
				t.Errorf("%s: label %d is %v, want %v (%s)", k.adj.Kind, i, q.y[i], want[i], nb.Change)
			}
		}
	}
}
