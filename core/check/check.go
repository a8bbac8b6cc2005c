// Package check holds the error and warning types that validation uses
// everywhere in dpsim: every complaint names the field it is about and the
// rule it breaks, so a user can fix the scenario without reading code.
package check

import (
	"fmt"
	"math"
	"strings"
)

// Error is a broken hard rule: the run cannot start.
type Error struct {
	Field string // dotted path in the scenario, e.g. "algorithm.params.alpha"
	Rule  string // what must hold, and what was found
}

// Error implements error: "field: rule", or the rule alone.
func (e *Error) Error() string {
	if e.Field == "" {
		return e.Rule
	}
	return e.Field + ": " + e.Rule
}

// Errorf returns an *Error for field with a formatted rule.
func Errorf(field, format string, args ...any) error {
	return &Error{Field: field, Rule: fmt.Sprintf(format, args...)}
}

// Warning is a soft assumption that does not hold (for example a step size
// above a theorem's bound). The run goes ahead, and the warning is shown.
type Warning struct {
	Field   string `json:"field"`
	Message string `json:"message"`
}

// String implements fmt.Stringer: "field: text", or the text alone.
func (w Warning) String() string {
	if w.Field == "" {
		return w.Message
	}
	return w.Field + ": " + w.Message
}

// Warnf returns a Warning for field with a formatted message.
func Warnf(field, format string, args ...any) Warning {
	return Warning{Field: field, Message: fmt.Sprintf(format, args...)}
}

// OneLine is s (an error's text, a reason) as one line: trimmed, with
// each line break written "; ", so that a message meant for one line of
// a terminal or a form says all its lines there.
func OneLine(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(strings.TrimSpace(s), "\r\n", "\n"), "\n", "; ")
}

// Join appends a path element: Join("graph", "n") = "graph.n".
func Join(parent, child string) string {
	if parent == "" {
		return child
	}
	return parent + "." + child
}

// Index appends an index: Index("problem.targets", 2) = "problem.targets[2]".
func Index(parent string, i int) string {
	return fmt.Sprintf("%s[%d]", parent, i)
}

// Finite reports an error when v is NaN or infinite.
func Finite(field string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return Errorf(field, "must be a finite number (got %v)", v)
	}
	return nil
}

// Positive reports an error unless v is finite and > 0.
func Positive(field string, v float64) error {
	if err := Finite(field, v); err != nil {
		return err
	}
	if v <= 0 {
		return Errorf(field, "must be > 0 (got %v)", v)
	}
	return nil
}

// NonNegative reports an error unless v is finite and ≥ 0.
func NonNegative(field string, v float64) error {
	if err := Finite(field, v); err != nil {
		return err
	}
	if v < 0 {
		return Errorf(field, "must be ≥ 0 (got %v)", v)
	}
	return nil
}

// IntRange reports an error unless lo ≤ v ≤ hi.
func IntRange(field string, v, lo, hi int) error {
	if v < lo || v > hi {
		return Errorf(field, "must be an integer from %d to %d (got %d)", lo, hi, v)
	}
	return nil
}

// AllFinite reports the first non-finite entry of a flat array.
func AllFinite(field string, xs []float64) error {
	for i, v := range xs {
		// The field's name is formatted only for an error: sweeps validate
		// thousands of scenarios.
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return Finite(Index(field, i), v)
		}
	}
	return nil
}

// First returns the first non-nil error.
func First(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// Warnings formats warnings one per line.
func Warnings(ws []Warning) string {
	var b strings.Builder
	for _, w := range ws {
		b.WriteString("warning: ")
		b.WriteString(w.String())
		b.WriteByte('\n')
	}
	return b.String()
}
