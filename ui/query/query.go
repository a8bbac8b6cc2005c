// Package query parses and writes the page's URL parameters (docs/url.md):
// a whole scenario or comparison, compressed (Encode, Decode), or a preset
// with its seed; the target ε; the speed; the parts of the page to hide.
// It is pure Go, apart from the browser bridge in package ui (which builds
// only for js/wasm), so that it is tested and fuzzed natively.
package query

import (
	"math"
	"net/url"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"dpsim/core/check"
	"dpsim/render/scene"
)

// MaxSeed is the largest seed the page accepts: JavaScript numbers hold
// integers exactly up to 2^53.
const MaxSeed = 1 << 53

// Params are the parameters given in the URL.
type Params struct {
	// Scenario is a whole scenario's JSON text, decoded from the
	// compressed parameter (Decode); nil when not given. Whether it is a
	// valid scenario is for the caller to find out.
	Scenario []byte
	// Compare is a comparison's JSON text, decoded likewise; nil when not
	// given. The page hands it to dpsim.loadComparison as it is.
	Compare []byte
	// Preset names a built-in scenario; "" when not given. Whether it
	// exists is for the caller to find out. At most one of Scenario,
	// Compare and Preset is set.
	Preset string
	// Seed, when not nil, is in 0…MaxSeed.
	Seed *uint64
	// Epsilon, when not nil, is the target ε the run is calibrated to,
	// in MinEpsilon…MaxEpsilon.
	Epsilon *float64
	// Speed, when not nil, is in scene.MinSpeed…scene.MaxSpeed iterations
	// per second.
	Speed *float64
	// Hide lists the parts of the page to hide, each once, in the order
	// of Parts.
	Hide []string
	// Classroom hides every part but the readout (iteration, ε and its
	// meaning, the colour scale): only the view, Play, Slow, the privacy
	// slider and the readout stay, drawn large for a projector.
	Classroom bool
	// Experiment names an experiment preset for the Experiments panel
	// (public/experiments.js opens it); "" when not given.
	Experiment string
}

// Keys are the parameters the page takes, in the order they apply (and in
// which Link writes them): what to run first — a scenario, a comparison or
// a preset —, then the seed that overrides its own, the target ε it is
// calibrated to (after the seed, as a calibration is of the seeded
// scenario), the speed it plays at, and last what of the page to hide.
var Keys = []string{"scenario", "compare", "preset", "seed", "epsilon", "speed", "hide", "classroom", "experiment"}

// Parts are the named parts of the page that ?hide= removes (the page marks
// each with data-part="NAME"; docs/url.md says what each is). Play, the
// privacy slider and the view itself cannot be hidden. ?classroom hides
// every part but keeps Slow (of "transport") and the readout.
var Parts = []string{
	"header", "title", "readout", "transport", "speed", "preset", "target", "share", "key",
	"editor", "plot", "compare", "state", "theory", "messages", "experiments", "eavesdrop", "attack", "audit", "footer",
}

// MinEpsilon and MaxEpsilon bound the URL's target ε; the privacy slider
// spans what the scenario's accountant reaches within them (ui.RangeOf).
// MaxEpsilon is as large as a float64 target goes with room to spare:
// the papers' own settings reach ε of 10¹² to 10²⁵ (DPP²'s Theorem 3
// grows like r̄^(−K)), and a bound of 10⁶ turned their sliders off.
const (
	MinEpsilon = 1e-6
	MaxEpsilon = 1e300
)

