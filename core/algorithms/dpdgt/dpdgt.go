// Package dpdgt implements DP-DGT, the differentially private dual
// gradient tracking of Huo, Chen, Huang, Johansson and Shi ("Differentially
// private dual gradient tracking for distributed resource allocation"),
// Algorithm 1, with its privacy accounting (Theorem 3, Corollary 2 and the
// sensitivity recursion (31) of its proof).
//
// The agents solve a resource-allocation problem min Σ F_i(w_i) s.t.
// Σ w_i = Σ d_i on its dual, over a directed network with two matrices:
// agent i pushes C_li·(s_i + ξ_i) to its out-neighbours l in G_C (s is
// its estimate of the cumulative supply–demand deviation) and exposes its
// local price w̃_i + ζ_i, which its out-neighbours in G_R pull and weigh
// by their own R_li. Both noises are Laplace with geometrically decaying
// scales; the step size α_k is summable.
package dpdgt

import (
	"dpsim/core/method"
	"slices"

	"dpsim/core/algorithms/internal/pushpull"
	"dpsim/core/noise"
	"dpsim/core/objective"
	"dpsim/core/sim"
)

// Params are DP-DGT's parameters in the paper's notation. The noise
// scales θ_ξ,k = θ_ξ0·q_ξ^k and θ_ζ,k = θ_ζ0·q_ζ^k are the scenario's noise
// channels "xi" and "zeta" (scale θ_0, geometric decay with ratio q_θ).
type Params struct {
	// Alpha is the step size α_k; the paper's α_0·q^k is a geometric
	// schedule with c = α_0 and r = q.
	Alpha noise.Schedule `json:"alpha" doc:"step size α_k; the paper's α_0·q^k is {\"kind\": \"geometric\", \"c\": α_0, \"r\": q}"`
	// Gamma is γ, the weight of the pushed mixture in the s update (12a).
	Gamma float64 `json:"gamma" doc:"γ, weight of the pushed mixture in the s update (12a)" range:"(0, 1]"`
	// Phi is φ, the weight of the pulled mixture in the w̃ update (12c).
	Phi float64 `json:"phi" doc:"φ, weight of the pulled mixture in the price update (12c)" range:"(0, 1]"`
	// Delta is δ of Definition 2: adjacent problems differ in one cost
	// whose gradient moves by at most δ. ε is proportional to it; the
	// paper gives no value.
	Delta float64 `json:"delta" doc:"δ, the adjacency bound ‖∇F_i − ∇F′_i‖ ≤ δ of the privacy guarantee (ε is proportional to δ)" range:"(0, 1e100]"`
	// Mu is μ of Assumption 1 for the privacy bound; 0 derives it from
	// the costs (the smallest strong convexity among agents with a real
	// cost, 2·min a_i for quadratics).
	Mu float64 `json:"mu" doc:"μ, the strong convexity of the costs used by the privacy bound; 0 derives it from the problem (2·min a_i)" range:"[0, 1e100]"`
}

// Defaults returns the parameters of the paper's Sec. 6.1: α_k =
// 0.015·0.991^k, γ = 0.8, φ = 0.7, with δ = 1 (so that ε reads in units
// of δ) and μ from the costs.
func Defaults() *Params {
	return &Params{Alpha: noise.Geom(0.015, 0.991), Gamma: 0.8, Phi: 0.7, Delta: 1}
}

// Algorithm is DP-DGT running on one problem instance.
type Algorithm struct {
	p    Params
	prob objective.Allocation
	resp *pushpull.Responder
	n, d int

	r, c   *pushpull.Mix // pull R (row i: whom i pulls from), push C (row i: who pushes to i)
	d0     []float64     // demands, agent-major
	xi, ze *noise.Spec
	sXi    *noise.Sampler
	sZe    *noise.Sampler
	// The schedules, tabulated: α_k and the noise decays are shared by
	// every run of a sweep and evaluated once.
	alphaT, decXi, decZe *noise.Table

	s, wt, w []float64 // s_k, w̃_k, w_k, agent-major
	sn, wtn  []float64 // s_{k+1}, w̃_{k+1} under construction
	nXi, nZe []float64 // ξ_k, ζ_k
	outS     []float64 // s_k + ξ_k: what agent i pushes (before C_li)
	outW     []float64 // w̃_k + ζ_k: what agent i exposes to be pulled
	acc      []float64 // one row's mixing sums
	// kernel is the update of the scalar quadratic case with R and C of
	// the same pattern (nil otherwise).
	kernel *kernel
	k      int
	step   sim.Step
}

