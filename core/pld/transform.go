package pld

import (
	"cmp"
	"math"
	"slices"
	"sync"

	"dpsim/core/num"
)

// The composition is made in the Fourier domain at once: the transform of
// a sum of independent losses is the product of their transforms, so the
// composition of counts c_g of releases of laws g is the inverse transform
// of Π_g φ_g^{c_g}, one inverse transform however many groups there are
// (Koskela, Jälkö & Honkela 2020 compose equal releases this way; the
// product over distinct ones is the same identity). A Laplace release's
// connect-the-dots distribution is a geometric run between two atoms, so
// its transform is written in closed form: a few operations per frequency
// whatever the grid. And a frequency where the product has fallen below
// deadBelow (a composition is smooth, so most do after a few groups) is
// not evaluated for the remaining groups: each factor has modulus at most
// 1, so the product stays below it. Before that, screen proves most
// frequencies dead by blocks, from one evaluation per block and group.

// deadBelow is the modulus below which a frequency's product is taken as
// 0. Each value of the inverse transform then moves by at most 2/n of the
// dropped moduli, so δ(ε) by at most n·deadBelow (10⁻¹⁷ for the longest
// transforms, 10⁻⁵ of MinDelta), which composeParts adds at +∞ so that
// the result stays an upper bound.
const deadBelow = 1e-22

// lapParts is the connect-the-dots distribution of one Laplace loss on the
// grid h (laplace.discretize), in closed form: at the loss ε − j·h,
// j = 0…n, the mass
//
//	½·th·(e^{−jh/2}·[j < full] + e^{−jh/2}·[1 ≤ j ≤ full]) + ½·[j = 0] + a·[j = n−1] + b·[j = n]
//
// with th = tanh(h/4): the density ¼e^{x/2} split over whole intervals,
// the atom ½ at the top, and what lies below the last whole interval
// (the lower atom, split or not, or the truncated tail) as a and b.
type lapParts struct {
	eps     float64
	n, full int
	th      float64
	a, b    float64
	// rFull = r^full and omR = 1 − r^full, r = e^{−h/2}: the transform's
	// (lapTransform.set), computed once per group and grid rather than at
	// every set (three per group and grid: the screen's two passes and
	// the product).
	rFull, omR float64
}

// parts returns l's connect-the-dots distribution on the grid h (the
// law's discretize), or false when it needs more than maxPoints points.
func (l laplace) parts(h, tail float64) (lapParts, bool) {
	return l.partsOn(gridAt(h), tail, num.Exp(-l.eps))
}

// grid holds what every Laplace group's parts on the step h share:
// th = tanh(h/4) and eh = 1 − e^{−h}, computed once per grid rather than
// once per group (a decaying schedule has hundreds).
type grid struct{ h, th, eh float64 }

func gridAt(h float64) grid {
	g := grid{h: h, th: 1, eh: -expm1(-h)}
	if h < 80 {
		em := expm1(h / 2)
		g.th = em / (em + 2)
	}
	return g
}

// partsOn is parts on the grid g, with eme = e^{−ε} (which does not
// depend on the grid: build computes it once per group for the grids h
// and 2h).
func (l laplace) partsOn(g grid, tail, eme float64) (lapParts, bool) {
	e, h := l.eps, g.h
	depth := laplaceDepth(tail)
	truncated := 2*e > depth
	span := 2 * e
	if truncated {
		span = depth
	}
	jf := math.Ceil(span / h)
	if jf > maxPoints {
		return lapParts{}, false
	}
	n := int(jf)
	p := lapParts{eps: e, n: n, full: n, th: g.th}
	// r^full, once: the split case's mass reads it too.
	rFull := math.NaN()
	switch {
	case truncated:
		// Everything below x_n moves up to it: P(x < x_n) = ½e^{x_n/2}.
		p.b = 0.5 * num.Exp(-float64(n)*h/2)
	case float64(n)*h > span:
		// The interval [x_n, x_{n−1}] holds −2ε inside: the density on
		// [−2ε, x_{n−1}] and the atom ½e^{−ε} at −2ε are split.
		p.full = n - 1
		a := float64(-float64(n) * h)
		c := -span
		eh := g.eh
		rFull = num.Exp(-float64(p.full) * h / 2)
		// d = a − c in (−h, 0]: the interval's top is a + h, and
		// e^{c/2} = e^{−ε} (eme; c = −2ε, halved exactly), the atom's too.
		// The density's mass on [c, a+h] is ½(e^{(a+h)/2} − e^{c/2}) =
		// ½e^{c/2}·(e^{(d+h)/2} − 1), and its share moved up to a + h,
		// mass − ½e^a(e^{−c/2} − e^{−(a+h)/2}), is that mass times
		// 1 − e^{(d−h)/2}, over 1 − e^{−h}: each a difference of
		// exponentials of nearly equal arguments written as one expm1,
		// without cancellation (and two exponentials fewer per group and
		// grid than taking them apart).
		d := a - c
		mass := float64(0.5 * float64(eme*expm1(float64(d+h)/2)))
		up := float64(mass*-expm1(float64(d-h)/2)) / eh
		atom := float64(0.5 * eme)
		upAtom := atom * -expm1(d) / eh
		p.a = up + upAtom
		p.b = (mass - up) + (atom - upAtom)
	default:
		// −2ε is a grid loss: the atom sits on it, beside the density's
		// share of the last interval.
		p.b = 0.5 * eme
	}
	if rFull != rFull {
		rFull = num.Exp(-float64(p.full) * h / 2)
	}
	p.rFull = rFull
	p.omR = -expm1(-float64(p.full) * h / 2)
	return p, true
}

