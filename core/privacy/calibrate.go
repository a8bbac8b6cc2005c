package privacy

import (
	"errors"
	"fmt"
	"math"

	"dpsim/core/check"
	"dpsim/core/num"
)

// Predictor is implemented by accountants that can tell, without running
// the algorithm, the budget it would spend: the largest per-agent ε after
// a number of iterations with every noise scale of every channel
// multiplied by a common factor λ > 0. The prediction must equal what the
// ledger reports after that many iterations of a run whose noise scales
// were multiplied by λ (sensitivities that depend on the run, such as a
// gradient bound seen only while running, are not allowed).
//
// It must be non-increasing in λ: more noise never costs more privacy,
// and non-decreasing in the iterations: budgets only accumulate.
// Calibrate relies on the first to bisect, and on the second to refuse at
// once, from a short horizon, a target that no factor can reach.
type Predictor interface {
	PredictEpsilon(iterations int, factor float64) Amount
}

// InversePredictor is a Predictor whose inverse has a closed form, for
// example a pure-DP Laplace accountant, whose ε is exactly ε(1)/λ.
type InversePredictor interface {
	Predictor
	// FactorFor returns the λ at which PredictEpsilon(iterations, λ)
	// equals target, or an error saying why there is none.
	FactorFor(iterations int, target float64) (float64, error)
}

// Calibration records what equal-privacy calibration did: the factor
// every noise scale was multiplied by so that the algorithm's own
// accountant gives the target ε after the given number of iterations.
type Calibration struct {
	// Target is the ε asked for.
	Target float64 `json:"target_epsilon"`
	// Iterations is the horizon the target holds at.
	Iterations int `json:"iterations"`
	// Factor multiplied every noise scale.
	Factor float64 `json:"factor"`
	// Method is "closed form" or "bisection".
	Method string `json:"method"`
	// Steps counts the predictions a bisection evaluated.
	Steps int `json:"steps,omitempty"`
	// Before is the predicted ε at the scales the scenario gave; After the
	// predicted ε at the calibrated scales.
	Before Amount `json:"epsilon_before"`
	After  Amount `json:"epsilon_after"`
	// Channels lists every channel's base scales before and after.
	Channels []ChannelScale `json:"channels"`
	// Field names the plug-in parameter that asked for the calibration
	// ("algorithm.params.target_epsilon"), and HorizonField the one that
	// set its horizon; both are empty for a scenario's calibrate section.
	Field        string `json:"field,omitempty"`
	HorizonField string `json:"horizon_field,omitempty"`
	// Unit is what Iterations counts when it is not iterations: an
	// agent's "publications" or "activations" (the plug-in's own unit,
	// DP-RECAL's privacy leakage frequency).
	Unit string `json:"unit,omitempty"`
}

// Tolerance is how close a calibration must bring ε to its target: the
// accountant rebuilt on the calibrated scales must predict the target to
// this relative distance, or the calibration fails (Check).
const Tolerance = 1e-9

// Check returns an error naming field unless After, the prediction of
// the accountant rebuilt on the calibrated scales, is the target within
// Tolerance: a calibration that cannot reach its target says so instead
// of reporting success.
func (c Calibration) Check(field string) error {
	d := c.After.Log10() - num.Log10(c.Target)
	if !c.After.NoGuarantee() && math.Abs(d) <= num.Log10(1+Tolerance) {
		return nil
	}
	return check.Errorf(field, "cannot reach ε = %g: with every noise scale multiplied by %.6g the rebuilt accountant predicts ε = %s after %d %s, not the target within %g", c.Target, c.Factor, c.After, c.Iterations, c.unit(), Tolerance)
}

func (c Calibration) unit() string {
	if c.Unit != "" {
		return c.Unit
	}
	return "iterations"
}

// ChannelScale is one noise channel's base scale (or per-agent scales)
// before and after calibration.
type ChannelScale struct {
	Channel string    `json:"channel"`
	Before  []float64 `json:"before"`
	After   []float64 `json:"after"`
}

