package weights

// Portable dense linear algebra for the spectral findings.
//
// The findings go into every run export, and dpsim promises byte-identical
// exports natively and in the browser. gonum cannot keep that promise: on
// amd64 its BLAS kernels are assembly that sums in another order than its
// pure-Go kernels (which js/wasm uses), and its LAPACK calls math.Hypot,
// which is assembly on amd64 too; eigenvalues then differed in the last
// bits. The routines here use only +, −, ×, ÷, math.Sqrt (correctly
// rounded everywhere) and exact operations (math.Abs, comparisons), each
// in a fixed order, so IEEE 754 arithmetic gives the same bits on every
// platform that does not fuse a multiply and an add (amd64 with the
// default GOAMD64=v1, and wasm; see docs/scenario.md).
//
// The algorithms are the classical ones, as in EISPACK and Numerical
// Recipes: Householder tridiagonalisation and implicit QL for symmetric
// matrices; balancing, reduction to Hessenberg form by stabilised
// elimination and the Francis double-shift QR for general ones; LU with
// partial pivoting and Hager's 1-norm estimate for linear systems. All
// work on row-major n×n slices, with inner loops along rows.

import (
	"math"
	"slices"
)

// maxQRIterations bounds the QL or QR sweeps spent on one eigenvalue
// before giving up; convergence is typically quadratic or cubic, a few
// sweeps per eigenvalue.
const maxQRIterations = 60

// hypot returns √(a²+b²) without needless overflow, with math.Sqrt only
// (math.Hypot is assembly on amd64 and could differ from the browser).
func hypot(a, b float64) float64 {
	a, b = math.Abs(a), math.Abs(b)
	if a < b {
		a, b = b, a
	}
	if a == 0 {
		return 0
	}
	r := b / a
	return a * math.Sqrt(1+float64(r*r))
}

// sign returns |a| with the sign of b (b = 0 counts as positive), Fortran's
// SIGN.
func sign(a, b float64) float64 {
	if b >= 0 {
		return math.Abs(a)
	}
	return -math.Abs(a)
}

// symEigenvalues returns the eigenvalues of the symmetric n×n matrix a
// (row-major; only the lower triangle is read) in ascending order. It
// overwrites a. ok is false if the QL iteration did not converge.
func symEigenvalues(a []float64, n int) (vals []float64, ok bool) {
	d := make([]float64, n)
	e := make([]float64, n)
	tridiagonalize(a, n, d, e)
	if !tridiagonalQL(d, e) {
		return nil, false
	}
	slices.Sort(d)
	return d, true
}

// tridiagonalize reduces the symmetric matrix a (lower triangle) to a
// tridiagonal one with the same eigenvalues by n−2 Householder
// reflections: d receives the diagonal and e[i] the entry (i, i−1)
// (e[0] = 0). It costs about (2/3)n³ multiply-adds and overwrites a.
func tridiagonalize(a []float64, n int, d, e []float64) {
	p := make([]float64, n)
	for i := n - 1; i >= 1; i-- {
		l := i - 1
		u := a[i*n : i*n+i] // row i left of the diagonal: columns 0..l
		scale := 0.0
		for _, v := range u {
			scale += math.Abs(v)
		}
		if l == 0 || scale == 0 {
			e[i] = u[l]
			continue
		}
		// u ← row i scaled; the reflection is I − u·uᵀ/h.
		h := 0.0
		for k, v := range u {
			v /= scale
			u[k] = v
			h += float64(v * v)
		}
		f := u[l]
		g := -sign(math.Sqrt(h), f)
		e[i] = scale * g
		h -= float64(f * g)
		u[l] = f - g
		// p = A·u/h over the leading (l+1)×(l+1) block, from its lower
		// triangle read row by row (both halves of the product).
		clear(p[:i])
		for j := 0; j <= l; j++ {
			row := a[j*n : j*n+j+1]
			uj := u[j]
			s := 0.0
			// Equal-length reslices let the compiler drop the bounds
			// checks of the inner loops.
			rj, uk, pk := row[:j], u[:j], p[:j]
			uk, pk = uk[:len(rj)], pk[:len(rj)]
			for k, v := range rj {
				s += float64(v * uk[k])
				pk[k] += float64(v * uj)
			}
			p[j] += s + float64(row[j]*uj)
		}
		f = 0.0
		for j := range p[:i] {
			p[j] /= h
			f += float64(p[j] * u[j])
		}
		// q = p − (uᵀp/2h)·u; A ← A − u·qᵀ − q·uᵀ on the lower triangle.
		hh := f / (h + h)
		for j := range p[:i] {
			p[j] -= float64(hh * u[j])
		}
		for j := 0; j <= l; j++ {
			row := a[j*n : j*n+j+1]
			uj, qj := u[j], p[j]
			pk, uk := p[:len(row)], u[:len(row)]
			for k := range row {
				row[k] -= float64(uj*pk[k]) + float64(qj*uk[k])
			}
		}
	}
	e[0] = 0
	for i := range n {
		d[i] = a[i*n+i]
	}
}

