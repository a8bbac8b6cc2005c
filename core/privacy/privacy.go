// Package privacy holds the privacy ledger: what each agent has spent so
// far, with the formula that produced each number and every input the
// formula used, so that a reader can recompute it by hand.
//
// Budgets of several papers grow like r^(−K); the Sum type accumulates in
// linear space and moves to log space before it overflows, so the ledger
// reports 10^x instead of +Inf.
package privacy

import (
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"dpsim/core/jsonout"
	"dpsim/core/num"
	"dpsim/core/sim"
)

// Input is one input of a formula: a number, or a text (a schedule).
type Input struct {
	Name  string  `json:"name"`
	Value float64 `json:"value,omitempty"`
	Text  string  `json:"text,omitempty"`
}

// Num returns a numeric input.
func Num(name string, v float64) Input { return Input{Name: name, Value: v} }

// Text returns a textual input.
func Text(name, text string) Input { return Input{Name: name, Text: text} }

// Amount is a privacy parameter that may be astronomically large or
// infinite. It keeps the exact value while that fits in a float64, and its
// base-10 logarithm always (+Inf when there is no guarantee), computed
// with the portable functions of core/num so that exports are the same
// natively and in the browser.
type Amount struct {
	v     float64 // the value; +Inf when infinite or beyond float64
	log10 float64
}

// Of returns the amount v ≥ 0.
func Of(v float64) Amount {
	if v == 0 {
		return Amount{v: 0, log10: math.Inf(-1)}
	}
	return Amount{v: v, log10: num.Log(v) / math.Ln10}
}

// OfLog10 returns the amount 10^l.
func OfLog10(l float64) Amount {
	v := math.Inf(1)
	if l < 308 {
		v = num.Exp(l * math.Ln10)
	}
	return Amount{v: v, log10: l}
}

// Infinite is the amount of a run that gives no guarantee.
func Infinite() Amount { return Amount{v: math.Inf(1), log10: math.Inf(1)} }

// Value returns the amount as a float64 (+Inf above 1e308).
func (a Amount) Value() float64 { return a.v }

// Log10 returns the base-10 logarithm of the amount.
func (a Amount) Log10() float64 { return a.log10 }

// IsInf reports whether the amount gives no guarantee.
func (a Amount) IsInf() bool { return math.IsInf(a.log10, 1) }

// String formats the amount for people: 5.4, 1.2e+07, 10^312.4, ∞.
func (a Amount) String() string {
	switch {
	case math.IsNaN(a.v) || math.IsNaN(a.log10):
		return "undefined (a formula's inputs overflowed)"
	case a.IsInf():
		return "∞"
	case a.v == 0:
		return "0"
	case math.IsInf(a.v, 1):
		return fmt.Sprintf("10^%.1f", a.log10)
	}
	return fmt.Sprintf("%.6g", a.v)
}

// MarshalJSON writes {"value": v, "log10": l, "text": s}; value is omitted
// when it is not a finite float64 (JSON has no Inf), log10 when it is
// infinite.
func (a Amount) MarshalJSON() ([]byte, error) {
	type out struct {
		Value *float64 `json:"value,omitempty"`
		Log10 *float64 `json:"log10,omitempty"`
		Text  string   `json:"text"`
	}
	// Only finite numbers: an export must always write, even when a
	// formula overflowed (the text then says what happened).
	o := out{Text: a.String()}
	if v := a.v; !math.IsInf(v, 0) && !math.IsNaN(v) {
		o.Value = &v
	}
	if l := a.log10; !math.IsInf(l, 0) && !math.IsNaN(l) {
		o.Log10 = &l
	}
	return jsonout.Marshal(o)
}

// UnmarshalJSON reads what MarshalJSON writes, exactly: a missing value
// with a log10 is a number beyond float64, a missing log10 with a value
// is 0, neither is ∞ (or, with the text of an overflowed formula, NaN).
// Resumed runs read the calibration of the export they continue with it.
func (a *Amount) UnmarshalJSON(b []byte) error {
	var in struct {
		Value *float64 `json:"value"`
		Log10 *float64 `json:"log10"`
		Text  string   `json:"text"`
	}
	if err := json.Unmarshal(b, &in); err != nil {
		return err
	}
	switch {
	case in.Value != nil && in.Log10 != nil:
		*a = Amount{v: *in.Value, log10: *in.Log10}
	case in.Value != nil:
		*a = Amount{v: *in.Value, log10: math.Inf(-1)}
	case in.Log10 != nil:
		*a = Amount{v: math.Inf(1), log10: *in.Log10}
	case strings.HasPrefix(in.Text, "undefined"):
		*a = Amount{v: math.NaN(), log10: math.NaN()}
	default:
		*a = Infinite()
	}
	return nil
}

