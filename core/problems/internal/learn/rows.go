// Package learn holds what the learning problems (logistic, softmax)
// share: a read-only view of a dataset's rows through a permutation, the
// split of rows over agents, seeded synthetic sets, and the central
// solvers (Newton with a hand-written Cholesky factorisation, L-BFGS,
// accelerated proximal gradient) — pure Go, so that core builds for
// js/wasm without gonum/mat.
package learn

import (
	"math"

	"dpsim/core/data"
	"dpsim/core/num"
)

// Rows is a read-only view of a data.Set's rows in the order of Idx
// (nil: the set's own order). It reads the set's float32 features or
// bytes in place, never copying them: a dataset is decoded once per
// process and every problem instance shares it.
type Rows struct {
	Set *data.Set
	Idx []int
}

// Len returns the number of rows in the view.
func (r Rows) Len() int {
	if r.Idx != nil {
		return len(r.Idx)
	}
	return r.Set.Rows
}

// Row returns the set's row index of view row k.
func (r Rows) Row(k int) int {
	if r.Idx != nil {
		return r.Idx[k]
	}
	return k
}

// Dot returns a_kᵀx for view row k (len(x) ≥ Cols; only the first Cols
// entries are read), in core/num's lane order: over the row's stored
// nonzeros (num.GatherDot) when its set has a sparse form, else over
// its columns (num.DotOf) — the bits of Dots, which every platform
// gives. Products are rounded apart from the sums (core/num), so no
// platform fuses them. (A sparse row skips its zero features whatever
// x holds: an infinite x_j beside a zero feature adds nothing, where
// the dense sum's 0·Inf would be NaN.)
func (r Rows) Dot(k int, x []float64) float64 {
	s, i, d := r.Set, r.Row(k), r.Set.Cols
	x = x[:d]
	if sp := r.sparse(); sp != nil {
		return sp.dot(i, x)
	}
	if s.Pixels != nil {
		return num.DotOf(s.Pixels[i*d:(i+1)*d:(i+1)*d], x) / 255
	}
	return num.DotOf(s.Features[i*d:(i+1)*d:(i+1)*d], x)
}

// Dots writes a_kᵀx for view rows k = lo, lo+1, …, lo+len(out)−1 into
// out: Dot's bits, in assembly where there is some (dotsWide: AVX2 on
// amd64, WebAssembly under js/wasm), on a sparse set (sparseRows) over
// the nonzero features only.
func (r Rows) Dots(lo int, x []float64, out []float64) {
	s, d := r.Set, r.Set.Cols
	x = x[:d]
	if sp := r.sparse(); sp != nil {
		r.sparseDots(sp, lo, x, out)
		return
	}
	for t := r.dotsWide(lo, x, out); t < len(out); t++ {
		i := r.Row(lo + t)
		if s.Pixels != nil {
			out[t] = num.DotOf(s.Pixels[i*d:(i+1)*d:(i+1)*d], x) / 255
		} else {
			out[t] = num.DotOf(s.Features[i*d:(i+1)*d:(i+1)*d], x)
		}
	}
}

// Axpys adds Σ_t c[t]·a_{lo+t} to out, the rows' terms added to each
// entry in row order (the same bits as Axpy row after row), four rows
// per pass over out.
//
// On a sparse set (sparseRows), finite c and no −0 in out it adds the
// nonzero features' terms only, with the same bits.
func (r Rows) Axpys(lo int, c []float64, out []float64) {
	s, d := r.Set, r.Set.Cols
	out = out[:d]
	if sp := r.sparse(); sp != nil && finite(c) && noNegZero(out) {
		r.sparseAxpys(sp, lo, c, out)
		return
	}
	t := r.axpysWide(lo, c, out) // amd64 with AVX2: eight rows at a time
	for ; t+4 <= len(c); t += 4 {
		i0, i1, i2, i3 := r.Row(lo+t), r.Row(lo+t+1), r.Row(lo+t+2), r.Row(lo+t+3)
		cc := c[t : t+4 : t+4]
		if s.Pixels != nil {
			p := s.Pixels
			axpy4Rows(cc[0]/255, cc[1]/255, cc[2]/255, cc[3]/255, p[i0*d:(i0+1)*d:(i0+1)*d], p[i1*d:(i1+1)*d:(i1+1)*d],
				p[i2*d:(i2+1)*d:(i2+1)*d], p[i3*d:(i3+1)*d:(i3+1)*d], out)
			continue
		}
		f := s.Features
		axpy4Rows(cc[0], cc[1], cc[2], cc[3], f[i0*d:(i0+1)*d:(i0+1)*d], f[i1*d:(i1+1)*d:(i1+1)*d],
			f[i2*d:(i2+1)*d:(i2+1)*d], f[i3*d:(i3+1)*d:(i3+1)*d], out)
	}
	for ; t < len(c); t++ {
		r.Axpy(lo+t, c[t], out)
	}
}

