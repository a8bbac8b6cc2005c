package weights

import (
	"math"
	"slices"

	"dpsim/core/check"
)

// Size limits of the dense spectral computations, which cost O(n³) time
// and n² memory; nothing else in this package is dense. The page analyses
// every scenario it loads, so the limits keep that below a second or two
// in a browser (see BenchmarkSpectral for the measured times).
const (
	// MaxEigenN is the largest n for which symmetric eigenvalues and
	// Perron vectors are computed.
	MaxEigenN = 600
	// MaxGeneralEigenN is the largest n for which eigenvalues of a
	// nonsymmetric matrix are computed.
	MaxGeneralEigenN = 500
)

// fieldSpectral is the field of errors from the spectral functions.
const fieldSpectral = "weights"

// dense returns m as a row-major n×n slice, for the spectral routines;
// they run only within the size limits above.
func (m *Matrix) dense() []float64 {
	n := m.N
	d := make([]float64, n*n)
	for i := range n {
		d[i*n+i] = m.Diag[i]
		cols, vals := m.Row(i)
		for k, j := range cols {
			d[i*n+j] = vals[k]
		}
	}
	return d
}

// symEigen returns the eigenvalues of the symmetric part (a+aᵀ)/2 of the
// n×n row-major matrix a in ascending order.
func symEigen(a []float64, n int) ([]float64, error) {
	if n > MaxEigenN {
		return nil, check.Errorf(fieldSpectral, "eigenvalues are computed only for n ≤ %d (got n = %d)", MaxEigenN, n)
	}
	s := make([]float64, n*n)
	for i := range n {
		for j := 0; j <= i; j++ {
			s[i*n+j] = 0.5 * (a[i*n+j] + a[j*n+i])
		}
	}
	vals, ok := symEigenvalues(s, n)
	if !ok {
		return nil, check.Errorf(fieldSpectral, "the symmetric eigenvalue computation did not converge")
	}
	return vals, nil
}

// spectralRadius returns max |λ| over the eigenvalues of the n×n
// row-major matrix a, through the symmetric solver when a is symmetric to
// within Tol (n ≤ MaxEigenN) and the general one otherwise (n ≤
// MaxGeneralEigenN).
func spectralRadius(a []float64, n int) (float64, error) {
	if i, _, _ := denseAsymmetry(a, n); i < 0 {
		vals, err := symEigen(a, n)
		if err != nil {
			return 0, err
		}
		return maxAbs(vals), nil
	}
	if n > MaxGeneralEigenN {
		return 0, check.Errorf(fieldSpectral, "eigenvalues of a nonsymmetric matrix are computed only for n ≤ %d (got n = %d)", MaxGeneralEigenN, n)
	}
	re, im, ok := genEigenvalues(slices.Clone(a), n)
	if !ok {
		return 0, check.Errorf(fieldSpectral, "the eigenvalue computation did not converge")
	}
	r := 0.0
	for k := range re {
		r = max(r, hypot(re[k], im[k]))
	}
	return r, nil
}

// denseAsymmetry is asymmetry for a row-major n×n slice.
func denseAsymmetry(a []float64, n int) (i, j int, diff float64) {
	i, j = -1, -1
	wi, wj := -1, -1
	// Blocks of rows and columns keep both accesses in cache.
	const bs = 64
	for a0 := 0; a0 < n; a0 += bs {
		for b0 := a0; b0 < n; b0 += bs {
			for r := a0; r < min(a0+bs, n); r++ {
				for c := max(b0, r+1); c < min(b0+bs, n); c++ {
					if d := math.Abs(a[r*n+c] - a[c*n+r]); d > diff {
						diff, wi, wj = d, r, c
					}
				}
			}
		}
	}
	if diff > Tol {
		i, j = wi, wj
	}
	return i, j, diff
}

// SymEigenvalues returns the eigenvalues of a symmetric matrix in
// ascending order. It reports an error if m is not symmetric to within
// Tol, or n > MaxEigenN. The result is the same bits on every platform
// (see eigen.go).
func SymEigenvalues(m *Matrix) ([]float64, error) {
	m.valid()
	if i, j, _ := asymmetry(m); i >= 0 {
		return nil, check.Errorf(fieldSpectral, "the matrix is not symmetric: row %d, column %d is %s but row %d, column %d is %s",
			i, j, num(m.At(i, j)), j, i, num(m.At(j, i)))
	}
	if m.N > MaxEigenN {
		return nil, check.Errorf(fieldSpectral, "eigenvalues are computed only for n ≤ %d (got n = %d)", MaxEigenN, m.N)
	}
	return symEigen(m.dense(), m.N)
}

// SpectralRadius returns ρ(m) = max |λ| over the eigenvalues of m. A
// matrix symmetric to within Tol goes through the symmetric solver (n ≤
// MaxEigenN), any other through the general one (n ≤ MaxGeneralEigenN);
// larger matrices give an error. The result is the same bits on every
// platform (see eigen.go).
func SpectralRadius(m *Matrix) (float64, error) {
	m.valid()
	if m.N > max(MaxEigenN, MaxGeneralEigenN) {
		return 0, check.Errorf(fieldSpectral, "eigenvalues are computed only for n ≤ %d (got n = %d)", max(MaxEigenN, MaxGeneralEigenN), m.N)
	}
	return spectralRadius(m.dense(), m.N)
}

