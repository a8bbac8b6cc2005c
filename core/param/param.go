// Package param describes and checks the parameter structs of algorithms
// and problems from their struct tags, so that one declaration gives the
// scenario's strict decoding, the range checks with their error messages,
// and the form fields the page draws.
//
// A parameter is an exported struct field with a json tag. Its other tags:
//
//	doc:"step size α"          one line for people (required)
//	range:"(0, 1]"             an interval a number must lie in; inf allowed
//	options:"a|b|c"            the values a string may take
//	unit:"agents"              what a number counts or measures (optional)
//
// Nested structs (a schedule, say) are described as one field of kind
// "object" with their own fields.
package param

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"dpsim/core/check"
)

// Field describes one parameter.
type Field struct {
	// Name is the JSON key.
	Name string `json:"name"`
	// Kind is "number", "integer", "bool", "string", "list" or "object".
	Kind string `json:"kind"`
	// Doc is the one-line description.
	Doc string `json:"doc"`
	// Default is the value in the struct Describe was given.
	Default any `json:"default"`
	// Range is the interval a number must lie in, e.g. "(0, 1]".
	Range string `json:"range,omitempty"`
	// Options lists the values a string may take.
	Options []string `json:"options,omitempty"`
	// Unit is what a number counts or measures ("agents", "MW"); empty
	// for a pure number such as a step size.
	Unit string `json:"unit,omitempty"`
	// Fields are the nested fields of an object.
	Fields []Field `json:"fields,omitempty"`
}

// Describe returns the fields of the struct params points to (or is),
// with their current values as defaults.
func Describe(params any) []Field {
	v := reflect.Indirect(reflect.ValueOf(params))
	if v.Kind() != reflect.Struct {
		return nil
	}
	var fs []Field
	t := v.Type()
	for i := range t.NumField() {
		sf := t.Field(i)
		name := Key(sf)
		if name == "" {
			continue
		}
		fv := v.Field(i)
		f := Field{Name: name, Doc: sf.Tag.Get("doc"), Range: sf.Tag.Get("range"), Unit: sf.Tag.Get("unit")}
		if o := sf.Tag.Get("options"); o != "" {
			f.Options = strings.Split(o, "|")
		}
		switch fv.Kind() {
		case reflect.Float64, reflect.Float32:
			f.Kind = "number"
		case reflect.Int, reflect.Int64, reflect.Int32, reflect.Uint64, reflect.Uint32, reflect.Uint:
			f.Kind = "integer"
		case reflect.Bool:
			f.Kind = "bool"
		case reflect.String:
			f.Kind = "string"
		case reflect.Slice, reflect.Array:
			f.Kind = "list"
		case reflect.Struct:
			f.Kind = "object"
			f.Fields = Describe(fv.Interface())
		case reflect.Pointer:
			// An optional section (a learning problem's data), absent by
			// default: an object the form edits as JSON.
			f.Kind = "object"
		default:
			f.Kind = fv.Kind().String()
		}
		f.Default = fv.Interface()
		fs = append(fs, f)
	}
	return fs
}

// Validate checks every tagged field of the struct params points to: each
// number is finite and within its range (and, when it cannot be negative,
// 0 or at least MinMagnitude), each string one of its options.
// Errors name the field as prefix.name. It returns the first broken rule;
// ValidateAll returns them all.
func Validate(prefix string, params any) error {
	var first error
	walk(prefix, params, func(err error) bool { first = err; return false })
	return first
}

// ValidateAll is Validate that goes on past the first broken rule and
// returns every one, in field order, so that a form can show each error
// beside its field at once.
func ValidateAll(prefix string, params any) []error {
	var errs []error
	walk(prefix, params, func(err error) bool { errs = append(errs, err); return true })
	return errs
}

// walk checks the fields of params in order and hands each broken rule
// to report, stopping when report returns false; it reports whether to go
// on.
func walk(prefix string, params any, report func(error) bool) bool {
	v := reflect.Indirect(reflect.ValueOf(params))
	if v.Kind() != reflect.Struct {
		return true
	}
	t := v.Type()
	for i := range t.NumField() {
		sf := t.Field(i)
		name := Key(sf)
		if name == "" {
			continue
		}
		field := check.Join(prefix, name)
		fv := v.Field(i)
		switch fv.Kind() {
		case reflect.Float64, reflect.Float32:
			x := fv.Float()
			err := check.Finite(field, x)
			if err == nil {
				err = inRange(field, sf.Tag.Get("range"), x, strconv.FormatFloat(x, 'g', -1, 64))
			}
			if err == nil {
				err = aboveFloor(field, sf.Tag.Get("range"), x)
			}
			if err != nil && !report(err) {
				return false
			}
		case reflect.Int, reflect.Int64, reflect.Int32:
			x := fv.Int()
			if err := inRange(field, sf.Tag.Get("range"), float64(x), strconv.FormatInt(x, 10)); err != nil && !report(err) {
				return false
			}
		case reflect.String:
			if o := sf.Tag.Get("options"); o != "" {
				opts := strings.Split(o, "|")
				ok := false
				for _, s := range opts {
					ok = ok || s == fv.String()
				}
				if !ok && !report(check.Errorf(field, "must be one of %s (got %q)", quoteAll(opts), fv.String())) {
					return false
				}
			}
		case reflect.Slice:
			if fv.Type().Elem().Kind() == reflect.Float64 {
				for k := range fv.Len() {
					// One error per list: its other entries are the same mistake.
					if err := check.Finite(check.Index(field, k), fv.Index(k).Float()); err != nil {
						if !report(err) {
							return false
						}
						break
					}
				}
			}
		case reflect.Struct:
			if !walk(field, fv.Addr().Interface(), report) {
				return false
			}
		}
	}
	return true
}

