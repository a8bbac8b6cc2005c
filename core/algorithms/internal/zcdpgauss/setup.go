package zcdpgauss

import (
	"math"

	"dpsim/core/check"
	"dpsim/core/method"
	"dpsim/core/noise"
	"dpsim/core/objective"
	"dpsim/core/privacy"
)

// Common are the privacy parameters every baseline declares, under the
// same JSON keys as DP-RECAL's (gradient_bound, attenuation, delta,
// conversion, target_epsilon, plf), so that one experiment can set them
// on every algorithm alike.
type Common struct {
	C             float64
	R             float64
	Delta         float64
	Conversion    string
	TargetEpsilon float64
	PLF           int
}

// Noise is a baseline's noise channel, as the scenario gives it, with
// the privacy settings its ledger reads and the target ε, if any, that
// the scenario calibrates the channel to (Target).
type Noise struct {
	Spec *noise.Spec
	Set  Settings
	// target and plf are target_epsilon and plf (0: no target).
	target float64
	plf    int
}

// Prepare validates c against the channel named channel of env and
// returns the channel to draw from: the scenario's, always (a target ε
// is met by the scenario scaling it, see Target). prefix names the
// parameters in errors.
func Prepare(env *method.Env, prefix, channel string, c Common) (*Noise, error) {
	conv, err := privacy.ParseConversion(check.Join(prefix, "conversion"), c.Conversion)
	if err != nil {
		return nil, err
	}
	set := Settings{C: c.C, R: c.R, Delta: c.Delta, Conv: conv}
	sp := env.Noise[channel]
	if c.TargetEpsilon > 0 && c.PLF < 1 {
		return nil, check.Errorf(check.Join(prefix, "plf"), "must be ≥ 1 with a target ε (got %d)", c.PLF)
	}
	if err := Check(prefix, check.Join("noise", channel), set, sp); err != nil {
		return nil, err
	}
	return &Noise{Spec: sp, Set: set, target: c.TargetEpsilon, plf: c.PLF}, nil
}

// Target returns the privacy target the parameters ask for, nil when
// target_epsilon is 0: ε after plf counts of unit ("publications",
// "activations"), predicted by the ledger ac over that unit
// (Accountant.PerAgent).
func (nz *Noise) Target(ac *Accountant, unit string) *method.Target {
	if !(nz.target > 0) {
		return nil
	}
	return &method.Target{Epsilon: nz.target, Horizon: nz.plf, Unit: unit,
		Param: "target_epsilon", HorizonParam: "plf", Predict: ac.PerAgent()}
}

// Inputs returns the ledger inputs of the noise: σ_1, the channel's
// base scale times its constant decay.
func (nz *Noise) Inputs() []privacy.Input {
	return []privacy.Input{privacy.Num("σ_1", nz.Spec.Base(0)*nz.Spec.Decay.C)}
}

// Warnings says when ε is nominal: the problem declares no gradient
// bound, or one above c, and the algorithm does not clip.
func Warnings(prob objective.Problem, prefix string, c float64, off bool) []check.Warning {
	if off {
		return nil
	}
	f := check.Join(prefix, "gradient_bound")
	if lp, ok := prob.(objective.Lipschitz); ok {
		if b, ok := lp.GradientBound(); ok {
			if b.Value > c {
				return []check.Warning{check.Warnf(f, "c = %g is below the problem's gradient bound %.6g: ε is nominal, not a guarantee", c, b.Value)}
			}
			return nil
		}
	}
	return []check.Warning{check.Warnf(f, "the problem declares no gradient bound: ε assumes ‖∇f_i‖ ≤ c = %g on every iterate, which may fail (DP-RECAL's Assumption 3)", c)}
}

// Proxer applies the prox of a composite problem's r, or nothing.
type Proxer struct {
	c objective.Composite
}

// NewProxer returns the prox of prob's r, the identity when prob is not
// composite.
func NewProxer(prob objective.Problem) Proxer {
	c, _ := prob.(objective.Composite)
	return Proxer{c: c}
}

// Apply writes prox_{step·r}(x) into out (out may be x).
func (p Proxer) Apply(x []float64, step float64, out []float64) {
	if p.c == nil {
		copy(out, x)
		return
	}
	p.c.Prox(x, step, out)
}

// Step returns the step a parameter gives, or, when it is 0, factor/L with
// L the problem's smoothness constant (objective.Smooth); a problem that
// declares none needs the step given. prefix and name name it in errors.
func Step(prob objective.Problem, prefix, name string, given, factor float64) (float64, error) {
	if given > 0 {
		return given, nil
	}
	l := 0.0
	if s, ok := prob.(objective.Smooth); ok {
		_, l = s.Smoothness()
	}
	if !(l > 0) || math.IsInf(l, 0) {
		return 0, check.Errorf(check.Join(prefix, name), "is required (> 0): the problem declares no smoothness constant L to take %g/L from", factor)
	}
	return factor / l, nil
}

// Smoothness returns the problem's smoothness constant L (the largest
// L_i, objective.Smooth), NaN when it declares none.
func Smoothness(prob objective.Problem) float64 {
	if s, ok := prob.(objective.Smooth); ok {
		if _, l := s.Smoothness(); l > 0 && !math.IsInf(l, 0) {
			return l
		}
	}
	return math.NaN()
}

// StepWarning warns when a step breaks its algorithm's convergence
// condition step < bound (DP-RECAL's Theorem 2: α_i < 2/(L+1); NIDS:
// α < 2/L; …): name is the step as the message shows it ("α", "α_3"),
// rule the bound's formula, l the problem's L shown beside it, and why
// what may then fail. It returns nil when the step is below the bound or
// the bound is unknown (NaN: the problem declares no L).
func StepWarning(field, name string, step, bound float64, rule string, l float64, why string) []check.Warning {
	if !(bound > 0) || step < bound {
		return nil
	}
	return []check.Warning{check.Warnf(field, "%s = %g is not below %s = %.6g with L = max_i L_i = %.6g: %s", name, step, rule, bound, l, why)}
}
