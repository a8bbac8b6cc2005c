package weights

import (
	"fmt"
	"math"
	"slices"

	"dpsim/core/check"
	"dpsim/core/graph"
)

// Matrix is a sparse n×n weight matrix: its diagonal, and its off-diagonal
// nonzeros in compressed sparse row (CSR) form. Row i's off-diagonal
// entries are (i, Col[k]) = Val[k] for k in Start[i]..Start[i+1]−1, with
// the columns ascending; every other off-diagonal entry is 0.
//
// Networks are sparse (a ring of n agents has 2n links, not n²), so memory
// and the cost of mixing grow with the links, and a matrix of
// graph.MaxAgents agents stays small. The constructors (FromRows,
// FromEntries, the builders) keep Val free of zeros, so NNZ counts the
// links that carry weight; a Matrix assembled by hand must keep the
// layout above, or the methods panic.
type Matrix struct {
	N     int
	Diag  []float64 // Diag[i] = w_ii; len N
	Start []int     // len N+1; Start[0] = 0, Start[N] = len(Col)
	Col   []int     // columns of the off-diagonal nonzeros, row by row
	Val   []float64 // their values; len(Val) = len(Col)
}

// Entry is one entry (I, J) = W of a matrix.
type Entry struct {
	I, J int
	W    float64
}

// Identity returns the n×n identity matrix. It panics if n < 0.
func Identity(n int) *Matrix {
	if n < 0 {
		panic(fmt.Sprintf("weights: negative size %d", n))
	}
	m := &Matrix{N: n, Diag: make([]float64, n), Start: make([]int, n+1)}
	for i := range m.Diag {
		m.Diag[i] = 1
	}
	return m
}

// Row returns the columns and values of row i's off-diagonal nonzeros, the
// columns ascending. The slices alias m and must not be modified. It
// panics if i is out of range.
func (m *Matrix) Row(i int) (cols []int, vals []float64) {
	if uint(i) >= uint(m.N) {
		panic(fmt.Sprintf("weights: row %d out of range for a %d×%d matrix", i, m.N, m.N))
	}
	a, b := m.Start[i], m.Start[i+1]
	return m.Col[a:b:b], m.Val[a:b:b]
}

// At returns entry (i, j), finding an off-diagonal one by binary search
// in row i. It panics if i or j is out of range.
func (m *Matrix) At(i, j int) float64 {
	if uint(i) >= uint(m.N) || uint(j) >= uint(m.N) {
		panic(fmt.Sprintf("weights: index (%d, %d) out of range for a %d×%d matrix", i, j, m.N, m.N))
	}
	if i == j {
		return m.Diag[i]
	}
	cols, vals := m.Row(i)
	if k, ok := slices.BinarySearch(cols, j); ok {
		return vals[k]
	}
	return 0
}

// NNZ returns the number of stored off-diagonal entries: for the
// matrices the constructors return, the off-diagonal nonzeros, which are
// the links that carry weight.
func (m *Matrix) NNZ() int { return len(m.Col) }

// Entries returns every nonzero entry, diagonal included, in row-major
// order: the form FromEntries accepts and pinned scenarios hold.
func (m *Matrix) Entries() []Entry {
	m.valid()
	out := make([]Entry, 0, m.N+len(m.Col))
	for i := range m.N {
		cols, vals := m.Row(i)
		k := 0
		for ; k < len(cols) && cols[k] < i; k++ {
			if vals[k] != 0 {
				out = append(out, Entry{i, cols[k], vals[k]})
			}
		}
		if m.Diag[i] != 0 {
			out = append(out, Entry{i, i, m.Diag[i]})
		}
		for ; k < len(cols); k++ {
			if vals[k] != 0 {
				out = append(out, Entry{i, cols[k], vals[k]})
			}
		}
	}
	return out
}

// Rows returns m as a dense slice of rows, the form FromRows accepts. It
// allocates n² numbers: meant for small matrices and tests, not for the
// networks of thousands of agents that the sparse form serves.
func (m *Matrix) Rows() [][]float64 {
	m.valid()
	rows := make([][]float64, m.N)
	for i := range rows {
		r := make([]float64, m.N)
		r[i] = m.Diag[i]
		cols, vals := m.Row(i)
		for k, j := range cols {
			r[j] = vals[k]
		}
		rows[i] = r
	}
	return rows
}

// Clone returns a deep copy of m.
func (m *Matrix) Clone() *Matrix {
	return &Matrix{
		N:     m.N,
		Diag:  slices.Clone(m.Diag),
		Start: slices.Clone(m.Start),
		Col:   slices.Clone(m.Col),
		Val:   slices.Clone(m.Val),
	}
}

// valid panics unless m has the layout Matrix documents: the right
// lengths, row starts that never decrease, and columns in range,
// ascending and off the diagonal. It costs O(n + nnz), like the methods
// that call it.
func (m *Matrix) valid() {
	if m == nil {
		panic("weights: nil matrix")
	}
	n := m.N
	if n < 0 || len(m.Diag) != n || len(m.Start) != n+1 || len(m.Val) != len(m.Col) ||
		m.Start[0] != 0 || m.Start[n] != len(m.Col) {
		panic(fmt.Sprintf("weights: malformed matrix: N = %d, len(Diag) = %d, len(Start) = %d, len(Col) = %d, len(Val) = %d",
			n, len(m.Diag), len(m.Start), len(m.Col), len(m.Val)))
	}
	for i := range n {
		a, b := m.Start[i], m.Start[i+1]
		if a > b {
			panic(fmt.Sprintf("weights: malformed matrix: row %d starts at %d and ends at %d", i, a, b))
		}
		prev := -1
		for _, j := range m.Col[a:b] {
			if j <= prev || j >= n || j == i {
				panic(fmt.Sprintf("weights: malformed matrix: row %d has column %d after %d (columns must ascend, lie in 0..%d and skip the diagonal)",
					i, j, prev, n-1))
			}
			prev = j
		}
	}
}

