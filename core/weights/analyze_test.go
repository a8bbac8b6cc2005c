package weights

import (
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"dpsim/core/graph"
)

// gtdpW returns GT-DP's 4-agent ring matrix W(r, d) of spec §5.6.
func gtdpW(r, d float64) [][]float64 {
	return [][]float64{
		{1 - r, r * d, 0, r * (1 - d)},
		{r * d, 1 - r, r * (1 - d), 0},
		{0, r * (1 - d), 1 - r, r * d},
		{r * (1 - d), 0, r * d, 1 - r},
	}
}

// with returns m with the given entries set (0 removes one).
func with(t *testing.T, m *Matrix, set ...Entry) *Matrix {
	t.Helper()
	var es []Entry
	for _, e := range m.Entries() {
		if !slices.ContainsFunc(set, func(s Entry) bool { return s.I == e.I && s.J == e.J }) {
			es = append(es, e)
		}
	}
	w, err := FromEntries(m.N, append(es, set...))
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func mustFind(t *testing.T, r Report, name string) Finding {
	t.Helper()
	f, ok := r.Find(name)
	if !ok {
		t.Fatalf("no finding %q", name)
	}
	return f
}

// The spectral quantities of matrices whose spectra are known in closed
// form.
func TestSpectralValues(t *testing.T) {
	const tol = 1e-12
	ring8 := ring(t, 8)
	ring10 := ring(t, 10)
	mh8, _ := Metropolis(ring8)
	ldp10, _ := LDPLaplacian(ring10, 0.3)
	nl8, _ := NormalizedLaplacian(ring8)
	for _, tc := range []struct {
		name                 string
		m                    *Matrix
		g                    *graph.Graph
		eigMin, eigMax       float64
		rhoW, rhoWo          float64
		doubly, zeroRows     bool
		positiveDiag, nonneg bool
	}{
		// Ring-8 MH: eigenvalues (1 + 2cos(2πk/8))/3; W_o = A/3.
		{"MH ring 8", mh8, ring8, -1.0 / 3, 1, (1 + 2*math.Cos(2*math.Pi/8)) / 3, 2.0 / 3, true, false, true, true},
		// DPP²'s P = I − W_MH: eigenvalues 1 − λ(W_MH), in [0, 2).
		{"I − MH ring 8", nl8, ring8, 0, 4.0 / 3, 4.0 / 3, 2.0 / 3, false, true, true, false},
		// LDP ring 10, c = 0.3 (spec §7.5): eigenvalues −0.6 + 0.6cos(2πk/10) ∈ [−1.2, 0].
		// W − 11ᵀ/n moves the eigenvalue 0 to −1; W_o = 0.3·A.
		{"LDP ring 10", ldp10, ring10, -1.2, 0, 1.2, 0.6, false, true, false, true},
	} {
		r := Analyze(tc.m, tc.g)
		for _, c := range []struct {
			what      string
			has       bool
			got, want float64
		}{
			{"min eigenvalue", r.HasEigenRange, r.EigenMin, tc.eigMin},
			{"max eigenvalue", r.HasEigenRange, r.EigenMax, tc.eigMax},
			{"ρ_w", r.HasRhoW, r.RhoW, tc.rhoW},
			{"ρ(W_o)", r.HasRhoWo, r.RhoWo, tc.rhoWo},
		} {
			if !c.has || math.Abs(c.got-c.want) > tol {
				t.Errorf("%s: %s = %.17g (computed %v), want %.17g", tc.name, c.what, c.got, c.has, c.want)
			}
		}
		if r.DoublyStochastic != tc.doubly || r.ZeroRowSums != tc.zeroRows || r.PositiveDiagonal != tc.positiveDiag ||
			r.Nonnegative != tc.nonneg || !r.Symmetric || !r.SparsityMatches {
			t.Errorf("%s: properties wrong:\n%s", tc.name, r)
		}
	}
}

// The full LDP ring-10 spectrum listed in spec §7.5.
func TestLDPRing10Spectrum(t *testing.T) {
	const tol = 1e-3 // the spec quotes three decimals
	w, _ := LDPLaplacian(ring(t, 10), 0.3)
	got, err := SymEigenvalues(w)
	if err != nil {
		t.Fatal(err)
	}
	want := []float64{-1.2, -1.085, -1.085, -0.785, -0.785, -0.415, -0.415, -0.115, -0.115, 0}
	for i := range want {
		if math.Abs(got[i]-want[i]) > tol {
			t.Errorf("eigenvalue %d = %.4f, want %.3f", i, got[i], want[i])
		}
	}
}

// GT-DP's W(r, d): ρ(W_o) = r and ρ_w = 1 − 2r·min(d, 1−d) (spec §5.6).
func TestGTDPRing4(t *testing.T) {
	const tol = 1e-12
	g := ring(t, 4)
	for _, tc := range []struct {
		r, d        float64
		rhoWo, rhoW float64
	}{
		{0.3, 0.5, 0.3, 0.70},
		{0.5, 0.1, 0.5, 0.90},
		{0.2, 0.25, 0.2, 0.90},
		{0.1, 0.5, 0.1, 0.90},
		{0.4, 0.8, 0.4, 0.84},
	} {
		m, err := FromRows(gtdpW(tc.r, tc.d))
		if err != nil {
			t.Fatal(err)
		}
		rep := Analyze(m, g)
		if math.Abs(rep.RhoWo-tc.rhoWo) > tol || math.Abs(rep.RhoW-tc.rhoW) > tol {
			t.Errorf("W(%v, %v): ρ(W_o) = %.15f, ρ_w = %.15f; want %v, %v", tc.r, tc.d, rep.RhoWo, rep.RhoW, tc.rhoWo, tc.rhoW)
		}
		// GT-DP's Assumption 4.
		if !rep.Symmetric || !rep.DoublyStochastic || !rep.PositiveDiagonal || !rep.SparsityMatches || !rep.Nonnegative {
			t.Errorf("W(%v, %v) breaks Assumption 4:\n%s", tc.r, tc.d, rep)
		}
		if f := rep.Failed(); len(f) != 1 || f[0].Name != FindZeroRowSums {
			t.Errorf("W(%v, %v): failed findings %v, want only %s", tc.r, tc.d, f, FindZeroRowSums)
		}
	}
}

// Uniform pull and push weights on a small digraph: stochastic on the
// right side, sparsity following the links, Perron vectors fixed points.
func TestStochasticDigraph(t *testing.T) {
	const tol = 1e-12
	dg := digraph(t, 4,
		graph.Edge{From: 0, To: 1}, graph.Edge{From: 1, To: 2}, graph.Edge{From: 2, To: 3},
		graph.Edge{From: 3, To: 0}, graph.Edge{From: 0, To: 2})
	rm, _ := RowStochastic(dg)
	cm, _ := ColumnStochastic(dg)
	rr, cr := Analyze(rm, dg), Analyze(cm, dg)
	if !rr.RowStochastic || rr.ColumnStochastic || !rr.SparsityMatches || !rr.PositiveDiagonal || rr.Symmetric {
		t.Errorf("R:\n%s", rr)
	}
	if !cr.ColumnStochastic || cr.RowStochastic || !cr.SparsityMatches || !cr.PositiveDiagonal || cr.Symmetric {
		t.Errorf("C:\n%s", cr)
	}
	if rr.PerronRight != nil || cr.PerronLeft != nil {
		t.Error("Perron vector computed for the wrong side")
	}
	for _, c := range []struct {
		name string
		m    *Matrix
		pi   []float64
		left bool
	}{{"π_R", rm, rr.PerronLeft, true}, {"π_C", cm, cr.PerronRight, false}} {
		if len(c.pi) != 4 {
			t.Fatalf("%s = %v", c.name, c.pi)
		}
		sum := 0.0
		for i := range 4 {
			sum += c.pi[i]
			// (πᵀM)_i or (Mπ)_i.
			v := 0.0
			for j := range 4 {
				if c.left {
					v += float64(c.pi[j] * c.m.At(j, i))
				} else {
					v += float64(c.m.At(i, j) * c.pi[j])
				}
			}
			if math.Abs(v-c.pi[i]) > tol || c.pi[i] <= 0 {
				t.Errorf("%s = %v is not a positive fixed point at %d", c.name, c.pi, i)
			}
		}
		if math.Abs(sum-1) > tol {
			t.Errorf("%s sums to %v", c.name, sum)
		}
	}
	// Without the spectral solvers' symmetry, ρ_w and ρ(W_o) still come
	// from the general solver; eigenvalue ranges are skipped.
	if !rr.HasRhoW || !rr.HasRhoWo || rr.HasEigenRange {
		t.Errorf("R spectral findings:\n%s", rr)
	}
	if f := mustFind(t, rr, FindEigenMin); !f.Skipped || !strings.Contains(f.Detail, "not symmetric") {
		t.Errorf("eigenvalue finding on a nonsymmetric matrix: %v", f)
	}
}

// ieee14Links returns the links of DP-DGT's IEEE-14 digraph (spec §2.1),
// numbered from 0.
func ieee14Links() []graph.Edge {
	var es []graph.Edge
	link := func(i, j int) { es = append(es, graph.Edge{From: j - 1, To: i - 1}) } // (i, j): i receives from j
	for i := 1; i <= 12; i++ {
		link(i, i+1)
		link(i, i+2)
	}
	for _, p := range [][2]int{{13, 14}, {13, 1}, {14, 1}, {1, 7}, {2, 8}, {3, 2}, {3, 9}, {4, 10}, {5, 2}, {5, 11}, {6, 12}} {
		link(p[0], p[1])
	}
	return es
}

// DP-DGT's uniform R and C on the IEEE-14 digraph (spec §4.3, §8.3):
// π_Cᵀπ_R = 0.0726, σ_R = 0.853 (φ = 0.7), σ_C = 0.804 (γ = 0.8).
func TestIEEE14PushPull(t *testing.T) {
	const tol = 5e-4 // the spec quotes three or four decimals
	g := digraph(t, 14, ieee14Links()...)
	if len(g.Edges) != 35 || !g.StronglyConnected() {
		t.Fatalf("IEEE-14 digraph: %d links, strongly connected %v", len(g.Edges), g.StronglyConnected())
	}
	rm, _ := RowStochastic(g)
	cm, _ := ColumnStochastic(g)
	piR, err := PerronLeft(rm)
	if err != nil {
		t.Fatal(err)
	}
	piC, err := PerronRight(cm)
	if err != nil {
		t.Fatal(err)
	}
	dot := 0.0
	for i := range piR {
		dot += float64(piR[i] * piC[i])
	}
	sigmaR, err := SigmaR(rm, 0.7)
	if err != nil {
		t.Fatal(err)
	}
	sigmaC, err := SigmaC(cm, 0.8)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name      string
		got, want float64
	}{{"π_Cᵀπ_R", dot, 0.0726}, {"σ_R", sigmaR, 0.853}, {"σ_C", sigmaC, 0.804}} {
		if math.Abs(c.got-c.want) > tol {
			t.Errorf("%s = %.5f, want %v", c.name, c.got, c.want)
		}
	}
}

