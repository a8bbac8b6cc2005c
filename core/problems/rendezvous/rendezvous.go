// Package rendezvous holds the optimal rendezvous problem of the GT-DP
// paper (Sec. 5.1, after Huang, Mitra and Vaidya 2015) and its factory.
package rendezvous

import (
	"fmt"
	"math"
	"math/rand/v2"

	"dpsim/core/check"
	"dpsim/core/objective"
)

// Rendezvous is the optimal rendezvous problem of the GT-DP paper
// (Sec. 5.1, after Huang, Mitra and Vaidya 2015): agent i holds a private
// target a_i and f_i(x) = ‖x − a_i‖². The network minimises the average
// (1/n)·Σ_i f_i(x), whose minimiser is the centroid of the targets.
//
// The paper prints one common target a for every agent, which makes the
// optimum trivial; dpsim's default gives every agent its own target (the
// spec's "heterogeneous" mode), and a scenario may pin the targets.
type Rendezvous struct {
	dim     int
	targets []float64 // agent-major
	opt     []float64
	radius  float64 // of the domain X = {‖x‖ ≤ radius}; 0: none
	amax    float64 // the largest norm of an admissible target
	c       float64 // the gradient bound over X
}

// field names the targets in errors.
const field = "problem.params.targets"

// New returns the problem with the given targets (one row per agent, all
// of the same length).
func New(targets [][]float64) (*Rendezvous, error) {
	if len(targets) == 0 {
		return nil, check.Errorf(field, "must list one target per agent (got none)")
	}
	d := len(targets[0])
	if d < 1 {
		return nil, check.Errorf(check.Index(field, 0), "must have at least one coordinate")
	}
	p := &Rendezvous{dim: d, targets: make([]float64, 0, len(targets)*d), opt: make([]float64, d)}
	for i, a := range targets {
		if len(a) != d {
			return nil, check.Errorf(check.Index(field, i), "has %d coordinates; every target must have %d", len(a), d)
		}
		if err := check.AllFinite(check.Index(field, i), a); err != nil {
			return nil, err
		}
		p.targets = append(p.targets, a...)
	}
	n := float64(len(targets))
	for i := range targets {
		for j, v := range targets[i] {
			p.opt[j] += v / n
		}
	}
	return p, nil
}

// RandomTargets draws n targets uniformly in the box [−half, half]^dim.
func RandomTargets(n, dim int, half float64, r *rand.Rand) [][]float64 {
	t := make([][]float64, n)
	for i := range t {
		t[i] = make([]float64, dim)
		for j := range t[i] {
			t[i][j] = half * (float64(2*float64(r.Float64())) - 1)
		}
	}
	return t
}

// Kind implements objective.Problem.
func (p *Rendezvous) Kind() string { return "rendezvous" }

// Agents implements objective.Problem.
func (p *Rendezvous) Agents() int { return len(p.targets) / p.dim }

// Dim implements objective.Problem.
func (p *Rendezvous) Dim() int { return p.dim }

// Target returns agent i's target a_i.
func (p *Rendezvous) Target(i int) []float64 { return p.targets[i*p.dim : (i+1)*p.dim] }

// Targets returns a copy of every target, one row per agent.
func (p *Rendezvous) Targets() [][]float64 {
	out := make([][]float64, p.Agents())
	for i := range out {
		out[i] = append([]float64(nil), p.Target(i)...)
	}
	return out
}

// Value implements objective.Problem: f_i(x) = ‖x − a_i‖².
func (p *Rendezvous) Value(i int, x []float64) float64 {
	a := p.Target(i)
	s := 0.0
	for j, v := range x {
		d := v - a[j]
		s += float64(d * d)
	}
	return s
}

// Grad implements objective.Problem: ∇f_i(x) = 2(x − a_i).
func (p *Rendezvous) Grad(i int, x, out []float64) {
	a := p.Target(i)
	for j, v := range x {
		out[j] = 2 * (v - a[j])
	}
}

// GradAll implements objective.Batch: ∇f_i(x_i) = 2(x_i − a_i) for every
// agent at once.
func (p *Rendezvous) GradAll(x, out []float64) {
	a := p.targets[:len(x)]
	out = out[:len(x)]
	for j, v := range x {
		out[j] = 2 * (v - a[j])
	}
}

// Objective implements objective.Problem: (1/n)·Σ_i ‖x − a_i‖².
func (p *Rendezvous) Objective(x []float64) float64 {
	n := p.Agents()
	s := 0.0
	for i := range n {
		s += p.Value(i, x)
	}
	return s / float64(n)
}

// Optimum implements objective.Problem: the centroid of the targets.
func (p *Rendezvous) Optimum() []float64 { return append([]float64(nil), p.opt...) }

// SetDomain restricts the problem to X = {‖x‖₂ ≤ radius}, where every
// admissible target has norm at most amax, so that ‖∇f_i(x)‖ =
// 2‖x − a_i‖ ≤ 2(radius + amax) on X. The optimum (the centroid) must lie
// in X; if it does not, it is projected, which is the constrained
// minimiser of a sum of squared distances.
func (p *Rendezvous) SetDomain(radius, amax float64) {
	p.radius, p.amax = radius, amax
	p.c = 2 * (radius + amax)
	p.Project(p.opt)
}

// HasDomain implements objective.Bounded.
func (p *Rendezvous) HasDomain() bool { return p.radius > 0 }

// GradientBound implements objective.Lipschitz: on the domain,
// ‖∇f_i(x)‖ = 2‖x − a_i‖ ≤ 2(R + a_max) for every admissible target. Without
// a domain the gradients are unbounded and there is none.
func (p *Rendezvous) GradientBound() (objective.Bound, bool) {
	if p.radius == 0 {
		return objective.Bound{}, false
	}
	return objective.Bound{Value: p.c,
		Source: fmt.Sprintf("2(R + a_max) = 2(%g + %.6g), R the radius of the domain ‖x‖ ≤ R, a_max the largest admissible ‖a_i‖", p.radius, p.amax)}, true
}

// Project implements objective.Bounded: the projection onto the ball.
func (p *Rendezvous) Project(x []float64) {
	if p.radius == 0 {
		return
	}
	s := 0.0
	for _, v := range x {
		s += float64(v * v)
	}
	if s <= p.radius*p.radius {
		return
	}
	f := p.radius / math.Sqrt(s)
	for i := range x {
		x[i] *= f
	}
}

// Smoothness implements objective.Smooth: L = μ = 2: every f_i is 2-strongly convex and
// 2-smooth.
func (p *Rendezvous) Smoothness() (mu, l float64) { return 2, 2 }

// SmoothnessSource implements objective.SmoothSource.
func (p *Rendezvous) SmoothnessSource() string {
	return "∇²f_i = 2I: μ = L = 2 for every target"
}

// Points implements objective.Planar: the targets when Dim = 2, and nil
// in any other dimension, where the rendezvous is not planar (its first
// two coordinates would be a projection, not the problem).
func (p *Rendezvous) Points() [][2]float64 {
	if p.dim != 2 {
		return nil
	}
	pts := make([][2]float64, p.Agents())
	for i := range pts {
		a := p.Target(i)
		pts[i] = [2]float64{a[0], a[1]}
	}
	return pts
}

var (
	_ objective.Problem      = (*Rendezvous)(nil)
	_ objective.SmoothSource = (*Rendezvous)(nil)
	_ objective.Planar       = (*Rendezvous)(nil)
	_ objective.Bounded      = (*Rendezvous)(nil)
	_ objective.Lipschitz    = (*Rendezvous)(nil)
	_ objective.Batch        = (*Rendezvous)(nil)
)
