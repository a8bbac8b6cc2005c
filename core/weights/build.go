package weights

import (
	"fmt"
	"math"
	"strings"

	"dpsim/core/check"
	"dpsim/core/graph"
)

// Kinds of weight matrix accepted by Build.
const (
	KindMetropolis             = "metropolis"               // Metropolis–Hastings weights
	KindLaplacian              = "laplacian"                // combinatorial Laplacian D − A
	KindNormalizedLaplacian    = "normalized-laplacian"     // I − W_MH
	KindSymNormalizedLaplacian = "sym-normalized-laplacian" // I − D^−½ A D^−½
	KindRowStochastic          = "row-stochastic"           // uniform pull weights
	KindColumnStochastic       = "column-stochastic"        // uniform push weights
	KindRandomWalk             = "random-walk"              // D⁻¹A
	KindLDPLaplacian           = "ldp-laplacian"            // −c·L
	KindMatrix                 = "matrix"                   // explicit dense rows
	KindEntries                = "entries"                  // explicit nonzero entries
)

// Fields named by the errors of this package's builders.
const (
	fieldKind = "weights.kind"
	fieldC    = "weights.c"
)

// KindInfo describes one kind of weight matrix, for --help and the page.
type KindInfo struct {
	Kind        string `json:"kind"`
	Description string `json:"description"`
	// Directed reports whether the kind accepts directed graphs.
	Directed bool `json:"directed"`
	// NeedsC reports whether the kind uses the parameter c.
	NeedsC bool `json:"needsC"`
	// NeedsRows reports whether the kind takes an explicit dense matrix.
	NeedsRows bool `json:"needsRows"`
	// NeedsEntries reports whether the kind takes a list of entries.
	NeedsEntries bool `json:"needsEntries"`
}

var kinds = []KindInfo{
	{Kind: KindMetropolis, Description: "Metropolis–Hastings: w_ij = 1/(1+max(deg_i,deg_j)) on edges, w_ii = 1 − Σ_j w_ij; symmetric, doubly stochastic (undirected)"},
	{Kind: KindLaplacian, Description: "combinatorial Laplacian L = D − A (undirected)"},
	{Kind: KindNormalizedLaplacian, Description: "I − W_MH, eigenvalues in [0, 2); the DPP² default P (undirected)"},
	{Kind: KindSymNormalizedLaplacian, Description: "symmetric normalised Laplacian I − D^−½ A D^−½ (undirected, no isolated nodes)"},
	{Kind: KindRowStochastic, Description: "uniform pull weights R_ij = 1/(|In(i)|+1) on in-neighbours and self; DP-DGT's R", Directed: true},
	{Kind: KindColumnStochastic, Description: "uniform push weights C_ij = 1/(|Out(j)|+1) on out-neighbours and self; DP-DGT's C", Directed: true},
	{Kind: KindRandomWalk, Description: "random-walk transition P = D⁻¹A, P_ij = 1/deg_i, no self-loops; DP-RECAL (undirected, no isolated nodes)"},
	{Kind: KindLDPLaplacian, Description: "negative Laplacian −c·L: c on edges, −c·deg_i on the diagonal; LDP online (undirected, needs c > 0)", NeedsC: true},
	{Kind: KindMatrix, Description: "an explicit n×n matrix given row by row", Directed: true, NeedsRows: true},
	{Kind: KindEntries, Description: "an explicit matrix given as its nonzero entries [i, j, w], diagonal included", Directed: true, NeedsEntries: true},
}

// Kinds lists the kinds Build accepts, with one-line descriptions, in a
// fixed order.
func Kinds() []KindInfo {
	return append([]KindInfo(nil), kinds...)
}

func kindNames() string {
	names := make([]string, len(kinds))
	for i, k := range kinds {
		names[i] = fmt.Sprintf("%q", k.Kind)
	}
	return strings.Join(names, ", ")
}

// Spec chooses a weight matrix: its kind and the parameters that kind
// uses. It mirrors a scenario's weights section.
type Spec struct {
	Kind string
	// C is the edge weight of KindLDPLaplacian.
	C float64
	// Rows is the dense matrix of KindMatrix, one row per node.
	Rows [][]float64
	// Entries lists the nonzero entries of KindEntries as triples
	// [i, j, w] (FromTriples).
	Entries [][]float64
}

