package weights

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"dpsim/core/check"
	"dpsim/core/graph"
)

// Every builder's matrix keeps the CSR layout, stores exactly the
// nonzeros, survives Entries → FromEntries and Rows → FromRows unchanged,
// and MulVec agrees with the dense product.
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
	lap, _ := Laplacian(rgg)
	col, _ := ColumnStochastic(dg)
	row, _ := RowStochastic(dg)
	dense, _ := FromRows([][]float64{{0, 2, 0}, {-1, 0, 3}, {4, 5, 6}})
	for _, tc := range []struct {
		name string
		m    *Matrix
		nnz  int
	}{
		{"MH on RGG", mh, rgg.Links()},
		{"random walk on RGG", rw, rgg.Links()},
		{"Laplacian on RGG", lap, rgg.Links()},
		{"column-stochastic digraph", col, len(dg.Edges)},
		{"row-stochastic digraph", row, len(dg.Edges)},
		{"explicit", dense, 5},
		{"identity", Identity(4), 0},
	} {
		m := tc.m
		m.valid()
		if m.NNZ() != tc.nnz || len(m.Start) != m.N+1 || m.Start[m.N] != m.NNZ() {
			t.Errorf("%s: nnz %d (want %d), starts %v", tc.name, m.NNZ(), tc.nnz, m.Start)
		}
		if slices.Contains(m.Val, 0) {
			t.Errorf("%s: a stored zero", tc.name)
		}
		back, err := FromEntries(m.N, m.Entries())
		if err != nil || !equalCSR(back, m) {
			t.Errorf("%s: FromEntries(Entries()) differs (%v)", tc.name, err)
		}
		back, err = FromRows(m.Rows())
		if err != nil || !equalCSR(back, m) {
			t.Errorf("%s: FromRows(Rows()) differs (%v)", tc.name, err)
		}
		rows := m.Rows()
		const dim = 3
		x := make([]float64, m.N*dim)
		for k := range x {
			x[k] = src.NormFloat64()
		}
		got := m.MulVec(make([]float64, len(x)), x, dim)
		for i := range m.N {
			for c := range dim {
				want := 0.0
				for j := range m.N {
					want += float64(rows[i][j] * x[j*dim+c])
				}
				if math.Abs(got[i*dim+c]-want) > tol {
					t.Errorf("%s: MulVec block %d coordinate %d = %v, want %v", tc.name, i, c, got[i*dim+c], want)
				}
			}
		}
	}
}

func equalCSR(a, b *Matrix) bool {
	return a.N == b.N && slices.Equal(a.Diag, b.Diag) && slices.Equal(a.Start, b.Start) &&
		slices.Equal(a.Col, b.Col) && slices.Equal(a.Val, b.Val)
}

// The builders take time and memory in proportion to the links: the
// largest ring allowed builds, analyses (spectral findings skipped) and
// mixes without anything of size n².
func TestLargeRingIsSparse(t *testing.T) {
	const n = graph.MaxAgents
	g, err := graph.Ring(n)
	if err != nil {
		t.Fatal(err)
	}
	for _, build := range []func(*graph.Graph) (*Matrix, error){Metropolis, Laplacian, NormalizedLaplacian,
		SymNormalizedLaplacian, RowStochastic, ColumnStochastic, RandomWalk} {
		m, err := build(g)
		if err != nil {
			t.Fatal(err)
		}
		if m.NNZ() != 2*n || len(m.Col) != 2*n || cap(m.Col) > 2*n {
			t.Errorf("nnz %d, cap %d; want %d", m.NNZ(), cap(m.Col), 2*n)
		}
	}
	mh, _ := Metropolis(g)
	allocs := testing.AllocsPerRun(3, func() { Metropolis(g) })
	if allocs > 10 {
		t.Errorf("Metropolis on a ring of %d: %v allocations, want a handful", n, allocs)
	}
	r := Analyze(mh, g)
	if !r.DoublyStochastic || !r.Symmetric || !r.SparsityMatches || r.HasEigenRange {
		t.Errorf("ring of %d:\n%s", n, r)
	}
}