// Interval is a closed, open or half-open interval of the real line.
type Interval struct {
	Lo, Hi         float64
	LoOpen, HiOpen bool
}

// ParseInterval reads "(0, 1]", "[0, inf)", "(-inf, 2)" and the like.
func ParseInterval(s string) (Interval, error) {
	s = strings.TrimSpace(s)
	if len(s) < 5 {
		return Interval{}, fmt.Errorf("param: bad interval %q", s)
	}
	var iv Interval
	switch s[0] {
	case '(':
		iv.LoOpen = true
	case '[':
	default:
		return iv, fmt.Errorf("param: interval %q must start with ( or [", s)
	}
	switch s[len(s)-1] {
	case ')':
		iv.HiOpen = true
	case ']':
	default:
		return iv, fmt.Errorf("param: interval %q must end with ) or ]", s)
	}
	lo, hi, ok := strings.Cut(s[1:len(s)-1], ",")
	if !ok {
		return iv, fmt.Errorf("param: interval %q needs a comma", s)
	}
	var err error
	if iv.Lo, err = bound(lo); err != nil {
		return iv, err
	}
	if iv.Hi, err = bound(hi); err != nil {
		return iv, err
	}
	return iv, nil
}

func bound(s string) (float64, error) {
	switch s = strings.TrimSpace(s); s {
	case "inf", "+inf", "∞":
		return math.Inf(1), nil
	case "-inf", "−inf", "-∞":
		return math.Inf(-1), nil
	}
	return strconv.ParseFloat(s, 64)
}

// Contains reports whether x lies in iv.
func (iv Interval) Contains(x float64) bool {
	if math.IsNaN(x) || x < iv.Lo || (iv.LoOpen && x == iv.Lo) {
		return false
	}
	return !(x > iv.Hi || (iv.HiOpen && x == iv.Hi))
}

// String writes the interval as "(0, 1]".
func (iv Interval) String() string {
	l, r := "[", "]"
	if iv.LoOpen {
		l = "("
	}
	if iv.HiOpen {
		r = ")"
	}
	return l + num(iv.Lo) + ", " + num(iv.Hi) + r
}

func num(x float64) string {
	switch {
	case math.IsInf(x, 1):
		return "∞"
	case math.IsInf(x, -1):
		return "−∞"
	}
	s := strconv.FormatFloat(x, 'g', -1, 64)
	// 1e+06 reads better as 1e6.
	if m, e, ok := strings.Cut(s, "e"); ok {
		sign := ""
		if e[0] == '-' {
			sign = "-"
		}
		s = m + "e" + sign + strings.TrimLeft(e[1:], "0")
	}
	return s
}

// inRange checks x against the range tag (none: anything goes); got is x
// as the user wrote it.
func inRange(field, tag string, x float64, got string) error {
	if tag == "" {
		return nil
	}
	iv, err := parsedTag(tag)
	if err != nil {
		panic(err) // a malformed tag is a programming error, caught by the tests
	}
	if !iv.Contains(x) {
		return check.Errorf(field, "must be in %s (got %s)", iv, got)
	}
	return nil
}

// MinMagnitude is the smallest magnitude, other than 0, of a parameter
// that cannot be negative (its range starts at 0, or it has no range: a
// schedule's c, r, m, p). The parameters are bounds, step sizes and
// weights that the privacy formulas multiply together (GT-DP's
// 2√r·C·γ_0·α, DP-DGT's α_0·δ, a rendezvous bound 2(R + ‖a‖)): three of
// them at 1e-100 still leave a sensitivity of 1e-300, while one at 5e-324
// times 0.1 is exactly 0, and a ledger then says that no release depends
// on the agent's data. No setting needs a number that small.
const MinMagnitude = 1e-100

// aboveFloor checks x against MinMagnitude when the range tag (if any)
// starts at 0 or above.
func aboveFloor(field, tag string, x float64) error {
	if x == 0 || math.Abs(x) >= MinMagnitude {
		return nil
	}
	if tag != "" {
		if iv, err := parsedTag(tag); err == nil && iv.Lo < 0 {
			return nil
		}
	}
	return check.Errorf(field, "must be 0 or at least %s in magnitude (got %s): a smaller number underflows float64 once multiplied by others (a bound, a step or a privacy loss made of it reads 0)",
		num(MinMagnitude), strconv.FormatFloat(x, 'g', -1, 64))
}

// tagIntervals remembers parsed range tags: a sweep validates the same
// parameter structs thousands of times.
var tagIntervals sync.Map // tag string → Interval

func parsedTag(tag string) (Interval, error) {
	if v, ok := tagIntervals.Load(tag); ok {
		return v.(Interval), nil
	}
	iv, err := ParseInterval(tag)
	if err == nil {
		tagIntervals.Store(tag, iv)
	}
	return iv, err
}

// Key returns the JSON key of a struct field as encoding/json names it:
// the json tag's name, the field's name when the tag gives none, and ""
// for an unexported field or one tagged "-".
func Key(sf reflect.StructField) string {
	if !sf.IsExported() {
		return ""
	}
	name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
	if name == "-" {
		return ""
	}
	if name == "" {
		return sf.Name
	}
	return name
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}
