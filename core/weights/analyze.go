package weights

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"dpsim/core/check"
	"dpsim/core/graph"
)

// Tol is the absolute tolerance of the property tests: a row sums to 1 if
// it is within Tol of 1, a matrix is symmetric if |m_ij − m_ji| ≤ Tol for
// every pair, an off-diagonal entry is nonnegative if it is ≥ −Tol.
const Tol = 1e-9

// Names of the findings of a Report, in the order Analyze lists them.
// Properties (the first eight) hold or fail; measurements (the rest) hold
// when they were computed.
const (
	// FindNonnegative: every off-diagonal entry is ≥ 0. Value: the
	// smallest off-diagonal entry.
	FindNonnegative = "nonnegative"
	// FindSymmetric: m_ij = m_ji. Value: the largest |m_ij − m_ji|.
	FindSymmetric = "symmetric"
	// FindRowStochastic: entries ≥ 0 and every row sums to 1. Value: the
	// largest |row sum − 1|.
	FindRowStochastic = "row-stochastic"
	// FindColumnStochastic: entries ≥ 0 and every column sums to 1. Value:
	// the largest |column sum − 1|.
	FindColumnStochastic = "column-stochastic"
	// FindDoublyStochastic: both of the above. Value: the larger of their
	// values.
	FindDoublyStochastic = "doubly-stochastic"
	// FindPositiveDiagonal: every w_ii > 0. Value: the smallest w_ii.
	FindPositiveDiagonal = "positive-diagonal"
	// FindSparsity: for i ≠ j, entry (i, j) is nonzero exactly when node i
	// receives from node j (g.HasLink(j, i)). Value: the number of entries
	// that disagree with the graph.
	FindSparsity = "sparsity"
	// FindZeroRowSums: every row sums to 0 (L·1 = 0), as for
	// Laplacian-type matrices. Value: the largest |row sum|.
	FindZeroRowSums = "zero-row-sums"
	// FindEigenMin: the smallest eigenvalue of a symmetric matrix.
	//
	// The values of this and the following spectral findings are not
	// rounded: they come from the portable routines of eigen.go and are
	// the same bits natively (amd64) and under js/wasm. They are accurate
	// to about 1e-13 relative to the largest eigenvalue; the Detail shows
	// six significant digits.
	FindEigenMin = "eigenvalue-min"
	// FindEigenMax: the largest eigenvalue of a symmetric matrix.
	FindEigenMax = "eigenvalue-max"
	// FindRhoW: ρ_w = ρ(W − 11ᵀ/n), the spectral radius of W deflated by
	// the average.
	FindRhoW = "rho-w"
	// FindRhoWo: ρ(W_o), the spectral radius of W with its diagonal
	// zeroed.
	FindRhoWo = "rho-wo"
	// FindPerronLeft: the left Perron vector π of a row-stochastic matrix
	// (πᵀR = πᵀ, Σπ = 1). Value: its smallest entry.
	FindPerronLeft = "perron-left"
	// FindPerronRight: the right Perron vector π of a column-stochastic
	// matrix (Cπ = π, Σπ = 1). Value: its smallest entry.
	FindPerronRight = "perron-right"
)

// Finding is one checked property or computed quantity, worded for a user.
// It is always JSON-encodable: Value is finite, and meaningful only when
// HasValue is set.
type Finding struct {
	// Name is one of the Find constants.
	Name string `json:"name"`
	// Holds reports that the property holds (or the quantity was
	// computed).
	Holds bool `json:"holds"`
	// Skipped reports that the finding was not evaluated (not applicable,
	// or the matrix is too large); then Holds is false.
	Skipped bool `json:"skipped"`
	// HasValue reports whether Value carries a number.
	HasValue bool    `json:"hasValue"`
	Value    float64 `json:"value"`
	// Detail explains the result; when a property fails it names the
	// worst offender, e.g. "row 3 sums to 0.9 (must be 1)".
	Detail string `json:"detail"`
}

