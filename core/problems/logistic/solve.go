package logistic

import (
	"math"

	"dpsim/core/problems/internal/learn"
)

// central returns F(x) = (1/n)·Σ_i f_i(x) + (ρ/2)‖x‖² and its gradient,
// with ρ the composite regulariser's ℓ2 weight (0 when there is none):
// the smooth part of the central problem, whose minimiser (with r's ℓ1
// part) is x*.
func (m *Model) central() learn.Func {
	n := float64(len(m.shards))
	rho := 0.0
	if m.r != nil {
		rho = m.r.L2
	}
	return func(x, g []float64) float64 {
		gi := make([]float64, len(x))
		clear(g)
		s := 0.0
		for i := range m.shards {
			s += m.valueGrad(i, x, gi)
			for c, v := range gi {
				g[c] += v / n
			}
		}
		for c, v := range x {
			g[c] += float64(rho * v)
		}
		return s/n + float64(rho/2*learn.Dot(x, x))
	}
}

// hessian returns ∇²F (see central): (1/n)·Σ_i (1/m_i)·Σ_j ℓ”·a_ija_ijᵀ
// + (λ + ρ)·I, with ℓ” = σ(z)(1 − σ(z)) (logistic) or 1 (squares).
func (m *Model) hessian() learn.Hessian {
	n, d := float64(len(m.shards)), m.dim
	rho := 0.0
	if m.r != nil {
		rho = m.r.L2
	}
	return func(x, h []float64) {
		clear(h)
		row := make([]float64, 0, d)
		for _, r := range m.shards {
			w := 1 / (n * float64(r.Len()))
			for k := range r.Len() {
				c := w
				if m.loss == Logistic {
					s := sigmoid(r.Dot(k, x))
					c *= s * (1 - s)
				}
				row = r.Set.RowTo(row, r.Row(k))
				for a, va := range row {
					if va == 0 {
						continue
					}
					ca := c * va
					ha := h[a*d : a*d+a+1]
					for b := range ha {
						ha[b] += float64(ca * row[b])
					}
				}
			}
		}
		for a := range d { // mirror the lower triangle
			for b := range a {
				h[b*d+a] = h[a*d+b]
			}
			h[a*d+a] += m.lambda + rho
		}
	}
}

// solve returns x*: Newton (d ≤ newtonMaxDim) or L-BFGS on F for a
// smooth model, accelerated proximal gradient for a composite one.
func (m *Model) solve() ([]float64, error) {
	x := make([]float64, m.dim)
	f := m.central()
	if m.r != nil {
		l1 := m.r.L1
		lip := m.lip + m.r.L2
		_, err := learn.FISTA(f, func(v []float64, t float64, out []float64) { softThreshold(v, t*l1, out) }, lip, x, tol, 200000)
		return x, err
	}
	if m.dim <= newtonMaxDim {
		_, err := learn.Newton(f, m.hessian(), x, tol, 100)
		return x, err
	}
	_, err := learn.LBFGS(f, x, 20, tol, 20000)
	return x, err
}

// softThreshold writes sign(v)·max(|v| − t, 0) into out, the prox of
// t‖·‖₁.
func softThreshold(v []float64, t float64, out []float64) {
	for j, a := range v {
		out[j] = math.Copysign(math.Max(math.Abs(a)-t, 0), a)
	}
}

// KKT returns the optimality residual of x for the central problem: ‖∇F(x)‖
// for a smooth model, the prox-gradient fixed-point residual
// ‖x − prox_{t·r₁}(x − t∇F(x))‖/t with t = 1/(L + ρ) for a composite one
// (r₁ the ℓ1 part of r).
func (m *Model) KKT(x []float64) float64 {
	f := m.central()
	if m.r != nil {
		l1 := m.r.L1
		t := 1 / (m.lip + m.r.L2)
		return learn.Residual(f, func(v []float64, t float64, out []float64) { softThreshold(v, t*l1, out) }, t, x)
	}
	g := make([]float64, len(x))
	f(x, g)
	return learn.Norm(g)
}
