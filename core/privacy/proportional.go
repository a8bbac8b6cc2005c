package privacy

import (
	"fmt"
	"math"

	"dpsim/core/num"
)

// The helpers below serve Laplace accountants whose ε is exactly
// proportional to 1/λ when every noise scale is multiplied by λ (GT-DP's
// eq. 18, DPOP's and DiaDSP's sums): each predicts ε once, at λ = 1, and
// derives the rest.

// Rescale returns ε at factor λ from e, the ε at λ = 1: e/λ, computed in
// log space (and 0 and +∞ unchanged).
func Rescale(e Amount, factor float64) Amount {
	if e.IsInf() || e.Value() == 0 {
		return e
	}
	return OfLog10(e.Log10() - num.Log(factor)/math.Ln10)
}

// ProportionalFactor returns the λ at which Rescale(e, λ) equals target,
// where e is the ε after iterations iterations at λ = 1; an infinite or a
// zero e has none, and the error says why.
func ProportionalFactor(e Amount, iterations int, target float64) (float64, error) {
	switch {
	case e.IsInf():
		return 0, fmt.Errorf("cannot be reached: a noise scale is 0 within %d iteration(s), so ε is infinite at every scale", iterations)
	case e.Value() == 0:
		return 0, fmt.Errorf("cannot be reached: after %d iteration(s) nothing sensitive has been released (ε = 0)", iterations)
	}
	return num.Exp((e.Log10() - num.Log10(target)) * math.Ln10), nil
}

// MaxDistinct returns the largest eps(i) over agents i < n, evaluating eps
// once per distinct key(i) (agents that share their self-weight and noise
// scales share their budget), and +∞ at the first infinite one.
func MaxDistinct[K comparable](n int, key func(i int) K, eps func(i int) Amount) Amount {
	seen := map[K]bool{}
	best := Of(0)
	for i := range n {
		k := key(i)
		if seen[k] {
			continue
		}
		seen[k] = true
		e := eps(i)
		if e.NoGuarantee() {
			return Infinite() // undefined counts as ∞ (see Max)
		}
		best = Max(best, e)
	}
	return best
}