// New returns DP-DGT on prob with pull matrix r (row-stochastic) and push
// matrix c (column-stochastic) — the caller validates Assumptions 2 and 3
// — noise channels xi (on s) and zeta (on w̃) with their samplers, and
// initial states w0, s0, wt0 (agent-major, copied).
func New(p Params, prob objective.Allocation, r, c *pushpull.Mix,
	xi, zeta *noise.Spec, sXi, sZeta *noise.Sampler, w0, s0, wt0 []float64) *Algorithm {
	n, d := prob.Agents(), prob.Dim()
	a := &Algorithm{
		p: p, prob: prob, resp: pushpull.NewResponder(prob), n: n, d: d,
		r: r, c: c, xi: xi, ze: zeta, sXi: sXi, sZe: sZeta,
		d0: make([]float64, n*d),
		s:  append([]float64(nil), s0...), wt: append([]float64(nil), wt0...), w: append([]float64(nil), w0...),
		sn: make([]float64, n*d), wtn: make([]float64, n*d),
		nXi: make([]float64, n*d), nZe: make([]float64, n*d),
		outS: vec(n * d), outW: vec(n * d),
		acc:    make([]float64, d),
		alphaT: noise.Tabulate(p.Alpha), decXi: noise.Tabulate(xi.Decay), decZe: noise.Tabulate(zeta.Decay),
	}
	for i := range n {
		copy(a.d0[i*d:(i+1)*d], prob.Demand(i))
	}
	if d == 1 && n <= kernelMax && a.resp.Fast() && slices.Equal(r.Start, c.Start) && slices.Equal(r.Col, c.Col) {
		a.kernel = newKernel(r, c, a.resp, a.d0)
	}
	// Two releases per agent, fixed for the run: the push of s_i + ξ_i to
	// its out-neighbours in G_C (factor C_li), and the exposure of
	// w̃_i + ζ_i, pulled by its out-neighbours in G_R (factor 1: each
	// puller weighs it by its own R_li).
	push, pull := c.Out(), r.Out()
	a.step.Releases = make([]sim.Release, 0, 2*n)
	a.step.AddReleases("s", n, d, d, 0, a.outS, a.nXi, false, push.Receivers)
	a.step.AddReleases("w̃", n, d, d, 0, a.outW, a.nZe, true, pull.Pullers)
	a.step.Dim = d
	a.step.Estimates = a.w
	a.step.Prices = a.wt
	return a
}

// kernel is the update of the scalar quadratic case with R and C of the
// same pattern on at most kernelMax agents (the economic dispatch of the
// paper): the sweep's inner loop, written so that nothing in it is
// checked or branched on that need not be.
//
//   - Columns are bytes and the released vectors have room for
//     kernelMax entries, so reading a neighbour's value needs no bounds
//     check.
//   - Rows of up to 4 entries are held in fixed arrays, grouped by length,
//     and each length has its own straight-line code: no loop exit to
//     mispredict per agent.
//
// Agents are independent within an iteration and every sum adds its
// terms in the row's order, so the bits are those of the plain loops.
type kernel struct {
	short  [kernelRow + 1][]kernelRowRec // rows by length 0..kernelRow
	long   []int                         // agents with longer rows (CSR loops)
	units  []kernelUnit                  // by agent
	ms, mw []float64                     // this iteration's mixtures, by agent
}

// kernelRow is the longest row held in a fixed array.
const kernelRow = 4

// kernelMax is the largest network the kernel serves.
const kernelMax = 256

