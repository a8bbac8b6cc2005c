package weights

import (
	"math"
	"math/cmplx"

	"gonum.org/v1/gonum/mat"

	"dpsim/core/check"
)

// Size limits of the dense spectral computations, which cost O(n³) time.
// Measured natively, a symmetric eigenvalue decomposition of n = 1500
// takes about 2.5 s and a general one of n = 500 about 0.4 s; js/wasm is
// three to six times slower. The page analyses every scenario it loads,
// so the limits keep that below a second or two in a browser.
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

// symEigen returns the eigenvalues of the symmetric part (m+mᵀ)/2 of m in
// ascending order.
func symEigen(m *Matrix) ([]float64, error) {
	n := m.N
	if n > MaxEigenN {
		return nil, check.Errorf(fieldSpectral, "eigenvalues are computed only for n ≤ %d (got n = %d)", MaxEigenN, n)
	}
	d := make([]float64, n*n)
	for i := range n {
		for j := i; j < n; j++ {
			v := 0.5 * (m.Data[i*n+j] + m.Data[j*n+i])
			d[i*n+j], d[j*n+i] = v, v
		}
	}
	var es mat.EigenSym
	if !es.Factorize(mat.NewSymDense(n, d), false) {
		return nil, check.Errorf(fieldSpectral, "the symmetric eigenvalue computation did not converge")
	}
	return es.Values(nil), nil
}

// genEigen returns the (complex) eigenvalues of m.
func genEigen(m *Matrix) ([]complex128, error) {
	n := m.N
	if n > MaxGeneralEigenN {
		return nil, check.Errorf(fieldSpectral, "eigenvalues of a nonsymmetric matrix are computed only for n ≤ %d (got n = %d)", MaxGeneralEigenN, n)
	}
	var e mat.Eigen
	if !e.Factorize(mat.NewDense(n, n, append([]float64(nil), m.Data...)), mat.EigenNone) {
		return nil, check.Errorf(fieldSpectral, "the eigenvalue computation did not converge")
	}
	return e.Values(nil), nil
}

// SymEigenvalues returns the eigenvalues of a symmetric matrix in
// ascending order. It reports an error if m is not symmetric to within
// Tol, or n > MaxEigenN.
func SymEigenvalues(m *Matrix) ([]float64, error) {
	m.valid()
	if i, j, _ := asymmetry(m); i >= 0 {
		return nil, check.Errorf(fieldSpectral, "the matrix is not symmetric: row %d, column %d is %s but row %d, column %d is %s",
			i, j, num(m.At(i, j)), j, i, num(m.At(j, i)))
	}
	return symEigen(m)
}

// SpectralRadius returns ρ(m) = max |λ| over the eigenvalues of m. A
// matrix symmetric to within Tol goes through the symmetric solver (n ≤
// MaxEigenN), any other through the general one (n ≤ MaxGeneralEigenN);
// larger matrices give an error.
func SpectralRadius(m *Matrix) (float64, error) {
	m.valid()
	if i, _, _ := asymmetry(m); i < 0 {
		vals, err := symEigen(m)
		if err != nil {
			return 0, err
		}
		return maxAbs(vals), nil
	}
	vals, err := genEigen(m)
	if err != nil {
		return 0, err
	}
	r := 0.0
	for _, v := range vals {
		r = max(r, cmplx.Abs(v))
	}
	return r, nil
}

func maxAbs(xs []float64) float64 {
	r := 0.0
	for _, x := range xs {
		r = max(r, math.Abs(x))
	}
	return r
}

// asymmetry returns the pair (i, j), i < j, with the largest |m_ij − m_ji|
// and that difference; i = −1 when the largest difference is ≤ Tol.
func asymmetry(m *Matrix) (i, j int, diff float64) {
	n := m.N
	i, j = -1, -1
	wi, wj := -1, -1
	// Blocks of rows and columns keep both accesses in cache.
	const bs = 64
	for a0 := 0; a0 < n; a0 += bs {
		for b0 := a0; b0 < n; b0 += bs {
			for a := a0; a < min(a0+bs, n); a++ {
				for b := max(b0, a+1); b < min(b0+bs, n); b++ {
					if d := math.Abs(m.Data[a*n+b] - m.Data[b*n+a]); d > diff {
						diff, wi, wj = d, a, b
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
	a := mat.NewDense(n, n, nil)
	for i := range n {
		for j := range n {
			v := m.Data[i*n+j]
			if left {
				v = m.Data[j*n+i]
			}
			if i == j {
				v--
			}
			a.Set(i, j, v)
		}
	}
	for j := range n {
		a.Set(n-1, j, 1)
	}
	b := mat.NewVecDense(n, nil)
	b.SetVec(n-1, 1)
	var lu mat.LU
	lu.Factorize(a)
	side := "right"
	if left {
		side = "left"
	}
	if c := lu.Cond(); c > 1e12 || math.IsNaN(c) {
		return nil, check.Errorf(fieldSpectral,
			"the %s Perron vector is not unique: no single group of nodes reaches all others (the graph needs a spanning tree)", side)
	}
	var x mat.VecDense
	if err := lu.SolveVecTo(&x, false, b); err != nil {
		return nil, check.Errorf(fieldSpectral, "the %s Perron vector could not be computed: %v", side, err)
	}
	pi := make([]float64, n)
	for i := range pi {
		v := x.AtVec(i)
		if v < 0 && v > -Tol {
			v = 0 // round-off around a node outside the root class
		}
		pi[i] = v
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
	a := New(n)
	for i := range n {
		for j := range n {
			a.Data[i*n+j] = t*m.Data[i*n+j] - p(i, j)
		}
		a.Data[i*n+i] += 1 - t
	}
	return SpectralRadius(a)
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
