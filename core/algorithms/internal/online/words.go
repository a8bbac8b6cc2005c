package online

import (
	"fmt"

	"dpsim/core/method"
)

// StableMixing is the hypothesis every online method's consensus needs:
// the mixing matrix (I + W for a Laplacian-type W, A otherwise) has
// its smallest eigenvalue above −1, or the iteration oscillates.
func StableMixing(source string) method.Assumption {
	return method.Assume("the mixing matrix's eigenvalues above −1", source, func(env *method.Env, _ any) method.Verdict {
		r := env.Report
		if !r.HasEigenRange {
			return method.Unsure("the eigenvalues are not computed for a network this large")
		}
		m := r.EigenMin
		if r.ZeroRowSums {
			m = 1 + r.EigenMin
		}
		if m > -1+1e-12 {
			return method.Hold(fmt.Sprintf("smallest eigenvalue %.4g", m))
		}
		return method.Fail(fmt.Sprintf("smallest eigenvalue %.4g ≤ −1: consensus oscillates", m))
	})
}
