package weights

import "fmt"

// MulVec sets dst = (W ⊗ I_dim)·x for agent-major vectors: agent i's block
// dst[i*dim:(i+1)*dim] becomes w_ii·x_i + Σ_j w_ij·x_j over row i's
// off-diagonal nonzeros, in ascending j. dst and x must have length N·dim
// and must not overlap. It returns dst. It costs O((n + nnz)·dim).
//
// This is the solvers' mixing loop. The inner loops run over
// re-sliced blocks of equal, known length, so the compiler drops their
// per-element bounds checks (verify with go build
// -gcflags=-d=ssa/check_bce ./core/weights: no report inside the inner
// loops); only the slicing of each neighbour's block is checked. Every
// product is rounded before it is added (the float64 conversion), so that
// a compiler targeting a machine with fused multiply-add cannot fuse it
// and the result is the same bits everywhere.
func (m *Matrix) MulVec(dst, x []float64, dim int) []float64 {
	n := m.N
	if dim < 0 || len(dst) != n*dim || len(x) != n*dim {
		panic(fmt.Sprintf("weights: MulVec lengths %d and %d, want %d·%d", len(dst), len(x), n, dim))
	}
	if len(m.Diag) != n || len(m.Start) != n+1 || len(m.Val) != len(m.Col) {
		m.valid() // panics with the reason
	}
	diag, start, end := m.Diag[:n], m.Start[:n], m.Start[1:n+1]
	col, val := m.Col, m.Val
	for i := range diag {
		out := dst[i*dim : i*dim+dim]
		xi := x[i*dim : i*dim+dim]
		xi = xi[:len(out)]
		d := diag[i]
		for c := range out {
			out[c] = float64(d * xi[c])
		}
		a, b := start[i], end[i]
		cols, vals := col[a:b], val[a:b]
		vals = vals[:len(cols)]
		for k, j := range cols {
			w := vals[k]
			xj := x[j*dim : j*dim+dim]
			xj = xj[:len(out)]
			for c := range out {
				out[c] += float64(w * xj[c])
			}
		}
	}
	return dst
}