// mass returns the mass at j (at the loss ε − j·h), with r = e^{−h/2}
// and rj = r^j.
func (p lapParts) mass(j int, rj float64) float64 {
	var v float64
	if j < p.full {
		v += float64(0.5 * p.th * rj)
	}
	if j >= 1 && j <= p.full {
		v += float64(0.5 * p.th * rj)
	}
	if j == 0 {
		v += 0.5
	}
	if j == p.n-1 {
		v += p.a
	}
	if j == p.n {
		v += p.b
	}
	return v
}

// stats returns the mean and variance of the distribution, relative to ε,
// and its largest distance from the mean. The masses are geometric in j,
// so their moments are sums of r^j, j·r^j and j²·r^j over runs of j, which
// geoBases.run adds up in O(log n) (a decaying schedule's thousands of groups,
// each of up to hundreds of points, spent a fifth of the composition
// summing them point by point: statsLoop, the test's reference).
//
// r is e^{−h/2}, the grid's (the same for every group).
func (p lapParts) stats(h, r float64) (mean, vari, reach float64) {
	return p.statsOn(h, &geoBases{r: r})
}

// statsOn is stats with the doublings of the grid's r shared (bs).
func (p lapParts) statsOn(h float64, bs *geoBases) (mean, vari, reach float64) {
	r := bs.r
	// The interior: ½·th·r^j at j < full and again at 1 ≤ j ≤ full, that
	// is Σ_{j<full} r^j·(j^k + r·(j+1)^k) for the k-th moment in j.
	var m0, m1, m2 float64
	if p.full > 0 {
		s := bs.run(p.full)
		f := 0.5 * p.th
		m0 = f * (s.s0 + float64(r*s.s0))
		m1 = f * (s.s1 + float64(r*(s.s1+s.s0)))
		m2 = f * (s.s2 + float64(r*(s.s2+2*s.s1+s.s0)))
	}
	m0 += 0.5 // the atom at j = 0
	for _, a := range [2]struct {
		j int
		v float64
	}{{p.n - 1, p.a}, {p.n, p.b}} {
		j := float64(a.j)
		m0 += a.v
		m1 += float64(a.v * j)
		m2 += float64(float64(a.v*j) * j)
	}
	// In units of j (the loss is −j·h): the mean, and the variance as
	// E[j²] − E[j]², which loses about a bit (these laws' variance is about
	// their squared mean); it agrees with the point-by-point sums to 10⁻¹³.
	mj := m1 / m0
	vj := max(m2/m0-float64(mj*mj), 0)
	mean = float64(-mj * h)
	vari = vj * h * h
	return mean, vari, max(-mean, float64(float64(p.n)*h)+mean)
}

// geo is Σ r^j, Σ j·r^j and Σ j²·r^j over a run j = 0…len−1, and r^len.
type geo struct {
	s0, s1, s2, rl float64
	len            int
}

// then is the run a followed by b: b's j shifted by a.len.
func (a geo) then(b geo) geo {
	l := float64(a.len)
	return geo{
		s0:  a.s0 + float64(a.rl*b.s0),
		s1:  a.s1 + float64(a.rl*(b.s1+float64(l*b.s0))),
		s2:  a.s2 + float64(a.rl*(b.s2+float64(2*l*b.s1)+float64(float64(l*l)*b.s0))),
		rl:  a.rl * b.rl,
		len: a.len + b.len,
	}
}

// geoBases holds the runs of r of length 1, 2, 4, … (each the previous
// one twice), which every group on the grid shares, and the runs asked
// for so far by length below memoRuns (groups of one length are many: a
// decaying schedule's 444 buckets have a few dozen lengths).
type geoBases struct {
	r    float64
	b    []geo
	done []geo // by length; len 0 where not yet computed
}

// memoRuns bounds the lengths whose runs geoBases keeps.
const memoRuns = 256

// run returns the sums over j = 0…n−1 by doubling: every term is
// positive, so each sum is accurate to a few ulps per doubling.
func (bs *geoBases) run(n int) geo {
	if n >= memoRuns {
		return bs.runOnce(n)
	}
	if n < len(bs.done) && bs.done[n].len == n && n > 0 {
		return bs.done[n]
	}
	g := bs.runOnce(n)
	if n >= len(bs.done) {
		bs.done = append(bs.done, make([]geo, n+1-len(bs.done))...)
	}
	bs.done[n] = g
	return g
}

