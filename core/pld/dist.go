package pld

import (
	"math"
	"math/bits"
	"sync"

	"dpsim/core/num"
)

// dist is a discretized privacy loss distribution: under the first
// distribution P of the pair, the loss offset + (lo+i)·h has probability
// p[i], and +∞ has probability inf. The offset is kept apart from the grid
// index so that each release's grid can sit on its own largest loss (the
// Laplace mechanism's atom at Δ/b is then exact) and a loss of 10⁷ keeps
// the grid's full resolution.
type dist struct {
	h      float64
	offset float64
	lo     int
	p      []float64
	inf    float64
	// The mean and variance (relative to offset) of the exact algorithm's
	// finite part, normalized, and a scale b such that every composed
	// release's loss X has E|X − EX|^k ≤ ½·k!·Var X·b^{k−2} for all k ≥ 2:
	// Bernstein's inequality then bounds the tails, whatever rounding
	// left in them (cut).
	mean, vari, b float64
	// noise is the rounding the transform left at each point (measured:
	// composeParts), 0 for a distribution discretized directly.
	noise float64
	// store holds p's whole backing array when it came from the window
	// pool (composeParts), so that release can return it; nil otherwise.
	store *[]float64
}

// windows pools composed distributions' values by size class (the
// power of two at or above their length): a ledger's Bounds composes
// three distributions of up to 2¹⁵ points per agent, 20 MB per call for
// 50 agents that js/wasm's collector paid for. Every value of a window
// is written before it is read (inverseBand), so a reused one needs no
// clearing and the bits are those of a new one.
var windows [64]sync.Pool

// getWindow returns a slice of w values from the pool (their contents
// arbitrary) and the pointer release returns it by.
func getWindow(w int) ([]float64, *[]float64) {
	k := bits.Len(uint(max(w, 1) - 1))
	if b, ok := windows[k].Get().(*[]float64); ok {
		return (*b)[:w], b
	}
	b := make([]float64, 1<<k)
	return b[:w], &b
}

// release returns d's values to the window pool, if they came from it;
// d must not be read after.
func (d *dist) release() {
	if d == nil || d.store == nil {
		return
	}
	k := bits.Len(uint(cap(*d.store) - 1))
	windows[k].Put(d.store)
	d.p, d.store = nil, nil
}

// resolved returns the smallest δ that d resolves: at δ ≥ resolveShare⁻¹·
// noise·len(p), the rounding at its points, added over them all, moves
// δ(ε) by at most resolveShare of δ; below, the pessimistic reading (at)
// keeps ε above the exact value, but the rounding's share of its error may
// pass resolveShare.
func (d *dist) resolved() float64 {
	return d.noise * float64(len(d.p)) / resolveShare
}

// resolveShare is the share of δ the rounding may move δ(ε) by at a δ the
// distribution resolves.
const resolveShare = 0.01

// loss returns the loss of p[i] relative to the offset.
func (d *dist) loss(i int) float64 { return float64(float64(d.lo+i) * d.h) }

// reach is the distance t from the mean beyond which Bernstein's
// inequality bounds each tail of d's exact finite part by tail:
// P(S − E S ≥ t) ≤ exp(−t²/(2(σ² + b·t))) for a sum of independent terms
// meeting the moment condition of d.b (Boucheron, Lugosi & Massart 2013,
// Theorem 2.10 and Corollary 2.11).
func (d *dist) reach(tail float64) float64 {
	l := -num.Log(tail)
	a := float64(l * d.b)
	return a + math.Sqrt(float64(a*a)+float64(2*float64(l*d.vari)))
}