// kernelRowRec is one agent's row of C and R: the diagonals and up to
// kernelRow entries off it.
type kernelRowRec struct {
	i      uint8
	col    [kernelRow]uint8
	cv, rv [kernelRow]float64
	cd, rd float64
}

// kernelUnit is one agent's demand and best response.
type kernelUnit struct {
	dem             float64
	gen             bool
	twoA, b, lo, hi float64
}

func newKernel(r, c *pushpull.Mix, resp *pushpull.Responder, dem []float64) *kernel {
	k := &kernel{units: make([]kernelUnit, r.N), ms: make([]float64, r.N), mw: make([]float64, r.N)}
	for i := range r.N {
		u := resp.Unit(i)
		k.units[i] = kernelUnit{dem: dem[i], gen: u.Gen, twoA: u.TwoA, b: u.B, lo: u.Lo, hi: u.Hi}
		n := r.Start[i+1] - r.Start[i]
		if n > kernelRow {
			k.long = append(k.long, i)
			continue
		}
		rec := kernelRowRec{i: uint8(i), cd: c.Diag[i], rd: r.Diag[i]}
		for e := range n {
			x := r.Start[i] + e
			rec.col[e], rec.cv[e], rec.rv[e] = uint8(r.Col[x]), c.Val[x], r.Val[x]
		}
		k.short[n] = append(k.short[n], rec)
	}
	return k
}

// advance runs one iteration of (12a), (12c), (12b) on a's state.
func (k *kernel) advance(a *Algorithm, alpha float64) {
	oS, oW := (*[kernelMax]float64)(a.outS[:kernelMax]), (*[kernelMax]float64)(a.outW[:kernelMax])
	ms, mw := k.ms, k.mw
	for j := range k.short[0] {
		x := &k.short[0][j] // a pointer: ranging by value copies the record
		ms[x.i], mw[x.i] = x.cd*oS[x.i], x.rd*oW[x.i]
	}
	for j := range k.short[1] {
		x := &k.short[1][j] // a pointer: ranging by value copies the record
		ms[x.i] = float64(x.cd*oS[x.i]) + float64(x.cv[0]*oS[x.col[0]])
		mw[x.i] = float64(x.rd*oW[x.i]) + float64(x.rv[0]*oW[x.col[0]])
	}
	for j := range k.short[2] {
		x := &k.short[2][j] // a pointer: ranging by value copies the record
		ms[x.i] = float64(x.cd*oS[x.i]) + float64(x.cv[0]*oS[x.col[0]]) + float64(x.cv[1]*oS[x.col[1]])
		mw[x.i] = float64(x.rd*oW[x.i]) + float64(x.rv[0]*oW[x.col[0]]) + float64(x.rv[1]*oW[x.col[1]])
	}
	for j := range k.short[3] {
		x := &k.short[3][j] // a pointer: ranging by value copies the record
		ms[x.i] = float64(x.cd*oS[x.i]) + float64(x.cv[0]*oS[x.col[0]]) + float64(x.cv[1]*oS[x.col[1]]) + float64(x.cv[2]*oS[x.col[2]])
		mw[x.i] = float64(x.rd*oW[x.i]) + float64(x.rv[0]*oW[x.col[0]]) + float64(x.rv[1]*oW[x.col[1]]) + float64(x.rv[2]*oW[x.col[2]])
	}
	for j := range k.short[4] {
		x := &k.short[4][j] // a pointer: ranging by value copies the record
		ms[x.i] = float64(x.cd*oS[x.i]) + float64(x.cv[0]*oS[x.col[0]]) + float64(x.cv[1]*oS[x.col[1]]) + float64(x.cv[2]*oS[x.col[2]]) + float64(x.cv[3]*oS[x.col[3]])
		mw[x.i] = float64(x.rd*oW[x.i]) + float64(x.rv[0]*oW[x.col[0]]) + float64(x.rv[1]*oW[x.col[1]]) + float64(x.rv[2]*oW[x.col[2]]) + float64(x.rv[3]*oW[x.col[3]])
	}
	for _, i := range k.long {
		s, w := a.c.Diag[i]*a.outS[i], a.r.Diag[i]*a.outW[i]
		for e := a.c.Start[i]; e < a.c.Start[i+1]; e++ {
			j := a.c.Col[e]
			s += float64(a.c.Val[e] * a.outS[j])
			w += float64(a.r.Val[e] * a.outW[j])
		}
		ms[i], mw[i] = s, w
	}
	g, phi := a.p.Gamma, a.p.Phi
	g1, p1 := 1-g, 1-phi
	units := k.units
	n := len(units)
	// Equal lengths let the compiler drop the bounds checks below.
	s, wt, w := a.s[:n], a.wt[:n], a.w[:n]
	sn, wtn := a.sn[:n], a.wtn[:n]
	msn, mwn := ms[:n], mw[:n]
	for i := range units {
		u := &units[i]
		si := s[i]
		v := float64(g1*si) + float64(g*msn[i]) - float64(alpha*(w[i]-u.dem))
		sn[i] = v
		p := float64(p1*wt[i]) + float64(phi*mwn[i]) + (v - si)
		wtn[i] = p
		// The best response, as pushpull.Responder.Scalar computes it.
		x := 0.0
		if u.gen {
			x = (p - u.b) / u.twoA
			if x < u.lo {
				x = u.lo
			} else if x > u.hi {
				x = u.hi
			}
		}
		w[i] = x
	}
}

