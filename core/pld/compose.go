package pld

import (
	"fmt"
	"math"
	"slices"

	"dpsim/core/num"
)

// Options tunes the accountant; the zero value chooses everything.
type Options struct {
	// Grid fixes the step h of the loss grid. By default it is chosen from
	// the releases (gridFor) and refined until Bound.Error is at most
	// Tolerance of ε.
	Grid float64
	// Tolerance is the default grid's aim for Bound.Error relative to ε,
	// in [10⁻⁶, 0.1]; 0 means 10⁻³. The cost grows about as its inverse
	// square root (the error shrinks as the grid's square).
	Tolerance float64
}

// validate checks the options, naming the field.
func (o Options) validate() error {
	if g := o.Grid; g != 0 && !(g > 0 && g < math.Inf(1)) {
		return fmt.Errorf("grid: must be > 0 and finite (0 to choose it), got %v", g)
	}
	if t := o.Tolerance; t != 0 && !(t >= 1e-6 && t <= 0.1) {
		return fmt.Errorf("tolerance: must be in [1e-06, 0.1] (0 for 1e-03), got %v", t)
	}
	return nil
}

// Methods, as Bound.Method names them.
const (
	MethodSilent   = "no release depends on the agent's data"
	MethodNoNoise  = "a release without noise: no finite bound"
	MethodGaussian = "Gaussian closed form"
	MethodPLD      = "privacy loss distribution (connect the dots)"
	MethodBeyond   = "beyond float64: the composition's largest loss"
	MethodPure     = "pure DP (δ = 0): the composition's largest loss"
	MethodBasic    = "basic composition (Σ ε_k): below the grid's bound here"
)

// MinDelta is the smallest δ the accountant answers for: the tails it
// cuts add at most 10⁻²⁰ each to δ, far below it.
const MinDelta = 1e-12

// tail is the mass each cut of a tail may drop (counted at +∞): with at
// most a few thousand cuts per composition, 10⁻¹⁶ of δ in all.
const tail = 1e-20

// The default grid (gridFor, Composition): it starts at h = kappa·√(Σ Var
// L_k / K), a fortieth of a typical release's loss deviation (every
// release's lower atom is split, and a finer grid costs the Fourier
// composition little: composeParts), or at kappaAligned when the lower
// atoms of the Laplace releases are on the grid (measured: TestAccuracy),
// and is halved up to maxRefine times until the grid's error estimate at
// refDelta is at most gridShare·tol of ε (target is the default
// Options.Tolerance).
const (
	kappa        = 0.025
	kappaAligned = 0.3
	target       = 1e-3
	refDelta     = 1e-6
	maxRefine    = 4
)

// Composition is the composed privacy loss of a sequence of releases
// (Koskela, Jälkö & Honkela 2020; Gopi, Lee & Wutschitz 2021; Google's
// dp_accounting): all an accountant needs to answer ε(δ) and δ(ε) for
// one agent.
type Composition struct {
	releases int64
	method   string
	// mu is the GDP parameter when every release is Gaussian.
	mu float64
	// log10 is log₁₀ ε when ε is beyond float64.
	log10 float64
	// pure is the largest loss, Σ ε_k (+Inf with a Gaussian part): ε at
	// δ = 0, which basic composition gives exactly for Laplace releases.
	pure float64
	// pureUp is pure rounded up past its summation's rounding: a bound at
	// every δ, which the grid's rounding up of many small releases can
	// pass (Epsilon, Delta).
	pureUp float64
	// fine and coarse are the distributions on the grid h and on 2h:
	// both upper bounds, and their difference estimates the error.
	fine, coarse *dist
	// down is the composition with every bucket rounded down
	// (laplaceGroups), nil when no bucket rounded, and up the one rounded
	// up on the same grid (the first coarse one, which the default grid
	// starts from): up − down is what the rounding cost.
	up, down *dist
}