// A digraph whose pull weights have two root classes has no unique
// Perron vector, and the finding says so.
func TestPerronNotUnique(t *testing.T) {
	// 0 → 1 ← 2: nodes 0 and 2 each only listen to themselves.
	g := digraph(t, 3, graph.Edge{From: 0, To: 1}, graph.Edge{From: 2, To: 1})
	rm, _ := RowStochastic(g)
	if _, err := PerronLeft(rm); err == nil || !strings.Contains(err.Error(), "not unique") {
		t.Errorf("PerronLeft: err = %v", err)
	}
	f := mustFind(t, Analyze(rm, g), FindPerronLeft)
	if f.Holds || f.Skipped || !strings.Contains(f.Detail, "not unique") {
		t.Errorf("finding %v", f)
	}
	if _, err := PerronRight(rm); err == nil || !strings.Contains(err.Error(), "column-stochastic") {
		t.Errorf("PerronRight of a row-stochastic matrix: err = %v", err)
	}
}

// Failures name the worst offender in words a user can act on.
func TestFindingDetails(t *testing.T) {
	g4 := ring(t, 4)
	mh4, _ := Metropolis(g4)
	spurious := with(t, mh4, Entry{0, 2, 0.1}, Entry{1, 3, 0.05}) // 0 and 2 are not neighbours in the ring of 4
	unused := with(t, mh4, Entry{2, 1, 0})
	for _, tc := range []struct {
		name    string
		rows    [][]float64
		m       *Matrix
		g       *graph.Graph
		finding string
		value   float64
		detail  string
	}{
		{name: "row sum", rows: [][]float64{{0.5, 0.5, 0}, {0.5, 0.5, 0}, {0, 0.1, 0.8}}, finding: FindDoublyStochastic,
			value: 0.2, detail: "row 2 sums to 0.9 (must be 1); column 2 sums to 0.8 (must be 1)"},
		{name: "row sum, row finding", rows: [][]float64{{0.5, 0.5, 0}, {0.5, 0.5, 0}, {0, 0.1, 0.8}}, finding: FindRowStochastic,
			value: 0.1, detail: "row 2 sums to 0.9 (must be 1)"},
		{name: "tiny deviation shown", rows: [][]float64{{1 + 1e-7}}, finding: FindRowStochastic,
			value: 1e-7, detail: "row 0 sums to 1.0000001 (must be 1)"},
		{name: "negative entry", rows: [][]float64{{1.2, -0.2}, {-0.2, 1.2}}, finding: FindDoublyStochastic,
			value: 0, detail: "row 0, column 1 is -0.2 (a stochastic matrix has no negative entries)"},
		{name: "negative off-diagonal", rows: [][]float64{{1.2, -0.2}, {-0.1, 1.1}}, finding: FindNonnegative,
			value: -0.2, detail: "row 0, column 1 is -0.2 (off-diagonal entries must be ≥ 0)"},
		{name: "asymmetric", rows: [][]float64{{0.5, 0.5, 0}, {0.25, 0.5, 0.25}, {0, 0.5, 0.5}}, finding: FindSymmetric,
			value: 0.25, detail: "row 0, column 1 is 0.5 but row 1, column 0 is 0.25 (must be equal)"},
		{name: "zero diagonal", rows: [][]float64{{0.5, 0.5}, {1, 0}}, finding: FindPositiveDiagonal,
			value: 0, detail: "row 1, column 1 (the diagonal) is 0 (must be > 0)"},
		{name: "zero row sums", rows: [][]float64{{-1, 1}, {1, -0.5}}, finding: FindZeroRowSums,
			value: 0.5, detail: "row 1 sums to 0.5 (a Laplacian-type matrix needs 0)"},
		{name: "weight on a missing link", m: spurious, g: g4, finding: FindSparsity,
			value: 2, detail: "row 0, column 2 is 0.1 but node 0 does not receive from node 2 (2 entries disagree with the graph)"},
		{name: "link without weight", m: unused, g: g4, finding: FindSparsity,
			value: 1, detail: "row 2, column 1 is 0 but node 2 receives from node 1, so the link carries no weight (1 entry disagrees with the graph)"},
		{name: "size mismatch", m: mh4, g: ring(t, 5), finding: FindSparsity,
			detail: "the matrix is 4×4 but the graph has 5 nodes"},
	} {
		m := tc.m
		if m == nil {
			var err error
			if m, err = FromRows(tc.rows); err != nil {
				t.Fatal(err)
			}
		}
		r := Analyze(m, tc.g)
		f := mustFind(t, r, tc.finding)
		if f.Holds || f.Skipped {
			t.Errorf("%s: %s holds", tc.name, tc.finding)
		}
		if f.Detail != tc.detail {
			t.Errorf("%s: detail\n\t%q, want\n\t%q", tc.name, f.Detail, tc.detail)
		}
		if f.HasValue && math.Abs(f.Value-tc.value) > 1e-12 {
			t.Errorf("%s: value %v, want %v", tc.name, f.Value, tc.value)
		}
		if !slices.ContainsFunc(r.Failed(), func(x Finding) bool { return x.Name == tc.finding }) {
			t.Errorf("%s: Failed() omits %s", tc.name, tc.finding)
		}
	}
}