// vec returns a zero vector of length n with room for kernelMax entries,
// so that the kernel can view it as an array indexed by bytes.
func vec(n int) []float64 { return make([]float64, n, max(n, kernelMax)) }

// Name implements sim.Algorithm.
func (a *Algorithm) Name() string { return "dp-dgt" }

// Initial implements sim.Algorithm.
func (a *Algorithm) Initial() *sim.Step {
	return &sim.Step{Iter: 0, Dim: a.d, Estimates: a.w, Prices: a.wt}
}

// Advance implements sim.Algorithm: one iteration of Algorithm 1, in the
// order s → w̃ → w (the paper lists (12b) before (12c), but (12b) needs
// w̃_{k+1}):
//
//	ξ_{i,k} ~ Lap(θ_ξ,k)^m, ζ_{i,k} ~ Lap(θ_ζ,k)^m; i pushes C_li(s_{i,k} + ξ_{i,k}), exposes w̃_{i,k} + ζ_{i,k}
//	s_{i,k+1} = (1−γ)s_{i,k} + γ Σ_j C_ij(s_{j,k} + ξ_{j,k}) − α_k(w_{i,k} − d_i)       (12a)
//	w̃_{i,k+1} = (1−φ)w̃_{i,k} + φ Σ_j R_ij(w̃_{j,k} + ζ_{j,k}) + (s_{i,k+1} − s_{i,k})  (12c)
//	w_{i,k+1} = argmin_{w∈W_i} F_i(w) − w̃_{i,k+1}ᵀw                                    (12b)
//
// Both sums include j = i with the agent's own noisy value: that is what
// makes the noise cancel from the deviation tracker, 1ᵀ(s_{k+1} − s_k) =
// −α_k(Σ_i w_{i,k} − Σ_i d_i) + γ1ᵀξ_k (eq. 14). The scales θ_k and α_k
// are evaluated once per iteration.
func (a *Algorithm) Advance() *sim.Step {
	k := a.k
	alpha := a.alphaT.At(k)
	pushpull.Draw(a.sXi, a.xi, a.decXi.At(k), a.nXi, a.s, a.outS, a.d)
	pushpull.Draw(a.sZe, a.ze, a.decZe.At(k), a.nZe, a.wt, a.outW, a.d)
	if a.d == 1 && a.resp.Fast() {
		a.advanceScalar(alpha)
	} else {
		a.advanceVector(alpha)
	}
	a.s, a.sn = a.sn, a.s
	a.wt, a.wtn = a.wtn, a.wt
	a.k++
	a.step.Iter = a.k
	a.step.Estimates = a.w
	a.step.Prices = a.wt
	return &a.step
}