// tridiagonalQL replaces d with the eigenvalues of the symmetric
// tridiagonal matrix with diagonal d and subdiagonal e (e[i] = entry
// (i, i−1), e[0] unused), by the QL algorithm with implicit Wilkinson
// shifts. It destroys e and reports false if an eigenvalue needs more
// than maxQRIterations sweeps.
func tridiagonalQL(d, e []float64) bool {
	n := len(d)
	if n == 0 {
		return true
	}
	copy(e, e[1:])
	e[n-1] = 0
	for l := 0; l < n; l++ {
		for iter := 0; ; iter++ {
			m := l
			for ; m < n-1; m++ {
				dd := math.Abs(d[m]) + math.Abs(d[m+1])
				if math.Abs(e[m])+dd == dd {
					break
				}
			}
			if m == l {
				break
			}
			if iter == maxQRIterations {
				return false
			}
			g := (d[l+1] - d[l]) / (2 * e[l])
			r := hypot(g, 1)
			g = d[m] - d[l] + e[l]/(g+sign(r, g))
			s, c, p := 1.0, 1.0, 0.0
			underflow := false
			for i := m - 1; i >= l; i-- {
				f, b := s*e[i], float64(c*e[i])
				r = hypot(f, g)
				e[i+1] = r
				if r == 0 {
					// Recover from underflow: the matrix splits here.
					d[i+1] -= p
					e[m] = 0
					underflow = true
					break
				}
				s, c = f/r, g/r
				g = d[i+1] - p
				r = float64((d[i]-g)*s) + float64(2*c*b)
				p = float64(s * r)
				d[i+1] = g + p
				g = float64(c*r) - b
			}
			if underflow {
				continue
			}
			d[l] -= p
			e[l] = g
			e[m] = 0
		}
	}
	return true
}

// genEigenvalues returns the real and imaginary parts of the eigenvalues
// of the general n×n matrix a (row-major), in no particular order. It
// overwrites a. ok is false if the QR iteration did not converge.
func genEigenvalues(a []float64, n int) (re, im []float64, ok bool) {
	balance(a, n)
	hessenberg(a, n)
	re, im = make([]float64, n), make([]float64, n)
	if !hessenbergQR(a, n, re, im) {
		return nil, nil, false
	}
	return re, im, true
}

// balance replaces a with D⁻¹AD for a diagonal D of powers of 2 (so
// exactly) that makes the norms of each row and its column comparable,
// which makes the eigenvalues less sensitive to round-off.
func balance(a []float64, n int) {
	const radix, sqrdx = 2.0, 4.0
	for done := false; !done; {
		done = true
		for i := range n {
			r, c := 0.0, 0.0
			for j := range n {
				if j != i {
					c += math.Abs(a[j*n+i])
					r += math.Abs(a[i*n+j])
				}
			}
			if c == 0 || r == 0 {
				continue
			}
			g, f, s := r/radix, 1.0, c+r
			for c < g {
				f *= radix
				c *= sqrdx
			}
			g = r * radix
			for c > g {
				f /= radix
				c /= sqrdx
			}
			if (c+r)/f < 0.95*s {
				done = false
				g = 1 / f
				row := a[i*n : i*n+n]
				for j := range row {
					row[j] *= g
				}
				for j := range n {
					a[j*n+i] *= f
				}
			}
		}
	}
}

