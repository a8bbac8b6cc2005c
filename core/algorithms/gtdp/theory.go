package gtdp

import (
	"fmt"
	"math"

	"dpsim/core/method"
	"dpsim/core/noise"
	"dpsim/core/num"
	"dpsim/core/privacy"
)

// Source names the paper every statement of this file comes from.
const Source = "Xuan & Wang, GT-DP"

// PredictEpsilon implements privacy.Predictor: eq. (18) after iterations
// iterations (K = iterations − 1, as the ledger counts) with every noise
// scale multiplied by factor. Eq. (18) is exactly proportional to
// 1/(b_η, b_ξ), so it is computed once per horizon at factor 1, O(n·K)
// (agents with the same w_ii and scales share one sum).
func (ac *Accountant) PredictEpsilon(iterations int, factor float64) privacy.Amount {
	return privacy.Rescale(ac.predict1(iterations), factor)
}

// FactorFor implements privacy.InversePredictor: λ = ε(K; λ = 1)/target.
func (ac *Accountant) FactorFor(iterations int, target float64) (float64, error) {
	if ac.off != "" {
		return 0, fmt.Errorf("cannot be reached: GT-DP has %s, and no scale gives a finite ε", ac.off)
	}
	return privacy.ProportionalFactor(ac.predict1(iterations), iterations, target)
}

// NoiseScaleFor is the inverse of eq. (18) with b_η = b_ξ = b (spec §5.4):
// the b that gives ε = target after iterations iterations, with the
// channels' decays as they are. ε is exactly proportional to 1/b, so
// b = ε(K; b = 1)/target.
func (ac *Accountant) NoiseScaleFor(iterations int, target float64) (float64, error) {
	one := &Accountant{alg: ac.alg, pre: ac.pre, alpha: ac.alpha, gamma: ac.gamma,
		eta: &noise.Spec{Dist: ac.eta.Dist, Scale: 1, Decay: ac.eta.Decay},
		xi:  &noise.Spec{Dist: ac.xi.Dist, Scale: 1, Decay: ac.xi.Decay}}
	one.agents = make([]account, len(ac.agents))
	for i := range ac.agents {
		one.agents[i] = newAccount(ac.agents[i].ser.w, one.eta, one.xi, i)
	}
	one.off = offReason(one.eta, one.xi)
	return one.FactorFor(iterations, target)
}

// predict1 returns eq. (18)'s largest ε after iterations iterations at the
// channels' own scales, without touching the running ledger.
func (ac *Accountant) predict1(iterations int) privacy.Amount {
	if ac.off != "" {
		return privacy.Infinite()
	}
	type key struct{ w, be, bx float64 }
	cp := &Accountant{alg: ac.alg, eta: ac.eta, xi: ac.xi, pre: ac.pre, alpha: ac.alpha, gamma: ac.gamma}
	return privacy.MaxDistinct(len(ac.agents),
		func(i int) key { return key{ac.agents[i].ser.w, ac.eta.Base(i), ac.xi.Base(i)} },
		func(i int) privacy.Amount {
			a := newAccount(ac.agents[i].ser.w, ac.eta, ac.xi, i)
			for k := 1; k < iterations; k++ {
				if ac.Stop(k) {
					return privacy.Infinite() // cancelled: the calibration reports it
				}
				memo := lagMemo{at: -1}
				cp.step(&a, k, cp.gamma.At(k-1), cp.scalesAt(k), &memo)
			}
			if a.infinite {
				return privacy.Infinite()
			}
			return a.sum.Amount()
		})
}