// String formats f on one line: status, name and detail.
func (f Finding) String() string {
	status := "ok"
	switch {
	case f.Skipped:
		status = "skipped"
	case !f.Holds:
		status = "fails"
	}
	return fmt.Sprintf("%-7s %-17s %s", status, f.Name, f.Detail)
}

func (f *Finding) setValue(v float64) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		f.HasValue, f.Value = false, 0
		return
	}
	f.HasValue, f.Value = true, v
}

// Report is the analysis of a weight matrix. The typed fields repeat the
// findings for programs; Findings lists them for people, in the order of
// the Find constants. A Report is JSON-encodable (no NaN or Inf).
type Report struct {
	N int `json:"n"`
	// Finite reports that every entry is a finite number; when it is false
	// nothing else was checked.
	Finite           bool `json:"finite"`
	Nonnegative      bool `json:"nonnegative"`
	Symmetric        bool `json:"symmetric"`
	RowStochastic    bool `json:"rowStochastic"`
	ColumnStochastic bool `json:"columnStochastic"`
	DoublyStochastic bool `json:"doublyStochastic"`
	PositiveDiagonal bool `json:"positiveDiagonal"`
	// SparsityMatches is false also when no graph was given.
	SparsityMatches bool `json:"sparsityMatches"`
	ZeroRowSums     bool `json:"zeroRowSums"`

	// EigenMin and EigenMax are the extreme eigenvalues, set when
	// HasEigenRange (symmetric matrices with n ≤ MaxEigenN).
	HasEigenRange bool    `json:"hasEigenRange"`
	EigenMin      float64 `json:"eigenMin"`
	EigenMax      float64 `json:"eigenMax"`
	// RhoW is ρ(W − 11ᵀ/n), set when HasRhoW.
	HasRhoW bool    `json:"hasRhoW"`
	RhoW    float64 `json:"rhoW"`
	// RhoWo is ρ(W_o), W with its diagonal zeroed, set when HasRhoWo.
	HasRhoWo bool    `json:"hasRhoWo"`
	RhoWo    float64 `json:"rhoWo"`
	// PerronLeft is the left Perron vector of a row-stochastic matrix
	// (π_R), PerronRight the right Perron vector of a column-stochastic
	// one (π_C); nil when not computed.
	PerronLeft  []float64 `json:"perronLeft,omitempty"`
	PerronRight []float64 `json:"perronRight,omitempty"`

	Findings []Finding `json:"findings"`
}

// Failed returns the findings that were evaluated and do not hold.
func (r Report) Failed() []Finding {
	var out []Finding
	for _, f := range r.Findings {
		if !f.Holds && !f.Skipped {
			out = append(out, f)
		}
	}
	return out
}

// Find returns the finding with the given name.
func (r Report) Find(name string) (Finding, bool) {
	for _, f := range r.Findings {
		if f.Name == name {
			return f, true
		}
	}
	return Finding{}, false
}