// runOnce is run, computed.
func (bs *geoBases) runOnce(n int) geo {
	out := geo{rl: 1}
	for i := 0; n > 0; i++ {
		switch {
		case i < len(bs.b):
		case i == 0:
			bs.b = append(bs.b, geo{s0: 1, rl: bs.r, len: 1})
		default:
			bs.b = append(bs.b, bs.b[i-1].then(bs.b[i-1]))
		}
		if n&1 == 1 {
			out = out.then(bs.b[i])
		}
		n >>= 1
	}
	return out
}

// dist returns the distribution as a vector (laplace.discretize).
func (p lapParts) dist(h float64) *dist {
	d := &dist{h: h, offset: p.eps, lo: -p.n, p: make([]float64, p.n+1)}
	r := num.Exp(-h / 2)
	rj := 1.0
	for j := 0; j <= p.n; j++ {
		d.p[p.n-j] = p.mass(j, rj)
		rj *= r
	}
	return d
}

// part is one group of a composition made in the Fourier domain: count
// copies of a Laplace loss in closed form (lap), or of the vector leaf.
type part struct {
	lap   lapParts
	leaf  *dist
	count int64
	extra float64
}

// circle is the table of the unit circle for a transform length n: at m,
// e^{+2πim/n} = c + i·s, and h = sin(πm/n), whose square gives
// 1 − cos(2πm/n) = 2h² without cancellation.
type circle []point

// point is one entry of a circle.
type point struct{ c, s, h float64 }

var (
	circlesMu sync.Mutex
	circles   = map[int]circle{}
)

// circleFor returns the cached table of the plan's length n: the plan's
// e^{−2πik/n}, k < n/2, give both halves.
func circleFor(p *plan) circle {
	circlesMu.Lock()
	defer circlesMu.Unlock()
	n := p.n
	if t := circles[n]; t != nil {
		return t
	}
	t := make(circle, n)
	for m := range t {
		if m < n/2 {
			t[m].c, t[m].s = p.cos[m], -p.sin[m]
		} else {
			t[m].c, t[m].s = -p.cos[m-n/2], p.sin[m-n/2]
		}
		t[m].h, _ = num.Sincos(math.Pi * float64(m) / float64(n))
	}
	circles[n] = t
	return t
}

// lapTransform evaluates a Laplace group's transform at the frequencies
// 2πk/n: ½ + u·(1 − q^full) + a·z^full + b·z^n, z = e^{iθ}, with
// u = ½·th·(1+q)/(1−q), q = r·e^{iθ}, r = e^{−h/2}, and
// 1 − q^full = (1 − R·cos φ) − i·R·sin φ, R = r^full, φ = full·θ; each
// 1 − R·cos written (1 − R) + 2R·sin²(·/2), without cancellation.
type lapTransform struct {
	lp     lapParts
	r, omR float64
	// rr = r^1, omr = 1 − rr and f = ½·th, of the grid, for fill.
	rr, omr, f float64
	uR, uI     []float64
	tab        circle
	mask       int
	h          float64
	hasBase    bool
}

// set readies t for the group lp on the grid h, transforms of length n
// (m = n/2) and its table. u depends on the grid alone, and is computed at
// a frequency the first time it is asked for (NaN until then): screen and
// the product ask for a few hundred of the thousands there are.
func (t *lapTransform) set(lp lapParts, h float64, m int, tab circle) {
	if !t.hasBase {
		// The coarse grid's u serve the buckets rounded down too.
		if !(t.h == h && len(t.uR) == m+1) {
			t.h = h
			t.uR, t.uI = grow(t.uR, m+1), grow(t.uI, m+1)
			for k := range t.uR {
				t.uR[k] = math.NaN()
			}
		}
		t.rr, t.omr, t.f = num.Exp(-h/2), -expm1(-h/2), 0.5*lp.th
	}
	t.hasBase, t.tab, t.mask = true, tab, len(tab)-1
	t.lp = lp
	t.r, t.omR = lp.rFull, lp.omR
}

// fill computes u at frequency k.
func (t *lapTransform) fill(k int) {
	rr := t.rr
	z := t.tab[k]
	dr, di := t.omr+2*float64(rr*float64(z.h*z.h)), -float64(rr*z.s)
	nr, ni := 1+float64(rr*z.c), float64(rr*z.s)
	// (n/d) by Smith's division: d may be 10⁻³⁰⁴, whose square is 0.
	var qr, qi float64
	if math.Abs(dr) >= math.Abs(di) {
		t := di / dr
		den := dr + float64(di*t)
		qr, qi = (nr+float64(ni*t))/den, (ni-float64(nr*t))/den
	} else {
		t := dr / di
		den := float64(dr*t) + di
		qr, qi = (float64(nr*t)+ni)/den, (float64(ni*t)-nr)/den
	}
	t.uR[k], t.uI[k] = t.f*qr, t.f*qi
}

// at returns the transform at frequency k.
func (t *lapTransform) at(k int) (vr, vi float64) {
	ur, ui := t.uAt(k)
	g := coefOf(t.lp)
	return t.value(&g, k, ur, ui)
}

