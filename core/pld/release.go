package pld

import (
	"fmt"
	"math"

	"dpsim/core/noise"
	"dpsim/core/num"
)

// Mechanism names a release's noise law, with core/noise's names.
type Mechanism string

// Mechanisms.
const (
	// Laplace: noise Lap(0, b) on a value whose ℓ1 sensitivity is Δ;
	// one release is (Δ/b, 0)-DP.
	Laplace Mechanism = noise.Laplace
	// Gaussian: noise N(0, σ²I) on a value whose ℓ2 sensitivity is Δ;
	// one release is μ-GDP with μ = Δ/σ.
	Gaussian Mechanism = noise.Gaussian
)

// Release is what an accountant charges an agent for one message: the
// noise law, its scale, and the sensitivity of the noised value to one
// agent's change of data, under the paper's adjacency. Count repeats it,
// so that a stretch of identical releases is one value.
//
// A vector release is one Release: for the Laplace mechanism the loss of
// a change of ℓ1 norm Δ is largest when the change sits in one coordinate
// (TestLaplaceSplitDominated checks the splits numerically), and the
// Gaussian mechanism's loss depends on the ℓ2 norm only.
type Release struct {
	Mechanism Mechanism `json:"mechanism"`
	// Scale is the noise's scale: Laplace b, Gaussian σ. 0 is no noise,
	// +Inf a release that says nothing.
	Scale float64 `json:"scale"`
	// Sensitivity is Δ: ℓ1 for Laplace, ℓ2 for Gaussian.
	Sensitivity float64 `json:"sensitivity"`
	// Count is how many times the release is made; 0 counts as 1.
	Count int64 `json:"count,omitempty"`
}

// MaxCount bounds a composition's number of releases (2⁴⁰), so that
// counts and sums of counts stay exact in a float64.
const MaxCount = 1 << 40

// Validate checks r, naming field (such as "releases[3]") in its one-line
// error.
func (r Release) Validate(field string) error {
	switch r.Mechanism {
	case Laplace, Gaussian:
	default:
		return fmt.Errorf("%s.mechanism: must be %q or %q, got %q", field, Laplace, Gaussian, r.Mechanism)
	}
	if math.IsNaN(r.Scale) || r.Scale < 0 {
		return fmt.Errorf("%s.scale: must be ≥ 0 (+Inf for no release), got %v", field, r.Scale)
	}
	if math.IsNaN(r.Sensitivity) || r.Sensitivity < 0 {
		return fmt.Errorf("%s.sensitivity: must be ≥ 0, got %v", field, r.Sensitivity)
	}
	if math.IsInf(r.Sensitivity, 1) && math.IsInf(r.Scale, 1) {
		return fmt.Errorf("%s: sensitivity and scale are both +Inf, so their ratio is undefined", field)
	}
	if r.Count < 0 || r.Count > MaxCount {
		return fmt.Errorf("%s.count: must be in 0…%d (0 counts as 1), got %d", field, int64(MaxCount), r.Count)
	}
	return nil
}

// times is the number of releases r stands for.
func (r Release) times() int64 { return max(r.Count, 1) }

// ratio returns Δ/scale (Laplace ε or Gaussian μ): 0 when the release
// says nothing of the agent, +Inf when it says everything, and when the
// quotient of two finite numbers overflows, +Inf with its natural log.
func (r Release) ratio() (v, logv float64) {
	switch {
	case r.Sensitivity == 0 || math.IsInf(r.Scale, 1):
		return 0, math.Inf(-1)
	case r.Scale == 0 || math.IsInf(r.Sensitivity, 1):
		return math.Inf(1), math.Inf(1)
	}
	v = r.Sensitivity / r.Scale
	if math.IsInf(v, 1) {
		return v, num.Log(r.Sensitivity) - num.Log(r.Scale)
	}
	return v, num.Log(v)
}