// SquaresGrad writes Σ_k (a_kᵀx − s_k)·a_k over the view's rows into
// out, with labels s_k = signs[k] — Packed.SquaresGrad's sum over the
// rows in place, with its bits: Dots, the subtraction and Axpys over
// blocks of squaresBlock rows into a zeroed out. On a sparse form the
// scan of out for −0 that Axpys makes on every call is skipped: out
// starts at +0, and a sum from +0 is never −0 (+0 + −0 = +0, x + (−x)
// = +0), so only the coefficients' finiteness is checked per block (on
// MNIST 0 vs 1's shards the scans were 6 % of a gradient at 64 rows a
// block).
func (r Rows) SquaresGrad(x []float64, signs []int8, out []float64) {
	m, d := r.Len(), r.Set.Cols
	x, out, signs = x[:d], out[:d], signs[:m]
	clear(out)
	sp := r.sparse()
	var z [squaresBlock]float64
	for lo := r.squaresWide(sp, x, signs, out); lo < m; lo += len(z) { // the SIMD module's blocks first (js/wasm)
		blk := z[:min(len(z), m-lo)]
		r.Dots(lo, x, blk)
		for t, v := range blk {
			blk[t] = v - float64(signs[lo+t])
		}
		if sp != nil && finite(blk) {
			r.sparseAxpys(sp, lo, blk, out)
		} else {
			r.Axpys(lo, blk, out)
		}
	}
}

// axpy4Rows adds ca·a_j, then cb·b_j, cc·c_j, ce·e_j to out_j.
func axpy4Rows[V value](ca, cb, cc, ce float64, a, b, c, e []V, out []float64) {
	a, b, c, e = a[:len(out)], b[:len(out)], c[:len(out)], e[:len(out)]
	for j, v := range out {
		v += float64(ca * float64(a[j]))
		v += float64(cb * float64(b[j]))
		v += float64(cc * float64(c[j]))
		v += float64(ce * float64(e[j]))
		out[j] = v
	}
}

// Axpy adds c·a_k to out for view row k (unrolled like Dot; each entry
// is one product and one sum, as before).
func (r Rows) Axpy(k int, c float64, out []float64) {
	s, i, d := r.Set, r.Row(k), r.Set.Cols
	if s.Pixels != nil {
		axpyRow(c/255, s.Pixels[i*d:(i+1)*d:(i+1)*d], out[:d])
		return
	}
	axpyRow(c, s.Features[i*d:(i+1)*d:(i+1)*d], out[:d])
}

// axpyRow adds c·float64(a_j) to out_j.
func axpyRow[V value](c float64, a []V, out []float64) {
	out = out[:len(a)]
	j := 0
	for ; j+4 <= len(a); j += 4 {
		aa, oo := a[j:j+4:j+4], out[j:j+4:j+4]
		oo[0] += float64(c * float64(aa[0]))
		oo[1] += float64(c * float64(aa[1]))
		oo[2] += float64(c * float64(aa[2]))
		oo[3] += float64(c * float64(aa[3]))
	}
	for ; j < len(a); j++ {
		out[j] += float64(c * float64(a[j]))
	}
}

// AxpySquares adds c·a_kj² to out_j for view row k: the terms of a
// Hessian's diagonal (preconditioners; no bit-for-bit promise beyond
// determinism).
func (r Rows) AxpySquares(k int, c float64, out []float64) {
	s, i, d := r.Set, r.Row(k), r.Set.Cols
	out = out[:d]
	if s.Pixels != nil {
		c /= 255 * 255
		for j, a := range s.Pixels[i*d : (i+1)*d : (i+1)*d] {
			f := float64(a)
			out[j] += float64(c * float64(f*f))
		}
		return
	}
	for j, a := range s.Features[i*d : (i+1)*d : (i+1)*d] {
		f := float64(a)
		out[j] += float64(c * float64(f*f))
	}
}