// InfiniteHorizon is Corollary 3: the budget that holds for every number
// of iterations when γ_k = γ/(m+k)^p and β_k = 1/(m+k)^q with m > 0,
// p ≥ 0 and q < p − 2,
//
//	ε∞ = max_i 2√r·C·γ·P_⌈p⌉(w_ii) / (m^p (1−w_ii)^{⌈p⌉+1}) ·
//	     [ Z(p−q, m+1)/(b_η w_ii^m) + α·Z(p−q−1, m+1)/(b_ξ w_ii^{m+1}) ]
//
// with P_n the Eulerian polynomial and Z the Hurwitz zeta function. The
// printed eq. (23) lacks the factor 1/(b_η w_ii^m) on the first series;
// eq. (28) of the proof shows it belongs there (spec §5.4). A decay
// c/(m+k)^q counts as β_k = (m+k)^{−q} with the scale b·c.
func InfiniteHorizon(p Params, dim int, diag []float64, eta, xi *noise.Spec) method.Budget {
	b := method.Budget{
		Source: Source + ", Corollary 3, eq. (23) with the factor 1/(b_η·w_ii^m) of eq. (28)",
		Formula: "ε∞ = max_i 2√r·C·γ·P_⌈p⌉(w_ii)/(m^p (1−w_ii)^{⌈p⌉+1}) · " +
			"[ Z(p−q, m+1)/(b_η w_ii^m) + α·Z(p−q−1, m+1)/(b_ξ w_ii^{m+1}) ]",
	}
	gam, mg, pg, ok := polyOf(p.Gamma)
	if !ok {
		b.Reason = fmt.Sprintf("Corollary 3 needs γ_k = γ/(m+k)^p; γ_k is %v", p.Gamma)
		return b
	}
	ce, me, qe, okE := polyOf(eta.Decay)
	cx, mx, qx, okX := polyOf(xi.Decay)
	switch {
	case !okE || !okX:
		b.Reason = fmt.Sprintf("Corollary 3 needs β_k = 1/(m+k)^q; the decays are %v (η) and %v (ξ)", eta.Decay, xi.Decay)
		return b
	case qe != qx || (me != mx && qe != 0):
		b.Reason = fmt.Sprintf("Corollary 3 takes one β_k for both messages; the decays are %v (η) and %v (ξ)", eta.Decay, xi.Decay)
		return b
	}
	q := qe
	m := mg
	switch {
	case p.Gamma.Kind == noise.Constant && q != 0:
		m = me // γ_k = γ/(m+k)^0 for any m
	case p.Gamma.Kind == noise.Constant:
		m = 1
	case q != 0 && me != mg:
		b.Reason = fmt.Sprintf("Corollary 3 takes the same m in γ_k and β_k; γ_k has m = %g and β_k has m = %g", mg, me)
		return b
	}
	if !(q < pg-2) {
		b.Reason = fmt.Sprintf("Corollary 3 needs q < p − 2 (so that Σγ_k < ∞); here p = %g and q = %g. Every exact case of Theorem 1 has p ≤ 1, so its ε grows without bound with K (spec §5.5)", pg, q)
		return b
	}
	if !(m > 0) {
		b.Reason = fmt.Sprintf("Corollary 3 needs m > 0 (got %g)", m)
		return b
	}
	if eta.IsOff() || xi.IsOff() {
		b.Reason = offReason(eta, xi)
		return b
	}
	if pg > maxEulerian {
		// P_⌈p⌉ sums to ⌈p⌉!, which overflows a float64 past 170, and its
		// O(⌈p⌉²) recursion would not end for p = 10¹² (the probe's hang).
		b.Reason = fmt.Sprintf("Corollary 3's bound needs the Eulerian polynomial of degree ⌈p⌉, whose coefficients overflow a float64 beyond ⌈p⌉ = %d; here p = %g", maxEulerian, pg)
		return b
	}
	n := int(math.Ceil(pg))
	z1 := Hurwitz(pg-q, m+1)
	z2 := Hurwitz(pg-q-1, m+1)
	pre := 2 * math.Sqrt(float64(dim)) * p.GradientBound * gam / num.Pow(m, pg)
	best, arg := math.Inf(-1), 0
	for i, w := range diag {
		if !(w > 0 && w < 1) {
			b.Reason = fmt.Sprintf("Corollary 3 needs 0 < w_ii < 1; agent %d has w_ii = %g", i, w)
			return b
		}
		be, bx := eta.Base(i)*ce, xi.Base(i)*cx
		if be == 0 || bx == 0 {
			b.Reason = fmt.Sprintf("agent %d adds no noise on a channel", i)
			return b
		}
		// In logs: w^m and (1−w)^{⌈p⌉+1} under- and overflow for extreme w.
		l := num.Log(pre*Eulerian(n, w)) - float64(float64(n+1)*num.Log(1-w)) +
			num.Log(z1/(be*num.Pow(w, m))+p.Alpha*z2/(bx*num.Pow(w, m+1)))
		if l > best {
			best, arg = l, i
		}
	}
	b.Available = true
	b.Epsilon = privacy.OfLog10(best / math.Ln10)
	b.Agent = arg
	b.Inputs = []privacy.Input{
		privacy.Num("r (dimension)", float64(dim)), privacy.Num("C", p.GradientBound), privacy.Num("α", p.Alpha),
		privacy.Num("γ", gam), privacy.Num("m", m), privacy.Num("p", pg), privacy.Num("q", q),
		privacy.Num("⌈p⌉", float64(n)), privacy.Num("w_ii (largest ε)", diag[arg]),
		privacy.Num("b_η (largest ε)", eta.Base(arg)*ce), privacy.Num("b_ξ (largest ε)", xi.Base(arg)*cx),
		privacy.Num("Z(p−q, m+1)", z1), privacy.Num("Z(p−q−1, m+1)", z2),
	}
	return b
}