// hessenberg reduces a to upper Hessenberg form by a similarity transform
// of Gaussian elimination with pivoting (EISPACK's elmhes), zeroing every
// entry below the subdiagonal. Each step applies all its row operations
// before its column operations; in exact arithmetic that is the same
// similarity (the elementary column operations commute), and it keeps the
// inner loops along rows.
func hessenberg(a []float64, n int) {
	y := make([]float64, n)
	for m := 1; m < n-1; m++ {
		x, piv := 0.0, m
		for j := m; j < n; j++ {
			if v := a[j*n+m-1]; math.Abs(v) > math.Abs(x) {
				x, piv = v, j
			}
		}
		if piv != m {
			rp, rm := a[piv*n+m-1:piv*n+n], a[m*n+m-1:m*n+n]
			for j := range rp {
				rp[j], rm[j] = rm[j], rp[j]
			}
			for j := range n {
				a[j*n+piv], a[j*n+m] = a[j*n+m], a[j*n+piv]
			}
		}
		if x == 0 {
			continue
		}
		rowM := a[m*n+m : m*n+n]
		for i := m + 1; i < n; i++ {
			yi := a[i*n+m-1] / x
			y[i] = yi
			a[i*n+m-1] = 0
			if yi != 0 {
				row := a[i*n+m : i*n+n]
				row = row[:len(rowM)]
				for j, v := range rowM {
					row[j] -= float64(yi * v)
				}
			}
		}
		ys := y[m+1 : n]
		for j := range n {
			row := a[j*n+m+1 : j*n+n]
			row = row[:len(ys)]
			s := 0.0
			for k, v := range row {
				s += float64(ys[k] * v)
			}
			a[j*n+m] += s
		}
	}
}

