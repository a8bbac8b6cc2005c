package weights

import (
	"errors"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"dpsim/core/check"
	"dpsim/core/graph"
)

func ring(t *testing.T, n int) *graph.Graph {
	t.Helper()
	g, err := graph.Ring(n)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func mustRGG(t *testing.T, n int, radius float64, seed uint64) *graph.Graph {
	t.Helper()
	g, err := graph.RandomGeometric(n, radius, 100, rand.New(rand.NewPCG(seed, seed)))
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func digraph(t *testing.T, n int, edges ...graph.Edge) *graph.Graph {
	t.Helper()
	g, err := graph.New(n, edges, true)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// equalMatrix reports the first entry where got and want differ by more
// than tol.
func equalMatrix(t *testing.T, name string, got *Matrix, want [][]float64, tol float64) {
	t.Helper()
	if got.N != len(want) {
		t.Fatalf("%s: size %d, want %d", name, got.N, len(want))
	}
	for i := range want {
		for j := range want[i] {
			if math.Abs(got.At(i, j)-want[i][j]) > tol {
				t.Errorf("%s: entry (%d, %d) = %.17g, want %.17g", name, i, j, got.At(i, j), want[i][j])
				return
			}
		}
	}
}

// The CSR accessors agree with the dense picture, and indices out of
// range panic.
func TestMatrixBasics(t *testing.T) {
	m, err := FromEntries(3, []Entry{{2, 0, 4}, {0, 2, 5}, {1, 1, 1}, {0, 0, 1}, {2, 2, 1}, {0, 1, 0}})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]float64{{1, 0, 5}, {0, 1, 0}, {4, 0, 1}}
	equalMatrix(t, "FromEntries", m, want, 0)
	if got := m.Rows(); !slices.EqualFunc(got, want, slices.Equal) {
		t.Errorf("Rows = %v", got)
	}
	if m.NNZ() != 2 {
		t.Errorf("NNZ = %d, want 2 (the explicit 0 at (0, 1) is not stored)", m.NNZ())
	}
	if cols, vals := m.Row(0); !slices.Equal(cols, []int{2}) || !slices.Equal(vals, []float64{5}) {
		t.Errorf("Row(0) = %v, %v", cols, vals)
	}
	wantEntries := []Entry{{0, 0, 1}, {0, 2, 5}, {1, 1, 1}, {2, 0, 4}, {2, 2, 1}}
	if got := m.Entries(); !slices.Equal(got, wantEntries) {
		t.Errorf("Entries = %v, want %v", got, wantEntries)
	}
	c := m.Clone()
	c.Val[0] = 7
	if m.At(0, 2) != 5 {
		t.Error("Clone shares data with the original")
	}
	id := Identity(3)
	if id.At(1, 1) != 1 || id.At(0, 1) != 0 || id.NNZ() != 0 {
		t.Errorf("Identity: %v", id.Rows())
	}
	for _, bad := range []func(){func() { m.At(0, 3) }, func() { m.At(-1, 0) }, func() { m.Row(3) }} {
		func() {
			defer func() {
				if recover() == nil {
					t.Error("an index out of range did not panic")
				}
			}()
			bad()
		}()
	}
}

func TestBuilders(t *testing.T) {
	const tol = 1e-15
	third := 1.0 / 3
	// Path 0–1–2: degrees 1, 2, 1.
	path, _ := graph.Path(3)
	// Digraph 0→1, 1→2, 2→0, 0→2: In(0) = {2}, In(1) = {0}, In(2) = {0, 1};
	// Out(0) = {1, 2}, Out(1) = {2}, Out(2) = {0}.
	dg := digraph(t, 3, graph.Edge{From: 0, To: 1}, graph.Edge{From: 1, To: 2}, graph.Edge{From: 2, To: 0}, graph.Edge{From: 0, To: 2})
	s2 := 1 / math.Sqrt2
	for _, tc := range []struct {
		name  string
		build func() (*Matrix, error)
		want  [][]float64
	}{
		{"metropolis path", func() (*Matrix, error) { return Metropolis(path) },
			[][]float64{{2 * third, third, 0}, {third, third, third}, {0, third, 2 * third}}},
		{"laplacian path", func() (*Matrix, error) { return Laplacian(path) },
			[][]float64{{1, -1, 0}, {-1, 2, -1}, {0, -1, 1}}},
		{"normalized-laplacian path", func() (*Matrix, error) { return NormalizedLaplacian(path) },
			[][]float64{{third, -third, 0}, {-third, 2 * third, -third}, {0, -third, third}}},
		{"sym-normalized-laplacian path", func() (*Matrix, error) { return SymNormalizedLaplacian(path) },
			[][]float64{{1, -s2, 0}, {-s2, 1, -s2}, {0, -s2, 1}}},
		{"random-walk path", func() (*Matrix, error) { return RandomWalk(path) },
			[][]float64{{0, 1, 0}, {0.5, 0, 0.5}, {0, 1, 0}}},
		{"ldp-laplacian path", func() (*Matrix, error) { return LDPLaplacian(path, 0.3) },
			[][]float64{{-0.3, 0.3, 0}, {0.3, -0.6, 0.3}, {0, 0.3, -0.3}}},
		{"row-stochastic digraph", func() (*Matrix, error) { return RowStochastic(dg) },
			[][]float64{{0.5, 0, 0.5}, {0.5, 0.5, 0}, {third, third, third}}},
		{"column-stochastic digraph", func() (*Matrix, error) { return ColumnStochastic(dg) },
			[][]float64{{third, 0, 0.5}, {third, 0.5, 0}, {third, 0.5, 0.5}}},
		{"row-stochastic undirected path", func() (*Matrix, error) { return RowStochastic(path) },
			[][]float64{{0.5, 0.5, 0}, {third, third, third}, {0, 0.5, 0.5}}},
		{"from rows", func() (*Matrix, error) { return FromRows([][]float64{{1, 2}, {3, 4}}) },
			[][]float64{{1, 2}, {3, 4}}},
	} {
		m, err := tc.build()
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		equalMatrix(t, tc.name, m, tc.want, tol)
	}
}

func TestMetropolisRing8(t *testing.T) {
	const tol = 1e-15
	g := ring(t, 8)
	w, err := Metropolis(g)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 8 {
		for j := range 8 {
			want := 0.0
			if i == j || g.HasLink(i, j) {
				want = 1.0 / 3
			}
			if math.Abs(w.At(i, j)-want) > tol {
				t.Errorf("w(%d, %d) = %v, want %v", i, j, w.At(i, j), want)
			}
		}
	}
}

// Build dispatches every kind, and every builder refuses graphs it does
// not suit, naming the field and saying why.
func TestBuildErrors(t *testing.T) {
	dg := digraph(t, 3, graph.Edge{From: 0, To: 1}, graph.Edge{From: 1, To: 2})
	isolated, _ := graph.New(3, []graph.Edge{{From: 0, To: 1}}, false)
	r4 := ring(t, 4)
	nan := math.NaN()
	for _, tc := range []struct {
		name  string
		kind  string
		g     *graph.Graph
		c     float64
		rows  [][]float64
		field string
		says  string
	}{
		{"metropolis on a digraph", KindMetropolis, dg, 0, nil, "weights.kind", "need an undirected graph"},
		{"laplacian on a digraph", KindLaplacian, dg, 0, nil, "weights.kind", "undirected"},
		{"normalised laplacian on a digraph", KindNormalizedLaplacian, dg, 0, nil, "weights.kind", "undirected"},
		{"sym normalised laplacian, isolated node", KindSymNormalizedLaplacian, isolated, 0, nil, "weights.kind", "node 2 has no neighbours"},
		{"random walk, isolated node", KindRandomWalk, isolated, 0, nil, "weights.kind", "node 2 has no neighbours"},
		{"random walk on a digraph", KindRandomWalk, dg, 0, nil, "weights.kind", "undirected"},
		{"ldp c = 0", KindLDPLaplacian, r4, 0, nil, "weights.c", "> 0"},
		{"ldp c = NaN", KindLDPLaplacian, r4, nan, nil, "weights.c", "finite"},
		{"ldp on a digraph", KindLDPLaplacian, dg, 0.3, nil, "weights.kind", "undirected"},
		{"no graph", KindRowStochastic, nil, 0, nil, "weights.kind", "need a graph"},
		{"unknown kind", "metropolis-hastings", r4, 0, nil, "weights.kind", `must be one of "metropolis"`},
		{"empty kind", "", r4, 0, nil, "weights.kind", "is required"},
		{"no rows", KindMatrix, nil, 0, nil, "weights.matrix", "at least one row"},
		{"not square", KindMatrix, nil, 0, [][]float64{{1, 0}, {0}}, "weights.matrix[1]", "row 1 has 1 entries but there are 2 rows"},
		{"NaN entry", KindMatrix, nil, 0, [][]float64{{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, nan}, {0, 0, 0, 1}}, "weights.matrix[2][3]", "row 2, column 3 is NaN"},
		{"infinite entry", KindMatrix, nil, 0, [][]float64{{math.Inf(-1)}}, "weights.matrix[0][0]", "row 0, column 0 is -Inf"},
		{"size mismatch", KindMatrix, r4, 0, [][]float64{{1}}, "weights.matrix", "the matrix is 1×1 but the graph has 4 nodes"},
	} {
		m, err := Build(Spec{Kind: tc.kind, C: tc.c, Rows: tc.rows}, tc.g)
		if err == nil {
			t.Errorf("%s: no error (got %v)", tc.name, m)
			continue
		}
		var ce *check.Error
		if !errors.As(err, &ce) {
			t.Errorf("%s: error %q is not a *check.Error", tc.name, err)
			continue
		}
		if ce.Field != tc.field || !strings.Contains(ce.Rule, tc.says) {
			t.Errorf("%s: error %q, want field %q and a rule containing %q", tc.name, err, tc.field, tc.says)
		}
	}
}

func TestBuildEveryKind(t *testing.T) {
	g := ring(t, 5)
	rows := Identity(5).Rows()
	seen := map[string]bool{}
	for _, k := range Kinds() {
		if k.Kind == "" || k.Description == "" || strings.Contains(k.Description, "\n") {
			t.Errorf("kind %+v: needs a name and a one-line description", k)
		}
		if seen[k.Kind] {
			t.Errorf("kind %q listed twice", k.Kind)
		}
		seen[k.Kind] = true
		m, err := Build(Spec{Kind: k.Kind, C: 0.3, Rows: rows, Entries: [][]float64{{0, 0, 1}, {1, 1, 1}, {2, 2, 1}, {3, 3, 1}, {4, 4, 1}}}, g)
		if err != nil {
			t.Errorf("Build(%q): %v", k.Kind, err)
			continue
		}
		if m.N != 5 {
			t.Errorf("Build(%q): n = %d", k.Kind, m.N)
		}
	}
	if len(seen) != 10 {
		t.Errorf("Kinds lists %d kinds, want 10", len(seen))
	}
}