// polyOf reads a schedule as c/(m+k)^p: a constant c is p = 0.
func polyOf(s noise.Schedule) (c, m, p float64, ok bool) {
	switch s.Kind {
	case noise.Polynomial:
		return s.C, s.M, s.P, true
	case noise.Constant:
		return s.C, 0, 0, true
	}
	return 0, 0, 0, false
}

// maxEulerian is the largest degree whose Eulerian numbers (summing to
// n!) fit a float64.
const maxEulerian = 170

// Eulerian returns the Eulerian polynomial P_n(w) = Σ_{j<n} A(n, j)·w^j
// (P_0 = 1), with A(n, j) = (j+1)·A(n−1, j) + (n−j)·A(n−1, j−1): the
// polynomial of Σ_{t≥1} t^n w^t = w·P_n(w)/(1−w)^{n+1} (eq. 24).
func Eulerian(n int, w float64) float64 {
	if n <= 0 {
		return 1
	}
	row := []float64{1} // A(1, ·)
	for k := 2; k <= n; k++ {
		next := make([]float64, k)
		for j := range k {
			v := 0.0
			if j < len(row) {
				v += float64(float64(j+1) * row[j])
			}
			if j >= 1 {
				v += float64(float64(k-j) * row[j-1])
			}
			next[j] = v
		}
		row = next
	}
	s, wj := 0.0, 1.0
	for _, a := range row {
		s += float64(a * wj)
		wj *= w
	}
	return s
}

// Hurwitz returns the Hurwitz zeta function Z(s, a) = Σ_{k≥0} (a+k)^{−s}
// for s > 1 and a > 0 (so Σ_{k=m+1}^∞ k^{−s} = Z(s, m+1) for integer m):
// thirty terms summed, the rest by Euler–Maclaurin with seven Bernoulli
// corrections, accurate to a few ulps for the exponents of Corollary 3.
func Hurwitz(s, a float64) float64 {
	if !(s > 1) || !(a > 0) {
		return math.Inf(1)
	}
	const terms = 30
	sum := 0.0
	for k := range terms {
		sum += num.Pow(a+float64(k), -s)
	}
	x := a + terms
	sum += num.Pow(x, 1-s)/(s-1) + float64(0.5*num.Pow(x, -s))
	// Σ_j B_2j/(2j)! · s(s+1)…(s+2j−2) · x^{−s−2j+1}
	bern := []float64{1.0 / 6, -1.0 / 30, 1.0 / 42, -1.0 / 30, 5.0 / 66, -691.0 / 2730, 7.0 / 6}
	poch, fact, xp := s, 2.0, num.Pow(x, -s-1)
	for j, bj := range bern {
		sum += float64(bj / fact * poch * xp)
		k := float64(2*j + 2)
		poch *= (s + k - 1) * (s + k)
		fact *= (k + 1) * (k + 2)
		xp /= x * x
	}
	return sum
}