// lapCoef is what the product reads of one Laplace group besides the
// grid's u and table (lapTransform.at): r^full, 1 − r^full, full and n,
// the atoms a and b, and whether the lower one is split (n = full + 1).
type lapCoef struct {
	r, omR, a, b float64
	full, n      int
	split        bool
}

// coefOf returns lp's lapCoef.
func coefOf(lp lapParts) lapCoef {
	return lapCoef{r: lp.rFull, omR: lp.omR, a: lp.a, b: lp.b, full: lp.full, n: lp.n, split: lp.full != lp.n}
}

// value returns the transform of the group g at frequency k, with u = ur +
// i·ui there: at's arithmetic, in the same order. The lower atom's
// e^{iθn} is read from the table (at k·n, as e^{iθ·full} at k·full), not
// multiplied out as e^{iθ·full}·e^{iθ} when the atom is split: a lookup
// for six operations, and an entry of the table (correctly rounded to
// half an ulp) rather than a product of two.
func (t *lapTransform) value(g *lapCoef, k int, ur, ui float64) (vr, vi float64) {
	z := t.tab[(k*g.full)&t.mask]
	gr, gi := g.omR+2*float64(g.r*float64(z.h*z.h)), -float64(g.r*z.s)
	vr = 0.5 + (float64(ur*gr) - float64(ui*gi))
	vi = float64(ur*gi) + float64(ui*gr)
	vr += float64(g.a * z.c)
	vi += float64(g.a * z.s)
	zb := z
	if g.split {
		zb = t.tab[(k*g.n)&t.mask]
	}
	vr += float64(g.b * zb.c)
	vi += float64(g.b * zb.s)
	return vr, vi
}

// uAt returns u at frequency k, computing it the first time.
func (t *lapTransform) uAt(k int) (ur, ui float64) {
	if t.uR[k] != t.uR[k] {
		t.fill(k)
	}
	return t.uR[k], t.uI[k]
}

// powReal returns x^k, k ≥ 1, by repeated squaring.
func powReal(x float64, k int64) float64 {
	r := 1.0
	for {
		if k&1 == 1 {
			r *= x
		}
		k >>= 1
		if k == 0 {
			return r
		}
		x *= x
	}
}