// Findings come in a fixed order whatever the matrix, and reports always
// encode as JSON, even for skipped findings and non-finite matrices.
func TestReportShapeAndJSON(t *testing.T) {
	g := ring(t, 5)
	mh, _ := Metropolis(g)
	rw, _ := RandomWalk(g)
	bad := mh.Clone()
	bad.Val[slices.Index(bad.Col[bad.Start[1]:bad.Start[2]], 2)+bad.Start[1]] = math.Inf(1)
	one := Identity(1)
	for _, tc := range []struct {
		name string
		m    *Matrix
		g    *graph.Graph
	}{{"MH", mh, g}, {"random walk", rw, g}, {"no graph", mh, nil}, {"infinite", bad, g}, {"1×1", one, nil}} {
		r := Analyze(tc.m, tc.g)
		names := make([]string, len(r.Findings))
		for i, f := range r.Findings {
			names[i] = f.Name
			if f.Detail == "" {
				t.Errorf("%s: %s has no detail", tc.name, f.Name)
			}
			if f.Skipped && f.Holds {
				t.Errorf("%s: %s is skipped yet holds", tc.name, f.Name)
			}
		}
		if !slices.Equal(names, findingNames) {
			t.Errorf("%s: findings %v, want %v", tc.name, names, findingNames)
		}
		if _, err := json.Marshal(r); err != nil {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
	r := Analyze(bad, g)
	if r.Finite || len(r.Failed()) != firstMeasurement || !strings.Contains(r.Findings[0].Detail, "row 1, column 2 is +Inf") {
		t.Errorf("infinite entry:\n%s", r)
	}
	if f := mustFind(t, Analyze(mh, nil), FindSparsity); !f.Skipped {
		t.Errorf("sparsity without a graph: %v", f)
	}
	// The random walk has no self-loops: its diagonal is zero.
	if f := mustFind(t, Analyze(rw, g), FindPositiveDiagonal); f.Holds {
		t.Errorf("random walk diagonal: %v", f)
	}
}

// Large networks skip the O(n³) analysis instead of hanging.
func TestLargeSkipsSpectral(t *testing.T) {
	for _, tc := range []struct {
		name     string
		n        int
		directed bool
	}{
		{"symmetric above MaxEigenN", MaxEigenN + 1, false},
		{"nonsymmetric above MaxGeneralEigenN", MaxGeneralEigenN + 1, true},
	} {
		var es []graph.Edge
		for i := range tc.n {
			es = append(es, graph.Edge{From: i, To: (i + 1) % tc.n})
		}
		g, err := graph.New(tc.n, es, tc.directed)
		if err != nil {
			t.Fatal(err)
		}
		var m *Matrix
		if tc.directed {
			m, _ = RowStochastic(g)
		} else {
			m, _ = Metropolis(g)
		}
		r := Analyze(m, g)
		for _, name := range []string{FindRhoW, FindRhoWo} {
			if f := mustFind(t, r, name); !f.Skipped || !strings.Contains(f.Detail, "size limit") {
				t.Errorf("%s: %v", tc.name, f)
			}
		}
		if !r.SparsityMatches || !r.RowStochastic {
			t.Errorf("%s: cheap properties not checked:\n%s", tc.name, r)
		}
		// The Perron vector is cheap (one LU) and still computed below
		// MaxEigenN: uniform on a directed ring.
		if tc.directed {
			if len(r.PerronLeft) != tc.n || math.Abs(r.PerronLeft[7]-1/float64(tc.n)) > 1e-12 {
				t.Errorf("%s: π_R not computed", tc.name)
			}
		}
	}
}

// Entries near the float64 limit overflow the spectral computations; the
// findings say so instead of claiming a NaN.
func TestSpectralOverflow(t *testing.T) {
	for _, rows := range [][][]float64{
		{{1e308, 1e308}, {1e308, 1e308}},
		{{1e308, 1e308, 0}, {-1e308, 1e308, 1e308}, {1e308, 0, -1e308}},
	} {
		m, err := FromRows(rows)
		if err != nil {
			t.Fatal(err)
		}
		r := Analyze(m, nil)
		for _, f := range r.Findings[firstMeasurement:] {
			if f.Holds && (!f.HasValue || strings.Contains(f.Detail, "NaN") || strings.Contains(f.Detail, "Inf")) {
				t.Errorf("%v: %v", rows, f)
			}
		}
		if _, err := json.Marshal(r); err != nil {
			t.Error(err)
		}
	}
}
