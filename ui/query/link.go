package query

import (
	"strconv"
	"strings"

	"dpsim/core/check"
)

// parseHide reads ?hide=a,b,…: the known parts in the order of Parts, each
// once, and an error for each unknown name.
func parseHide(v string) ([]string, []error) {
	const field = "URL parameter hide"
	var errs []error
	want := map[string]bool{}
	for _, name := range strings.Split(v, ",") {
		name = strings.TrimSpace(name)
		switch {
		case name == "":
		case isPart(name):
			want[name] = true
		default:
			if len(errs) < 3 { // a long list of typos is said three times at most
				errs = append(errs, check.Errorf(field, "names an unknown part %q; the parts are %s", clip(name), strings.Join(Parts, ", ")))
			}
		}
	}
	if len(want) == 0 && len(errs) == 0 {
		errs = append(errs, check.Errorf(field, "names no part; give some of %s", strings.Join(Parts, ", ")))
	}
	var hide []string
	for _, p := range Parts {
		if want[p] {
			hide = append(hide, p)
		}
	}
	return hide, errs
}

func isPart(name string) bool {
	for _, p := range Parts {
		if p == name {
			return true
		}
	}
	return false
}

// Link writes p as a query string, "?…" ("" when p is empty), with its
// parameters in the order of Keys, so that Parse(Link(p)) gives p back.
// Of Scenario, Compare and Preset it writes the first that is set.
func Link(p Params) string {
	var parts []string
	add := func(key, v string) { parts = append(parts, key+"="+v) }
	switch {
	case p.Scenario != nil:
		add("scenario", Encode(p.Scenario))
	case p.Compare != nil:
		add("compare", Encode(p.Compare))
	case p.Preset != "":
		add("preset", p.Preset) // presetRE needs no escapes
	}
	if p.Seed != nil {
		add("seed", strconv.FormatUint(*p.Seed, 10))
	}
	if p.Epsilon != nil {
		add("epsilon", number(*p.Epsilon))
	}
	if p.Speed != nil {
		add("speed", number(*p.Speed))
	}
	var hide []string
	for _, part := range Parts {
		for _, name := range p.Hide {
			if name == part {
				hide = append(hide, part)
				break
			}
		}
	}
	if len(hide) > 0 {
		add("hide", strings.Join(hide, ","))
	}
	if p.Classroom {
		parts = append(parts, "classroom")
	}
	if p.Experiment != "" {
		add("experiment", p.Experiment)
	}
	if len(parts) == 0 {
		return ""
	}
	return "?" + strings.Join(parts, "&")
}

// number writes x in the shortest form that reads back as x, in the plain
// notation Parse accepts (no "+" in an exponent: a URL reads it as a space).
func number(x float64) string {
	s := strconv.FormatFloat(x, 'g', -1, 64)
	return strings.Replace(s, "e+", "e", 1)
}
