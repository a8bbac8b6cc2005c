package main

import (
	"fmt"

	"dpsim/core/privacy"
)

// tightSummary is the run summary's words on the tight bound beside the
// paper's: that of the most exposed agent, its δ and its error with its
// note when δ is below what the bound resolves, or why there is none.
func tightSummary(l privacy.Ledger) string {
	t := l.Tight
	if t == nil {
		return ""
	}
	if t.Reason != "" {
		return "; no tight bound: " + t.Reason
	}
	e, ok := privacy.MostExposed(t)
	if !ok {
		return ""
	}
	if e.Epsilon.NoGuarantee() {
		return "; tight bound ∞: " + e.Reason
	}
	s := fmt.Sprintf("; tight bound %s at δ = %g (within %.2g)", e.Epsilon, e.Delta, e.Error)
	if e.Note != "" {
		s += " (" + e.Note + ")"
	}
	return s
}
