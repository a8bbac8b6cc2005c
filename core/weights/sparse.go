package weights

import "fmt"

// Sparse is a compressed view of a weight matrix for the solvers' loops:
// the diagonal, and the off-diagonal nonzeros in compressed sparse row
// (CSR) form. Row i's off-diagonal entries are (i, Col[k]) = Val[k] for k
// in Start[i]..Start[i+1]−1, with the columns ascending.
type Sparse struct {
	N     int
	Diag  []float64 // Diag[i] = w_ii
	Start []int     // len N+1; Start[0] = 0, Start[N] = len(Col)
	Col   []int
	Val   []float64
}

// Sparse returns the CSR view of m. Entries that are exactly 0 are left
// out.
func (m *Matrix) Sparse() *Sparse {
	m.valid()
	n := m.N
	nnz := 0
	for i := range n {
		for j, v := range m.Row(i) {
			if v != 0 && i != j {
				nnz++
			}
		}
	}
	s := &Sparse{
		N:     n,
		Diag:  make([]float64, n),
		Start: make([]int, n+1),
		Col:   make([]int, 0, nnz),
		Val:   make([]float64, 0, nnz),
	}
	for i := range n {
		for j, v := range m.Row(i) {
			switch {
			case i == j:
				s.Diag[i] = v
			case v != 0:
				s.Col = append(s.Col, j)
				s.Val = append(s.Val, v)
			}
		}
		s.Start[i+1] = len(s.Col)
	}
	return s
}

// Row returns the columns and values of row i's off-diagonal nonzeros.
// The slices alias s and must not be modified.
func (s *Sparse) Row(i int) (cols []int, vals []float64) {
	a, b := s.Start[i], s.Start[i+1]
	return s.Col[a:b:b], s.Val[a:b:b]
}

// NNZ returns the number of off-diagonal nonzeros.
func (s *Sparse) NNZ() int { return len(s.Col) }

// Dense returns s as a dense matrix.
func (s *Sparse) Dense() *Matrix {
	m := New(s.N)
	for i := range s.N {
		m.Data[i*s.N+i] = s.Diag[i]
		cols, vals := s.Row(i)
		for k, j := range cols {
			m.Data[i*s.N+j] = vals[k]
		}
	}
	return m
}

// MulVec sets dst = (W ⊗ I_dim)·x for agent-major vectors: agent i's block
// dst[i*dim:(i+1)*dim] becomes Σ_j w_ij·x[j*dim:(j+1)*dim]. dst and x must
// have length N·dim and must not overlap. It returns dst.
func (s *Sparse) MulVec(dst, x []float64, dim int) []float64 {
	if len(dst) != s.N*dim || len(x) != s.N*dim {
		panic(fmt.Sprintf("weights: MulVec lengths %d and %d, want %d·%d", len(dst), len(x), s.N, dim))
	}
	for i := range s.N {
		out := dst[i*dim : (i+1)*dim]
		d := s.Diag[i]
		for c, v := range x[i*dim : (i+1)*dim] {
			out[c] = d * v
		}
		for k := s.Start[i]; k < s.Start[i+1]; k++ {
			w := s.Val[k]
			xj := x[s.Col[k]*dim : (s.Col[k]+1)*dim]
			for c, v := range xj {
				out[c] += w * v
			}
		}
	}
	return dst
}