// String says what calibration did, in one line, and, for a plug-in's
// target, which parameters asked for it.
func (c Calibration) String() string {
	if c.Field != "" {
		return fmt.Sprintf("%s = %g after %s = %d %s: noise scales ×%.6g (%s; ε was %s at the scales given)",
			c.Field, c.Target, c.HorizonField, c.Iterations, c.unit(), c.Factor, c.Method, c.Before)
	}
	return fmt.Sprintf("noise scales ×%.6g (%s) so that ε = %g after %d iterations (was %s)",
		c.Factor, c.Method, c.Target, c.Iterations, c.Before)
}

// Calibrate returns the noise-scale factor λ at which p predicts the
// target ε after iterations: the closed form when p offers one, else a
// bisection on ln λ. field names the target in errors.
func Calibrate(p Predictor, iterations int, target float64, field string) (Calibration, error) {
	return CalibrateWith(p, iterations, target, field, Limits{})
}

// Limits bounds a calibration. The zero value bounds nothing.
type Limits struct {
	// MaxFactor, when > 0, is the largest factor the caller can apply (a
	// larger one would push a noise scale past its bound). A target that
	// needs more is refused from a short horizon, before the full horizon
	// is evaluated (see needsTooMuch).
	MaxFactor float64
	// Scale names what MaxFactor bounds, for the error ("the eta noise
	// scale 1e+06"), and Bound is that bound; both only shape messages.
	Scale string
	// Base is the scale that MaxFactor multiplies, and Bound its bound.
	Base, Bound float64
	// Cancel, when not nil, is asked between predictions; once it returns
	// true the calibration stops with ErrInterrupted.
	Cancel func() bool
	// Unit names what the horizon counts in messages: "iterations" when
	// empty, or a plug-in's own unit ("publications", "activations").
	Unit string
}

// unit returns what the horizon counts.
func (lim Limits) unit() string {
	if lim.Unit != "" {
		return lim.Unit
	}
	return "iterations"
}

// Interruptible is implemented by predictors whose predictions loop over
// the horizon (O(n·K): GT-DP's eq. 18 at 10^7 iterations takes seconds).
// CalibrateWith hands them its cancel hook for the calibration's
// duration; they look at it every few thousand steps and, once it says
// stop, return at once with any value — the calibration then reports
// ErrInterrupted.
type Interruptible interface {
	SetCancel(cancel func() bool)
}

// Interrupt implements Interruptible for an accountant that embeds it:
// Stop(k) in its prediction loop asks the hook every 4096 steps, so the
// check costs nothing next to the step.
type Interrupt struct {
	cancel func() bool
}

// SetCancel implements Interruptible.
func (in *Interrupt) SetCancel(cancel func() bool) { in.cancel = cancel }

// Stop reports, at step k of a prediction loop, whether the calibration
// was cancelled (asked every 4096 steps).
func (in *Interrupt) Stop(k int) bool { return in.cancel != nil && k&4095 == 0 && in.cancel() }

// ErrInterrupted is returned when Limits.Cancel stopped a calibration.
var ErrInterrupted = errors.New("interrupted")