// Theorem3 is the predicted steady-state error of the constant case
// (γ_k = β_k = 1): limsup E‖x_k − 1⊗x*‖² ≤ 2n·θ1 + 2θ2 (eq. 35), with θ1,
// θ2 the first two entries of (I − A)⁻¹B (eq. 31), d_I = 1, and σ_η², σ_ξ²
// the per-agent noise variances E‖η_i‖² = r·Var(one coordinate) (the
// largest over agents). It holds when α < 1/(μ+L) (Lemma 1, for eq. 30)
// and ρ(A) < 1; otherwise the reason says which fails.
func Theorem3(p Params, n, dim int, mu, l, rhoW, rhoWo float64, eta, xi *noise.Spec) method.PredictedError {
	pe := method.PredictedError{
		Source:  Source + ", Theorem 3, eqs. (30)–(31) and (35)",
		Formula: "limsup E‖x_k − 1x*‖² ≤ 2n·θ1 + 2θ2, (θ1, θ2, θ3) = (I − A)⁻¹B",
	}
	switch {
	case p.Gamma.Kind != noise.Constant || p.Gamma.C != 1:
		pe.Reason = fmt.Sprintf("Theorem 3 is for γ_k = 1; γ_k is %v", p.Gamma)
		return pe
	case eta.Decay.Kind != noise.Constant || xi.Decay.Kind != noise.Constant:
		pe.Reason = fmt.Sprintf("Theorem 3 is for a constant noise factor β_k = 1; the decays are %v (η) and %v (ξ)", eta.Decay, xi.Decay)
		return pe
	case n < 2:
		pe.Reason = "Theorem 3 needs at least two agents"
		return pe
	case !(rhoW < 1):
		pe.Reason = fmt.Sprintf("Theorem 3 needs ρ_w < 1 (got %g)", rhoW)
		return pe
	case !(mu > 0):
		pe.Reason = "Theorem 3 needs strongly convex objectives (μ > 0)"
		return pe
	}
	sig := func(s *noise.Spec) float64 {
		v := 0.0
		for i := range n {
			v = max(v, float64(dim)*s.Variance(float64(s.Base(i)*s.Decay.C)))
		}
		return v
	}
	se, sx := sig(eta), sig(xi)
	a := p.Alpha
	A, B := theorem3Matrices(a, mu, l, rhoW, rhoWo, float64(n), se, sx)
	rho := perronRoot(A)
	pe.Rate = rho
	pe.Inputs = []privacy.Input{
		privacy.Num("n", float64(n)), privacy.Num("α", a), privacy.Num("μ", mu), privacy.Num("L", l),
		privacy.Num("ρ_w", rhoW), privacy.Num("ρ(W_o)", rhoWo), privacy.Num("d_I", 1),
		privacy.Num("σ_η² = E‖η_i‖²", se), privacy.Num("σ_ξ² = E‖ξ_i‖²", sx),
		privacy.Num("ρ(A)", rho), privacy.Num("Theorem 3's sufficient α bound", Theorem3StepBound(mu, l, rhoW)),
	}
	if !(a < 1/(mu+l)) {
		pe.Reason = fmt.Sprintf("eq. (30) needs α < 1/(μ+L) = %.4g (Lemma 1); α = %g", 1/(mu+l), a)
		return pe
	}
	if !(rho < 1) {
		pe.Reason = fmt.Sprintf("ρ(A) = %.6g ≥ 1, so eq. (30) bounds nothing: α = %g exceeds what Theorem 3 covers here (its sufficient bound is %.3g)", rho, a, Theorem3StepBound(mu, l, rhoW))
		return pe
	}
	var ia [3][3]float64 // I − A
	for i := range 3 {
		for j := range 3 {
			ia[i][j] = -A[i][j]
		}
		ia[i][i]++
	}
	th, ok := solve3(ia, B)
	if !ok {
		pe.Reason = "I − A is singular"
		return pe
	}
	pe.Available = true
	pe.Bound = float64(2*float64(n)*th[0]) + float64(2*th[1])
	pe.PerAgent = pe.Bound / float64(n)
	pe.Inputs = append(pe.Inputs, privacy.Num("θ1", th[0]), privacy.Num("θ2", th[1]), privacy.Num("θ3", th[2]))
	return pe
}

// theorem3Matrices returns A and B of eq. (31) with d_I = 1.
func theorem3Matrices(a, mu, l, rhoW, rhoWo, n, se, sx float64) (A [3][3]float64, B [3]float64) {
	r2 := float64(rhoW * rhoW)
	t := 1 - r2
	l2 := l * l
	A = [3][3]float64{
		{1 - float64(a*mu), 2 * a * l2 / (mu * n), 0},
		{0, (1 + r2) / 2, 2 * a * a / t},
		{32 * n * a * a * l2 * l2 / t, 64 * l2 / t, float64((1+r2)/2) + 16*a*a*l2/t},
	}
	o2 := rhoWo * rhoWo
	B = [3]float64{
		o2 * (float64(a*a*se) + sx),
		o2 * n * sx,
		o2 * (float64(24*n*se) + float64(4*n*l2*sx)) / t,
	}
	return A, B
}

