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
// entries are read).
func (r Rows) Dot(k int, x []float64) float64 {
	s, i, d := r.Set, r.Row(k), r.Set.Cols
	x = x[:d]
	var acc float64
	if s.Pixels != nil {
		for j, p := range s.Pixels[i*d : (i+1)*d] {
			acc += float64(p) * x[j]
		}
		return acc / 255
	}
	for j, v := range s.Features[i*d : (i+1)*d] {
		acc += float64(v) * x[j]
	}
	return acc
}

// Axpy adds c·a_k to out for view row k.
func (r Rows) Axpy(k int, c float64, out []float64) {
	s, i, d := r.Set, r.Row(k), r.Set.Cols
	out = out[:d]
	if s.Pixels != nil {
		c /= 255
		for j, p := range s.Pixels[i*d : (i+1)*d] {
			out[j] += c * float64(p)
		}
		return
	}
	for j, v := range s.Features[i*d : (i+1)*d] {
		out[j] += c * float64(v)
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
			s += v * v
		}
		m = math.Max(m, s)
	}
	return math.Sqrt(m)
}

// GramMax returns λ_max(AᵀA)/Len() for the view's rows A, by power
// iteration from the all-ones vector (AᵀA is entrywise ≥ 0 for features
// in [0, 1], so that start has a component along the top eigenvector).
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
			num += v[j] * w[j]
			nrm += w[j] * w[j]
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
// estimate and x⁰ = 0 (DP-RECAL's relative error, spec §6.6); NaN when
// x* = 0 (the ratio is undefined) or there are no estimates.
func RelativeError(estimates []float64, dim int, opt []float64) float64 {
	n := len(estimates) / dim
	on := 0.0
	for _, v := range opt {
		on += v * v
	}
	if n == 0 || on == 0 {
		return math.NaN()
	}
	x := Point(nil, estimates, dim)
	s := 0.0
	for c, v := range x {
		s += (v - opt[c]) * (v - opt[c])
	}
	return math.Sqrt(s / on)
}
