// Package weights builds and inspects the mixing matrices with which the
// agents of a network combine their neighbours' values: Metropolis–Hastings
// weights, Laplacians, uniform row- and column-stochastic (pull and push)
// matrices, random-walk transitions, the negative Laplacian of the LDP
// paper, and explicit matrices.
//
// # Builders
//
// Each kind a scenario may name is a described Builder (builder.go,
// ringrd.go): a name, a doc line, its parameters as a tagged struct
// (core/param) and a Build function, registered in one line in
// core/scenario/registry.go. A new kind is a new Builder and that line.
//
// # Storage
//
// A Matrix is sparse: its diagonal, and its off-diagonal nonzeros by rows
// (CSR). Building, checking and mixing cost time and memory in proportion
// to n plus the links, so networks of graph.MaxAgents agents stay cheap;
// MulVec is the solvers' mixing loop. Only the spectral analysis is dense,
// within size limits (MaxEigenN, MaxGeneralEigenN).
//
// # Index convention
//
// Entry (i, j) is the weight node i gives to the value it receives from
// node j, so in a sparse matrix it may be nonzero only when the graph has a
// link j → i (g.HasLink(j, i)); for undirected graphs the direction does
// not matter. Nodes, rows and columns are numbered from 0, like the
// agents.
//
// # Errors
//
// Builders return a *check.Error whose Field is "weights.kind" when the
// chosen kind does not suit the graph, "weights.c" for a bad parameter,
// "weights.matrix[i][j]" for a bad entry of a dense matrix and
// "weights.entries[k]" for a bad item of an entry list (the fields of a
// scenario's weights section).
//
// # Analysis
//
// Analyze checks the properties the algorithms' theorems assume
// (stochasticity, symmetry, positive diagonal, sparsity, zero row sums)
// and computes the spectral quantities they use (eigenvalue range, ρ_w,
// ρ(W_o), Perron vectors). It is meant to run once per scenario, not in
// an iteration loop. The spectral quantities are computed by portable
// routines (eigen.go) and are the same bits natively and under js/wasm,
// so run exports that carry them are byte-identical.
package weights