// Bound is an upper bound on ε at a given δ.
type Bound struct {
	// Epsilon is the bound: +Inf when there is none, or when it is beyond
	// float64 (then Log10 holds it).
	Epsilon float64
	// Log10 is log₁₀ Epsilon: −Inf for 0, +Inf when there is no bound.
	Log10 float64
	Delta float64
	// Error estimates the discretization error of Epsilon, in ε: twice
	// the bound on twice the grid minus this one. Both are upper bounds;
	// as long as the error shrinks at least as fast as the grid (it
	// shrinks as its square away from the largest loss, and linearly just
	// below it), the difference alone covers it, and the factor 2 is the
	// margin, so that the exact ε lies in [Epsilon − Error, Epsilon]
	// (TestAccuracy checks it against the references). For the Gaussian
	// closed form, the width of the bisection's last bracket. It adds
	// what the transform's rounding may have moved ε (Resolved) and, for
	// bucketed releases, what rounding them cost.
	Error float64
	// Grid is the step of the loss grid (0 for the closed forms).
	Grid float64
	// Method says how the bound was computed (the Method constants).
	Method string
	// Resolved is the smallest δ the discretization resolves: below it,
	// the transform's rounding (measured on the composed distribution),
	// added over its points, may move δ(ε) by more than 1 % of δ. Every
	// query reads the masses moved up by that rounding, so Epsilon stays
	// above the exact ε there too (read as computed, it fell below at
	// δ = 10⁻¹²: TestAccuracy), and Error includes it, so that it may
	// pass 1 % of ε. 0 for the closed forms.
	Resolved float64
}

// group is Count releases of one Laplace law (the Gaussian part is
// composed apart; held as a value, not a law, so that a grouping boxes
// none per bucket); extra is added to their composition's losses (Laplace
// releases above the truncation depth share one shape and differ only by
// where it sits). A bucket of distinct Laplace releases (laplaceGroups) is
// composed as Count releases of its largest ε, and down is its smallest:
// the same bucket rounded the other way, a lower bound that measures what
// the rounding cost (0 when the bucket holds one ε).
type group struct {
	law   laplace
	count int64
	extra float64
	down  float64
	// eme is e^{−ε} of law, 0 until build computes it.
	eme float64
}

// Compose composes the releases (in any order: composition commutes).
func Compose(rs []Release, opt Options) (*Composition, error) {
	m := newMultiset()
	for i, r := range rs {
		if err := m.add(r, func() string { return fmt.Sprintf("releases[%d]", i) }); err != nil {
			return nil, err
		}
	}
	return m.compose(opt)
}

// multiset is a sequence of releases as composition sees it: composition
// commutes, so a count per distinct Laplace ε, and the Gaussian releases'
// Σμ² (they compose to one Gaussian release of μ = √Σμ²), plus the
// exceptions that decide the answer alone.
type multiset struct {
	// eps and count are the distinct Laplace ε in the order they first
	// came, and their counts; index finds an ε's place. Sums over them run
	// in that order, which a scenario fixes, so that the bits are the same
	// natively and in the browser without sorting ten thousand values.
	eps   []float64
	count []int64
	// logs holds ln ε of each, computed when it came (laplaceGroups
	// reads them at every composition).
	logs  []float64
	index map[float64]int
	mu2   float64
	// noNoise: a release of scale 0 (or sensitivity +Inf).
	noNoise bool
	// huge holds ln of the largest loss of each release whose Δ/scale
	// overflows float64.
	huge []float64
	n    int64
	// hash is a sum over the Laplace releases of a hash of their ε: it
	// does not depend on their order, so that equal multisets are found
	// without sorting them (Ledger).
	hash uint64
}

func newMultiset() multiset { return multiset{index: map[float64]int{}} }

// add records r, naming field() in its one-line error (formatted only
// then: a ledger adds a release per agent and iteration, and formatting
// each name was a tenth of adding it).
func (m *multiset) add(r Release, field func() string) error {
	if r.Validate("") != nil {
		return r.Validate(field())
	}
	n := r.times()
	if m.n+n > MaxCount {
		return fmt.Errorf("%s: more than %d releases in all", field(), int64(MaxCount))
	}
	m.n += n
	v, lv := r.ratio()
	switch {
	case v == 0:
	case math.IsInf(lv, 1):
		m.noNoise = true
	case math.IsInf(v, 1) && r.Mechanism == Laplace:
		m.huge = append(m.huge, num.Log(float64(n))+lv)
	case math.IsInf(v, 1):
		m.huge = append(m.huge, num.Log(float64(n)/2)+2*lv)
	case r.Mechanism == Laplace:
		if i, ok := m.index[v]; ok {
			m.count[i] += n
		} else {
			m.index[v] = len(m.eps)
			m.eps = append(m.eps, v)
			m.logs = append(m.logs, lv)
			m.count = append(m.count, n)
		}
		m.hash += uint64(n) * mix64(math.Float64bits(v))
	default:
		m.mu2 += float64(float64(n) * float64(v*v))
	}
	return nil
}