// CalibrateWith is Calibrate within limits: a factor beyond lim.MaxFactor
// is refused as soon as a short horizon shows it is needed, and
// lim.Cancel is looked at between predictions.
func CalibrateWith(p Predictor, iterations int, target float64, field string, lim Limits) (Calibration, error) {
	c := Calibration{Target: target, Iterations: iterations}
	if !(target > 0) || math.IsInf(target, 0) {
		return c, check.Errorf(field, "must be a finite number > 0 (got %v)", target)
	}
	if in, ok := p.(Interruptible); ok && lim.Cancel != nil {
		// Long predictions look at the hook inside their loops too.
		in.SetCancel(lim.Cancel)
		defer in.SetCancel(nil)
	}
	if err := hopeless(p, iterations, lim.unit()); err != nil {
		return c, check.Errorf(field, "%v", err)
	}
	if err := needsTooMuch(p, iterations, target, field, lim); err != nil {
		return c, err
	}
	if lim.Cancel != nil && lim.Cancel() {
		return c, ErrInterrupted
	}
	inv, closed := p.(InversePredictor)
	if closed {
		// The closed form first: a factor beyond the bound is refused
		// after this one full-horizon prediction.
		f, err := inv.FactorFor(iterations, target)
		if lim.Cancel != nil && lim.Cancel() {
			return c, ErrInterrupted // f or err may come from a prediction cut short
		}
		if err != nil {
			return c, check.Errorf(field, "%v", err)
		}
		if lim.MaxFactor > 0 && f > lim.MaxFactor {
			return c, check.Errorf(field, "ε = %g cannot be reached within the noise bound: after its %d %s it needs %s multiplied by %.4g, a scale of %.4g, beyond %g (the largest scale that keeps noisy messages inside float64's range): ask for a larger ε or fewer %[3]s",
				target, iterations, lim.unit(), lim.Scale, f, f*lim.Base, lim.Bound)
		}
		c.Factor, c.Method = f, "closed form"
	}
	c.Before = p.PredictEpsilon(iterations, 1)
	if lim.Cancel != nil && lim.Cancel() {
		return c, ErrInterrupted
	}
	if !closed {
		f, steps, err := bisect(p, iterations, target, lim.Cancel)
		if err != nil {
			if errors.Is(err, ErrInterrupted) {
				return c, err
			}
			return c, check.Errorf(field, "%v", err)
		}
		c.Factor, c.Method, c.Steps = f, "bisection", steps
	}
	if lim.Cancel != nil && lim.Cancel() {
		return c, ErrInterrupted
	}
	c.After = p.PredictEpsilon(iterations, c.Factor)
	if lim.Cancel != nil && lim.Cancel() {
		return c, ErrInterrupted
	}
	return c, nil
}

// probeGrowth is the ratio between the horizons needsTooMuch probes, and
// 1/probeShare of the full horizon the longest short one: together they
// cost at most 1/probeShare + 1/(probeShare·(probeGrowth−1)) ≈ 27% of one
// full-horizon prediction, and the full horizon itself one more, when
// the target turns out to be within the bound (the bisection then takes
// dozens).
const (
	probeGrowth = 16
	probeShare  = 4
)

// needsTooMuch refuses a target that needs a factor beyond lim.MaxFactor,
// judged from horizons shorter than iterations (probeIterations,
// ×probeGrowth, …, and iterations/probeShare), then from the full one:
// ε is non-decreasing in the iterations and non-increasing in the
// factor, so if ε after k ≤ iterations iterations at the largest factor
// already exceeds the target, it does at the full horizon too, and no
// allowed factor reaches it. lim.Cancel is looked at before every probe.
func needsTooMuch(p Predictor, iterations int, target float64, field string, lim Limits) error {
	if !(lim.MaxFactor > 0) || math.IsInf(lim.MaxFactor, 0) {
		return nil
	}
	for k := min(iterations, probeIterations); ; {
		if lim.Cancel != nil && lim.Cancel() {
			return ErrInterrupted
		}
		e := p.PredictEpsilon(k, lim.MaxFactor)
		if !e.NoGuarantee() && e.Log10() > num.Log10(target) {
			// ε ∝ 1/λ gives the factor needed at this horizon, a lower
			// bound on the one needed at the full horizon; for other
			// accountants MaxFactor itself is the lower bound.
			if k == iterations {
				// The factor needed would cost one more full-horizon
				// prediction: say what the largest allowed one gives.
				return check.Errorf(field, "ε = %g cannot be reached within the noise bound: after its %d %s even %s multiplied by %.4g (a scale of %.4g, the largest allowed: beyond %g noisy messages leave float64's range) gives ε = %s: ask for a larger ε or fewer %[3]s",
					target, iterations, lim.unit(), lim.Scale, lim.MaxFactor, lim.MaxFactor*lim.Base, lim.Bound, e)
			}
			need := lim.MaxFactor
			if f, err := ProportionalFactor(p.PredictEpsilon(k, 1), k, target); err == nil && f > need {
				need = f
			}
			return check.Errorf(field, "ε = %g cannot be reached within the noise bound: already after %d of %d %s it needs %s multiplied by at least %.4g, a scale ≥ %.4g, beyond %g (the largest scale that keeps noisy messages inside float64's range): ask for a larger ε or fewer %[4]s",
				target, k, iterations, lim.unit(), lim.Scale, need, need*lim.Base, lim.Bound)
		}
		// Next: ×probeGrowth, then the quarter of the full horizon, and
		// last the full horizon itself: one prediction at the largest
		// factor decides a target just beyond the bound, which the short
		// horizons cannot see, before the bisection's dozens.
		switch last := iterations / probeShare; {
		case k*probeGrowth <= last:
			k *= probeGrowth
		case k < last:
			k = last
		case k < iterations && !closedForm(p):
			// A closed form decides it with its own one prediction.
			k = iterations
		default:
			return nil
		}
	}
}