// FromEntries and FromTriples refuse what is not a matrix, naming the
// entry and the rule.
func TestEntriesErrors(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		name    string
		n       int
		triples [][]float64
		field   string
		says    string
	}{
		{"no entries", 3, nil, "weights.entries", "is required"},
		{"pair", 3, [][]float64{{0, 0, 1}, {0, 1}}, "weights.entries[1]", "exactly three numbers"},
		{"quadruple", 3, [][]float64{{0, 0, 1, 2}}, "weights.entries[0]", "(got 4)"},
		{"fractional row", 3, [][]float64{{0.5, 0, 1}}, "weights.entries[0]", "row index must be a whole number from 0 to 2 (got 0.5)"},
		{"negative column", 3, [][]float64{{0, -1, 1}}, "weights.entries[0]", "column index must be a whole number"},
		{"column too large", 3, [][]float64{{1, 1, 1}, {0, 3, 1}}, "weights.entries[1]", "from 0 to 2 (got 3)"},
		{"huge index", 3, [][]float64{{1e300, 0, 1}}, "weights.entries[0]", "row index"},
		{"NaN index", 3, [][]float64{{nan, 0, 1}}, "weights.entries[0]", "row index"},
		{"NaN weight", 3, [][]float64{{0, 0, 1}, {2, 1, nan}}, "weights.entries[1]", "entry (2, 1) is NaN"},
		{"infinite weight", 3, [][]float64{{0, 0, math.Inf(1)}}, "weights.entries[0]", "+Inf"},
		{"duplicate", 3, [][]float64{{0, 1, 1}, {2, 2, 1}, {0, 1, 2}}, "weights.entries[2]", "entry (0, 1) is listed twice, here and at weights.entries[0]"},
		{"duplicate diagonal", 3, [][]float64{{1, 1, 0}, {1, 1, 0}}, "weights.entries[1]", "listed twice"},
		{"no rows", 0, [][]float64{{0, 0, 1}}, "weights.entries", "1 to 5000 rows (got 0)"},
	} {
		_, err := FromTriples(tc.n, tc.triples)
		var ce *check.Error
		if !errors.As(err, &ce) {
			t.Errorf("%s: error %v, want a *check.Error", tc.name, err)
			continue
		}
		if ce.Field != tc.field || !strings.Contains(ce.Rule, tc.says) {
			t.Errorf("%s: error %q, want field %q and a rule containing %q", tc.name, err, tc.field, tc.says)
		}
	}
	// Out-of-range indices reach FromEntries only from Go callers.
	_, err := FromEntries(2, []Entry{{0, 0, 1}, {1, 2, 1}})
	if err == nil || !strings.Contains(err.Error(), "weights.entries[1]: entry (1, 2) is outside the 2×2 matrix") {
		t.Errorf("FromEntries out of range: %v", err)
	}
	// Entries in any order, zeros dropped.
	m, err := FromTriples(3, [][]float64{{2, 0, 0.5}, {0, 0, 1}, {2, 2, 0.5}, {1, 1, 1}, {1, 0, 0}})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(m.Rows()); got != "[[1 0 0] [0 1 0] [0.5 0 0.5]]" || m.NNZ() != 1 {
		t.Errorf("FromTriples: %s, nnz %d", got, m.NNZ())
	}
}

// MulVec panics with a reason, not an index error, on mismatched lengths.
func TestMulVecLengths(t *testing.T) {
	m := Identity(3)
	defer func() {
		if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "MulVec lengths") {
			t.Errorf("panic %v", r)
		}
	}()
	m.MulVec(make([]float64, 6), make([]float64, 5), 2)
}