// advanceScalar is the update for m = 1 with quadratic costs (the
// economic-dispatch case): plain loops over the CSR rows, the best
// response inline. When R and C have the same pattern (the uniform
// builders on one graph) one loop walks both rows; each sum still adds
// its terms in the same order, so the bits are those of two loops.
func (a *Algorithm) advanceScalar(alpha float64) {
	if a.kernel != nil {
		a.kernel.advance(a, alpha)
		return
	}
	g, phi := a.p.Gamma, a.p.Phi
	g1, p1 := 1-g, 1-phi
	cs, cc, cv, cd := a.c.Start, a.c.Col, a.c.Val, a.c.Diag
	rs, rc, rv, rd := a.r.Start, a.r.Col, a.r.Val, a.r.Diag
	outS, outW := a.outS, a.outW
	s, wt, w, dem := a.s, a.wt, a.w, a.d0
	sn, wtn := a.sn, a.wtn
	n := len(sn)
	s, wt, w, dem, outS, outW = s[:n], wt[:n], w[:n], dem[:n], outS[:n], outW[:n]
	cd, rd = cd[:n], rd[:n]
	wtn = wtn[:n]
	for i := range sn {
		ms := cd[i] * outS[i]
		for e := cs[i]; e < cs[i+1]; e++ {
			ms += float64(cv[e] * outS[cc[e]])
		}
		si := s[i]
		v := float64(g1*si) + float64(g*ms) - float64(alpha*(w[i]-dem[i]))
		sn[i] = v
		mw := rd[i] * outW[i]
		for e := rs[i]; e < rs[i+1]; e++ {
			mw += float64(rv[e] * outW[rc[e]])
		}
		p := float64(p1*wt[i]) + float64(phi*mw) + (v - si)
		wtn[i] = p
		w[i] = a.resp.Scalar(i, p)
	}
}

// advanceVector is the update for any dimension and any cost.
func (a *Algorithm) advanceVector(alpha float64) {
	d := a.d
	g, phi := a.p.Gamma, a.p.Phi
	acc := a.acc
	for i := range a.n {
		lo, hi := i*d, (i+1)*d
		a.c.MixRow(acc, i, a.outS, d)
		si, wi, di := a.s[lo:hi], a.w[lo:hi], a.d0[lo:hi]
		sn := a.sn[lo:hi]
		for c := range sn {
			sn[c] = float64((1-g)*si[c]) + float64(g*acc[c]) - float64(alpha*(wi[c]-di[c]))
		}
		a.r.MixRow(acc, i, a.outW, d)
		wt, wtn := a.wt[lo:hi], a.wtn[lo:hi]
		for c := range wtn {
			wtn[c] = float64((1-phi)*wt[c]) + float64(phi*acc[c]) + (sn[c] - si[c])
		}
		a.resp.Respond(i, wtn, wi)
	}
}

// State implements sim.Algorithm: the allocations w, the deviation
// trackers s and the prices w̃ (named "price").
func (a *Algorithm) State() []sim.Var {
	return []sim.Var{
		{Name: "w", Dim: a.d, Data: append([]float64(nil), a.w...)},
		{Name: "s", Dim: a.d, Data: append([]float64(nil), a.s...)},
		{Name: "price", Dim: a.d, Data: append([]float64(nil), a.wt...)},
	}
}

// Params returns the parameters the algorithm runs with.
func (a *Algorithm) Params() Params { return a.p }

// Iter returns the number of iterations run.
func (a *Algorithm) Iter() int { return a.k }

// Resume implements sim.Resumable: the state variables State returned at
// iteration iter, after which the schedules continue from iter.
func (a *Algorithm) Resume(iter int, state []sim.Var) error {
	if err := method.Restore(state, sim.Var{Name: "w", Dim: a.d, Data: a.w}, sim.Var{Name: "s", Dim: a.d, Data: a.s}, sim.Var{Name: "price", Dim: a.d, Data: a.wt}); err != nil {
		return err
	}
	a.k = iter
	a.step.Iter = iter
	a.step.Estimates = a.w
	a.step.Prices = a.wt
	return nil
}
