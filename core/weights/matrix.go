package weights

import "fmt"

// Matrix is a dense n×n matrix stored row-major: entry (i, j) is
// Data[i*N+j].
type Matrix struct {
	N    int
	Data []float64
}

// New returns the n×n zero matrix. It panics if n < 0.
func New(n int) *Matrix {
	if n < 0 {
		panic(fmt.Sprintf("weights: negative size %d", n))
	}
	return &Matrix{N: n, Data: make([]float64, n*n)}
}

// Identity returns the n×n identity matrix. It panics if n < 0.
func Identity(n int) *Matrix {
	m := New(n)
	for i := range n {
		m.Data[i*n+i] = 1
	}
	return m
}

func (m *Matrix) index(i, j int) int {
	if uint(i) >= uint(m.N) || uint(j) >= uint(m.N) {
		panic(fmt.Sprintf("weights: index (%d, %d) out of range for a %d×%d matrix", i, j, m.N, m.N))
	}
	return i*m.N + j
}

// At returns entry (i, j). It panics if i or j is out of range.
func (m *Matrix) At(i, j int) float64 { return m.Data[m.index(i, j)] }

// Set sets entry (i, j) to v. It panics if i or j is out of range.
func (m *Matrix) Set(i, j int, v float64) { m.Data[m.index(i, j)] = v }

// Row returns row i. The slice aliases m.Data: writing to it changes m.
func (m *Matrix) Row(i int) []float64 {
	if uint(i) >= uint(m.N) {
		panic(fmt.Sprintf("weights: row %d out of range for a %d×%d matrix", i, m.N, m.N))
	}
	return m.Data[i*m.N : (i+1)*m.N : (i+1)*m.N]
}

// Clone returns a deep copy of m.
func (m *Matrix) Clone() *Matrix {
	return &Matrix{N: m.N, Data: append([]float64(nil), m.Data...)}
}

// Rows returns a copy of m as a slice of rows, the form FromRows accepts
// and JSON scenarios hold.
func (m *Matrix) Rows() [][]float64 {
	rows := make([][]float64, m.N)
	for i := range rows {
		rows[i] = append([]float64(nil), m.Row(i)...)
	}
	return rows
}

// valid panics unless m is a well-formed matrix.
func (m *Matrix) valid() {
	if m == nil {
		panic("weights: nil matrix")
	}
	if m.N < 0 || len(m.Data) != m.N*m.N {
		panic(fmt.Sprintf("weights: malformed matrix: N = %d but len(Data) = %d", m.N, len(m.Data)))
	}
}