// composeParts returns the composition of the parts on the grid h, with
// the window that Bernstein's inequality gives the sum, its tails cut.
func composeParts(parts []part, h float64, c *convolver) *dist {
	r := &dist{h: h}
	// shift, lowest and highest are grid indices of the sum: each Laplace
	// part's top is its index 0, a leaf's first point its index lo.
	var shift, lowest, highest int64
	logFinite := 0.0
	bases := geoBases{r: num.Exp(-h / 2)}
	for _, pt := range parts {
		fc := float64(pt.count)
		if pt.leaf != nil {
			d := pt.leaf
			r.offset += float64(fc*d.offset) + pt.extra
			r.mean += float64(fc * d.mean)
			r.vari += float64(fc * d.vari)
			r.b = max(r.b, d.b)
			shift += pt.count * int64(d.lo)
			lowest += pt.count * int64(d.lo)
			highest += pt.count * int64(d.lo+len(d.p)-1)
			logFinite += float64(fc * num.Log1p(-d.inf))
			continue
		}
		mean, vari, reach := pt.lap.statsOn(h, &bases)
		r.offset += float64(fc*pt.lap.eps) + pt.extra
		r.mean += float64(fc * mean)
		r.vari += float64(fc * vari)
		r.b = max(r.b, reach/3)
		lowest -= pt.count * int64(pt.lap.n)
	}
	// 1 − Π(1 − inf)^count, without cancellation.
	r.inf = -expm1(logFinite)
	t := r.reach(tail)
	first := max(int64(math.Ceil((r.mean-t)/h)), lowest)
	last := min(int64(math.Floor((r.mean+t)/h)), highest)
	w := int(max(last-first+1, 1))
	p := c.load(w)
	n, m := p.n, p.n/2
	mask := n - 1
	tab := circleFor(p)
	// acc is the product of the vector leaves' transforms and, once every
	// group is through, of the Laplace ones too; mag is the squared modulus
	// of the Laplace groups' product, all that decides whether a frequency
	// dies, so that the complex powers are taken only at the frequencies
	// that survive every group (about fifty): the others cost a real power.
	accR, accI := grow(c.br, m+1), grow(c.bi, m+1)
	c.br, c.bi = accR, accI
	mag := grow(c.mag, m+1)
	c.mag = mag
	if cap(c.alive) < m+1 {
		c.alive = make([]int32, m+1)
	}
	// The groups of most releases first (their transforms, raised to the
	// largest powers, are the smallest), so that frequencies die early;
	// stable, so that equal counts keep the groups' order and the bits are
	// fixed.
	if cap(c.order) < len(parts) {
		c.order = make([]int, len(parts))
	}
	order := c.order[:len(parts)]
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Compare(parts[b].count, parts[a].count)
	})
	leaves := false
	for _, pt := range parts {
		leaves = leaves || pt.leaf != nil
	}
	lt := lapTransform{uR: c.uR, uI: c.uI, h: c.uh}
	// The Laplace groups' coefficients in order, once for the screen's
	// levels and the product (reading them from the parts at each cost a
	// tenth of the composition).
	lgs := c.lgs[:0]
	for _, i := range order {
		if pt := &parts[i]; pt.leaf == nil {
			if len(lgs) == 0 {
				lt.set(pt.lap, h, m, tab) // the grid's u and constants
			}
			lgs = append(lgs, lapGroup{coef: coefOf(pt.lap), count: pt.count, n: pt.lap.n})
		}
	}
	c.lgs = lgs
	// The products start at 1 at the frequencies screen leaves, the only
	// ones read (it leaves a few hundred of thousands: setting them all
	// was a tenth of the composition).
	alive := screen(lgs, c.alive[:m+1], &lt, m, tab, c)
	for _, k := range alive {
		accR[k], accI[k], mag[k] = 1, 0, 1
	}
	if leaves {
		alive = productWithLeaves(parts, order, alive, &lt, h, tab, c, p)
	} else {
		alive = lapProduct(lgs, alive, &lt, c)
	}
	if lt.hasBase {
		c.uR, c.uI, c.uh = lt.uR, lt.uI, lt.h
	}
	// The sum's index s goes to (s − first) mod n: the circular transform
	// folds what lies outside the window onto it. That adds mass (δ only
	// rises); the mass beyond each end, at most tail, is counted at +∞.
	move := int((shift - first) % int64(n))
	if move < 0 {
		move += n
	}
	// Every frequency above the last alive one is 0. The inverse reads
	// the spectrum below band and, mirrored, above m − band only (band ≤
	// m/2), so only those are cleared.
	band := 0
	if len(alive) > 0 && int(alive[len(alive)-1]) < m {
		band = int(alive[len(alive)-1]) + 1
	}
	if band > 0 && band <= m/2 {
		clear(c.ar[:band])
		clear(c.ai[:band])
		clear(c.ar[m-band+1 : m+1])
		clear(c.ai[m-band+1 : m+1])
	} else {
		clear(c.ar)
		clear(c.ai)
	}
	for _, k := range alive {
		// e^{−2πi·k·move/n}
		z := tab[(int(k)*move)&mask]
		ar, ai := accR[k], accI[k]
		c.ar[k], c.ai[k] = float64(ar*z.c)+float64(ai*z.s), float64(ai*z.c)-float64(ar*z.s)
	}
	// The window's w values straight into the distribution, scanned as
	// they are written (inverseBand's last loop, with the scan: one pass
	// over the window rather than two).
	r.lo = int(first)
	r.p, r.store = getWindow(w)
	p.inverseSpectrum(c.ar, c.ai, c.re, c.im, band)
	neg, top := masses(c.re, c.im, r.p, 1/float64(m))
	r.noise = max(neg, top*0x1p-52)
	if len(alive) < m+1 {
		r.inf += float64(float64(n) * deadBelow)
	}
	if last < highest {
		r.inf += tail
	}
	if first > lowest {
		r.inf += tail
	}
	r.cut(tail)
	return r
}

// masses writes x[2k] = re[k]·s and x[2k+1] = −im[k]·s (inverseBand's
// values) with the negative ones set to 0, and returns the largest of
// their magnitudes, neg, and the largest value, top. The negative values
// are the transform's rounding alone (every true mass is ≥ 0): neg, or an
// ulp of top if there are none, measures what rounding left at every
// point. Comparisons rather than max: under js/wasm max is a call
// (runtime.fmax64), a tenth of the composition. The values are finite, so
// they choose the same (!(v > 0) makes −0 the +0 max gave).
func masses(re, im, x []float64, s float64) (neg, top float64) {
	half := len(x) / 2
	var v float64
	for k := range half {
		v, neg, top = clip(re[k]*s, neg, top)
		x[2*k] = v
		v, neg, top = clip(-im[k]*s, neg, top)
		x[2*k+1] = v
	}
	if len(x)%2 == 1 {
		v, neg, top = clip(re[half]*s, neg, top)
		x[2*half] = v
	}
	return neg, top
}

// clip returns v, or 0 if v is not above 0, with neg and top updated
// (masses).
func clip(v, neg, top float64) (float64, float64, float64) {
	if v > 0 {
		if v > top {
			top = v
		}
		return v, neg, top
	}
	if -v > neg {
		neg = -v
	}
	return 0, neg, top
}

// screenBlocks are the block sizes, coarsest first, at which screen
// looks for frequencies that every block member's product puts below
// deadBelow.

var screenBlocks = []int{64, 8}