// cut drops the points beyond reach(tail) on either side, adding tail to
// +∞ for each side that lost any. The exact algorithm's mass there is at
// most tail (Bernstein), so δ(ε) stays an upper bound, and what the
// transform's rounding left there (values of 10⁻¹⁹ of the total, which no
// cut by the computed sums could remove) goes. What is kept is a part of
// the exact algorithm's law, so later bounds from its mean and variance
// still hold.
func (d *dist) cut(tail float64) {
	t := d.reach(tail)
	lo, hi := 0, len(d.p)
	// Indices as floats first: a reach of many grid steps must not wrap.
	if a := math.Ceil((d.mean-t)/d.h) - float64(d.lo); a > 0 {
		lo = int(min(a, float64(hi)))
	}
	if b := math.Floor((d.mean+t)/d.h) - float64(d.lo) + 1; b < float64(hi) {
		hi = int(max(b, 0))
	}
	// Zeros at the ends go too (they cost nothing).
	for lo < hi && d.p[lo] == 0 {
		lo++
	}
	for hi > lo && d.p[hi-1] == 0 {
		hi--
	}
	if lo > 0 {
		d.inf += dropped(d.p[:lo], tail)
	}
	if hi < len(d.p) {
		d.inf += dropped(d.p[hi:], tail)
	}
	if lo >= hi {
		// Nothing finite is left (every release's loss is infinite).
		d.p, d.lo = d.p[:0], 0
		return
	}
	d.p = d.p[lo:hi]
	d.lo += lo
}

// dropped is what a cut adds to +∞ for the values v it removes: tail, or
// their sum if they hold more (a cut that Bernstein did not call for, at
// a zero run, holds nothing).
func dropped(v []float64, tail float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	if s == 0 {
		return 0
	}
	return max(s, tail)
}

// setStats sets d's mean, variance and range from its own points (a
// discretized release, before any rounding of a transform).
func (d *dist) setStats() {
	var m0, m1 float64
	for i, v := range d.p {
		m0 += v
		m1 += float64(v * d.loss(i))
	}
	if m0 == 0 {
		return
	}
	d.mean = m1 / m0
	var m2 float64
	for i, v := range d.p {
		x := d.loss(i) - d.mean
		m2 += float64(v * float64(x*x))
	}
	d.vari = m2 / m0
	d.b = d.momentScale(m0)
}

// gaussStats sets the mean of d, the discretized loss of a Gaussian
// release of parameter mu, from its points, and a variance and moment
// scale that meet Bernstein's condition without summing its moments
// (momentScale's cost on a leaf of thousands of points): the discretized
// loss X′ is within h of the normal loss X of deviation σ = mu (its
// tails only move nearer the mean or to +∞), so by Minkowski's inequality
// ‖X′ − EX′‖_k ≤ σ·‖Z‖_k + 2h ≤ (σ + 2h)·‖Z‖_k, and E|Z|^k ≤ ½·k! for
// k ≥ 2: Var and b both (σ + 2h), squared for the variance.
func (d *dist) gaussStats(mu float64) {
	var m0, m1 float64
	for i, v := range d.p {
		m0 += v
		m1 += float64(v * d.loss(i))
	}
	d.mean = m1 / m0
	s := mu + 2*d.h
	d.vari, d.b = s*s, s
}

// momentScale returns the smallest b with E|X − μ|^k ≤ ½·k!·σ²·b^{k−2}
// for every k ≥ 3. A loss within R of its mean meets it with b = R/3
// (Bernstein's bounded case), which is what a short release gets; but a
// Laplace release far above the truncation depth has R = 92 and a tail
// like an exponential of scale 2, so b ≈ 2, and the windows of its
// compositions shrink several times over. Once (R/b)^{k−2} ≤ ½k! and
// R/b ≤ k+1, the condition holds for every larger k by E|X−μ|^k ≤
// R^{k−2}σ² alone (induction on k); up to there the moments are summed.
func (d *dist) momentScale(m0 float64) float64 {
	r := max(d.mean-d.loss(0), d.loss(len(d.p)-1)-d.mean, 0)
	if r == 0 || d.vari == 0 || len(d.p) < 16 {
		return r / 3
	}
	// ln(|x − μ|/R) ≤ 0, so no power below overflows.
	lr := num.Log(r)
	ld := make([]float64, len(d.p))
	for i := range d.p {
		ld[i] = num.Log(math.Abs(d.loss(i)-d.mean)) - lr
	}
	rhs0 := num.Log(d.vari) - math.Ln2 // ln(σ²/2)
	lnFact := math.Ln2                 // ln k! at k = 2
	b := 0.0
	for k := 3; ; k++ {
		fk := float64(k)
		lnFact += num.Log(fk)
		var s float64
		for i, v := range d.p {
			if v > 0 {
				s += float64(v * num.Exp(float64(fk*ld[i])))
			}
		}
		lnMoment := num.Log(s/m0) + float64(fk*lr)
		b = max(b, num.Exp((lnMoment-lnFact-rhs0)/(fk-2)))
		if b >= r/3 {
			return r / 3
		}
		if float64((fk-2)*(lr-num.Log(b))) <= lnFact-math.Ln2 && r/b <= fk+1 {
			return b
		}
	}
}