// hessenbergQR finds the eigenvalues of the upper Hessenberg matrix a by
// the Francis double-shift QR algorithm (EISPACK's hqr), with an
// exceptional shift after every 10 fruitless sweeps. It destroys a and reports
// false if an eigenvalue needs more than maxQRIterations sweeps.
func hessenbergQR(a []float64, n int, wr, wi []float64) bool {
	anorm := 0.0
	for i := range n {
		for j := max(i-1, 0); j < n; j++ {
			anorm += math.Abs(a[i*n+j])
		}
	}
	t := 0.0 // the accumulated exceptional shifts
	for nn := n - 1; nn >= 0; {
		for its := 0; ; {
			// Look for a single small subdiagonal entry to split at.
			l := nn
			for ; l >= 1; l-- {
				s := math.Abs(a[(l-1)*n+l-1]) + math.Abs(a[l*n+l])
				if s == 0 {
					s = anorm
				}
				if math.Abs(a[l*n+l-1])+s == s {
					a[l*n+l-1] = 0
					break
				}
			}
			x := a[nn*n+nn]
			if l == nn { // one root
				wr[nn], wi[nn] = x+t, 0
				nn--
				break
			}
			y := a[(nn-1)*n+nn-1]
			w := float64(a[nn*n+nn-1] * a[(nn-1)*n+nn])
			if l == nn-1 { // two roots, of the trailing 2×2 block
				p := float64(0.5 * (y - x))
				q := float64(p*p) + w
				z := math.Sqrt(math.Abs(q))
				x += t
				if q >= 0 {
					z = p + sign(z, p)
					wr[nn-1], wr[nn] = x+z, x+z
					if z != 0 {
						wr[nn] = x - w/z
					}
					wi[nn-1], wi[nn] = 0, 0
				} else {
					wr[nn-1], wr[nn] = x+p, x+p
					wi[nn-1], wi[nn] = -z, z
				}
				nn -= 2
				break
			}
			if its == maxQRIterations {
				return false
			}
			if its > 0 && its%10 == 0 { // exceptional shift
				t += x
				for i := 0; i <= nn; i++ {
					a[i*n+i] -= x
				}
				s := math.Abs(a[nn*n+nn-1]) + math.Abs(a[(nn-1)*n+nn-2])
				x = 0.75 * s
				y = x
				w = -0.4375 * s * s
			}
			its++
			// Look for two consecutive small subdiagonal entries.
			var m int
			var p, q, r, z float64
			for m = nn - 2; m >= l; m-- {
				z = a[m*n+m]
				r = x - z
				s := y - z
				p = (float64(r*s)-w)/a[(m+1)*n+m] + a[m*n+m+1]
				q = a[(m+1)*n+m+1] - z - r - s
				r = a[(m+2)*n+m+1]
				s = math.Abs(p) + math.Abs(q) + math.Abs(r)
				p, q, r = p/s, q/s, r/s
				if m == l {
					break
				}
				u := float64(math.Abs(a[m*n+m-1]) * (math.Abs(q) + math.Abs(r)))
				v := float64(math.Abs(p) * (math.Abs(a[(m-1)*n+m-1]) + math.Abs(z) + math.Abs(a[(m+1)*n+m+1])))
				if u+v == v {
					break
				}
			}
			for i := m + 2; i <= nn; i++ {
				a[i*n+i-2] = 0
				if i != m+2 {
					a[i*n+i-3] = 0
				}
			}
			// The double QR step on rows and columns l..nn.
			for k := m; k <= nn-1; k++ {
				if k != m {
					p = a[k*n+k-1]
					q = a[(k+1)*n+k-1]
					r = 0
					if k != nn-1 {
						r = a[(k+2)*n+k-1]
					}
					if x = math.Abs(p) + math.Abs(q) + math.Abs(r); x != 0 {
						p, q, r = p/x, q/x, r/x
					}
				}
				s := sign(math.Sqrt(float64(p*p)+float64(q*q)+float64(r*r)), p)
				if s == 0 {
					continue
				}
				if k == m {
					if l != m {
						a[k*n+k-1] = -a[k*n+k-1]
					}
				} else {
					a[k*n+k-1] = -s * x
				}
				p += s
				x, y, z = p/s, q/s, r/s
				q, r = q/p, r/p
				rk, rk1 := a[k*n+k:k*n+nn+1], a[(k+1)*n+k:(k+1)*n+nn+1]
				rk1 = rk1[:len(rk)]
				if k != nn-1 {
					rk2 := a[(k+2)*n+k : (k+2)*n+nn+1]
					rk2 = rk2[:len(rk)]
					for j := range rk {
						p = rk[j] + float64(q*rk1[j]) + float64(r*rk2[j])
						rk2[j] -= float64(p * z)
						rk1[j] -= float64(p * y)
						rk[j] -= float64(p * x)
					}
				} else {
					for j := range rk {
						p = rk[j] + float64(q*rk1[j])
						rk1[j] -= float64(p * y)
						rk[j] -= float64(p * x)
					}
				}
				for i := l; i <= min(nn, k+3); i++ {
					if k != nn-1 {
						c := a[i*n+k : i*n+k+3 : i*n+k+3]
						p = float64(x*c[0]) + float64(y*c[1]) + float64(z*c[2])
						c[2] -= float64(p * r)
						c[1] -= float64(p * q)
						c[0] -= p
					} else {
						c := a[i*n+k : i*n+k+2 : i*n+k+2]
						p = float64(x*c[0]) + float64(y*c[1])
						c[1] -= float64(p * q)
						c[0] -= p
					}
				}
			}
		}
	}
	return true
}

// lu is an LU factorisation with partial pivoting, PA = LU, stored in
// place: U on and above the diagonal, the multipliers of L below.
type lu struct {
	n    int
	a    []float64
	perm []int // row i of PA is row perm[i] of A
	// singular is set when a pivot is exactly zero.
	singular bool
	norm1    float64 // ‖A‖₁, for the condition number
}