// mix64 is SplitMix64's finaliser: a bijection spreading every bit.
func mix64(z uint64) uint64 {
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// equal reports whether m and o compose to the same distribution.
func (m *multiset) equal(o *multiset) bool {
	if m.hash != o.hash || m.mu2 != o.mu2 || m.noNoise != o.noNoise || m.n != o.n ||
		len(m.eps) != len(o.eps) || !slices.Equal(m.huge, o.huge) {
		return false
	}
	// Releases that came in the same order (agents sharing a schedule)
	// compare without a lookup.
	if slices.Equal(m.eps, o.eps) && slices.Equal(m.count, o.count) {
		return true
	}
	for i, e := range m.eps {
		if j, ok := o.index[e]; !ok || o.count[j] != m.count[i] {
			return false
		}
	}
	return true
}

// compose returns the multiset's composition.
func (m *multiset) compose(opt Options) (*Composition, error) {
	if err := opt.validate(); err != nil {
		return nil, err
	}
	tol := opt.Tolerance
	if tol == 0 {
		tol = target
	}
	c := &Composition{releases: m.n}
	switch {
	case m.noNoise:
		c.method = MethodNoNoise
		return c, nil
	case len(m.eps) == 0 && m.mu2 == 0 && len(m.huge) == 0:
		c.method = MethodSilent
		return c, nil
	}
	// The largest loss, Σ ε_k plus the Gaussian part's mean μ²/2, bounds
	// the scale of everything; beyond float64, ε is that sum to the last
	// digit that float64 could show (the correction is a few standard
	// deviations, 10⁻³⁰⁰ of it).
	top := m.mu2 / 2
	for i, e := range m.eps {
		top += float64(float64(m.count[i]) * e)
	}
	if math.IsInf(top, 1) || len(m.huge) > 0 {
		logs := slices.Clone(m.huge)
		for i, e := range m.eps {
			logs = append(logs, num.Log(float64(m.count[i]))+num.Log(e))
		}
		if m.mu2 > 0 {
			logs = append(logs, num.Log(m.mu2/2))
		}
		c.method, c.log10 = MethodBeyond, logSumExp(logs)/math.Ln10
		return c, nil
	}
	c.pure = top
	// Each of the len(m.eps) additions rounds by at most half an ulp.
	c.pureUp = top * float64(1+float64(float64(len(m.eps)+1)*0x1p-52))
	if m.mu2 > 0 {
		c.pure, c.pureUp = math.Inf(1), math.Inf(1)
	}
	if len(m.eps) == 0 {
		c.method, c.mu = MethodGaussian, math.Sqrt(m.mu2)
		return c, nil
	}
	// The work buffers of every pass (build, laplaceGroups), from the
	// pool: a ledger's agents reuse them rather than clear megabytes each
	// (every buffer is set before it is read, and u is a function of the
	// grid alone).
	cv := convolvers.Get().(*convolver)
	defer convolvers.Put(cv)
	groups := bucketsFor(m.eps, m.logs, m.count, m.mu2, tol, cv)
	gmu := math.Sqrt(m.mu2)
	if opt.Grid > 0 {
		var err error
		if c.fine, err = build(groups, gmu, opt.Grid, false, cv); err != nil {
			return nil, err
		}
		if c.coarse, err = build(groups, gmu, 2*opt.Grid, false, cv); err != nil {
			return nil, err
		}
		c.method, c.up = MethodPLD, c.coarse
		c.down, err = lowerAt(groups, gmu, 2*opt.Grid, cv)
		return c, err
	}
	// The default grid starts coarse and is halved (the previous grid
	// becoming the coarse one) until the grid's error estimate at δ = 10⁻⁶
	// is within what the rounding into buckets leaves of the tolerance
	// (gridLimit), or the distribution would outgrow maxWindow. What the
	// rounding costs is measured first, on the first coarse grid, by the
	// buckets rounded down (Composition.down) beside that grid's
	// composition rounded up (Composition.up), and kept there when the
	// grid is refined: composing them again on the final coarse grid
	// measured the same rounding once more, at the cost of a composition.
	h := gridFor(groups, gmu, top, tol)
	coarse, err := build(groups, gmu, 2*h, false, cv)
	if err != nil {
		return nil, err
	}
	down, err := lowerAt(groups, gmu, 2*h, cv)
	if err != nil {
		return nil, err
	}
	// g is the coarse grid's ε at refDelta, read once per distribution
	// (a refined grid's coarse one is the last fine one).
	g := coarse.absEpsilon(refDelta, pessimistic)
	rounding := 0.0
	if down != nil {
		rounding = max(g-down.absEpsilon(refDelta, pessimistic), 0)
		c.up, c.down = coarse, down
	}
	for range maxRefine {
		fine, err := build(groups, gmu, h, false, cv)
		if err != nil {
			return nil, err
		}
		c.fine, c.coarse = fine, coarse
		f := fine.absEpsilon(refDelta, pessimistic)
		if 2*(g-f) <= gridLimit(f, rounding, down != nil, tol) || 2*len(fine.p) > maxWindow {
			break
		}
		// The coarse grid is dropped unless it is kept as up.
		if coarse != c.up {
			coarse.release()
		}
		coarse, h, g = fine, h/2, f
	}
	c.method = MethodPLD
	return c, nil
}

// release returns c's distributions to the window pool: c must not be
// read after (Ledger.Bounds, which reads each composition once).
func (c *Composition) release() {
	if c.up != c.coarse {
		c.up.release()
	}
	c.fine.release()
	c.coarse.release()
	c.down.release()
	c.fine, c.coarse, c.up, c.down = nil, nil, nil, nil
}

// gridLimit is how large the grid's part of the error estimate, 2(g − f)
// at refDelta, may be for a bound f: gridShare·tol of it, or when buckets
// were rounded (rounded), at most what the rounding's cost leaves of
// errorShare·tol, and at least a tenth of tol (the rounding alone may
// take the tolerance, which no grid can give back).
func gridLimit(f, rounding float64, rounded bool, tol float64) float64 {
	limit := gridShare * tol * f
	if rounded {
		limit = max(min(limit, float64(errorShare*tol*f)-rounding), 0.1*tol*f)
	}
	return limit
}

// The tolerance is shared between the grid and the buckets. Buckets start
// at width bucketShare·tol; where that leaves them sparse they are widened
// until their first-order cost (roundingCost) is near bucketAim·tol
// (bucketsFor; measured, the rounding then moves ε by about that, as the
// lower companion Composition.down shows). The grid is
// refined until its error estimate is at most gridShare·tol of ε and, where
// buckets were rounded, at most what their measured cost leaves of
// errorShare·tol (gridLimit): both parts are in Bound.Error, which so
// stays within the tolerance.
const (
	gridShare   = 0.5
	bucketAim   = 0.5
	errorShare  = 0.95
	bucketShare = 0.35
)

// lowerAt composes the buckets rounded down on the grid h, when a bucket
// rounded anything (nil otherwise): the exact composition lies between it
// and the one rounded up, so their difference bounds what the rounding
// cost.
func lowerAt(gs []group, gmu, h float64, cv *convolver) (*dist, error) {
	if !rounded(gs) {
		return nil, nil
	}
	return build(gs, gmu, h, true, cv)
}

// bucketsFor returns the Laplace groups (laplaceGroups) with buckets as
// wide as keeps roundingCost within bucketAim·tol: a bucket's width is a
// share gamma of ε (or of the pivot), starting at bucketShare·tol, but
// what rounding costs depends on how the releases fill the buckets (a
// bucket of one ε costs nothing), so where the first grouping costs less
// than 0.8 of the aim (sparse buckets: a decaying schedule at tolerance
// 10⁻³), gamma is searched for in up to three more groupings (each a few
// per cent of a composition): scaled by aim/cost, then bisected
// geometrically between the widest within the aim and the narrowest
// beyond.
func bucketsFor(eps, logs []float64, count []int64, mu2, tol float64, cv *convolver) []group {
	aim := bucketAim * tol
	gamma := bucketShare * tol
	// The groupings are built in the convolver's two buffers: the best so
	// far and the one tried (build reads the best until the composition
	// ends, while the convolver is this composition's).
	// The pivot depends on the releases alone: computed once for every
	// grouping tried.
	pv := pivotOf(eps, count)
	gs := laplaceGroups(eps, logs, count, gamma, pv, cv, cv.groups[0])
	spare := cv.groups[1]
	defer func() { cv.groups = [2][]group{gs, spare} }()
	cost := roundingCost(gs, mu2)
	if cost == 0 || cost >= 0.8*aim {
		return gs
	}
	// lo is the widest gamma within the aim (gs its grouping), hi the
	// narrowest beyond it (0 while none is known).
	lo, hi := gamma, 0.0
	for range 3 {
		next := min(gamma*aim/cost, 0.5)
		if hi > 0 {
			next = math.Sqrt(lo * hi)
		}
		if next <= lo*1.05 || hi > 0 && next >= hi/1.05 {
			break
		}
		ngs := laplaceGroups(eps, logs, count, next, pv, cv, spare)
		nc := roundingCost(ngs, mu2)
		if nc <= aim {
			lo, gs, spare = next, ngs, gs
		} else {
			hi, spare = next, ngs
		}
		gamma, cost = next, nc
	}
	return gs
}

// roundingCost is the first-order share of the composition that rounding
// the buckets up rather than down moves, the larger of its two regimes:
// many small releases compose to about a Gaussian whose spread is Σ n·ε²
// (plus the Gaussian part's μ²), which rounding moves by Σ n·2ε·(ε −
// ε_down), ε(δ) by about half that share; a few large ones compose to
// about their largest loss Σ n·ε, which it moves by Σ n·(ε − ε_down).
func roundingCost(gs []group, mu2 float64) float64 {
	var moved2, spread, moved1, sum float64
	for _, g := range gs {
		l := g.law
		if g.count == 0 || 2*l.eps > laplaceDepth(tail) {
			continue
		}
		n := float64(g.count)
		spread += float64(n * l.eps * l.eps)
		sum += float64(n * l.eps)
		if g.down > 0 {
			moved2 += float64(n * l.eps * (l.eps - g.down))
			moved1 += float64(n * (l.eps - g.down))
		}
	}
	if moved1 == 0 {
		return 0
	}
	return max(moved2/(spread+mu2), moved1/sum)
}

// pivot is laplaceGroups' p = Σε²/Σε over the releases not truncated,
// and ln p.
type pivot struct{ p, log float64 }

// pivotOf returns the pivot of the releases eps with counts count.
func pivotOf(eps []float64, count []int64) pivot {
	depth := laplaceDepth(tail)
	var s1, s2 float64
	for i, e := range eps {
		if 2*e <= depth {
			s1 += float64(float64(count[i]) * e)
			s2 += float64(float64(count[i]) * float64(e*e))
		}
	}
	p := s2 / s1
	return pivot{p: p, log: num.Log(p)}
}

// laplaceGroups returns the Laplace releases (eps[i] with count[i]; logs[i]
// is ln eps[i], kept by the multiset since it came) as
// groups: every ε whose shape is truncated (2ε above the truncation
// depth) folded into one, and the others in buckets, each composed as its
// count of releases of its largest ε (less noise, more loss: still an
// upper bound). A decaying schedule of ten thousand distinct releases
// then becomes a few hundred buckets; a bucket of one ε is exact. Buckets
// come in the order their first ε came.
//
// A release's share of the composition's spread is about ε², so what
// rounding ε up by dε costs is about ε·dε of Σε²: the buckets are of
// equal width gamma·p below p = Σε²/Σε (the small releases, which matter
// little) and of ratio 1 + gamma above it, so that rounding every release
// up costs at most about gamma of Σε² either way, with half the buckets
// of a geometric grid for a decaying schedule.
func laplaceGroups(eps, logs []float64, count []int64, gamma float64, pv pivot, cv *convolver, buf []group) []group {
	gs := buf[:0] // every group is appended whole
	deep := -1
	lg := num.Log(1 + gamma)
	depth := laplaceDepth(tail)
	pivot, lp := pv.p, pv.log
	width := gamma * pivot
	above := math.Ceil(1/gamma) + 1
	// Each ε's bucket (−1 when truncated) first, so that the buckets are
	// found in a slice when there are not many more of them than releases
	// (a map costs a third of the grouping), in a map otherwise.
	js := grow(cv.js, len(eps)) // every value set below
	cv.js = js
	jmax := 0.0
	for i, e := range eps {
		js[i] = -1
		if 2*e <= depth {
			j := math.Ceil(e / width)
			if e > pivot {
				j = above + math.Ceil((logs[i]-lp)/lg)
			}
			// Comparisons rather than max and min, here and below: under
			// js/wasm those are calls, per release (the values are finite
			// and positive, so they choose the same).
			js[i] = j
			if j > jmax {
				jmax = j
			}
		}
	}
	var dense []int32 // group index + 1, 0 for none
	var sparse map[float64]int
	if jmax <= float64(4*len(eps)+4096) {
		if cap(cv.dense) < int(jmax)+1 {
			cv.dense = make([]int32, int(jmax)+1)
		}
		dense = cv.dense[:int(jmax)+1]
		clear(dense)
	} else {
		sparse = map[float64]int{}
	}
	// top is each group's largest ε, its law once all are in.
	top := cv.top[:0]
	defer func() { cv.top = top }()
	for i, e := range eps {
		n := count[i]
		if j := js[i]; j >= 0 {
			k, ok := 0, false
			if dense != nil {
				k, ok = int(dense[int(j)])-1, dense[int(j)] > 0
			} else {
				k, ok = sparse[j]
			}
			if ok {
				g := &gs[k]
				if e > top[k] {
					top[k] = e
				}
				if e < g.down {
					g.down = e
				}
				g.count += n
				continue
			}
			if dense != nil {
				dense[int(j)] = int32(len(gs) + 1)
			} else {
				sparse[j] = len(gs)
			}
			gs = append(gs, group{count: n, down: e})
			top = append(top, e)
			continue
		}
		if deep < 0 {
			deep = len(gs)
			gs = append(gs, group{law: laplace{e}})
			top = append(top, 0)
		}
		g := &gs[deep]
		g.extra += float64(float64(n) * (e - g.law.eps))
		g.count += n
	}
	for k, e := range top {
		if k != deep {
			gs[k].law = laplace{e}
		}
	}
	return gs
}

// rounded reports whether a bucket of gs holds distinct ε, so that the
// composition rounded them.
func rounded(gs []group) bool {
	for _, g := range gs {
		if g.down > 0 && g.down < g.law.eps {
			return true
		}
	}
	return false
}

// gridFor returns the first grid step tried: kappa times the root mean
// square of the releases' loss deviations (kappaAligned when one group's
// atoms are on the grid, see below), at least what keeps the error of a
// composition whose losses are far from 0 near tol/10 of its size,
// and coarsened if the composition's window or one release's range would
// need more points than it may have.
//
// Each Laplace release's grid sits on its largest loss ε, so its atom ½
// there is exact; its atom ½e^{−ε} at −ε is exact only when 2ε is a
// multiple of h, and splitting it costs 15 times the rest of the
// discretization error (TestAccuracy). So when one group holds 90 % of
// those atoms (a constant schedule, not one release of a decaying one),
// h is shrunk (by at most a factor 3) to put its 2ε on an even multiple
// of it (on the grid 2h too).
func gridFor(gs []group, gmu, top, tol float64) float64 {
	var s2, widest, atoms, atom float64
	align := 0.0
	for _, g := range gs {
		n := float64(g.count)
		s2 += float64(n * g.law.variance())
		widest = max(widest, g.law.width(tail))
		if l := g.law; 2*l.eps <= laplaceDepth(tail) {
			w := float64(n * num.Exp(-l.eps))
			atoms += w
			if w > atom {
				atom, align = w, l.eps
			}
		}
	}
	aligned := atom >= 0.9*atoms
	// k counts the roundings whose errors add up: one per release.
	var k float64
	for _, g := range gs {
		k += float64(g.count)
	}
	// The Gaussian part counts in the spread the error is measured
	// against, not among the releases whose rounding errors add up.
	s := math.Sqrt(s2 + float64(gmu*gmu))
	// κ was measured for the default tolerance; the error goes as h².
	scale := math.Sqrt(tol / target)
	h := kappa * scale * s / math.Sqrt(k)
	// Aligning pays when one group holds most of the atoms (a constant
	// schedule), not for one release of a decaying one.
	if aligned {
		h = kappaAligned * scale * s / math.Sqrt(k)
		if 2*align >= h {
			h = 2 * align / (2 * math.Ceil(align/h))
		}
	}
	// Measured (TestAccuracy) the error is at most about 7·K·h²/s; a
	// composition whose ε is of the order of top needs it below tol/10
	// of that, tol/160 where releases split their lower atoms (gridShare,
	// and that splitting), which allows a coarser grid when top ≫ s.
	div := 160.0
	if atoms == 0 {
		div = 10
	}
	h = max(h, math.Sqrt(tol/div*top*s/(7*k)))
	// The composition's window: twice Bernstein's reach of the Laplace
	// part (at most the sum of their ranges), plus the Gaussian part's
	// width. A window of fewer than minWindow points costs nothing to
	// refine, and δ(ε) between the grid losses is then close too.
	probe := dist{vari: s2, b: widest / 3}
	var support float64
	for _, g := range gs {
		support += float64(float64(g.count) * g.law.width(tail))
	}
	window := min(2*probe.reach(tail), support) + gauss{gmu}.width(tail)
	h = min(h, window/minWindow)
	return max(h, window/maxWindow, widest/(maxPoints-2), gauss{gmu}.width(tail)/(maxPoints-2))
}

// minWindow is the fewest points the default grid gives a composition.
const minWindow = 2000

// maxWindow bounds the points of a composed distribution the default grid
// aims at (the transforms are then of 2¹⁸ points at most).
const maxWindow = 1 << 17

// build discretizes every group on the grid h and composes them all in
// the Fourier domain (composeParts), the Gaussian part of parameter gmu,
// if any, as one more group. With lower, each bucket is composed at its
// smallest ε instead of its largest (what the rounding cost, Composition).
func build(gs []group, gmu, h float64, lower bool, c *convolver) (*dist, error) {
	// The parts in the pool's storage (a composition's 444 are 40 KB,
	// three times per agent: garbage that js/wasm's collector paid for).
	parts := c.parts[:0]
	defer func() {
		clear(parts) // no leaf outlives its composition in the pool
		c.parts = parts[:0]
	}()
	gr := gridAt(h)
	for i := range gs {
		g := &gs[i]
		l := g.law
		if lower && g.down > 0 {
			l = laplace{g.down}
		}
		pt := part{count: g.count, extra: g.extra}
		if 2*l.eps <= laplaceDepth(tail) {
			// e^{−ε} once per group, for the grids h and 2h (and every
			// grid the default one is refined through).
			if g.eme == 0 {
				g.eme = num.Exp(-g.law.eps)
			}
			eme := g.eme
			if l != g.law {
				eme = num.Exp(-l.eps)
			}
			var fits bool
			if pt.lap, fits = l.partsOn(gr, tail, eme); !fits {
				return nil, tooFine(h, l)
			}
		} else {
			// Truncated Laplace releases (one shape for all): a vector,
			// whose moment scale (setStats) narrows the window.
			if pt.leaf = l.discretize(h, tail); pt.leaf == nil {
				return nil, tooFine(h, l)
			}
			pt.leaf.setStats()
		}
		parts = append(parts, pt)
	}
	if gmu > 0 {
		g := gauss{gmu}
		leaf := g.discretize(h, tail)
		if leaf == nil {
			return nil, tooFine(h, g)
		}
		leaf.gaussStats(gmu)
		parts = append(parts, part{leaf: leaf, count: 1})
	}
	return composeParts(parts, h, c), nil
}

func tooFine(h float64, l law) error {
	return fmt.Errorf("grid: %v is too fine for a release of loss range %.3g (more than %d points)", h, l.width(tail), maxPoints)
}

// logSumExp returns ln Σ e^{v_i} without overflow.
func logSumExp(v []float64) float64 {
	m := slices.Max(v)
	s := 0.0
	for _, x := range v {
		s += num.Exp(x - m)
	}
	return m + num.Log(s)
}

// Releases returns how many releases were composed.
func (c *Composition) Releases() int64 { return c.releases }

// Epsilon returns the smallest ε for which the composition is
// (ε, delta)-DP, as an upper bound: delta is 0 (pure DP, then ε is the
// largest loss, Σ Δ_k/b_k for Laplace releases and +Inf with any Gaussian
// one) or in [MinDelta, 1).
func (c *Composition) Epsilon(delta float64) (Bound, error) {
	if !(delta == 0 || delta >= MinDelta && delta < 1) {
		return Bound{}, fmt.Errorf("delta: must be 0 or in [%g, 1), got %v", MinDelta, delta)
	}
	b := Bound{Delta: delta, Method: c.method}
	if delta == 0 && (c.method == MethodGaussian || c.method == MethodPLD) {
		b.Method = MethodPure
		if c.method == MethodGaussian {
			b.Epsilon, b.Log10 = math.Inf(1), math.Inf(1)
		} else {
			b.Epsilon, b.Log10 = c.pure, log10(c.pure)
		}
		return b, nil
	}
	switch c.method {
	case MethodSilent:
		b.Log10 = math.Inf(-1)
	case MethodNoNoise:
		b.Epsilon, b.Log10 = math.Inf(1), math.Inf(1)
	case MethodBeyond:
		b.Epsilon, b.Log10 = math.Inf(1), c.log10
	case MethodGaussian:
		b.Epsilon, b.Log10, b.Error = gaussEpsilon(c.mu, delta)
	default:
		b.Grid, b.Resolved = c.fine.h, c.fine.resolved()
		b.Epsilon = c.fine.absEpsilon(delta, pessimistic)
		b.Log10 = log10(b.Epsilon)
		if b.Epsilon > c.pureUp {
			// Basic composition holds at every δ; the grid's bound
			// passed it (a bucket of decaying releases is rounded up to
			// its largest ε, every release's loss up by a grid step).
			// The exact ε is still at least the grid's bound less its
			// error.
			lo := c.fine.absEpsilon(delta, optimistic)
			if g := c.coarse.absEpsilon(delta, pessimistic); !math.IsInf(g, 1) {
				lo = min(lo, b.Epsilon-float64(2*max(g-b.Epsilon, 0)))
			}
			b.Method, b.Epsilon, b.Log10 = MethodBasic, c.pureUp, log10(c.pureUp)
			b.Error = max(b.Epsilon-lo, 0)
			break
		}
		if math.IsInf(b.Epsilon, 1) {
			// The rounding summed over the points (or the cut tails)
			// exceeds delta: no finite ε is proved there.
			break
		}
		g := c.coarse.absEpsilon(delta, pessimistic)
		// The grid's part, the rounding's (the exact discretized
		// masses lie within noise of the computed ones: dist.at), and
		// the buckets'.
		b.Error = 2*max(g-b.Epsilon, 0) + (b.Epsilon - c.fine.absEpsilon(delta, optimistic))
		if c.down != nil {
			b.Error += max(c.up.absEpsilon(delta, pessimistic)-c.down.absEpsilon(delta, pessimistic), 0)
		}
	}
	return b, nil
}

// Delta returns an upper bound on the smallest δ for which the
// composition is (eps, δ)-DP, and the estimate of its discretization
// error (twice the bound on twice the grid minus it, as Bound.Error).
func (c *Composition) Delta(eps float64) (delta, errEst float64, err error) {
	if math.IsNaN(eps) || eps < 0 {
		return 0, 0, fmt.Errorf("epsilon: must be ≥ 0, got %v", eps)
	}
	switch c.method {
	case MethodSilent:
		return 0, 0, nil
	case MethodNoNoise, MethodBeyond:
		// Nothing better than the trivial bound is known there.
		return 1, 0, nil
	case MethodGaussian:
		return gaussDelta(c.mu, eps), 0, nil
	}
	f, g := c.fine.delta(eps, pessimistic), c.coarse.delta(eps, pessimistic)
	e := 2*max(g-f, 0) + (f - c.fine.delta(eps, optimistic))
	if c.down != nil {
		e += max(c.up.delta(eps, pessimistic)-c.down.delta(eps, pessimistic), 0)
	}
	// δ(ε) = E[(1 − e^{ε−L})₊] with every loss L at most the largest,
	// which bounds it whatever the grid made of the tail: 0 past it.
	if top := -num.Expm1(min(eps-c.pureUp, 0)); top < f {
		e, f = min(max(e-(f-top), 0), top), top
	}
	return f, e, nil
}

// absEpsilon is epsilon with the offset added, at least 0; +Inf when no
// finite ε reaches delta.
func (d *dist) absEpsilon(delta, side float64) float64 {
	rel, ok := d.epsilon(delta, side)
	if !ok {
		return math.Inf(1)
	}
	return max(d.offset+rel, 0)
}

func log10(v float64) float64 {
	if v == 0 {
		return math.Inf(-1)
	}
	return num.Log(v) / math.Ln10
}