// cpow returns (re + i·im)^k by repeated squaring, each product rounded
// before its addition.
func cpow(re, im float64, k int64) (float64, float64) {
	rr, ri := 1.0, 0.0
	for {
		if k&1 == 1 {
			rr, ri = float64(rr*re)-float64(ri*im), float64(rr*im)+float64(ri*re)
		}
		k >>= 1
		if k == 0 {
			return rr, ri
		}
		re, im = float64(re*re)-float64(im*im), 2*float64(re*im)
	}
}

// delta returns the hockey-stick divergence δ(ε) = P(L = ∞) +
// E_P[(1 − e^{ε−L})₊] of the distribution: the smallest δ for which the
// pair is (ε, δ)-indistinguishable in this direction, each mass read at
// side (at).
func (d *dist) delta(eps, side float64) float64 {
	e := eps - d.offset
	s := d.inf
	for i := len(d.p) - 1; i >= 0; i-- {
		x := d.loss(i)
		if x <= e {
			break
		}
		s += float64(d.at(i, side) * -expm1(e-x))
	}
	return min(s, 1)
}

// Sides of a query (at): the masses moved by the transform's rounding
// (noise) to the bound's side, or the other.
const (
	pessimistic = 1
	optimistic  = -1
)

// at returns p[i] moved by side·noise, at least 0: the exact
// discretized mass lies between its optimistic and pessimistic readings,
// so δ(ε) read pessimistically stays above the exact one however small δ
// is (at δ near the rounding summed over the points, a reading as
// computed fell below it: Bound.Resolved).
func (d *dist) at(i int, side float64) float64 {
	// A comparison, not max (a call under js/wasm); −0 becomes +0 as there.
	if v := d.p[i] + float64(side*d.noise); v > 0 {
		return v
	}
	return 0
}

// epsilon returns the smallest ε ≥ 0 with delta(ε) ≤ delta, relative to
// the offset (so that a loss beyond float64 still has its correction), and
// whether one exists: none does when the mass at +∞ exceeds delta. Each
// mass is read at side (at).
//
// Between two grid losses x_{i−1} < ε ≤ x_i, δ(ε) = U_i − e^{ε−x_i}·R_i
// with U_i = P(L = ∞) + Σ_{j≥i} p_j and R_i = Σ_{j≥i} p_j e^{x_i−x_j}, so ε
// solves that equation exactly in the interval where δ crosses the
// target (dp_accounting's _get_epsilon_for_delta, with R kept relative to
// the current loss so that nothing overflows).
func (d *dist) epsilon(delta, side float64) (rel float64, ok bool) {
	if d.inf > delta {
		return math.Inf(1), false
	}
	eh := num.Exp(-d.h)
	u, r := d.inf, 0.0
	for i := len(d.p) - 1; i >= 0; i-- {
		p := d.at(i, side)
		u += p
		r = p + float64(eh*r)
		// δ at the next grid loss down, x_{i−1} = x_i − h.
		if i == 0 || u-float64(eh*r) > delta {
			if r == 0 || u <= delta {
				// δ(ε) ≤ delta for every ε: the pair is never told apart
				// beyond delta.
				return math.Inf(-1), true
			}
			return d.loss(i) + num.Log((u-delta)/r), true
		}
	}
	return math.Inf(-1), true // no mass at all
}