func maxAbs(xs []float64) float64 {
	r := 0.0
	for _, x := range xs {
		r = max(r, math.Abs(x))
	}
	return r
}

// PerronLeft returns the left Perron vector π of a row-stochastic matrix
// R: πᵀR = πᵀ, Σπ = 1 (π_R of DP-DGT). It reports an error if R is not
// row-stochastic to within Tol, if π is not unique (the graph of R has no
// single root class), or n > MaxEigenN.
func PerronLeft(r *Matrix) ([]float64, error) {
	r.valid()
	if f := rowStochastic(r); !f.Holds {
		return nil, check.Errorf(fieldSpectral, "the left Perron vector needs a row-stochastic matrix: %s", f.Detail)
	}
	return perron(r, true)
}

// PerronRight returns the right Perron vector π of a column-stochastic
// matrix C: Cπ = π, Σπ = 1 (π_C of DP-DGT). It reports an error if C is
// not column-stochastic to within Tol, if π is not unique, or n >
// MaxEigenN.
func PerronRight(c *Matrix) ([]float64, error) {
	c.valid()
	if f := columnStochastic(c); !f.Holds {
		return nil, check.Errorf(fieldSpectral, "the right Perron vector needs a column-stochastic matrix: %s", f.Detail)
	}
	return perron(c, false)
}

// perron solves (Mᵀ − I)π = 0 (left) or (M − I)π = 0 (right) with the sum
// of π equal to 1, which replaces one of the n equations (they are
// dependent, as the stochastic sums make them add up to 0).
func perron(m *Matrix, left bool) ([]float64, error) {
	n := m.N
	if n > MaxEigenN {
		return nil, check.Errorf(fieldSpectral, "Perron vectors are computed only for n ≤ %d (got n = %d)", MaxEigenN, n)
	}
	a := m.dense()
	if left {
		for i := range n {
			for j := range i {
				a[i*n+j], a[j*n+i] = a[j*n+i], a[i*n+j]
			}
		}
	}
	for i := range n {
		a[i*n+i]--
	}
	for j := range n {
		a[(n-1)*n+j] = 1
	}
	b := make([]float64, n)
	b[n-1] = 1
	f := factorLU(a, n)
	side := "right"
	if left {
		side = "left"
	}
	if c := f.cond(); c > 1e12 || math.IsNaN(c) {
		return nil, check.Errorf(fieldSpectral,
			"the %s Perron vector is not unique: no single group of nodes reaches all others (the graph needs a spanning tree)", side)
	}
	pi := f.solve(b, false)
	for i, v := range pi {
		if v < 0 && v > -Tol {
			pi[i] = 0 // round-off around a node outside the root class
		}
	}
	return pi, nil
}

// SigmaR returns σ_R = ρ(R_φ − 1π_Rᵀ) with R_φ = (1−φ)I + φR, the
// contraction factor of DP-DGT's pull step (spec §4.3); π_R is R's left
// Perron vector. R must be row-stochastic with n ≤ MaxGeneralEigenN.
func SigmaR(r *Matrix, phi float64) (float64, error) {
	pi, err := PerronLeft(r)
	if err != nil {
		return 0, err
	}
	return lazyDeflatedRadius(r, phi, func(i, j int) float64 { return pi[j] })
}

// lazyDeflatedRadius returns ρ((1−t)I + t·M − P) with P_ij = p(i, j).
func lazyDeflatedRadius(m *Matrix, t float64, p func(i, j int) float64) (float64, error) {
	n := m.N
	if n > MaxGeneralEigenN {
		return 0, check.Errorf(fieldSpectral, "eigenvalues of a nonsymmetric matrix are computed only for n ≤ %d (got n = %d)", MaxGeneralEigenN, n)
	}
	a := m.dense()
	for i := range n {
		for j := range n {
			a[i*n+j] = float64(t*a[i*n+j]) - p(i, j)
		}
		a[i*n+i] += 1 - t
	}
	return spectralRadius(a, n)
}

// SigmaC returns σ_C = ρ(C_γ − π_C1ᵀ) with C_γ = (1−γ)I + γC, the
// contraction factor of DP-DGT's push step (spec §4.3); π_C is C's right
// Perron vector. C must be column-stochastic with n ≤ MaxGeneralEigenN.
func SigmaC(c *Matrix, gamma float64) (float64, error) {
	pi, err := PerronRight(c)
	if err != nil {
		return 0, err
	}
	return lazyDeflatedRadius(c, gamma, func(i, j int) float64 { return pi[i] })
}

// nearest returns the index of the entry of xs closest to v.
func nearest(xs []float64, v float64) int {
	k := 0
	for i, x := range xs {
		if math.Abs(x-v) < math.Abs(xs[k]-v) {
			k = i
		}
	}
	return k
}
