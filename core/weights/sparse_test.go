package weights

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"dpsim/core/graph"
)

// Sparse keeps every nonzero, in ascending columns, and MulVec agrees with
// the dense product.
func TestSparseRoundTrip(t *testing.T) {
	const tol = 1e-14
	src := rand.New(rand.NewPCG(1, 2))
	rgg, err := graph.RandomGeometric(30, 0.35, 100, src)
	if err != nil {
		t.Fatal(err)
	}
	dg, _ := graph.New(5, []graph.Edge{{From: 0, To: 3}, {From: 3, To: 1}, {From: 1, To: 0}, {From: 4, To: 2}, {From: 2, To: 4}, {From: 4, To: 0}}, true)
	mh, _ := Metropolis(rgg)
	rw, _ := RandomWalk(rgg)
	col, _ := ColumnStochastic(dg)
	dense, _ := FromRows([][]float64{{0, 2, 0}, {-1, 0, 3}, {4, 5, 6}})
	for _, tc := range []struct {
		name string
		m    *Matrix
		nnz  int
	}{
		{"MH on RGG", mh, rgg.Links()},
		{"random walk on RGG", rw, rgg.Links()},
		{"column-stochastic digraph", col, len(dg.Edges)},
		{"explicit", dense, 5},
		{"identity", Identity(4), 0},
	} {
		s := tc.m.Sparse()
		if s.NNZ() != tc.nnz || len(s.Start) != s.N+1 || s.Start[s.N] != s.NNZ() {
			t.Errorf("%s: nnz %d (want %d), starts %v", tc.name, s.NNZ(), tc.nnz, s.Start)
		}
		if !slices.Equal(s.Dense().Data, tc.m.Data) {
			t.Errorf("%s: Sparse().Dense() differs from the matrix", tc.name)
		}
		for i := range s.N {
			cols, vals := s.Row(i)
			if !slices.IsSorted(cols) || slices.Contains(cols, i) || slices.Contains(vals, 0) {
				t.Errorf("%s: row %d columns %v values %v", tc.name, i, cols, vals)
			}
		}
		const dim = 3
		x := make([]float64, s.N*dim)
		for k := range x {
			x[k] = src.NormFloat64()
		}
		got := s.MulVec(make([]float64, len(x)), x, dim)
		for i := range s.N {
			for c := range dim {
				want := 0.0
				for j := range s.N {
					want += tc.m.At(i, j) * x[j*dim+c]
				}
				if math.Abs(got[i*dim+c]-want) > tol {
					t.Errorf("%s: MulVec block %d coordinate %d = %v, want %v", tc.name, i, c, got[i*dim+c], want)
				}
			}
		}
	}
}
