package pld

import (
	"math"

	"dpsim/core/num"
)

// Gaussian releases compose exactly: k releases of ratios μ_k = Δ_k/σ_k
// are together μ-GDP with μ = √Σμ_k² (Dong, Roth & Su 2022, Corollary
// 3.3), and a μ-GDP mechanism's privacy profile is
//
//	δ(ε) = Φ(−ε/μ + μ/2) − e^ε·Φ(−ε/μ − μ/2)
//
// (Balle & Wang 2018, Theorem 8). With w = ε/μ − μ/2 and v = w + μ the
// second term is φ(w)·R(v), R the Mills ratio Φc/φ (e^ε·φ(v) = φ(w)
// exactly), so neither term overflows for any μ or ε.

// gaussDelta is the profile δ(ε) of a μ-GDP mechanism.
func gaussDelta(mu, eps float64) float64 {
	if math.IsInf(eps, 1) {
		return 0
	}
	w := eps/mu - float64(mu/2)
	return max(normTail(w)-float64(normDensity(w)*mills(w+mu)), 0)
}

// gaussEpsilon returns the smallest ε ≥ 0 with gaussDelta(mu, ε) ≤ delta,
// its log₁₀, and the width of the bracket it was found in (ε is the
// bracket's upper end, so an upper bound). It bisects on w, where
// δ(w) = Φc(w) − φ(w)·R(w+μ) decreases, from w = −μ/2 (ε = 0) to the w
// where the bound ½e^{−w²/2} ≥ Φc(w) ≥ δ(w) reaches delta.
func gaussEpsilon(mu, delta float64) (eps, log10eps, width float64) {
	prof := func(w float64) float64 {
		return normTail(w) - float64(normDensity(w)*mills(w+mu))
	}
	lo := -mu / 2
	if prof(lo) <= delta {
		return 0, math.Inf(-1), 0
	}
	hi := max(math.Sqrt(-2*num.Log(2*delta)), lo)
	for range 200 {
		mid := lo + float64((hi-lo)/2)
		if mid == lo || mid == hi {
			break
		}
		if prof(mid) <= delta {
			hi = mid
		} else {
			lo = mid
		}
	}
	// ε = μ·(w + μ/2): μ·w + μ²/2 may overflow when μ is near 10¹⁵⁴.
	eps = mu * (hi + float64(mu/2))
	width = mu * (hi - lo)
	if math.IsInf(eps, 1) {
		return eps, (num.Log(mu) + num.Log(hi+float64(mu/2))) / math.Ln10, width
	}
	return eps, log10(eps), width
}