// factorLU factors the n×n matrix a (row-major), overwriting it.
func factorLU(a []float64, n int) *lu {
	f := &lu{n: n, a: a, perm: make([]int, n)}
	for j := range n {
		s := 0.0
		for i := range n {
			s += math.Abs(a[i*n+j])
		}
		f.norm1 = max(f.norm1, s)
	}
	for i := range f.perm {
		f.perm[i] = i
	}
	for k := range n {
		piv := k
		for i := k + 1; i < n; i++ {
			if math.Abs(a[i*n+k]) > math.Abs(a[piv*n+k]) {
				piv = i
			}
		}
		if piv != k {
			rp, rk := a[piv*n:piv*n+n], a[k*n:k*n+n]
			for j := range rp {
				rp[j], rk[j] = rk[j], rp[j]
			}
			f.perm[piv], f.perm[k] = f.perm[k], f.perm[piv]
		}
		d := a[k*n+k]
		if d == 0 {
			f.singular = true
			continue
		}
		rk := a[k*n+k+1 : k*n+n]
		for i := k + 1; i < n; i++ {
			li := a[i*n+k] / d
			a[i*n+k] = li
			if li == 0 {
				continue
			}
			ri := a[i*n+k+1 : i*n+n]
			ri = ri[:len(rk)]
			for j, v := range rk {
				ri[j] -= float64(li * v)
			}
		}
	}
	return f
}

// solve returns x with Ax = b (or Aᵀx = b when trans).
func (f *lu) solve(b []float64, trans bool) []float64 {
	n, a := f.n, f.a
	x := make([]float64, n)
	if !trans {
		// Ly = Pb, then Ux = y.
		for i := range n {
			s := b[f.perm[i]]
			for j, v := range a[i*n : i*n+i] {
				s -= float64(v * x[j])
			}
			x[i] = s
		}
		for i := n - 1; i >= 0; i-- {
			s := x[i]
			for j, v := range a[i*n+i+1 : i*n+n] {
				s -= float64(v * x[i+1+j])
			}
			x[i] = s / a[i*n+i]
		}
		return x
	}
	// Aᵀ = UᵀLᵀP: Uᵀw = b, Lᵀv = w, x = Pᵀv, sweeping rows of U and L.
	w := append([]float64(nil), b...)
	for i := range n {
		w[i] /= a[i*n+i]
		wi := w[i]
		for j, v := range a[i*n+i+1 : i*n+n] {
			w[i+1+j] -= float64(v * wi)
		}
	}
	for i := n - 1; i >= 0; i-- {
		wi := w[i]
		for j, v := range a[i*n : i*n+i] {
			w[j] -= float64(v * wi)
		}
	}
	for i := range n {
		x[f.perm[i]] = w[i]
	}
	return x
}

// cond returns an estimate of the 1-norm condition number ‖A‖₁‖A⁻¹‖₁, by
// Hager's method (as LAPACK's dlacon, with Higham's extra test vector):
// a few solves, O(n²) each. A zero pivot gives +Inf.
func (f *lu) cond() float64 {
	n := f.n
	if f.singular {
		return math.Inf(1)
	}
	if n == 0 {
		return 0
	}
	norm1 := func(v []float64) float64 {
		s := 0.0
		for _, x := range v {
			s += math.Abs(x)
		}
		return s
	}
	x := make([]float64, n)
	for i := range x {
		x[i] = 1 / float64(n)
	}
	est, last := 0.0, -1
	for range 5 {
		y := f.solve(x, false)
		est = max(est, norm1(y))
		xi := make([]float64, n)
		for i, v := range y {
			xi[i] = sign(1, v)
		}
		z := f.solve(xi, true)
		j, zx := 0, 0.0
		for i, v := range z {
			zx += float64(v * x[i])
			if math.Abs(v) > math.Abs(z[j]) {
				j = i
			}
		}
		if math.Abs(z[j]) <= zx || j == last {
			break
		}
		clear(x)
		x[j], last = 1, j
	}
	for i := range x {
		x[i] = 1 + float64(i)/float64(max(n-1, 1))
		if i%2 == 1 {
			x[i] = -x[i]
		}
	}
	est = max(est, 2*norm1(f.solve(x, false))/float64(3*n))
	return f.norm1 * est
}