var (
	presetRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`)
	seedRE   = regexp.MustCompile(`^[0-9]{1,16}$`)
	// Plain decimal notation: strconv.ParseFloat alone would also take
	// "inf", "nan", hexadecimal and underscores.
	speedRE = regexp.MustCompile(`^([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]{1,3})?$`)
)

// Parse reads the query part of a URL (location.search, with or without
// its leading "?"). Every bad parameter — malformed, unknown, repeated or
// out of range — is an error naming it, and is otherwise ignored; the good
// ones are returned.
func Parse(search string) (Params, []error) {
	var p Params
	var errs []error
	values, err := url.ParseQuery(strings.TrimPrefix(search, "?"))
	if err != nil {
		// ParseQuery keeps what it could read; report the rest.
		errs = append(errs, check.Errorf("URL", "the query is malformed: %s", clip(strings.TrimPrefix(err.Error(), "invalid URL escape "))))
	}
	bad := func(key, format string, args ...any) {
		errs = append(errs, check.Errorf("URL parameter "+clip(key), format, args...))
	}
	// A run is described once: by a scenario, a comparison or a preset.
	var what []string
	for _, key := range Keys[:3] {
		if _, ok := values[key]; ok {
			what = append(what, key)
		}
	}
	if len(what) > 1 {
		bad(strings.Join(what, ", "), "describe the run %d times; give one of scenario, compare or preset", len(what))
		for _, key := range what {
			delete(values, key)
		}
	}
	for _, key := range Keys {
		vs, ok := values[key]
		if !ok {
			continue
		}
		if len(vs) > 1 {
			bad(key, "is given %d times; give it once", len(vs))
			continue
		}
		v := vs[0]
		switch key {
		case "scenario", "compare":
			text, err := Decode(key, v)
			if err != nil {
				errs = append(errs, err)
				continue
			}
			if key == "scenario" {
				p.Scenario = text
			} else {
				p.Compare = text
			}
		case "epsilon":
			e, err := strconv.ParseFloat(v, 64)
			if !speedRE.MatchString(v) || err != nil || !(e >= MinEpsilon && e <= MaxEpsilon) {
				bad(key, "must be a target ε from %g to %g (got %q)", MinEpsilon, MaxEpsilon, clip(v))
				continue
			}
			p.Epsilon = &e
		case "hide":
			hide, herrs := parseHide(v)
			p.Hide = hide
			errs = append(errs, herrs...)
		case "classroom":
			if v != "" && v != "1" {
				bad(key, "takes no value: write ?classroom (got %q)", clip(v))
				continue
			}
			p.Classroom = true
		case "experiment":
			if !presetRE.MatchString(v) {
				bad(key, "must be an experiment preset's name: letters, digits, '-', '_' and '.' (got %q)", clip(v))
				continue
			}
			p.Experiment = v
		case "preset":
			if !presetRE.MatchString(v) {
				bad(key, "must be a preset name: letters, digits, '-', '_' and '.' (got %q)", clip(v))
				continue
			}
			p.Preset = v
		case "seed":
			n, err := strconv.ParseUint(v, 10, 64)
			if !seedRE.MatchString(v) || err != nil || n > MaxSeed {
				bad(key, "must be a whole number from 0 to %d (got %q)", uint64(MaxSeed), clip(v))
				continue
			}
			p.Seed = &n
		case "speed":
			s, err := strconv.ParseFloat(v, 64)
			if !speedRE.MatchString(v) || err != nil || math.IsNaN(s) || s < scene.MinSpeed || s > scene.MaxSpeed {
				bad(key, "must be a number from %g to %g iterations per second (got %q)", scene.MinSpeed, float64(scene.MaxSpeed), clip(v))
				continue
			}
			p.Speed = &s
		}
	}
	var unknown []string
	for key := range values {
		if !known(key) {
			unknown = append(unknown, key)
		}
	}
	sort.Strings(unknown)
	for _, key := range unknown {
		bad(key, "is unknown; the page takes %s", strings.Join(Keys, ", "))
	}
	return p, errs
}

func known(key string) bool {
	for _, k := range Keys {
		if k == key {
			return true
		}
	}
	return false
}

// clip keeps a message short whatever the URL holds.
func clip(s string) string {
	s = strings.ToValidUTF8(s, "?")
	if len(s) > 40 {
		cut := 40
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		return s[:cut] + "…"
	}
	return s
}

// Describe joins errors into one line, for dpsimState.error.
func Describe(errs []error) string {
	msgs := make([]string, len(errs))
	for i, e := range errs {
		msgs[i] = e.Error()
	}
	return strings.Join(msgs, "; ")
}