// BenchmarkMulVec reports ns per link·coordinate (ns/(link·dim), links
// counting the diagonal), which stays flat as n grows if mixing is linear
// in the links.
func BenchmarkMulVec(b *testing.B) {
	ring1000, _ := graph.Ring(1000)
	rgg50, err := graph.RandomGeometric(50, 0.3, 100, rand.New(rand.NewPCG(3, 3))) // 574 links
	if err != nil {
		b.Fatal(err)
	}
	// Radius 0.0765 gives about the same mean degree (≈ 17) as 0.3 at n = 50.
	rgg1000, err := graph.RandomGeometric(1000, 0.0765, 100, rand.New(rand.NewPCG(7, 8)))
	if err != nil {
		b.Fatal(err)
	}
	const dim = 10
	for _, bc := range []struct {
		name string
		g    *graph.Graph
	}{{"rgg-n50", rgg50}, {"ring-n1000", ring1000}, {"rgg-n1000", rgg1000}} {
		m, err := Metropolis(bc.g)
		if err != nil {
			b.Fatal(err)
		}
		x := make([]float64, m.N*dim)
		for k := range x {
			x[k] = float64(k%17) - 8
		}
		dst := make([]float64, len(x))
		work := float64((m.NNZ() + m.N) * dim)
		b.Run(fmt.Sprintf("%s-links%d-dim%d", bc.name, m.NNZ(), dim), func(b *testing.B) {
			for b.Loop() {
				m.MulVec(dst, x, dim)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/work, "ns/(link·dim)")
		})
	}
}

// MixRow is one row of (W ⊗ I)·x without its diagonal, for any number of
// neighbours (the passes of four and the remainder) and block size, with
// exactly the summation order of mixRowReference: bit for bit, natively
// and under WebAssembly (where MixRow is assembly).
func TestMixRow(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, d := range []int{1, 2, 3, 10, 17} {
		const n = 9
		x := make([]float64, n*d)
		for i := range x {
			x[i] = r.NormFloat64() * math.Exp(4*r.NormFloat64())
		}
		for k := 0; k <= n; k++ {
			cols := r.Perm(n)[:k]
			vals := make([]float64, k, k+2)
			for e := range vals {
				vals[e] = float64(r.Float64()*2) - 0.5
			}
			acc, want := make([]float64, d), make([]float64, d)
			for c := range acc {
				acc[c] = r.NormFloat64()
				want[c] = acc[c]
			}
			acc0 := slices.Clone(acc)
			MixRow(acc, x, cols, vals)
			mixRowReference(want, x, cols, vals)
			for c := range acc {
				if math.Float64bits(acc[c]) != math.Float64bits(want[c]) {
					t.Fatalf("d = %d, %d neighbours, coordinate %d: %v, want %v bit for bit", d, k, c, acc[c], want[c])
				}
			}
			// the reference is the definition, to rounding
			for c := range acc {
				sum, scale := acc0[c], math.Abs(acc0[c])
				for e, j := range cols {
					sum += float64(vals[e] * x[j*d+c])
					scale += math.Abs(vals[e] * x[j*d+c])
				}
				if math.Abs(acc[c]-sum) > 1e-14*scale {
					t.Fatalf("d = %d, %d neighbours, coordinate %d: %v, the definition gives %v", d, k, c, acc[c], sum)
				}
			}
		}
	}
	// an empty block adds nothing and reads nothing
	MixRow(nil, nil, []int{3, 4}, []float64{1, 1})
}

// mixRowReference is MixRow's arithmetic written plainly: passes of four
// neighbours summed as (w1·x1 + w2·x2) + (w3·x3 + w4·x4), then the rest.
func mixRowReference(acc, x []float64, cols []int, vals []float64) {
	d := len(acc)
	e := 0
	for ; e+3 < len(cols); e += 4 {
		for c := range acc {
			p := func(k int) float64 { return float64(vals[e+k] * x[cols[e+k]*d+c]) }
			acc[c] += float64(float64(p(0)+p(1)) + float64(p(2)+p(3)))
		}
	}
	for ; e < len(cols); e++ {
		for c := range acc {
			acc[c] += float64(vals[e] * x[cols[e]*d+c])
		}
	}
}