// Fields of explicit matrices, named by the errors of FromRows and
// FromEntries.
const (
	fieldRows    = "weights.matrix"
	fieldEntries = "weights.entries"
)

// FromRows returns the sparse form of the dense matrix with the given
// rows; entries that are exactly 0 are not stored. It reports an error,
// naming the row and column, unless rows is a non-empty square array of
// finite numbers with at most graph.MaxAgents rows.
func FromRows(rows [][]float64) (*Matrix, error) {
	n := len(rows)
	if n == 0 {
		return nil, check.Errorf(fieldRows, "the matrix needs at least one row")
	}
	if n > graph.MaxAgents {
		return nil, check.Errorf(fieldRows, "the matrix may have at most %d rows (got %d)", graph.MaxAgents, n)
	}
	nnz := 0
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
			if v != 0 && i != j {
				nnz++
			}
		}
	}
	m := &Matrix{N: n, Diag: make([]float64, n), Start: make([]int, n+1),
		Col: make([]int, 0, nnz), Val: make([]float64, 0, nnz)}
	for i, r := range rows {
		for j, v := range r {
			switch {
			case i == j:
				m.Diag[i] = v
			case v != 0:
				m.Col = append(m.Col, j)
				m.Val = append(m.Val, v)
			}
		}
		m.Start[i+1] = len(m.Col)
	}
	return m, nil
}

// FromEntries returns the n×n matrix with the given entries, in any
// order, and zeros elsewhere; entries that are exactly 0 are not stored.
// It reports an error naming the entry (weights.entries[k]) for an index
// outside 0..n−1, a weight that is not finite, or a pair (i, j) listed
// twice. It takes O(n + e log e) time for e entries.
func FromEntries(n int, entries []Entry) (*Matrix, error) {
	if n < 1 || n > graph.MaxAgents {
		return nil, check.Errorf(fieldEntries, "the matrix must have 1 to %d rows (got %d)", graph.MaxAgents, n)
	}
	for k, e := range entries {
		if uint(e.I) >= uint(n) || uint(e.J) >= uint(n) {
			return nil, check.Errorf(check.Index(fieldEntries, k),
				"entry (%d, %d) is outside the %d×%d matrix: rows and columns are numbered 0 to %d", e.I, e.J, n, n, n-1)
		}
		if math.IsNaN(e.W) || math.IsInf(e.W, 0) {
			return nil, check.Errorf(check.Index(fieldEntries, k),
				"the weight of entry (%d, %d) is %v; every weight must be a finite number", e.I, e.J, e.W)
		}
	}
	// Sort positions, not entries, so a duplicate can be named by where
	// it stands in the input.
	order := make([]int, len(entries))
	for k := range order {
		order[k] = k
	}
	slices.SortFunc(order, func(a, b int) int {
		ea, eb := entries[a], entries[b]
		if ea.I != eb.I {
			return ea.I - eb.I
		}
		if ea.J != eb.J {
			return ea.J - eb.J
		}
		return a - b
	})
	for t := 1; t < len(order); t++ {
		a, b := entries[order[t-1]], entries[order[t]]
		if a.I == b.I && a.J == b.J {
			return nil, check.Errorf(check.Index(fieldEntries, order[t]),
				"entry (%d, %d) is listed twice, here and at %s; list every entry once",
				b.I, b.J, check.Index(fieldEntries, order[t-1]))
		}
	}
	m := &Matrix{N: n, Diag: make([]float64, n), Start: make([]int, n+1)}
	for _, k := range order {
		e := entries[k]
		switch {
		case e.I == e.J:
			m.Diag[e.I] = e.W
		case e.W != 0:
			m.Col = append(m.Col, e.J)
			m.Val = append(m.Val, e.W)
			m.Start[e.I+1]++
		}
	}
	for i := range n {
		m.Start[i+1] += m.Start[i]
	}
	return m, nil
}

// FromTriples returns the n×n matrix whose nonzero entries are listed as
// triples [i, j, w], the form of a scenario's "entries" weights. Every
// triple must have exactly three numbers, with i and j whole numbers in
// 0..n−1; errors name the triple (weights.entries[k]). See FromEntries
// for the other rules.
func FromTriples(n int, triples [][]float64) (*Matrix, error) {
	if n < 1 || n > graph.MaxAgents {
		return nil, check.Errorf(fieldEntries, "the matrix must have 1 to %d rows (got %d)", graph.MaxAgents, n)
	}
	if len(triples) == 0 {
		return nil, check.Errorf(fieldEntries, "is required for kind %q: [[i, j, w], …], every nonzero entry of the matrix", KindEntries)
	}
	entries := make([]Entry, len(triples))
	for k, t := range triples {
		field := check.Index(fieldEntries, k)
		if len(t) != 3 {
			return nil, check.Errorf(field, "must be [i, j, w]: exactly three numbers, row, column and weight (got %d)", len(t))
		}
		var ij [2]int
		for c, what := range [2]string{"row", "column"} {
			v := t[c]
			// Compare before converting: a float beyond the int range
			// converts to an undefined int.
			if !(v >= 0 && v < float64(n)) || v != math.Trunc(v) {
				return nil, check.Errorf(field, "the %s index must be a whole number from 0 to %d (got %v)", what, n-1, v)
			}
			ij[c] = int(v)
		}
		entries[k] = Entry{I: ij[0], J: ij[1], W: t[2]}
	}
	return FromEntries(n, entries)
}
