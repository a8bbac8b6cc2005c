package audit

import (
	"fmt"
	"math"

	"dpsim/core/num"
)

// Rate is an observed frequency with its exact (Clopper–Pearson)
// confidence bounds.
type Rate struct {
	// Count of Runs were counted.
	Count, Runs int
	// Estimate is Count/Runs.
	Estimate float64
	// Lower and Upper bound the true rate, each one-sided at the level the
	// caller asked for.
	Lower, Upper float64
}

// ClopperPearson returns the exact one-sided confidence bounds at level
// (0.5 < level < 1) on the success probability p of a binomial law from
// k successes in n trials (Clopper & Pearson 1934): the upper bound is the
// p at which P(Bin(n, p) ≤ k) = 1 − level, the lower one the p at which
// P(Bin(n, p) ≥ k) = 1 − level. As Beta quantiles: upper =
// B⁻¹(level; k+1, n−k), lower = B⁻¹(1−level; k, n−k+1).
func ClopperPearson(k, n int, level float64) (Rate, error) {
	if n < 1 || k < 0 || k > n {
		return Rate{}, fmt.Errorf("runs: need 0 ≤ count ≤ runs and runs ≥ 1, got %d of %d", k, n)
	}
	if !(level > 0.5 && level < 1) {
		return Rate{}, fmt.Errorf("confidence: must be in (0.5, 1), got %v", level)
	}
	r := Rate{Count: k, Runs: n, Estimate: float64(k) / float64(n), Upper: 1}
	a := 1 - level
	switch k {
	case 0:
		// (1 − p)^n = 1 − level.
		r.Upper = -expm1(num.Log(a) / float64(n))
	case n:
		r.Lower = num.Exp(num.Log(a) / float64(n))
	}
	if k < n && k > 0 {
		r.Upper = betaInv(level, float64(k+1), float64(n-k))
	}
	if k > 0 && k < n {
		r.Lower = betaInv(a, float64(k), float64(n-k+1))
	}
	return r, nil
}

// betaInv returns x with I_x(a, b) = y, by bisection (I is increasing in
// x): 200 halvings reach the last bit of a double.
func betaInv(y, a, b float64) float64 {
	lo, hi := 0.0, 1.0
	for range 200 {
		mid := lo + float64((hi-lo)/2)
		if mid == lo || mid == hi {
			break
		}
		if regIncBeta(mid, a, b) < y {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}

// regIncBeta is the regularized incomplete beta function I_x(a, b), by
// its continued fraction (modified Lentz; Numerical Recipes §6.4) on the
// side of the mean where it converges fast.
func regIncBeta(x, a, b float64) float64 {
	switch {
	case x <= 0:
		return 0
	case x >= 1:
		return 1
	}
	lnFront := float64(a*num.Log(x)) + float64(b*num.Log1p(-x)) - lnBeta(a, b)
	if x < (a+1)/(a+b+2) {
		return num.Exp(lnFront) * betaCF(x, a, b) / a
	}
	return 1 - num.Exp(lnFront)*betaCF(1-x, b, a)/b
}

// betaCF evaluates the continued fraction of I_x(a, b): each step m
// takes its even and its odd partial numerator in turn.
func betaCF(x, a, b float64) float64 {
	const tiny = 1e-300
	qab, qap, qam := a+b, a+1, a-1
	c, d := 1.0, 1-float64(qab*x)/qap
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	h := d
	// lentz folds the partial numerator aa into (c, d) and returns the
	// factor it multiplies h by.
	lentz := func(aa float64) float64 {
		d = 1 + float64(aa*d)
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = 1 + aa/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		return float64(d * c)
	}
	for m := 1; m <= 100000; m++ {
		fm := float64(m)
		m2 := 2 * fm
		h *= lentz(float64(fm*(b-fm)) * x / float64((qam+m2)*(a+m2)))
		del := lentz(-float64((a+fm)*(qab+fm)) * x / float64((a+m2)*(qap+m2)))
		h *= del
		if math.Abs(del-1) < 1e-16 {
			break
		}
	}
	return h
}

// lnBeta is ln B(a, b) = lnΓ(a) + lnΓ(b) − lnΓ(a+b).
func lnBeta(a, b float64) float64 { return lnGamma(a) + lnGamma(b) - lnGamma(a+b) }

// lnGamma is ln Γ(x) for x > 0, bit-identical on every architecture
// (math.Lgamma calls math.Log, which amd64 computes in assembly): below 10
// by Γ(x) = Γ(x+n)/(x(x+1)…(x+n−1)), then Stirling's series, whose next
// term at x = 10 is below 10⁻¹⁶ of the result.
func lnGamma(x float64) float64 {
	shift := 0.0
	for x < 10 {
		shift -= num.Log(x)
		x++
	}
	z := 1 / float64(x*x)
	series := (1.0/12 - float64(z*(1.0/360-float64(z*(1.0/1260-float64(z*(1.0/1680-float64(z*(1.0/1188))))))))) / x
	return shift + float64((x-0.5)*num.Log(x)) - x + float64(0.5*num.Log(2*math.Pi)) + series
}

// expm1 is e^x − 1, accurate near 0, with the same bits on every platform
// (num.Expm1; the standard library's fuses on arm64).
func expm1(x float64) float64 { return num.Expm1(x) }