// Entry is one agent's account.
type Entry struct {
	Agent   int    `json:"agent"`
	Epsilon Amount `json:"epsilon"`
	// Delta is the δ of (ε, δ)-DP; 0 for pure ε-DP.
	Delta float64 `json:"delta"`
	// Reason explains an infinite ε (for example "no noise").
	Reason string  `json:"reason,omitempty"`
	Inputs []Input `json:"inputs"`
}

// Ledger is the privacy account of a run so far.
type Ledger struct {
	Algorithm string `json:"algorithm"`
	// Notion names the guarantee, e.g. "ε-DP (Laplace mechanism)".
	Notion string `json:"notion"`
	// Source cites the theorem and equation the numbers come from.
	Source string `json:"source"`
	// Formula is the formula, in the paper's notation.
	Formula string `json:"formula"`
	// Iterations is how many iterations the ledger accounts for.
	Iterations int `json:"iterations"`
	// Inputs common to every agent.
	Inputs []Input  `json:"inputs"`
	Agents []Entry  `json:"agents"`
	Max    Amount   `json:"max_epsilon"`
	Notes  []string `json:"notes,omitempty"`
	// Calibration records how the noise scales were set to meet a target
	// ε, when they were.
	Calibration *Calibration `json:"calibration,omitempty"`
	// Tight is the tight bound beside the paper's: the same releases
	// composed exactly (TightAccount), when the run keeps it.
	Tight *TightLedger `json:"tight,omitempty"`
}

// Accountant keeps a ledger up to date from the step stream.
type Accountant interface {
	sim.Recorder
	Ledger() Ledger
}

// IsUndefined reports whether the amount is the result of a formula whose
// inputs overflowed (NaN): it gives no guarantee either, and every
// aggregate treats it as ∞ (see Max).
func (a Amount) IsUndefined() bool { return math.IsNaN(a.v) || math.IsNaN(a.log10) }

// NoGuarantee reports whether the amount is infinite or undefined: the
// two cases in which a reader learns no finite ε.
func (a Amount) NoGuarantee() bool { return a.IsInf() || a.IsUndefined() }

// Max returns the larger of a and b, ordering by log10 (so amounts beyond
// float64 compare correctly). An undefined amount (NaN) ranks as ∞:
// a NaN compares false with everything, and a maximum that skipped it
// would report the finite (often 0) ε of the other agents, the most
// misleading answer a privacy figure can give.
func Max(a, b Amount) Amount {
	switch {
	case a.IsUndefined() || b.IsUndefined():
		return Infinite()
	case b.log10 > a.log10:
		return b
	}
	return a
}

// MaxOf returns the largest ε over the entries; ∞ when any entry is
// infinite or undefined.
func MaxOf(es []Entry) Amount {
	m := Of(0)
	for _, e := range es {
		m = Max(m, e.Epsilon)
	}
	return m
}

// Sum accumulates nonnegative terms without overflowing: it holds the
// total in linear space while that is finite and in log space after.
type Sum struct {
	lin   float64
	log   float64 // natural log of the total, valid when inLog
	inLog bool
}

// Add adds a term v ≥ 0. An infinite or NaN term (a formula whose inputs
// overflowed) makes the total ∞: the sum gives no finite guarantee.
func (s *Sum) Add(v float64) {
	if math.IsNaN(v) || math.IsInf(v, 1) {
		s.AddLog(math.Inf(1))
		return
	}
	if !s.inLog {
		t := s.lin + v
		if !math.IsInf(t, 0) {
			s.lin = t
			return
		}
		s.inLog, s.log = true, num.Log(s.lin)
	}
	s.AddLog(num.Log(v))
}

// AddLog adds a term given by its natural logarithm (−Inf for 0, +Inf
// for an infinite term). A NaN logarithm (an overflowed formula) counts
// as +Inf, and a total that is +Inf stays +Inf: without that, two
// infinite terms gave ∞ − ∞ = NaN below and the ledger read "undefined".
func (s *Sum) AddLog(l float64) {
	if math.IsNaN(l) {
		l = math.Inf(1)
	}
	if math.IsInf(l, -1) {
		return
	}
	if math.IsInf(l, 1) || (s.inLog && math.IsInf(s.log, 1)) {
		s.inLog, s.log = true, math.Inf(1)
		return
	}
	if !s.inLog {
		if l < 700 {
			s.Add(num.Exp(l))
			return
		}
		s.inLog = true
		s.log = math.Inf(-1)
		if s.lin > 0 {
			s.log = num.Log(s.lin)
		}
	}
	hi, lo := s.log, l
	if lo > hi {
		hi, lo = lo, hi
	}
	if math.IsInf(lo, -1) {
		s.log = hi
		return
	}
	s.log = hi + num.Log(1+num.Exp(lo-hi))
}

// Amount returns the total.
func (s *Sum) Amount() Amount {
	if s.inLog {
		return OfLog10(s.log / math.Ln10)
	}
	return Of(s.lin)
}