// Theorem3StepBound is Theorem 3's sufficient condition on α (d_I = 1):
// min{1/(μ+L), (1−ρ_w²)/(4√2·L), √(2d3/(d2 + √(d2² + 4d1d3)))}.
func Theorem3StepBound(mu, l, rhoW float64) float64 {
	t := 1 - float64(rhoW*rhoW)
	d1 := 128 * num.Pow(l, 6) / (mu * t * t)
	d2 := float64(8*mu*l*l) + 128*mu*l*l/(t*t)
	d3 := float64(mu * t * t / 4)
	return min(1/(mu+l), t/(4*math.Sqrt2*l), math.Sqrt(2*d3/(d2+math.Sqrt(float64(d2*d2)+float64(4*d1*d3)))))
}

// perronRoot returns ρ(A) of a nonnegative irreducible 3×3 matrix by
// bisection on the Collatz–Wielandt criterion: λ > ρ(A) exactly when
// (λI − A)⁻¹·1 exists and is positive (it is Σ_k A^k·1/λ^{k+1}).
func perronRoot(A [3][3]float64) float64 {
	hi := 0.0
	for _, row := range A {
		hi = max(hi, row[0]+row[1]+row[2]) // ρ ≤ the largest row sum
	}
	lo := 0.0
	above := func(lam float64) bool {
		var M [3][3]float64
		for i := range 3 {
			for j := range 3 {
				M[i][j] = -A[i][j]
			}
			M[i][i] += lam
		}
		x, ok := solve3(M, [3]float64{1, 1, 1})
		return ok && x[0] > 0 && x[1] > 0 && x[2] > 0
	}
	for range 200 {
		mid := float64(0.5 * (lo + hi))
		if mid <= lo || mid >= hi {
			break
		}
		if above(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// solve3 solves M·x = b by Gaussian elimination with partial pivoting.
func solve3(M [3][3]float64, b [3]float64) ([3]float64, bool) {
	for c := range 3 {
		p := c
		for r := c + 1; r < 3; r++ {
			if math.Abs(M[r][c]) > math.Abs(M[p][c]) {
				p = r
			}
		}
		if M[p][c] == 0 {
			return b, false
		}
		M[c], M[p] = M[p], M[c]
		b[c], b[p] = b[p], b[c]
		for r := c + 1; r < 3; r++ {
			f := M[r][c] / M[c][c]
			for k := c; k < 3; k++ {
				M[r][k] -= float64(f * M[c][k])
			}
			b[r] -= float64(f * b[c])
		}
	}
	var x [3]float64
	for r := 2; r >= 0; r-- {
		s := b[r]
		for k := r + 1; k < 3; k++ {
			s -= float64(M[r][k] * x[k])
		}
		x[r] = s / M[r][r]
	}
	return x, true
}

// Convergence says which of the paper's convergence results covers
// γ_k = γ/(m+k)^p with noise factor β_k = 1/(m+k)^q.
func Convergence(gamma, beta noise.Schedule) string {
	if gamma.Kind == noise.Constant && beta.Kind == noise.Constant {
		return "Theorem 3 (γ_k = β_k constant): linear convergence to a neighbourhood of x* whose size the predicted error bounds"
	}
	if gamma.Kind == noise.Geometric {
		return "outside Theorem 1: a geometric γ_k is summable, so expect a neighbourhood of x*, not exact convergence"
	}
	_, _, p, _ := polyOf(gamma)
	q := 0.0
	switch beta.Kind {
	case noise.Polynomial:
		q = beta.P
	case noise.Geometric:
		q = math.Inf(1) // decays faster than any power
	}
	switch {
	case p == 0 && q > 0:
		return fmt.Sprintf("Theorem 1, case 1 (p = 0 < q = %g): exact convergence in mean square, errors O((m+k)^−2q), for αγ small enough", q)
	case p > 0 && p <= 1 && q > p:
		return fmt.Sprintf("Theorem 1, case 2 (0 < p = %g ≤ 1, q = %g > p): exact convergence in mean square, E‖x̄_k − x*‖² = O((m+k)^−%g), for αγ > %g/μ", p, q, min(2*q-p, 2*p), min(2*q-p, 2*p))
	case p > 1 && q >= p/2:
		return fmt.Sprintf("Theorem 1, case 3 (p = %g > 1, q = %g ≥ p/2): convergence to a neighbourhood of x*, not exact", p, q)
	}
	return fmt.Sprintf("outside Theorem 1's cases (p = %g, q = %g; the cases are p = 0 < q; 0 < p ≤ 1 with q > p; p > 1 with q ≥ p/2): no convergence guarantee", p, q)
}
