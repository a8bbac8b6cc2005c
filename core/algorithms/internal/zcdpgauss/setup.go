package zcdpgauss

import (
	"math"

	"dpsim/core/check"
	"dpsim/core/method"
	"dpsim/core/noise"
	"dpsim/core/num"
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

// Noise is a baseline's resolved noise channel: the scenario's, or, with
// a target ε, a copy whose base scale σ_1 meets it.
type Noise struct {
	Spec *noise.Spec
	Set  Settings
	// Calibrated reports that σ_1 was set from target_epsilon and plf.
	Calibrated bool
	// Target and PLF are the calibration's inputs.
	Target float64
	PLF    int
}

// Prepare validates c against the channel named channel of env and
// returns the channel to draw from. With a target ε it is a copy of the
// channel with base scale 1, which Calibrate rescales once the ledger
// exists. prefix names the parameters in errors.
func Prepare(env *method.Env, prefix, channel string, c Common) (*Noise, error) {
	conv, err := privacy.ParseConversion(check.Join(prefix, "conversion"), c.Conversion)
	if err != nil {
		return nil, err
	}
	set := Settings{C: c.C, R: c.R, Delta: c.Delta, Conv: conv}
	sp := env.Noise[channel]
	field := check.Join("noise", channel)
	nz := &Noise{Spec: sp, Set: set}
	if c.TargetEpsilon > 0 {
		if sp.Scales != nil {
			return nil, check.Errorf(check.Join(field, "scales"), "per-agent scales and %s exclude each other: the calibration sets one σ_1", check.Join(prefix, "target_epsilon"))
		}
		if c.PLF < 1 {
			return nil, check.Errorf(check.Join(prefix, "plf"), "must be ≥ 1 with a target ε (got %d)", c.PLF)
		}
		cp := *sp
		cp.Scale, cp.Decay = 1, noise.Const(1)
		nz.Spec, nz.Calibrated, nz.Target, nz.PLF = &cp, true, c.TargetEpsilon, c.PLF
	}
	if err := Check(prefix, field, set, nz.Spec); err != nil {
		return nil, err
	}
	return nz, nil
}

// Calibrate sets σ_1 (the copy's base scale) so that an agent publishing
// PLF times spends exactly the target ε by the ledger ac (which must read
// nz.Spec): ρ scales as 1/σ_1², so σ_1 = √(ρ(σ_1 = 1)/ρ_target), with ρ at
// σ_1 = 1 the largest over the agents. A no-op without a target.
func (nz *Noise) Calibrate(ac *Accountant, prefix string) error {
	if !nz.Calibrated {
		return nil
	}
	best := privacy.Of(0)
	for i := range ac.n {
		r := ac.rhoAfter(i, nz.PLF)
		best = privacy.Max(best, r)
	}
	want := nz.Set.Conv.Rho(nz.Target, nz.Set.Delta)
	s1 := math.NaN()
	if !best.NoGuarantee() && best.Value() > 0 && want > 0 {
		s1 = math.Sqrt(best.Value() / want)
		if math.IsInf(best.Value(), 0) {
			s1 = num.Exp(0.5 * (best.Log10()*math.Ln10 - num.Log(want)))
		}
	}
	if !(s1 > 0) || s1 > 1e100 {
		return check.Errorf(check.Join(prefix, "target_epsilon"), "gives σ_1 = %v, outside (0, 1e100] (ε = %v, PLF = %d, R = %v)", s1, nz.Target, nz.PLF, nz.Set.R)
	}
	nz.Spec.Scale = s1
	return nil
}

// Inputs returns the ledger inputs of the noise: σ_1 and, when
// calibrated, the target and its PLF.
func (nz *Noise) Inputs() []privacy.Input {
	in := []privacy.Input{privacy.Num("σ_1", nz.Spec.Base(0)*nz.Spec.Decay.C)}
	if nz.Calibrated {
		in = append(in, privacy.Num("target ε", nz.Target), privacy.Num("target PLF", float64(nz.PLF)))
	}
	return in
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
