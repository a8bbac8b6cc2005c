package privacy

import (
	"math"

	"dpsim/core/check"
	"dpsim/core/num"
)

// This file is the ρ-zCDP accountant shared by every Gaussian-noise
// algorithm (DP-RECAL and its baselines): the zCDP of one Gaussian
// release, sequential composition, the geometric sum of a noise variance
// that shrinks by 1/R per release, and the conversions between ρ-zCDP
// and (ε, δ)-DP in both directions.
//
// Two conversions are offered. The simple one, ε = ρ + 2√(ρ ln(1/δ))
// (Bun & Steinke 2016, Prop. 1.3), is the one the DP-RECAL paper prints.
// The tight one (Canonne, Kamath & Steinke 2020, Cor. 13; OpenDP's
// cdp_epsilon) minimises over the Rényi order a > 1
//
//	ε(a) = aρ + (ln(1/δ) + (a−1)·ln(1 − 1/a) − ln a)/(a − 1),
//
// which is never larger than the simple one: at a = 1 + √(ln(1/δ)/ρ) the
// simple bound is aρ + ln(1/δ)/(a−1), and the two extra terms are ≤ 0.
//
// Every logarithm and power goes through core/num so that a ledger is the
// same natively and under js/wasm.

// Conversion names a way to turn ρ-zCDP into (ε, δ)-DP.
type Conversion int

const (
	// Tight is the optimal-order conversion of Canonne, Kamath and
	// Steinke (2020), Cor. 13, as in OpenDP.
	Tight Conversion = iota
	// Simple is ε = ρ + 2√(ρ ln(1/δ)), Bun and Steinke (2016), Prop. 1.3,
	// the conversion the DP-RECAL paper uses.
	Simple
)

// String returns "tight" or "simple".
func (c Conversion) String() string {
	switch c {
	case Tight:
		return "tight"
	case Simple:
		return "simple"
	}
	return "unknown"
}

// ParseConversion reads "tight" or "simple"; field names the input in the
// error.
func ParseConversion(field, s string) (Conversion, error) {
	switch s {
	case "tight":
		return Tight, nil
	case "simple":
		return Simple, nil
	}
	return 0, check.Errorf(field, "must be \"tight\" or \"simple\", got %q", s)
}

// Epsilon converts ρ-zCDP into the ε of (ε, δ)-DP with conversion c.
// It returns 0 for ρ = 0 and +Inf for ρ = +Inf; callers validate ρ ≥ 0
// and δ in (0, 1) beforehand (CheckZCDP), and a bad input gives NaN.
func (c Conversion) Epsilon(rho, delta float64) float64 {
	if c == Simple {
		return ZCDPEpsilonSimple(rho, delta)
	}
	return ZCDPEpsilon(rho, delta)
}

// Rho returns the largest ρ whose conversion c gives at most eps at
// delta: the inverse of Epsilon.
func (c Conversion) Rho(eps, delta float64) float64 {
	if c == Simple {
		return ZCDPRhoSimple(eps, delta)
	}
	return ZCDPRho(eps, delta)
}

// CheckZCDP validates the inputs of a conversion: ρ ≥ 0 (+Inf allowed: no
// guarantee) and δ in (0, 1). The fields name ρ and δ in the error.
func CheckZCDP(rhoField string, rho float64, deltaField string, delta float64) error {
	if math.IsNaN(rho) || rho < 0 {
		return check.Errorf(rhoField, "ρ must be ≥ 0, got %v", rho)
	}
	if !(delta > 0 && delta < 1) {
		return check.Errorf(deltaField, "δ must be in (0, 1), got %v", delta)
	}
	return nil
}

// GaussianRho returns the ρ-zCDP of one Gaussian release with ℓ2
// sensitivity delta2 and noise standard deviation sigma: Δ²/(2σ²)
// (Bun & Steinke 2016, Prop. 1.6). σ = 0 gives +Inf (no guarantee).
func GaussianRho(delta2, sigma float64) float64 {
	if sigma == 0 {
		if delta2 == 0 {
			return 0
		}
		return math.Inf(1)
	}
	return float64(delta2 * delta2 / (2 * sigma * sigma))
}

// ComposeRho returns the ρ of the sequential composition of releases with
// the given ρ: their sum (zCDP composes additively). Parallel composition
// over disjoint data (different agents) is the maximum, not the sum.
func ComposeRho(rhos ...float64) float64 {
	s := 0.0
	for _, r := range rhos {
		s += r
	}
	return s
}

// GeometricRho returns the ρ of count releases whose noise variance
// shrinks by 1/R per release, so that release t costs rho1·R^(t−1):
// rho1·(R^count − 1)/(R − 1), or rho1·count when R = 1. It overflows to
// +Inf, never to NaN, and is 0 for count = 0.
func GeometricRho(rho1, r float64, count int) float64 {
	if count <= 0 || rho1 == 0 {
		return 0
	}
	if r == 1 {
		return rho1 * float64(count)
	}
	g := (num.Pow(r, float64(count)) - 1) / (r - 1)
	if math.IsInf(g, 0) {
		return math.Inf(1)
	}
	return rho1 * g
}

// GeometricRho1 inverts GeometricRho: the first-release ρ_1 whose count
// releases sum to total.
func GeometricRho1(total, r float64, count int) float64 {
	if count <= 0 {
		return math.Inf(1)
	}
	if r == 1 {
		return total / float64(count)
	}
	return total * (r - 1) / (num.Pow(r, float64(count)) - 1)
}