// screen returns, in order and in alive's storage (of length m + 1), the
// frequencies 0…m that it cannot prove dead block by block: a frequency it drops is one whose
// product over the Laplace groups falls below deadBelow at some group, so
// that composeParts would drop it too, and the frequencies kept, the
// order and the arithmetic of composeParts being the same, so are its bits.
//
// A Laplace group's distribution sits on n+1 grid points, so its
// transform moves by at most (n/2)·|θ − θ_c| from the block's centre θ_c
// (|e^{ix} − 1| ≤ |x|, measured from the middle point): |φ| + that slack,
// raised to the group's count, bounds every frequency of the block. The
// slack always exceeds the rounding of the product (a block holds at least
// two frequencies, so it is at least π/n of a grid point's share), which
// keeps the bound above what composeParts computes. Most frequencies die
// after a few groups, so proving it once for a block of hundreds costs
// what one frequency did.
func screen(lgs []lapGroup, alive []int32, lt *lapTransform, m int, tab circle, c *convolver) []int32 {
	const dead2 = deadBelow * deadBelow
	if len(lgs) == 0 {
		return every(alive) // no Laplace group to screen with
	}
	n := 2 * m
	starts := append(c.blocks[:0], 0)
	size := m + 1
	slack := grow(c.slack, len(lgs))
	c.slack = slack
	sub, next := c.sub[:0], c.next[:0]
	defer func() { c.sub, c.next = sub, next }()
	for _, b := range screenBlocks {
		if b >= size {
			continue
		}
		sub = sub[:0]
		for _, s := range starts {
			for t := int(s); t < int(s)+size && t <= m; t += b {
				sub = append(sub, int32(t))
			}
		}
		// w is a block's largest distance from its centre s + w.
		w := b / 2
		// The groups whose slack leaves a bound below 1 are read, in order.
		any := false
		for i := range lgs {
			slack[i] = math.Pi * float64(lgs[i].n) * float64(w) / float64(n)
			any = any || slack[i] < 1
		}
		// Block by block, the groups in order until the bound falls below
		// deadBelow: the same products as group by group over the blocks
		// (the same bits), with the block's u and bound in locals.
		next = next[:0]
		// Two blocks at a time, each with its own bound (the same
		// arithmetic as alone), so that their chains of multiplications
		// run side by side; a bound only falls, so a block whose bound died
		// stops being multiplied and the pair stops when both died.
		for j := 0; j < len(sub); j += 2 {
			st0, st1 := sub[j], sub[j]
			if j+1 < len(sub) {
				st1 = sub[j+1]
			}
			kc0, kc1 := min(int(st0)+w, m), min(int(st1)+w, m)
			mag0, mag1 := 1.0, 1.0
			if any {
				ur0, ui0 := lt.uAt(kc0)
				ur1, ui1 := lt.uAt(kc1)
				// value's arithmetic written out (the same bits), as in
				// runProduct2: not inlined, its call per group and block
				// was a sixteenth of the whole under js/wasm. The mask from
				// the table's own length spares the lookups' bounds checks.
				mask := uint(len(tab) - 1)
				for i := range lgs {
					sl := slack[i]
					if sl >= 1 {
						continue
					}
					g := &lgs[i]
					if mag0 >= dead2 {
						z := tab[uint(kc0*g.coef.full)&mask]
						gr, gi := g.coef.omR+2*float64(g.coef.r*float64(z.h*z.h)), -float64(g.coef.r*z.s)
						vr := 0.5 + (float64(ur0*gr) - float64(ui0*gi))
						vi := float64(ur0*gi) + float64(ui0*gr)
						vr += float64(g.coef.a * z.c)
						vi += float64(g.coef.a * z.s)
						zb := z
						if g.coef.split {
							zb = tab[uint(kc0*g.coef.n)&mask]
						}
						vr += float64(g.coef.b * zb.c)
						vi += float64(g.coef.b * zb.s)
						if v := math.Sqrt(float64(vr*vr)+float64(vi*vi)) + sl; v < 1 {
							mag0 *= powReal(float64(v*v), g.count)
						}
					}
					if mag1 >= dead2 {
						z := tab[uint(kc1*g.coef.full)&mask]
						gr, gi := g.coef.omR+2*float64(g.coef.r*float64(z.h*z.h)), -float64(g.coef.r*z.s)
						vr := 0.5 + (float64(ur1*gr) - float64(ui1*gi))
						vi := float64(ur1*gi) + float64(ui1*gr)
						vr += float64(g.coef.a * z.c)
						vi += float64(g.coef.a * z.s)
						zb := z
						if g.coef.split {
							zb = tab[uint(kc1*g.coef.n)&mask]
						}
						vr += float64(g.coef.b * zb.c)
						vi += float64(g.coef.b * zb.s)
						if v := math.Sqrt(float64(vr*vr)+float64(vi*vi)) + sl; v < 1 {
							mag1 *= powReal(float64(v*v), g.count)
						}
					}
					if mag0 < dead2 && mag1 < dead2 {
						break
					}
				}
			}
			if mag0 >= dead2 {
				next = append(next, st0)
			}
			if mag1 >= dead2 && j+1 < len(sub) {
				next = append(next, st1)
			}
		}
		// starts keeps next's blocks in its own storage (next is reused).
		starts = append(starts[:0], next...)
		size = b
	}
	c.blocks = starts
	if size == m+1 {
		return every(alive)
	}
	out := alive[:0]
	for _, s := range starts {
		for t := int(s); t < int(s)+size && t <= m; t++ {
			out = append(out, int32(t))
		}
	}
	return out
}

