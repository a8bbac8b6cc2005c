package pld

import (
	"math"

	"dpsim/core/num"
)

// law is the privacy loss of one release, as the accountant discretizes
// it. A new mechanism (a subsampled one, say) is one more law: its
// connect-the-dots discretization, and the variance and width that size
// the grid.
type law interface {
	// discretize returns the pessimistic connect-the-dots distribution of
	// the loss on a grid of step h: a distribution whose hockey-stick
	// curve δ(ε) is the true one at every grid loss and above it between
	// (Doroshenko, Ghazi, Kamath, Kumar & Manurangsi 2022, "Connect the
	// dots", Algorithm 1), with tail masses of at most tail moved up. It
	// returns nil when that needs more than maxPoints points.
	discretize(h, tail float64) *dist
	// variance is the variance of the loss under P.
	variance() float64
	// width is the length of the interval holding the loss's mass but
	// tail (what one release adds to the composition's support).
	width(tail float64) float64
}

// maxPoints bounds one discretized distribution (8 MiB of float64s; a
// convolution's transform of twice that length uses 32 MiB more).
const maxPoints = 1 << 20

// A split of mass: connect-the-dots puts a loss x between grid losses
// a < x ≤ a+h as the two point masses that keep both the P-mass and the
// Q-mass E_P[e^{−L}]: the share (1 − e^{a−x})/(1 − e^{−h}) at a+h and the
// rest at a. Summed over a law, that is the distribution whose δ(ε)
// agrees with the law's at every grid loss and is linear in e^ε between,
// a chord of a convex function and so above it.

// laplace is the loss of the Laplace mechanism with ε = Δ/b: the noise
// o ~ Lap(0, b), the neighbour shifted by Δ, L = (|o−Δ| − |o|)/b. Under P
// it has an atom ½ at ε, an atom ½e^{−ε} at −ε and the density
// ¼e^{(L−ε)/2} between: in x = L − ε ∈ [−2ε, 0], ¼e^{x/2}.
type laplace struct{ eps float64 }

func (l laplace) variance() float64 {
	// L = ε − 2U with U = min(max(o/b, 0), ε): E[U] = (1 − e^{−ε})/2,
	// E[U²] = 1 − (1+ε)e^{−ε}; for small ε the series ε² − ε³/3.
	e := l.eps
	if e < 1e-4 {
		return float64(e*e) * (1 - e/3)
	}
	m := -0.5 * expm1(-e)
	return 4 * (-expm1(-e) - float64(e*num.Exp(-e)) - float64(m*m))
}

// depth is how far below its largest loss the Laplace loss keeps all but
// tail of its mass: P(x < −T) = ½e^{−T/2}.
func laplaceDepth(t float64) float64 {
	if t == tail {
		return tailDepth // once: the groups' loops ask for it per group
	}
	return -2 * num.Log(2*t)
}

// tailDepth is laplaceDepth(tail).
var tailDepth = -2 * num.Log(2*tail)

func (l laplace) width(tail float64) float64 { return min(2*l.eps, laplaceDepth(tail)) }

func (l laplace) discretize(h, tail float64) *dist {
	p, ok := l.parts(h, tail)
	if !ok {
		return nil
	}
	return p.dist(h)
}

// gauss is the loss of the Gaussian mechanism with μ = Δ/σ: under P it is
// N(μ²/2, μ²), and under Q, whose density is e^{−L} times P's,
// N(−μ²/2, μ²).
type gauss struct{ mu float64 }

func (g gauss) variance() float64 { return g.mu * g.mu }

// gaussDepth is the number of standard deviations beyond which the
// normal law has less than tail/2 in each tail: Φc(z) ≤ ½e^{−z²/2}.
func gaussDepth(tail float64) float64 { return math.Sqrt(-2 * num.Log(tail)) }

func (g gauss) width(tail float64) float64 { return float64(2 * gaussDepth(tail) * g.mu) }

func (g gauss) discretize(h, tail float64) *dist {
	mu := g.mu
	z := gaussDepth(tail)
	jf := math.Ceil(z * mu / h)
	if 2*jf+1 > maxPoints {
		return nil
	}
	n := int(jf)
	// Grid losses μ²/2 + j·h, j = −n…n; u_j = j·h/μ the standardized loss.
	d := &dist{h: h, offset: mu * mu / 2, lo: -n, p: make([]float64, 2*n+1)}
	eh := -expm1(-h)
	// For an interval [x_a, x_b] of P's law: A = P(I) and
	// B = ∫_I e^{x_a−x} dP = t(u_a) − e^{−h}·t(u_b) with
	// t(u) = e^{x}·Q(L > x) = φ(u)·R(u+μ), R the Mills ratio.
	tail2 := func(u float64) float64 {
		v := u + mu
		if v >= 0 {
			return float64(normDensity(u) * mills(v))
		}
		return num.Exp(float64(mu*u)+d.offset) * normTail(v)
	}
	ehh := num.Exp(-h)
	prevU := float64(-n) * h / mu
	prevT := tail2(prevU)
	for j := -n; j < n; j++ {
		ua, ub := float64(j)*h/mu, float64(j+1)*h/mu
		var mass float64
		if ua >= 0 {
			mass = normTail(ua) - normTail(ub)
		} else {
			mass = normTail(-ub) - normTail(-ua)
		}
		tb := tail2(ub)
		up := (mass - (prevT - float64(ehh*tb))) / eh
		up = min(max(up, 0), mass)
		d.p[j+n] += mass - up
		d.p[j+n+1] += up
		prevU, prevT = ub, tb
	}
	_ = prevU
	// Below the grid, all mass moves up to its first loss; above it, all
	// mass goes to +∞ (not split: simpler, and at most tail/2 more).
	d.p[0] += normTail(float64(n) * h / mu)
	d.inf = normTail(float64(n) * h / mu)
	return d
}
