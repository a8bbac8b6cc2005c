package zcdpgauss

import "dpsim/core/method"

// BoundedGradients is the hypothesis every Gaussian baseline's ledger
// makes: ‖∇f_i‖ ≤ c on every iterate (DP-RECAL's Assumption 3), with c
// read from the parameters by bound; none of them clips or projects.
func BoundedGradients(bound func(params any) float64) method.Assumption {
	return method.BoundedGradients("‖∇f_i‖ ≤ c on every iterate", "DP-RECAL's Assumption 3 (the ledger)", false, func(params any) (float64, bool) {
		return bound(params), false
	})
}

// StepOr returns step, or 1/L when it is 0 (the baselines' default),
// and whether L is known.
func StepOr(env *method.Env, step float64) (float64, float64, bool) {
	_, l, ok := method.Smoothness(env)
	if step == 0 {
		step = 1 / l
	}
	return step, l, ok
}