// Build returns the weight matrix that s describes on g. For KindMatrix,
// g may be nil, and when it is not the matrix must have one row per node;
// every other kind needs g.
func Build(s Spec, g *graph.Graph) (*Matrix, error) {
	switch s.Kind {
	case KindMatrix:
		m, err := FromRows(s.Rows)
		if err != nil {
			return nil, err
		}
		if g != nil && g.N != m.N {
			return nil, check.Errorf(fieldRows, "the matrix is %d×%d but the graph has %d nodes", m.N, m.N, g.N)
		}
		return m, nil
	case KindEntries:
		// The entries leave the size open (trailing rows may be all
		// zero), so it comes from the graph.
		if g == nil {
			return nil, check.Errorf(fieldKind, "%q weights need a graph, which gives the size of the matrix", KindEntries)
		}
		return FromTriples(g.N, s.Entries)
	case KindMetropolis:
		return Metropolis(g)
	case KindLaplacian:
		return Laplacian(g)
	case KindNormalizedLaplacian:
		return NormalizedLaplacian(g)
	case KindSymNormalizedLaplacian:
		return SymNormalizedLaplacian(g)
	case KindRowStochastic:
		return RowStochastic(g)
	case KindColumnStochastic:
		return ColumnStochastic(g)
	case KindRandomWalk:
		return RandomWalk(g)
	case KindLDPLaplacian:
		return LDPLaplacian(g, s.C)
	case "":
		return nil, check.Errorf(fieldKind, "is required: one of %s", kindNames())
	}
	return nil, check.Errorf(fieldKind, "must be one of %s (got %q)", kindNames(), s.Kind)
}

// needGraph reports an error when g is nil, or directed and the kind needs
// an undirected graph.
func needGraph(g *graph.Graph, name string, undirected bool) error {
	if g == nil {
		return check.Errorf(fieldKind, "%s weights need a graph", name)
	}
	if undirected && g.Directed {
		return check.Errorf(fieldKind, "%s weights need an undirected graph; on a directed graph use %q (pull) or %q (push)",
			name, KindRowStochastic, KindColumnStochastic)
	}
	return nil
}

// noIsolated reports an error naming the first node without neighbours.
func noIsolated(g *graph.Graph, name string) error {
	for i := range g.N {
		if g.Degree(i) == 0 {
			return check.Errorf(fieldKind, "%s weights divide by the degree, but node %d has no neighbours", name, i)
		}
	}
	return nil
}

// onLinks returns the matrix that is zero off the links: row i has
// weight(i, j) at every j node i receives from (g.In(i), ascending) and
// diag(i) on the diagonal. It takes O(n + links) time and memory, which is
// why every builder goes through it.
func onLinks(g *graph.Graph, weight func(i, j int) float64, diag func(i int) float64) *Matrix {
	links := g.Links()
	m := &Matrix{N: g.N, Diag: make([]float64, g.N), Start: make([]int, g.N+1),
		Col: make([]int, 0, links), Val: make([]float64, 0, links)}
	for i := range g.N {
		for _, j := range g.In(i) {
			m.Col = append(m.Col, j)
			m.Val = append(m.Val, weight(i, j))
		}
		m.Start[i+1] = len(m.Col)
		m.Diag[i] = diag(i)
	}
	return m
}

// rowSumOff returns Σ_{j≠i} w_ij in ascending j.
func (m *Matrix) rowSumOff(i int) float64 {
	_, vals := m.Row(i)
	s := 0.0
	for _, v := range vals {
		s += v
	}
	return s
}

// Metropolis returns the Metropolis–Hastings weights of an undirected
// graph: w_ij = 1/(1+max(deg_i, deg_j)) on edges and w_ii = 1 − Σ_{j≠i} w_ij.
// The matrix is symmetric and doubly stochastic with eigenvalues in
// (−1, 1].
func Metropolis(g *graph.Graph) (*Matrix, error) {
	if err := needGraph(g, "Metropolis–Hastings", true); err != nil {
		return nil, err
	}
	m := onLinks(g, func(i, j int) float64 { return 1 / float64(1+max(g.Degree(i), g.Degree(j))) },
		func(int) float64 { return 0 })
	for i := range m.N {
		m.Diag[i] = 1 - m.rowSumOff(i)
	}
	return m, nil
}