// String formats the findings one per line.
func (r Report) String() string {
	var b strings.Builder
	for _, f := range r.Findings {
		b.WriteString(f.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// Analyze checks the properties of m and computes its spectral quantities.
// The graph g may be nil; then the sparsity finding is skipped. The
// properties cost O(n + nnz). Eigenvalues are computed densely, for
// symmetric matrices up to n = MaxEigenN and for others up to n =
// MaxGeneralEigenN; above that the spectral findings are skipped, saying
// why, so Analyze returns in milliseconds for n = graph.MaxAgents. It
// panics if m is nil or malformed.
func Analyze(m *Matrix, g *graph.Graph) Report {
	m.valid()
	r := Report{N: m.N}
	if i, j, ok := nonFinite(m); ok {
		detail := fmt.Sprintf("row %d, column %d is %v, so nothing can be checked", i, j, m.At(i, j))
		for k, name := range findingNames {
			f := Finding{Name: name, Detail: detail}
			if k >= firstMeasurement {
				f.Skipped = true
			}
			r.Findings = append(r.Findings, f)
		}
		return r
	}
	r.Finite = true

	nonneg := nonnegative(m)
	sym := symmetric(m)
	row := rowStochastic(m)
	col := columnStochastic(m)
	dbl := Finding{Name: FindDoublyStochastic, Holds: row.Holds && col.Holds}
	dbl.setValue(max(row.Value, col.Value))
	switch {
	case dbl.Holds:
		dbl.Detail = "every row and every column sums to 1 and no entry is negative"
	case !row.Holds && !col.Holds && row.Detail != col.Detail:
		dbl.Detail = row.Detail + "; " + col.Detail
	case !row.Holds:
		dbl.Detail = row.Detail
	default:
		dbl.Detail = col.Detail
	}
	r.Findings = append(r.Findings, nonneg, sym, row, col, dbl,
		positiveDiagonal(m), sparsity(m, g), zeroRowSums(m))
	r.Findings = append(r.Findings, spectral(m, sym.Holds)...)
	r.Findings = append(r.Findings,
		perronFinding(m, FindPerronLeft, row.Holds, &r.PerronLeft),
		perronFinding(m, FindPerronRight, col.Holds, &r.PerronRight))

	for _, f := range r.Findings {
		switch f.Name {
		case FindNonnegative:
			r.Nonnegative = f.Holds
		case FindSymmetric:
			r.Symmetric = f.Holds
		case FindRowStochastic:
			r.RowStochastic = f.Holds
		case FindColumnStochastic:
			r.ColumnStochastic = f.Holds
		case FindDoublyStochastic:
			r.DoublyStochastic = f.Holds
		case FindPositiveDiagonal:
			r.PositiveDiagonal = f.Holds
		case FindSparsity:
			r.SparsityMatches = f.Holds
		case FindZeroRowSums:
			r.ZeroRowSums = f.Holds
		case FindEigenMin:
			r.HasEigenRange, r.EigenMin = f.Holds && f.HasValue, f.Value
		case FindEigenMax:
			r.HasEigenRange, r.EigenMax = r.HasEigenRange && f.Holds && f.HasValue, f.Value
		case FindRhoW:
			r.HasRhoW, r.RhoW = f.Holds && f.HasValue, f.Value
		case FindRhoWo:
			r.HasRhoWo, r.RhoWo = f.Holds && f.HasValue, f.Value
		}
	}
	return r
}

// findingNames lists the findings in report order; those from
// firstMeasurement on are measurements.
var findingNames = []string{
	FindNonnegative, FindSymmetric, FindRowStochastic, FindColumnStochastic,
	FindDoublyStochastic, FindPositiveDiagonal, FindSparsity, FindZeroRowSums,
	FindEigenMin, FindEigenMax, FindRhoW, FindRhoWo, FindPerronLeft, FindPerronRight,
}

const firstMeasurement = 8

// nonFinite returns the first entry, in row-major order, that is NaN or
// infinite.
func nonFinite(m *Matrix) (i, j int, ok bool) {
	for i := range m.N {
		first := -1
		if d := m.Diag[i]; math.IsNaN(d) || math.IsInf(d, 0) {
			first = i
		}
		cols, vals := m.Row(i)
		for k, v := range vals {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				if first < 0 || cols[k] < first {
					first = cols[k]
				}
				break
			}
		}
		if first >= 0 {
			return i, first, true
		}
	}
	return 0, 0, false
}

// eachInRow calls f for the stored entries of row i, the diagonal
// included, in ascending columns: the order of a dense row without its
// zeros, so sums come out as a dense loop would give them.
func (m *Matrix) eachInRow(i int, f func(j int, v float64)) {
	cols, vals := m.Row(i)
	k := 0
	for ; k < len(cols) && cols[k] < i; k++ {
		f(cols[k], vals[k])
	}
	f(i, m.Diag[i])
	for ; k < len(cols); k++ {
		f(cols[k], vals[k])
	}
}

// rowSum returns the sum of row i, the diagonal included, in ascending
// columns.
func (m *Matrix) rowSum(i int) float64 {
	s := 0.0
	m.eachInRow(i, func(_ int, v float64) { s += v })
	return s
}

// hasImplicitZero reports whether some off-diagonal entry is not stored
// or stored as 0: then the smallest off-diagonal entry is at most 0.
func (m *Matrix) hasImplicitZero() bool {
	if m.N < 2 {
		return false
	}
	if len(m.Col) < m.N*(m.N-1) {
		return true
	}
	return slices.Contains(m.Val, 0)
}

// rule returns the rule of a *check.Error, without its field, for a
// detail.
func rule(err error) string {
	var ce *check.Error
	if errors.As(err, &ce) {
		return ce.Rule
	}
	return err.Error()
}

// num formats a number for a detail: six significant digits, with
// round-off below 1e-12 shown as 0.
func num(v float64) string {
	if math.Abs(v) < 1e-12 {
		return "0"
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}

// numVs formats v with enough digits to tell it from ref.
func numVs(v, ref float64) string {
	for p := 6; p < 17; p++ {
		if s := strconv.FormatFloat(v, 'g', p, 64); s != strconv.FormatFloat(ref, 'g', p, 64) {
			return s
		}
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

func nonnegative(m *Matrix) Finding {
	f := Finding{Name: FindNonnegative, Holds: true}
	n := m.N
	if n < 2 {
		f.Detail = "there are no off-diagonal entries"
		return f
	}
	wi, wj, low := -1, -1, math.Inf(1)
	if m.hasImplicitZero() {
		low = 0
	}
	for i := range n {
		cols, vals := m.Row(i)
		for k, v := range vals {
			if v < low {
				wi, wj, low = i, cols[k], v
			}
		}
	}
	f.setValue(low)
	if low >= -Tol {
		f.Detail = fmt.Sprintf("every off-diagonal entry is ≥ 0 (the smallest is %s)", num(low))
		return f
	}
	f.Holds = false
	f.Detail = fmt.Sprintf("row %d, column %d is %s (off-diagonal entries must be ≥ 0)", wi, wj, num(low))
	return f
}

// asymmetry returns the pair (i, j), i < j, with the largest |m_ij − m_ji|
// (the first in row-major order among equals) and that difference; i = −1
// when the largest difference is ≤ Tol. Only pairs with a stored entry can
// differ, so it costs O(nnz·log(degree)).
func asymmetry(m *Matrix) (i, j int, diff float64) {
	wi, wj := -1, -1
	for r := range m.N {
		cols, vals := m.Row(r)
		for k, c := range cols {
			d := math.Abs(vals[k] - m.At(c, r))
			a, b := min(r, c), max(r, c)
			if d > diff || (d == diff && wi >= 0 && (a < wi || a == wi && b < wj)) {
				diff, wi, wj = d, a, b
			}
		}
	}
	if diff > Tol {
		return wi, wj, diff
	}
	return -1, -1, diff
}

func symmetric(m *Matrix) Finding {
	f := Finding{Name: FindSymmetric}
	i, j, diff := asymmetry(m)
	f.setValue(diff)
	if i < 0 {
		f.Holds = true
		f.Detail = "w_ij = w_ji for every pair"
		if diff > 0 {
			f.Detail += fmt.Sprintf(" (to within %s)", num(diff))
		}
		return f
	}
	a, b := m.At(i, j), m.At(j, i)
	f.Detail = fmt.Sprintf("row %d, column %d is %s but row %d, column %d is %s (must be equal)",
		i, j, numVs(a, b), j, i, numVs(b, a))
	return f
}

// stochastic checks that no entry is negative and that the rows (or
// columns) sum to 1.
func stochastic(m *Matrix, cols bool) Finding {
	n := m.N
	name, line := FindRowStochastic, "row"
	if cols {
		name, line = FindColumnStochastic, "column"
	}
	f := Finding{Name: name}
	sums := make([]float64, n)
	for i := range n {
		if cols {
			// Each column gains one term per row, rows ascending: the
			// order of a dense loop.
			m.eachInRow(i, func(j int, v float64) { sums[j] += v })
		} else {
			sums[i] = m.rowSum(i)
		}
	}
	worst, worstSum, dev := -1, 0.0, -1.0
	for a, s := range sums {
		if d := math.Abs(s - 1); d > dev {
			worst, worstSum, dev = a, s, d
		}
	}
	f.setValue(dev)
	if dev > Tol {
		f.Detail = fmt.Sprintf("%s %d sums to %s (must be 1)", line, worst, numVs(worstSum, 1))
		return f
	}
	li, lj, low := -1, -1, math.Inf(1)
	for i := range n {
		m.eachInRow(i, func(j int, v float64) {
			if v < low {
				li, lj, low = i, j, v
			}
		})
	}
	if low < -Tol {
		f.Detail = fmt.Sprintf("row %d, column %d is %s (a stochastic matrix has no negative entries)", li, lj, num(low))
		return f
	}
	f.Holds = true
	f.Detail = fmt.Sprintf("every %s sums to 1 and no entry is negative", line)
	return f
}

func rowStochastic(m *Matrix) Finding    { return stochastic(m, false) }
func columnStochastic(m *Matrix) Finding { return stochastic(m, true) }

func positiveDiagonal(m *Matrix) Finding {
	f := Finding{Name: FindPositiveDiagonal}
	wi, low := 0, math.Inf(1)
	for i, v := range m.Diag {
		if v < low {
			wi, low = i, v
		}
	}
	f.setValue(low)
	if low > 0 {
		f.Holds = true
		f.Detail = fmt.Sprintf("every diagonal entry is > 0 (the smallest is %s, row %d)", num(low), wi)
		return f
	}
	f.Detail = fmt.Sprintf("row %d, column %d (the diagonal) is %s (must be > 0)", wi, wi, num(low))
	return f
}

// sparsity compares each row's nonzeros with the links into its node, two
// ascending lists, in O(nnz + links).
func sparsity(m *Matrix, g *graph.Graph) Finding {
	f := Finding{Name: FindSparsity}
	n := m.N
	if g == nil {
		f.Skipped = true
		f.Detail = "skipped: no graph given"
		return f
	}
	if g.N != n {
		f.Detail = fmt.Sprintf("the matrix is %d×%d but the graph has %d nodes", n, n, g.N)
		return f
	}
	// Prefer to name a weight on a missing link (the largest), else the
	// first link without weight.
	bad := 0
	si, sj, spurious := -1, -1, 0.0
	ui, uj := -1, -1
	for i := range n {
		in := g.In(i)
		cols, vals := m.Row(i)
		p, k := 0, 0
		for p < len(in) || k < len(cols) {
			switch {
			case k == len(cols) || p < len(in) && in[p] < cols[k]: // a link without entry
				bad++
				if ui < 0 {
					ui, uj = i, in[p]
				}
				p++
			case p == len(in) || cols[k] < in[p]: // an entry without link
				if v := vals[k]; v != 0 {
					bad++
					if math.Abs(v) > spurious {
						si, sj, spurious = i, cols[k], math.Abs(v)
					}
				}
				k++
			default: // both
				if vals[k] == 0 {
					bad++
					if ui < 0 {
						ui, uj = i, in[p]
					}
				}
				p++
				k++
			}
		}
	}
	f.setValue(float64(bad))
	entries := "entries disagree"
	if bad == 1 {
		entries = "entry disagrees"
	}
	switch {
	case bad == 0:
		f.Holds = true
		f.Detail = fmt.Sprintf("the nonzero off-diagonal entries are exactly the graph's %d links", g.Links())
	case si >= 0:
		f.Detail = fmt.Sprintf("row %d, column %d is %s but node %d does not receive from node %d (%d %s with the graph)",
			si, sj, num(m.At(si, sj)), si, sj, bad, entries)
	default:
		f.Detail = fmt.Sprintf("row %d, column %d is 0 but node %d receives from node %d, so the link carries no weight (%d %s with the graph)",
			ui, uj, ui, uj, bad, entries)
	}
	return f
}

func zeroRowSums(m *Matrix) Finding {
	f := Finding{Name: FindZeroRowSums}
	worst, worstSum, dev := 0, 0.0, -1.0
	for i := range m.N {
		s := m.rowSum(i)
		if math.Abs(s) > dev {
			worst, worstSum, dev = i, s, math.Abs(s)
		}
	}
	f.setValue(dev)
	if dev <= Tol {
		f.Holds = true
		f.Detail = "every row sums to 0 (L·1 = 0)"
		return f
	}
	f.Detail = fmt.Sprintf("row %d sums to %s (a Laplacian-type matrix needs 0)", worst, numVs(worstSum, 0))
	return f
}

// overflowed explains a spectral finding skipped for a non-finite result.
const overflowed = "the computation overflowed (entries near the largest float64, 1.8e308)"

// spectral returns the eigenvalue-min, eigenvalue-max, rho-w and rho-wo
// findings.
func spectral(m *Matrix, sym bool) []Finding {
	n := m.N
	fmin := Finding{Name: FindEigenMin}
	fmax := Finding{Name: FindEigenMax}
	frw := Finding{Name: FindRhoW}
	fro := Finding{Name: FindRhoWo}
	all := []*Finding{&fmin, &fmax, &frw, &fro}
	skip := func(fs []*Finding, why string) {
		for _, f := range fs {
			f.Skipped, f.Detail = true, "skipped: "+why
		}
	}
	out := func() []Finding {
		fs := []Finding{fmin, fmax, frw, fro}
		for k, f := range fs {
			// setValue drops an infinite or NaN result, which only
			// entries near the float64 limit produce.
			if f.Holds && !f.HasValue {
				fs[k] = Finding{Name: f.Name, Skipped: true, Detail: "skipped: " + overflowed}
			}
		}
		return fs
	}

	// wo is W with its diagonal zeroed; deflated is W − 11ᵀ/n.
	// Both are dense n×n, built only within the size limits.
	wo := func() []float64 {
		a := m.dense()
		for i := range n {
			a[i*n+i] = 0
		}
		return a
	}
	deflated := func() []float64 {
		a := m.dense()
		for k := range a {
			a[k] -= 1 / float64(n)
		}
		return a
	}
	rhoWDetail := func(rho float64) string {
		return fmt.Sprintf("ρ(W − 11ᵀ/n) = %s", num(rho))
	}
	rhoWoDetail := func(rho float64) string {
		return fmt.Sprintf("ρ(W_o) = %s, with W_o = W without its diagonal", num(rho))
	}

	if !sym {
		skip([]*Finding{&fmin, &fmax}, "the matrix is not symmetric, so its eigenvalues may be complex")
		if n > MaxGeneralEigenN {
			skip([]*Finding{&frw, &fro}, fmt.Sprintf("n = %d is above %d, the size limit for eigenvalues of a nonsymmetric matrix", n, MaxGeneralEigenN))
			return out()
		}
		for _, c := range []struct {
			f      *Finding
			a      func() []float64
			detail func(float64) string
		}{{&frw, deflated, rhoWDetail}, {&fro, wo, rhoWoDetail}} {
			rho, err := spectralRadius(c.a(), n)
			if err != nil {
				skip([]*Finding{c.f}, rule(err))
				continue
			}
			c.f.Holds = true
			c.f.setValue(rho)
			c.f.Detail = c.detail(rho)
		}
		return out()
	}

	if n > MaxEigenN {
		skip(all, fmt.Sprintf("n = %d is above %d, the size limit for eigenvalues", n, MaxEigenN))
		return out()
	}
	vals, err := symEigen(m.dense(), n)
	if err != nil {
		skip(all, rule(err))
		return out()
	}
	for _, v := range vals {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			skip(all, overflowed)
			return out()
		}
	}
	lo, hi := vals[0], vals[n-1]
	fmin.Holds, fmax.Holds = true, true
	fmin.setValue(lo)
	fmax.setValue(hi)
	fmin.Detail = fmt.Sprintf("the smallest eigenvalue is %s (all lie in [%s, %s])", num(lo), num(lo), num(hi))
	fmax.Detail = fmt.Sprintf("the largest eigenvalue is %s (all lie in [%s, %s])", num(hi), num(lo), num(hi))

	// ρ_w: when W1 = c1, 1 is an eigenvector and W − 11ᵀ/n has the
	// eigenvalues of W with one c replaced by c − 1, so no second
	// decomposition is needed.
	sums := make([]float64, n)
	mean := 0.0
	for i := range n {
		sums[i] = m.rowSum(i)
		mean += sums[i] / float64(n)
	}
	constant := true
	for _, s := range sums {
		constant = constant && math.Abs(s-mean) <= Tol
	}
	var rhoW float64
	if constant {
		shifted := append([]float64(nil), vals...)
		shifted[nearest(shifted, mean)] = mean - 1
		rhoW = maxAbs(shifted)
	} else if dv, err := symEigen(deflated(), n); err == nil {
		rhoW = maxAbs(dv)
	} else {
		skip([]*Finding{&frw}, rule(err))
	}
	if !frw.Skipped {
		frw.Holds = true
		frw.setValue(rhoW)
		frw.Detail = rhoWDetail(rhoW)
	}

	// ρ(W_o): with a constant diagonal a, W_o = W − aI.
	dlo, dhi := math.Inf(1), math.Inf(-1)
	for _, d := range m.Diag {
		dlo, dhi = min(dlo, d), max(dhi, d)
	}
	var rhoWo float64
	if dhi-dlo <= 1e-12 {
		a := float64((dlo + dhi) / 2)
		for _, v := range vals {
			rhoWo = max(rhoWo, math.Abs(v-a))
		}
	} else if ov, err := symEigen(wo(), n); err == nil {
		rhoWo = maxAbs(ov)
	} else {
		skip([]*Finding{&fro}, rule(err))
	}
	if !fro.Skipped {
		fro.Holds = true
		fro.setValue(rhoWo)
		fro.Detail = rhoWoDetail(rhoWo)
	}
	return out()
}

// perronFinding computes a Perron vector when the matrix is stochastic on
// the matching side, storing it in *dst.
func perronFinding(m *Matrix, name string, stochastic bool, dst *[]float64) Finding {
	f := Finding{Name: name}
	left := name == FindPerronLeft
	kind := "row"
	if !left {
		kind = "column"
	}
	switch {
	case !stochastic:
		f.Skipped = true
		f.Detail = fmt.Sprintf("skipped: the matrix is not %s-stochastic", kind)
		return f
	case m.N > MaxEigenN:
		f.Skipped = true
		f.Detail = fmt.Sprintf("skipped: n = %d is above %d, the size limit for Perron vectors", m.N, MaxEigenN)
		return f
	}
	pi, err := perron(m, left)
	if err != nil {
		f.Detail = rule(err)
		return f
	}
	for _, v := range pi {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			f.Detail = "the Perron vector could not be computed (the linear system is singular)"
			return f
		}
	}
	f.Holds = true
	*dst = pi
	lo, hi := 0, 0
	for i, v := range pi {
		if v < pi[lo] {
			lo = i
		}
		if v > pi[hi] {
			hi = i
		}
	}
	f.setValue(pi[lo])
	eq := "πᵀW = πᵀ"
	if !left {
		eq = "Wπ = π"
	}
	if len(pi) <= 8 {
		parts := make([]string, len(pi))
		for i, v := range pi {
			parts[i] = num(v)
		}
		f.Detail = fmt.Sprintf("π = (%s), with %s and Σπ = 1", strings.Join(parts, ", "), eq)
	} else {
		f.Detail = fmt.Sprintf("π ranges from %s (node %d) to %s (node %d), with %s and Σπ = 1", num(pi[lo]), lo, num(pi[hi]), hi, eq)
	}
	return f
}
