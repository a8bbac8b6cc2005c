package ui

import (
	"fmt"
	"strconv"
	"strings"

	"dpsim/core/privacy"
)

// TightView is the tight bound beside the paper's, as the State card,
// the readout and the inspector show it (docs/privacy-truth.md).
type TightView struct {
	// Text is the most exposed agent's tight ε as people read it ("" when
	// the ledger keeps none); Value the number (+Inf beyond float64 or
	// without a bound).
	Text  string
	Value float64
	// Delta is its δ, Error how far above the exact ε it may be, Iter the
	// iteration it was computed at (the page refreshes it every few
	// hundred iterations while a run goes).
	Delta, Error float64
	Iter         int
	// Reason says why there is no tight bound, or why it is ∞.
	Reason string
	// Note says when δ is below what the bound's discretization resolves
	// (privacy.TightEntry.Note): the bound holds, but Error then includes
	// the transform's rounding and may pass 1 %.
	Note string
}

// tightOf returns the ledger's tight bound for the page.
func tightOf(led privacy.Ledger) TightView {
	t := led.Tight
	if t == nil {
		return TightView{}
	}
	v := TightView{Iter: t.Iterations}
	if t.Reason != "" {
		v.Reason = t.Reason
		return v
	}
	e, ok := privacy.MostExposed(t)
	if !ok {
		return TightView{}
	}
	v.Text, v.Value, v.Delta, v.Error, v.Note = e.Epsilon.String(), e.Epsilon.Value(), e.Delta, e.Error, e.Note
	if e.Epsilon.NoGuarantee() {
		v.Reason = e.Reason
	}
	return v
}

// agentTight is agent i's tight bound as the inspector writes it beside
// the paper's ("" when the ledger keeps none).
func agentTight(led privacy.Ledger, i int) string {
	t := led.Tight
	if t == nil || t.Reason != "" || i < 0 || i >= len(t.Agents) {
		return ""
	}
	e := t.Agents[i]
	if e.Epsilon.NoGuarantee() {
		return "∞"
	}
	if e.Note != "" {
		return fmt.Sprintf("%s at δ = %s, δ below the discretization's resolution", e.Epsilon, shortG(e.Delta))
	}
	return fmt.Sprintf("%s at δ = %s", e.Epsilon, shortG(e.Delta))
}

// shortG writes v as %g does without the exponent's leading zero (1e-6,
// not 1e-06), as the page's own numbers are written (public/page.js fmtNum).
func shortG(v float64) string {
	s := strconv.FormatFloat(v, 'g', -1, 64)
	if i := strings.Index(s, "e"); i >= 0 && i+2 < len(s) && s[i+2] == '0' && i+3 < len(s) {
		s = s[:i+2] + s[i+3:]
	}
	return s
}