// Laplacian returns the combinatorial Laplacian L = D − A of an undirected
// graph: L_ii = deg_i and L_ij = −1 on edges.
func Laplacian(g *graph.Graph) (*Matrix, error) {
	if err := needGraph(g, "Laplacian", true); err != nil {
		return nil, err
	}
	return onLinks(g, func(int, int) float64 { return -1 },
		func(i int) float64 { return float64(g.Degree(i)) }), nil
}

// NormalizedLaplacian returns I − W_MH, with W_MH the Metropolis–Hastings
// weights of an undirected graph. It is symmetric and positive
// semidefinite with eigenvalues in [0, 2) and null space span(1) on a
// connected graph: the default P of DPP².
func NormalizedLaplacian(g *graph.Graph) (*Matrix, error) {
	if err := needGraph(g, "normalised Laplacian", true); err != nil {
		return nil, err
	}
	m, err := Metropolis(g)
	if err != nil {
		return nil, err
	}
	for k, v := range m.Val {
		m.Val[k] = -v
	}
	for i := range m.N {
		// 1 − w_ii = Σ_{j≠i} w_ij, summed afresh for an exact zero row sum.
		m.Diag[i] = -m.rowSumOff(i)
	}
	return m, nil
}

// SymNormalizedLaplacian returns I − D^−½ A D^−½ of an undirected graph
// without isolated nodes: 1 on the diagonal and −1/√(deg_i·deg_j) on
// edges. Its eigenvalues lie in [0, 2].
func SymNormalizedLaplacian(g *graph.Graph) (*Matrix, error) {
	const name = "symmetric normalised Laplacian"
	if err := needGraph(g, name, true); err != nil {
		return nil, err
	}
	if err := noIsolated(g, name); err != nil {
		return nil, err
	}
	// math.Sqrt is correctly rounded on every architecture, so the
	// weights are the same bits natively and in the browser.
	return onLinks(g, func(i, j int) float64 { return -1 / math.Sqrt(float64(g.Degree(i))*float64(g.Degree(j))) },
		func(int) float64 { return 1 }), nil
}

// RowStochastic returns the uniform pull weights of a graph (directed or
// not): R_ij = 1/(|In(i)|+1) for j ∈ In(i) ∪ {i}, 0 otherwise. Each node
// averages its own value and those it receives.
func RowStochastic(g *graph.Graph) (*Matrix, error) {
	if err := needGraph(g, "row-stochastic", false); err != nil {
		return nil, err
	}
	w := func(i int) float64 { return 1 / float64(len(g.In(i))+1) }
	return onLinks(g, func(i, _ int) float64 { return w(i) }, w), nil
}

// ColumnStochastic returns the uniform push weights of a graph (directed
// or not): C_ij = 1/(|Out(j)|+1) for i ∈ Out(j) ∪ {j}, 0 otherwise. Each
// node splits its value equally between itself and the nodes it sends to.
func ColumnStochastic(g *graph.Graph) (*Matrix, error) {
	if err := needGraph(g, "column-stochastic", false); err != nil {
		return nil, err
	}
	w := func(j int) float64 { return 1 / float64(len(g.Out(j))+1) }
	return onLinks(g, func(_, j int) float64 { return w(j) }, w), nil
}

// RandomWalk returns the transition matrix P = D⁻¹A of the simple random
// walk on an undirected graph without isolated nodes: P_ij = 1/deg_i for
// neighbours j, and no self-loops.
func RandomWalk(g *graph.Graph) (*Matrix, error) {
	const name = "random-walk"
	if err := needGraph(g, name, true); err != nil {
		return nil, err
	}
	if err := noIsolated(g, name); err != nil {
		return nil, err
	}
	return onLinks(g, func(i, _ int) float64 { return 1 / float64(g.Degree(i)) },
		func(int) float64 { return 0 }), nil
}

// LDPLaplacian returns W = −c·L of an undirected graph, the mixing matrix
// of the LDP online algorithm: w_ij = c on edges and w_ii = −c·deg_i, so
// every row sums to 0. The agents' effective mixing matrix is I + W. The
// weight c must be finite and > 0.
func LDPLaplacian(g *graph.Graph, c float64) (*Matrix, error) {
	if err := needGraph(g, "LDP Laplacian", true); err != nil {
		return nil, err
	}
	if err := check.Positive(fieldC, c); err != nil {
		return nil, err
	}
	return onLinks(g, func(int, int) float64 { return c },
		func(i int) float64 { return -c * float64(g.Degree(i)) }), nil
}