// ZCDPEpsilonSimple is the simple conversion ε = ρ + 2√(ρ ln(1/δ)).
func ZCDPEpsilonSimple(rho, delta float64) float64 {
	if !(rho >= 0) || !(delta > 0 && delta < 1) {
		return math.NaN()
	}
	if math.IsInf(rho, 1) {
		return rho
	}
	l := num.Log(1 / delta)
	if p := rho * l; !math.IsInf(p, 1) {
		return rho + 2*math.Sqrt(p)
	}
	// ρ·ln(1/δ) overflows near float64's top: the root of each factor
	// apart keeps ε finite (and equal to ρ to every digit).
	return rho + float64(2*math.Sqrt(rho)*math.Sqrt(l))
}

// ZCDPRhoSimple inverts the simple conversion in closed form:
// ρ = (√(ln(1/δ) + ε) − √ln(1/δ))².
func ZCDPRhoSimple(eps, delta float64) float64 {
	if !(eps >= 0) || !(delta > 0 && delta < 1) {
		return math.NaN()
	}
	if math.IsInf(eps, 1) {
		return eps
	}
	l := num.Log(1 / delta)
	d := math.Sqrt(l+eps) - math.Sqrt(l)
	return d * d
}

// ZCDPEpsilon is the tight conversion: the minimum over the Rényi order
// a > 1 of aρ + (ln(1/δ) + (a−1)ln(1−1/a) − ln a)/(a−1), never above the
// simple conversion and never below 0.
//
// The derivative of that function is ρ − (ln(1/δ) − ln a)/(a−1)², so the
// minimiser is the one root of h(a) = ρ(a−1)² + ln a − ln(1/δ), which lies
// in (1, 1 + √(ln(1/δ)/ρ)] (h < 0 at 1, h = ln a > 0 at the right end);
// bisection finds it to the last bit. For a large ρ that interval is
// narrower than float64's spacing near 1 (ρ ≳ 5.6·10³² at δ = 10⁻³ made
// it empty, a = 1 and 0·log 0 = NaN), so there the search runs on
// u = a − 1 instead (zcdpEpsilonNearOne): ε stays finite for every
// finite ρ.
func ZCDPEpsilon(rho, delta float64) float64 {
	if !(rho >= 0) || !(delta > 0 && delta < 1) {
		return math.NaN()
	}
	if rho == 0 || math.IsInf(rho, 1) {
		return rho
	}
	l := num.Log(1 / delta)
	if w := math.Sqrt(l / rho); w < nearOne {
		return min(zcdpEpsilonNearOne(rho, l, w), ZCDPEpsilonSimple(rho, delta))
	}
	lo, hi := 1.0, 1+math.Sqrt(l/rho)
	for i := 0; i < 200; i++ {
		mid := lo + float64((hi-lo)/2)
		if mid <= lo || mid >= hi {
			break
		}
		if float64(rho*(mid-1)*(mid-1))+num.Log(mid)-l < 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	a := hi
	eps := float64(a*rho) + (l+float64((a-1)*num.Log((a-1)/a))-num.Log(a))/(a-1)
	if s := ZCDPEpsilonSimple(rho, delta); eps > s {
		eps = s
	}
	if eps < 0 {
		eps = 0
	}
	return eps
}

// ZCDPRho inverts the tight conversion: the ρ whose ZCDPEpsilon is eps at
// delta, by bisection to a relative 1e-12 in ρ (ε is reproduced to
// better than 1e-9). The simple inverse is a lower bracket, because the
// tight ε is never larger than the simple one.
func ZCDPRho(eps, delta float64) float64 {
	if !(eps >= 0) || !(delta > 0 && delta < 1) {
		return math.NaN()
	}
	if eps == 0 || math.IsInf(eps, 1) {
		return eps
	}
	lo := ZCDPRhoSimple(eps, delta)
	hi := 2*lo + eps
	for ZCDPEpsilon(hi, delta) < eps {
		hi *= 2
	}
	for i := 0; i < 200 && hi-lo > 1e-12*hi; i++ {
		mid := lo + float64((hi-lo)/2)
		if ZCDPEpsilon(mid, delta) <= eps {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// nearOne is the width √(ln(1/δ)/ρ) of the order's search interval below
// which ZCDPEpsilon searches u = a − 1 rather than a: there a − 1 would
// keep fewer than 30 of its bits. Above it the two searches agree to
// float64's precision, so ledgers of ordinary ρ keep their bits.
const nearOne = 1e-6

// zcdpEpsilonNearOne is the tight conversion for a large ρ, whose
// optimal order a = 1 + u has u ∈ (0, w], w = √(l/ρ) < nearOne, l =
// ln(1/δ). With a = 1 + u the objective is
//
//	ε(u) = ρ + ρu + l/u + ln u − ln(1+u) − ln(1+u)/u,
//
// minimised where h(u) = ρu² + ln(1+u) − l = 0. Both are evaluated with
// the series of ln(1+u) (u < 10⁻⁶: its fifth term is below 10⁻³⁰ of u),
// so nothing cancels, and bisection on u, whose interval starts at 0,
// finds the root to the last bit.
func zcdpEpsilonNearOne(rho, l, w float64) float64 {
	log1p := func(u float64) float64 { return float64(u * (1 - float64(u*(0.5-float64(u*(1.0/3-float64(u*0.25))))))) }
	lo, hi := 0.0, w
	for i := 0; i < 200; i++ {
		mid := lo + float64((hi-lo)/2)
		if mid <= lo || mid >= hi {
			break
		}
		if float64(rho*mid*mid)+log1p(mid)-l < 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	u := hi
	// The small terms first, then ρ: ln(1+u)/u = 1 − u/2 + u²/3 − u³/4.
	excess := float64(rho*u) + l/u + num.Log(u) - log1p(u) - (1 - float64(u*(0.5-float64(u*(1.0/3-float64(u*0.25))))))
	return rho + excess
}
