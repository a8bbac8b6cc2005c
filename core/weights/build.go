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
	KindMatrix                 = "matrix"                   // explicit rows
)

// Fields named by the errors of this package.
const (
	fieldKind = "weights.kind"
	fieldC    = "weights.c"
	fieldRows = "weights.matrix"
)

// KindInfo describes one kind of weight matrix, for --help and the page.
type KindInfo struct {
	Kind        string `json:"kind"`
	Description string `json:"description"`
	// Directed reports whether the kind accepts directed graphs.
	Directed bool `json:"directed"`
	// NeedsC reports whether the kind uses the parameter c.
	NeedsC bool `json:"needsC"`
	// NeedsRows reports whether the kind takes an explicit matrix.
	NeedsRows bool `json:"needsRows"`
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

// Build returns the weight matrix of the given kind on g. The parameter c
// is used only by KindLDPLaplacian and rows only by KindMatrix; for
// KindMatrix, g may be nil, and when it is not the matrix must have one row
// per node.
func Build(kind string, g *graph.Graph, c float64, rows [][]float64) (*Matrix, error) {
	if kind == KindMatrix {
		m, err := FromRows(rows)
		if err != nil {
			return nil, err
		}
		if g != nil && g.N != m.N {
			return nil, check.Errorf(fieldRows, "the matrix is %d×%d but the graph has %d nodes", m.N, m.N, g.N)
		}
		return m, nil
	}
	switch kind {
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
		return LDPLaplacian(g, c)
	case "":
		return nil, check.Errorf(fieldKind, "is required: one of %s", kindNames())
	}
	return nil, check.Errorf(fieldKind, "must be one of %s (got %q)", kindNames(), kind)
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

// Metropolis returns the Metropolis–Hastings weights of an undirected
// graph: w_ij = 1/(1+max(deg_i, deg_j)) on edges and w_ii = 1 − Σ_{j≠i} w_ij.
// The matrix is symmetric and doubly stochastic with eigenvalues in
// (−1, 1].
func Metropolis(g *graph.Graph) (*Matrix, error) {
	if err := needGraph(g, "Metropolis–Hastings", true); err != nil {
		return nil, err
	}
	m := New(g.N)
	for i := range g.N {
		row := m.Row(i)
		sum := 0.0
		for _, j := range g.Neighbors(i) {
			w := 1 / float64(1+max(g.Degree(i), g.Degree(j)))
			row[j] = w
			sum += w
		}
		row[i] = 1 - sum
	}
	return m, nil
}

// Laplacian returns the combinatorial Laplacian L = D − A of an undirected
// graph: L_ii = deg_i and L_ij = −1 on edges.
func Laplacian(g *graph.Graph) (*Matrix, error) {
	if err := needGraph(g, "Laplacian", true); err != nil {
		return nil, err
	}
	m := New(g.N)
	for i := range g.N {
		row := m.Row(i)
		for _, j := range g.Neighbors(i) {
			row[j] = -1
		}
		row[i] = float64(g.Degree(i))
	}
	return m, nil
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
	for i, v := range m.Data {
		m.Data[i] = -v
	}
	for i := range m.N {
		// 1 − w_ii = Σ_{j≠i} w_ij, summed afresh for an exact zero row sum.
		sum := 0.0
		for _, j := range g.Neighbors(i) {
			sum -= m.Data[i*m.N+j]
		}
		m.Data[i*m.N+i] = sum
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
	m := Identity(g.N)
	for i := range g.N {
		row := m.Row(i)
		for _, j := range g.Neighbors(i) {
			row[j] = -1 / math.Sqrt(float64(g.Degree(i))*float64(g.Degree(j)))
		}
	}
	return m, nil
}

// RowStochastic returns the uniform pull weights of a graph (directed or
// not): R_ij = 1/(|In(i)|+1) for j ∈ In(i) ∪ {i}, 0 otherwise. Each node
// averages its own value and those it receives.
func RowStochastic(g *graph.Graph) (*Matrix, error) {
	if err := needGraph(g, "row-stochastic", false); err != nil {
		return nil, err
	}
	m := New(g.N)
	for i := range g.N {
		row := m.Row(i)
		w := 1 / float64(len(g.In(i))+1)
		for _, j := range g.In(i) {
			row[j] = w
		}
		row[i] = w
	}
	return m, nil
}

// ColumnStochastic returns the uniform push weights of a graph (directed
// or not): C_ij = 1/(|Out(j)|+1) for i ∈ Out(j) ∪ {j}, 0 otherwise. Each
// node splits its value equally between itself and the nodes it sends to.
func ColumnStochastic(g *graph.Graph) (*Matrix, error) {
	if err := needGraph(g, "column-stochastic", false); err != nil {
		return nil, err
	}
	m := New(g.N)
	for j := range g.N {
		w := 1 / float64(len(g.Out(j))+1)
		for _, i := range g.Out(j) {
			m.Data[i*m.N+j] = w
		}
		m.Data[j*m.N+j] = w
	}
	return m, nil
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
	m := New(g.N)
	for i := range g.N {
		row := m.Row(i)
		w := 1 / float64(g.Degree(i))
		for _, j := range g.Neighbors(i) {
			row[j] = w
		}
	}
	return m, nil
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
	m := New(g.N)
	for i := range g.N {
		row := m.Row(i)
		for _, j := range g.Neighbors(i) {
			row[j] = c
		}
		row[i] = -c * float64(g.Degree(i))
	}
	return m, nil
}

// FromRows returns the matrix with the given rows, copied. It reports an
// error, naming the row and column, unless rows is a non-empty square
// array of finite numbers with at most graph.MaxAgents rows.
func FromRows(rows [][]float64) (*Matrix, error) {
	n := len(rows)
	if n == 0 {
		return nil, check.Errorf(fieldRows, "the matrix needs at least one row")
	}
	if n > graph.MaxAgents {
		return nil, check.Errorf(fieldRows, "the matrix may have at most %d rows (got %d)", graph.MaxAgents, n)
	}
	m := New(n)
	for i, r := range rows {
		if len(r) != n {
			return nil, check.Errorf(check.Index(fieldRows, i),
				"row %d has %d entries but there are %d rows; the matrix must be square", i, len(r), n)
		}
		for j, v := range r {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, check.Errorf(check.Index(check.Index(fieldRows, i), j),
					"row %d, column %d is %v; every entry must be a finite number", i, j, v)
			}
		}
		copy(m.Row(i), r)
	}
	return m, nil
}
