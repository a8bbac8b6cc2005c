// Package ridge holds the distributed ridge regression of the GT-DP paper
// (Xuan & Wang, Sec. 5.2, after Pu 2020) and its factory: agent i holds
// one sample (u_i, v_i) and f_i(x) = (u_iᵀx − v_i)² + ρ‖x‖².
package ridge

import (
	"math"

	"dpsim/core/check"
	"dpsim/core/objective"
)

// Ridge is the ridge regression problem: the network minimises
// (1/n)·Σ_i f_i(x) with f_i(x) = (u_iᵀx − v_i)² + ρ‖x‖².
//
// Its minimiser is x* = (Σ_i u_iu_iᵀ + nρI)⁻¹·Σ_i u_i·v_i. The paper prints
// Σ_i u_iu_iᵀx̃_i in place of Σ_i u_i·v_i, which drops the output noise ζ_i
// of v_i = u_iᵀx̃_i + ζ_i and is not the minimiser (spec §5.6; with
// ζ ~ N(0, 25²) the two differ completely).
type Ridge struct {
	dim      int
	penalty  float64
	features []float64 // u_i, agent-major
	outputs  []float64 // v_i
	opt      []float64
	l        float64
}

// Fields named in errors.
const (
	fieldFeatures = "problem.params.features"
	fieldOutputs  = "problem.params.outputs"
)

// New returns the problem with one sample per agent: features[i] = u_i
// (all of one length), outputs[i] = v_i, and penalty ρ > 0.
func New(features [][]float64, outputs []float64, penalty float64) (*Ridge, error) {
	n := len(features)
	if n == 0 {
		return nil, check.Errorf(fieldFeatures, "must list one feature vector per agent (got none)")
	}
	if len(outputs) != n {
		return nil, check.Errorf(fieldOutputs, "must list one output per agent: %d, got %d", n, len(outputs))
	}
	if err := check.AllFinite(fieldOutputs, outputs); err != nil {
		return nil, err
	}
	if !(penalty > 0) || math.IsInf(penalty, 0) {
		return nil, check.Errorf("problem.params.penalty", "must be a finite number > 0 so that every f_i is strongly convex (got %v)", penalty)
	}
	d := len(features[0])
	if d < 1 || d > MaxDim {
		return nil, check.Errorf(check.Index(fieldFeatures, 0), "must have 1 to %d coordinates (got %d)", MaxDim, d)
	}
	r := &Ridge{dim: d, penalty: penalty, outputs: append([]float64(nil), outputs...)}
	for i, u := range features {
		if len(u) != d {
			return nil, check.Errorf(check.Index(fieldFeatures, i), "has %d coordinates; every feature vector must have %d", len(u), d)
		}
		if err := check.AllFinite(check.Index(fieldFeatures, i), u); err != nil {
			return nil, err
		}
		r.features = append(r.features, u...)
		r.l = math.Max(r.l, 2*(dot(u, u)+penalty))
	}
	opt, err := r.solve()
	if err != nil {
		return nil, err
	}
	r.opt = opt
	return r, nil
}

// MaxDim bounds the dimension: the optimum is a dense d×d solve.
const MaxDim = 500

// solve returns x* = (Σ u_iu_iᵀ + nρI)⁻¹ Σ u_i v_i by a Cholesky
// factorisation (the matrix is symmetric positive definite, ρ > 0).
func (r *Ridge) solve() ([]float64, error) {
	d, n := r.dim, r.Agents()
	m := make([]float64, d*d)
	rhs := make([]float64, d)
	for i := range n {
		u := r.Feature(i)
		for a := range d {
			rhs[a] += float64(u[a] * r.outputs[i])
			for b := range d {
				m[a*d+b] += float64(u[a] * u[b])
			}
		}
	}
	for a := range d {
		m[a*d+a] += float64(float64(n) * r.penalty)
	}
	// m = G·Gᵀ, G lower triangular, stored in m.
	for j := range d {
		s := m[j*d+j]
		for k := range j {
			s -= float64(m[j*d+k] * m[j*d+k])
		}
		if !(s > 0) {
			return nil, check.Errorf("problem.params", "Σ u_iu_iᵀ + nρI is not positive definite (numerically): lower the features' size or raise the penalty")
		}
		m[j*d+j] = math.Sqrt(s)
		for i := j + 1; i < d; i++ {
			s := m[i*d+j]
			for k := range j {
				s -= float64(m[i*d+k] * m[j*d+k])
			}
			m[i*d+j] = s / m[j*d+j]
		}
	}
	x := rhs
	for i := range d { // G y = rhs
		s := x[i]
		for k := range i {
			s -= float64(m[i*d+k] * x[k])
		}
		x[i] = s / m[i*d+i]
	}
	for i := d - 1; i >= 0; i-- { // Gᵀ x = y
		s := x[i]
		for k := i + 1; k < d; k++ {
			s -= float64(m[k*d+i] * x[k])
		}
		x[i] = s / m[i*d+i]
	}
	return x, nil
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i, v := range a {
		s += float64(v * b[i])
	}
	return s
}

// Kind implements objective.Problem.
func (r *Ridge) Kind() string { return "ridge" }

// Agents implements objective.Problem.
func (r *Ridge) Agents() int { return len(r.outputs) }

// Dim implements objective.Problem.
func (r *Ridge) Dim() int { return r.dim }

// Feature returns u_i (aliasing the problem's data).
func (r *Ridge) Feature(i int) []float64 { return r.features[i*r.dim : (i+1)*r.dim] }

// Output returns v_i.
func (r *Ridge) Output(i int) float64 { return r.outputs[i] }

// Penalty returns ρ.
func (r *Ridge) Penalty() float64 { return r.penalty }

// Value implements objective.Problem: f_i(x) = (u_iᵀx − v_i)² + ρ‖x‖².
func (r *Ridge) Value(i int, x []float64) float64 {
	e := dot(r.Feature(i), x) - r.outputs[i]
	return float64(e*e) + float64(r.penalty*dot(x, x))
}

// Grad implements objective.Problem: ∇f_i(x) = 2u_i(u_iᵀx − v_i) + 2ρx.
func (r *Ridge) Grad(i int, x, out []float64) {
	u := r.Feature(i)
	e := 2 * (dot(u, x) - r.outputs[i])
	for c, v := range x {
		out[c] = float64(e*u[c]) + float64(2*r.penalty*v)
	}
}

// Objective implements objective.Problem: (1/n)·Σ_i f_i(x).
func (r *Ridge) Objective(x []float64) float64 {
	s := 0.0
	for i := range r.Agents() {
		s += r.Value(i, x)
	}
	return s / float64(r.Agents())
}

// Optimum implements objective.Problem: (Σ u_iu_iᵀ + nρI)⁻¹ Σ u_i v_i.
func (r *Ridge) Optimum() []float64 { return append([]float64(nil), r.opt...) }

// Smoothness implements objective.Smooth: every f_i is 2ρ-strongly convex
// and L-smooth with L = max_i 2(‖u_i‖² + ρ).
func (r *Ridge) Smoothness() (mu, l float64) { return 2 * r.penalty, r.l }

// SmoothnessSource implements objective.SmoothSource.
func (r *Ridge) SmoothnessSource() string {
	return "μ = 2ρ; L = max_i 2(‖u_i‖² + ρ), from the samples"
}

var (
	_ objective.Problem      = (*Ridge)(nil)
	_ objective.SmoothSource = (*Ridge)(nil)
)