// closedForm reports whether p inverts in closed form.
func closedForm(p Predictor) bool {
	_, ok := p.(InversePredictor)
	return ok
}

// probeIterations is the short horizon at which Calibrate first asks the
// predictor whether any factor can help.
const probeIterations = 16

// hopeless returns why no factor can reach any finite ε, judged in
// microseconds from a short horizon: when ε is already infinite after
// min(iterations, probeIterations) iterations both at the given scales and
// with every scale multiplied by e^700, a noise scale is 0 (a θ_0 = 0, a
// decay with r = 0, …) and it stays infinite at the full horizon, since
// budgets only grow with the iterations. Without this the accountant ran
// the whole horizon (seconds for 10^7 iterations) before saying so.
func hopeless(p Predictor, iterations int, unit string) error {
	k := min(iterations, probeIterations)
	if !p.PredictEpsilon(k, 1).NoGuarantee() || !p.PredictEpsilon(k, num.Exp(maxLnFactor)).NoGuarantee() {
		return nil
	}
	return fmt.Errorf("cannot be reached: ε is already infinite after %d %s at any noise scale (a noise scale is 0: a base scale of 0, or a decay that reaches 0, such as r = 0), so no factor gives a finite ε; give every channel a scale > 0 that does not decay to 0", k, unit)
}

// maxLnFactor bounds the search: factors beyond e^±700 overflow scales.
const maxLnFactor = 700

// bisect finds ln λ with log10 ε(λ) = log10 target by bracketing and
// bisection on ln λ, assuming ε non-increasing in λ.
func bisect(p Predictor, iterations int, target float64, cancel func() bool) (float64, int, error) {
	want := num.Log10(target)
	steps := 0
	interrupted := false
	at := func(x float64) float64 {
		if interrupted || cancel != nil && cancel() {
			// NaN ends every loop below; the caller sees ErrInterrupted.
			interrupted = true
			return math.NaN()
		}
		steps++
		return p.PredictEpsilon(iterations, num.Exp(x)).Log10()
	}
	lo, hi := 0.0, 0.0
	vlo := at(0)
	vhi := vlo
	// Bracket: ε(e^lo) ≥ target ≥ ε(e^hi).
	for step := 1.0; vlo < want; step *= 2 {
		hi, vhi = lo, vlo
		lo -= step
		if lo < -maxLnFactor {
			return 0, steps, fmt.Errorf("cannot be reached: even with every noise scale multiplied by e^−700 the accountant predicts ε = 10^%.4g", vlo)
		}
		vlo = at(lo)
	}
	for step := 1.0; vhi > want; step *= 2 {
		lo, vlo = hi, vhi
		hi += step
		if hi > maxLnFactor {
			return 0, steps, fmt.Errorf("cannot be reached: even with every noise scale multiplied by e^700 the accountant predicts ε = 10^%.4g (a channel without noise gives no guarantee at any scale)", vhi)
		}
		vhi = at(hi)
	}
	if interrupted {
		return 0, steps, ErrInterrupted
	}
	if vlo < vhi {
		return 0, steps, fmt.Errorf("the accountant's ε is not monotone in the noise scale (ε grows from 10^%.6g to 10^%.6g as the noise grows)", vlo, vhi)
	}
	for range 200 {
		mid := 0.5 * (lo + hi)
		if mid <= lo || mid >= hi {
			break
		}
		v := at(mid)
		if v >= want {
			lo = mid
		} else {
			hi = mid
		}
		if hi-lo < 1e-15 {
			break
		}
	}
	if interrupted {
		return 0, steps, ErrInterrupted
	}
	return num.Exp(0.5 * (lo + hi)), steps, nil
}