// Label returns the class of view row k.
func (r Rows) Label(k int) int { return int(r.Set.Y[r.Row(k)]) }

// Sub returns the view of rows [lo, hi) of r.
func (r Rows) Sub(lo, hi int) Rows {
	if r.Idx != nil {
		return Rows{Set: r.Set, Idx: r.Idx[lo:hi]}
	}
	idx := make([]int, hi-lo)
	for k := range idx {
		idx[k] = lo + k
	}
	return Rows{Set: r.Set, Idx: idx}
}

// MaxNorm returns max_k ‖a_k‖₂ over the view.
func (r Rows) MaxNorm() float64 {
	m := 0.0
	row := make([]float64, 0, r.Set.Cols)
	for k := range r.Len() {
		row = r.Set.RowTo(row, r.Row(k))
		s := 0.0
		for _, v := range row {
			s += float64(v * v)
		}
		m = math.Max(m, s)
	}
	return math.Sqrt(m)
}

// GramMax returns λ_max(AᵀA)/Len() for the view's rows A, by power
// iteration from the all-ones vector (AᵀA is entrywise ≥ 0 for features
// in [0, 1], so that start has a component along the top eigenvector;
// a set with features outside [0, 1] starts elsewhere).
// The Rayleigh quotient it returns is within a relative 1e-9 of λ_max
// once the iteration settles; the loop stops there or after 500 passes.
func (r Rows) GramMax() float64 {
	d, m := r.Set.Cols, r.Len()
	if m == 0 {
		return 0
	}
	v := make([]float64, d)
	for j := range v {
		v[j] = 1 / math.Sqrt(float64(d))
		if r.Set.OutsideUnit {
			// Features of either sign can make AᵀA's top eigenvector
			// orthogonal to the all-ones vector; this start is not,
			// almost surely.
			v[j] *= 1 + float64(0.1*float64(j))
		}
	}
	w := make([]float64, d)
	lam := 0.0
	for range 500 {
		clear(w)
		for k := range m {
			r.Axpy(k, r.Dot(k, v), w)
		}
		num := 0.0 // vᵀAᵀAv with ‖v‖ = 1
		nrm := 0.0
		for j := range w {
			num += float64(v[j] * w[j])
			nrm += float64(w[j] * w[j])
		}
		nrm = math.Sqrt(nrm)
		if nrm == 0 {
			return 0
		}
		for j := range v {
			v[j] = w[j] / nrm
		}
		// ‖AᵀAv‖ ≥ vᵀAᵀAv; both meet λ_max, and the gap bounds the error.
		if nrm-num <= 1e-10*nrm {
			lam = nrm
			break
		}
		lam = nrm
	}
	return lam / float64(m)
}

// Point returns the point a step's metrics are taken at: the shared
// estimate output when it is set, else the mean of the agents'
// estimates (agent-major, dim each).
func Point(output, estimates []float64, dim int) []float64 {
	if output != nil {
		return output
	}
	x := make([]float64, dim)
	n := len(estimates) / dim
	for i := range n {
		for c := range dim {
			x[c] += estimates[i*dim+c]
		}
	}
	for c := range x {
		x[c] /= float64(max(n, 1))
	}
	return x
}

// RelativeError returns ‖x̄ − x*‖/‖x⁰ − x*‖ with x̄ the agents' mean
// estimate (the one row itself when estimates is the shared estimate)
// and x⁰ = 0 (DP-RECAL's relative error, spec §6.6); NaN when
// x* = 0 (the ratio is undefined) or there are no estimates.
func RelativeError(estimates []float64, dim int, opt []float64) float64 {
	n := len(estimates) / dim
	on := 0.0
	for _, v := range opt {
		on += float64(v * v)
	}
	if n == 0 || on == 0 {
		return math.NaN()
	}
	x := Point(nil, estimates, dim)
	s := 0.0
	for c, v := range x {
		s += float64((v - opt[c]) * (v - opt[c]))
	}
	return math.Sqrt(s / on)
}