// lapGroup is a Laplace group as screen and lapProduct read it: its
// transform's coefficients, its count and its number of grid steps.
type lapGroup struct {
	coef  lapCoef
	count int64
	n     int
}

// every sets alive (of length m + 1) to every frequency 0…m and returns it.
func every(alive []int32) []int32 {
	for k := range alive {
		alive[k] = int32(k)
	}
	return alive
}

// productWithLeaves multiplies c.br + i·c.bi by every part's transform
// raised to its count at the frequencies alive, in order, and returns the
// frequencies where the product stays at or above deadBelow: a leaf's
// complex power at once, the Laplace groups' squared moduli first (c.mag),
// so that their complex powers are taken only at the frequencies that
// survive every part.
func productWithLeaves(parts []part, order []int, alive []int32, lt *lapTransform, h float64, tab circle, c *convolver, p *plan) []int32 {
	const dead2 = deadBelow * deadBelow
	m := p.n / 2
	mask := p.n - 1
	accR, accI, mag := c.br, c.bi, c.mag
	for _, i := range order {
		pt := parts[i]
		kept := alive[:0]
		if pt.leaf != nil {
			// The leaf's transform at every frequency, folded onto n.
			clear(c.x)
			for j, v := range pt.leaf.p {
				c.x[j&mask] += v
			}
			p.forward(c.x, c.re, c.im, c.ar, c.ai)
			for _, k := range alive {
				vr, vi := cpow(c.ar[k], c.ai[k], pt.count)
				ar, ai := accR[k], accI[k]
				ar, ai = float64(ar*vr)-float64(ai*vi), float64(ar*vi)+float64(ai*vr)
				accR[k], accI[k] = ar, ai
				if float64(float64(ar*ar)+float64(ai*ai))*mag[k] >= dead2 {
					kept = append(kept, k)
				}
			}
			alive = kept
			continue
		}
		lt.set(pt.lap, h, m, tab)
		for _, k := range alive {
			vr, vi := lt.at(int(k))
			mag[k] *= powReal(float64(vr*vr)+float64(vi*vi), pt.count)
			ar, ai := accR[k], accI[k]
			if float64(float64(ar*ar)+float64(ai*ai))*mag[k] >= dead2 {
				kept = append(kept, k)
			}
		}
		alive = kept
	}
	// The complex product of the Laplace groups at the survivors, in the
	// same order.
	for _, i := range order {
		pt := parts[i]
		if pt.leaf != nil {
			continue
		}
		lt.set(pt.lap, h, m, tab)
		for _, k := range alive {
			vr, vi := lt.at(int(k))
			if pt.count > 1 {
				vr, vi = cpow(vr, vi, pt.count)
			}
			ar, ai := accR[k], accI[k]
			accR[k], accI[k] = float64(ar*vr)-float64(ai*vi), float64(ar*vi)+float64(ai*vr)
		}
	}
	return alive
}

// lapProduct is productWithLeaves when every part is a Laplace group.
// The groups come in order of decreasing count (composeParts), in runs of
// one count c_1 > c_2 > … > c_R; with P_j the product of every group of
// the first j runs and d_j = c_j − c_{j+1} (c_{R+1} = 0),
//
//	Π_g φ_g^{c_g} = Π_j Q_j^{c_j} = Π_j P_j^{d_j},
//
// Q_j being run j's product (c_j = Σ_{i≥j} d_i, and P_i holds Q_j for
// every j ≤ i). So the groups are multiplied once, in one chain P, and
// each run raises P to the difference of two counts, not its product to
// the count: a decaying schedule's 76 counts cost 26 squarings in all
// rather than 373 (the counts step by a few). A frequency dies when the
// product so far falls below deadBelow, tested after each run: every
// factor still to come, P_i^{d_i}, has modulus at most 1, so the
// product's stays below it (screen left few that die).
//
// Two frequencies go through every run together (runProduct2, cpow2):
// each one's product is a chain of dependent multiplications, and two
// independent chains side by side fill the time each waits for the other
// (natively and under js/wasm). Each frequency's arithmetic, and so its
// bits, is the one it had alone; a frequency that died keeps going with
// its pair but is not kept.
func lapProduct(lgs []lapGroup, alive []int32, lt *lapTransform, c *convolver) []int32 {
	const dead2 = deadBelow * deadBelow
	accR, accI := c.br, c.bi
	// Where each count's run of groups ends, and the difference of its
	// count and the next run's (the last run's is its count).
	runs := c.runs[:0]
	for i, g := range lgs {
		if i+1 == len(lgs) {
			runs = append(runs, countRun{end: i + 1, count: g.count})
		} else if next := lgs[i+1].count; next != g.count {
			runs = append(runs, countRun{end: i + 1, count: g.count - next})
		}
	}
	c.runs = runs
	kept := alive[:0]
	for i := 0; i < len(alive); i += 2 {
		k0, k1 := int(alive[i]), int(alive[i])
		if i+1 < len(alive) {
			k1 = int(alive[i+1])
		}
		ar0, ai0, ar1, ai1 := accR[k0], accI[k0], accR[k1], accI[k1]
		pr0, pi0, pr1, pi1 := 1.0, 0.0, 1.0, 0.0
		live0, live1 := true, i+1 < len(alive)
		start := 0
		for _, rn := range runs {
			pr0, pi0, pr1, pi1 = lt.runProduct2(lgs[start:rn.end], k0, k1, pr0, pi0, pr1, pi1)
			start = rn.end
			vr0, vi0, vr1, vi1 := pr0, pi0, pr1, pi1
			if rn.count > 1 {
				vr0, vi0, vr1, vi1 = cpow2(vr0, vi0, vr1, vi1, rn.count)
			}
			ar0, ai0 = float64(ar0*vr0)-float64(ai0*vi0), float64(ar0*vi0)+float64(ai0*vr0)
			ar1, ai1 = float64(ar1*vr1)-float64(ai1*vi1), float64(ar1*vi1)+float64(ai1*vr1)
			live0 = live0 && float64(ar0*ar0)+float64(ai0*ai0) >= dead2
			live1 = live1 && float64(ar1*ar1)+float64(ai1*ai1) >= dead2
			if !live0 && !live1 {
				break
			}
		}
		if live0 {
			accR[k0], accI[k0] = ar0, ai0
			kept = append(kept, int32(k0))
		}
		if live1 {
			accR[k1], accI[k1] = ar1, ai1
			kept = append(kept, int32(k1))
		}
	}
	return kept
}

// countRun is the end (in lapProduct's groups) of the groups of one
// count, and the power its running product is raised to: that count less
// the next run's.
type countRun struct {
	end   int
	count int64
}

// runProduct2 returns, at the frequencies k0 and k1, the product of the
// transforms of the groups gs (in their order) and the products so far
// pr0 + i·pi0 and pr1 + i·pi1, each as at and a
// product per group would give it (the same bits), with the products held
// in locals across the groups — a loop over frequencies of a loop over
// groups, so that u and the products are loaded once per frequency, not
// once per group. value's arithmetic is written out: a call per group and
// frequency costs more than the arithmetic under js/wasm.
func (t *lapTransform) runProduct2(gs []lapGroup, k0, k1 int, pr0, pi0, pr1, pi1 float64) (float64, float64, float64, float64) {
	ur0, ui0 := t.uAt(k0)
	ur1, ui1 := t.uAt(k1)
	tab := t.tab
	// The mask from the table's own length (a power of two, and k0 read
	// above, so at least 1), so that the loop's lookups need no bounds
	// checks.
	mask := uint(len(tab) - 1)
	for i := range gs {
		g := &gs[i].coef
		z0, z1 := tab[uint(k0*g.full)&mask], tab[uint(k1*g.full)&mask]
		gr0, gi0 := g.omR+2*float64(g.r*float64(z0.h*z0.h)), -float64(g.r*z0.s)
		gr1, gi1 := g.omR+2*float64(g.r*float64(z1.h*z1.h)), -float64(g.r*z1.s)
		vr0 := 0.5 + (float64(ur0*gr0) - float64(ui0*gi0))
		vi0 := float64(ur0*gi0) + float64(ui0*gr0)
		vr1 := 0.5 + (float64(ur1*gr1) - float64(ui1*gi1))
		vi1 := float64(ur1*gi1) + float64(ui1*gr1)
		vr0 += float64(g.a * z0.c)
		vi0 += float64(g.a * z0.s)
		vr1 += float64(g.a * z1.c)
		vi1 += float64(g.a * z1.s)
		zb0, zb1 := z0, z1
		if g.split {
			zb0, zb1 = tab[uint(k0*g.n)&mask], tab[uint(k1*g.n)&mask]
		}
		vr0 += float64(g.b * zb0.c)
		vi0 += float64(g.b * zb0.s)
		vr1 += float64(g.b * zb1.c)
		vi1 += float64(g.b * zb1.s)
		pr0, pi0 = float64(pr0*vr0)-float64(pi0*vi0), float64(pr0*vi0)+float64(pi0*vr0)
		pr1, pi1 = float64(pr1*vr1)-float64(pi1*vi1), float64(pr1*vi1)+float64(pi1*vr1)
	}
	return pr0, pi0, pr1, pi1
}

// cpow2 is cpow of two numbers to one power k ≥ 1, each with the
// arithmetic it has alone.
func cpow2(re0, im0, re1, im1 float64, k int64) (rr0, ri0, rr1, ri1 float64) {
	rr0, ri0, rr1, ri1 = 1, 0, 1, 0
	for {
		if k&1 == 1 {
			rr0, ri0 = float64(rr0*re0)-float64(ri0*im0), float64(rr0*im0)+float64(ri0*re0)
			rr1, ri1 = float64(rr1*re1)-float64(ri1*im1), float64(rr1*im1)+float64(ri1*re1)
		}
		k >>= 1
		if k == 0 {
			return rr0, ri0, rr1, ri1
		}
		re0, im0 = float64(re0*re0)-float64(im0*im0), 2*float64(re0*im0)
		re1, im1 = float64(re1*re1)-float64(im1*im1), 2*float64(re1*im1)
	}
}
