package scenario

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"dpsim/core/check"
	"dpsim/core/method"
	"dpsim/core/noise"
	"dpsim/core/objective"
)

// Candidate is an algorithm as a comparison on a base scenario may add
// it: the entry that runs it there, checked by building it on the base,
// or why no entry does.
type Candidate struct {
	Kind  string `json:"kind"`
	Title string `json:"title"`
	// Entry runs on the base: the algorithm's defaults (the base's own
	// parameters when it is the base's algorithm), with what they lack
	// filled in; nil when the algorithm cannot run there.
	Entry *Entry `json:"entry,omitempty"`
	// Filled says, one line each, what the entry takes from elsewhere
	// than the algorithm's defaults: a noise channel from the
	// algorithm's preset, a bound from the problem or the base's
	// algorithm.
	Filled []string `json:"filled,omitempty"`
	// Note says why the entry cannot be calibrated to the base's target
	// ε ("" when it can, or when there is none): it then runs with its
	// noise as written, as in a comparison.
	Note string `json:"note,omitempty"`
	// Reason says, in one line, why the algorithm cannot run on the base
	// (Entry is nil).
	Reason string `json:"reason,omitempty"`
}

// maxFills bounds the fills tried for one candidate: every fill answers
// one build error, and each error names a different field.
const maxFills = 6

// Candidates returns every registered algorithm (in name order) as a
// comparison on base may add it, each checked by building its entry on
// base for place; the base's problem is built once for them all. A
// requirement the algorithm's defaults leave open is filled where a
// sensible value exists — a noise channel the base lacks from the
// algorithm's own preset, a gradient bound from the problem's declared
// one or from the base algorithm's parameter of the same name — and
// said in Filled; otherwise the build's one-line error is the Reason.
func Candidates(base *Scenario, place Place) []Candidate {
	problems := problemCache()
	b := base.Clone()
	b.Calibrate = nil
	var prob objective.Problem
	n := base.Graph.N
	if built, err := BuildWith(b, place, problems); err == nil {
		prob, n = built.Env.Problem, built.Env.Graph.N
	}
	var out []Candidate
	for _, f := range Factories() {
		out = append(out, candidate(base, f, prob, n, place, problems))
	}
	return out
}

// Unavailable returns every registered algorithm (in name order) as a
// candidate that cannot run, for the one reason given: what the
// comparison card lists when it cannot build any entry on its base.
func Unavailable(reason string) []Candidate {
	var out []Candidate
	for _, f := range Factories() {
		out = append(out, Candidate{Kind: f.Name, Title: shortTitle(f.Name), Reason: check.OneLine(reason)})
	}
	return out
}

// candidate builds f's entry on base, filling what a build asks for.
func candidate(base *Scenario, f *method.Factory, prob objective.Problem, n int, place Place, problems ProblemProvider) Candidate {
	c := Candidate{Kind: f.Name, Title: shortTitle(f.Name)}
	e := Entry{Kind: f.Name}
	if f.Name == base.Algorithm.Kind {
		e.Params, e.Draws = base.Algorithm.Params, base.Algorithm.Draws
	}
	if nz, filled := entryNoise(base, f, n); nz != nil {
		e.Noise, c.Filled = nz, filled
	}
	filled := map[string]bool{}
	for range maxFills {
		cmp := &Comparison{Format: CompareFormat, Compare: []Entry{e}, base: base}
		note, err := cmp.validateEntry(place, problems)
		if err == nil {
			c.Entry, c.Note = &e, note
			return c
		}
		field := ""
		var ce *check.Error
		if errors.As(err, &ce) {
			field = ce.Field
		}
		// One fill per parameter or channel: a second error there is
		// the reason.
		what := fillTarget(field)
		if what == "" || filled[what] {
			c.Reason = check.OneLine(err.Error())
			return c
		}
		filled[what] = true
		how, ok := fill(&e, what, base, f, prob, n)
		if !ok {
			c.Reason = check.OneLine(err.Error())
			return c
		}
		c.Filled = append(c.Filled, how)
	}
	c.Reason = "too many requirements to fill"
	return c
}

// validateEntry builds c's only entry on c's base, as BuildComparison
// does (a calibration that cannot be met is a note, not an error), with
// the problem taken from problems.
func (c *Comparison) validateEntry(place Place, problems ProblemProvider) (note string, err error) {
	s, err := c.EntryScenario(0)
	if err != nil {
		return "", err
	}
	_, err = BuildWith(s.Clone(), place, problems)
	if err == nil || s.Calibrate == nil {
		return "", err
	}
	plain := s.Clone()
	plain.Calibrate = nil
	if _, perr := BuildWith(plain, place, problems); perr != nil {
		return "", perr
	}
	return calibrationNote(err), nil
}

// fillTarget is what a build error on field asks to fill: an algorithm
// parameter ("algorithm.params.gradient_bound") or a noise channel
// ("noise.x", for any field inside it); "" for anything else.
func fillTarget(field string) string {
	if name, ok := strings.CutPrefix(field, "algorithm.params."); ok && name != "" && !strings.ContainsAny(name, ".[") {
		return field
	}
	if ch, ok := strings.CutPrefix(field, "noise."); ok && ch != "" {
		ch, _, _ = strings.Cut(ch, ".")
		return "noise." + ch
	}
	return ""
}

// fill sets the value a build error on target (fillTarget) asks for,
// when a sensible one exists, and says where it came from.
func fill(e *Entry, target string, base *Scenario, f *method.Factory, prob objective.Problem, n int) (string, bool) {
	if name, ok := strings.CutPrefix(target, "algorithm.params."); ok {
		if v, ok := paramOf(base.Algorithm.Params, name); ok && base.Algorithm.Kind != f.Name {
			setParam(e, name, v)
			return fmt.Sprintf("algorithm.params.%s = %s, as the base's %s", name, v, shortTitle(base.Algorithm.Kind)), true
		}
		if lp, ok := prob.(objective.Lipschitz); ok && name == "gradient_bound" {
			if bd, ok := lp.GradientBound(); ok {
				v, _ := json.Marshal(bd.Value)
				setParam(e, name, v)
				return fmt.Sprintf("algorithm.params.gradient_bound = %s, the problem's bound (%s)", v, bd.Source), true
			}
		}
		return "", false
	}
	if ch, ok := strings.CutPrefix(target, "noise."); ok {
		if sp, from := presetChannel(f.Name, ch, n); sp != nil {
			if e.Noise == nil {
				e.Noise = baseNoise(base, f)
			}
			e.Noise[ch] = sp
			return fmt.Sprintf("noise.%s from %s's preset %s", ch, shortTitle(f.Name), from), true
		}
	}
	return "", false
}

// entryNoise returns the entry's noise channels when the base (of n
// agents) lacks one of f's (by name and distribution), each missing one
// from f's preset, with what was filled; nil when the base's channels
// serve.
func entryNoise(base *Scenario, f *method.Factory, n int) (map[string]*noise.Spec, []string) {
	var nz map[string]*noise.Spec
	var filled []string
	for _, ch := range f.Channels {
		if sp := base.Noise[ch.Name]; sp != nil && (sp.Dist == "" || ch.Dist == "" || sp.Dist == ch.Dist) {
			continue
		}
		if nz == nil {
			nz = baseNoise(base, f)
		}
		sp, from := presetChannel(f.Name, ch.Name, n)
		if sp == nil {
			// No preset runs f: its paper's distribution at scale 1,
			// which a calibration rescales.
			sp = &noise.Spec{Dist: ch.Dist, Scale: 1}
			from = "no preset"
		}
		nz[ch.Name] = sp
		filled = append(filled, fmt.Sprintf("noise.%s from %s's preset %s", ch.Name, shortTitle(f.Name), from))
	}
	return nz, filled
}

// baseNoise copies the base's channels that f declares.
func baseNoise(base *Scenario, f *method.Factory) map[string]*noise.Spec {
	nz := map[string]*noise.Spec{}
	for _, ch := range f.Channels {
		if sp := base.Noise[ch.Name]; sp != nil && (sp.Dist == "" || ch.Dist == "" || sp.Dist == ch.Dist) {
			cp := *sp
			nz[ch.Name] = &cp
		}
	}
	return nz
}

// presetChannel returns channel ch as the first preset running kind
// gives it (in name order, one without a dataset first, one that adds
// noise first), and the preset's name. Per-agent decays written for
// another number of agents than n become the first agent's decay.
func presetChannel(kind, ch string, n int) (*noise.Spec, string) {
	var sp *noise.Spec
	from := ""
	for _, s := range presetsByAlgorithm()[kind] {
		if c := s.Noise[ch]; c != nil && (sp == nil || sp.Scale == 0 && c.Scale > 0) {
			sp, from = c, s.Name
		}
	}
	if sp == nil {
		return nil, ""
	}
	cp := *sp
	if len(cp.Decays) > 0 && len(cp.Decays) != n {
		cp.Decay, cp.Decays = cp.Decays[0], nil
	}
	if len(cp.Scales) > 0 && len(cp.Scales) != n {
		cp.Scale, cp.Scales = cp.Scales[0], nil
	}
	return &cp, from
}

// presetsByAlgorithm lists the presets by algorithm kind, those without
// a dataset first; parsed once (the presets are embedded).
var presetsByAlgorithm = sync.OnceValue(func() map[string][]*Scenario {
	out := map[string][]*Scenario{}
	var later []*Scenario
	for _, p := range Presets() {
		s, err := PresetScenario(p.Name)
		if err != nil {
			continue
		}
		s.Name = p.Name
		if needsData(s) {
			later = append(later, s)
			continue
		}
		out[s.Algorithm.Kind] = append(out[s.Algorithm.Kind], s)
	}
	for _, s := range later {
		out[s.Algorithm.Kind] = append(out[s.Algorithm.Kind], s)
	}
	return out
})

// paramOf returns the JSON value of key in an algorithm's parameters.
func paramOf(params json.RawMessage, key string) (json.RawMessage, bool) {
	var m map[string]json.RawMessage
	if len(params) == 0 || json.Unmarshal(params, &m) != nil {
		return nil, false
	}
	v, ok := m[key]
	return v, ok && string(v) != "null"
}

// setParam sets key of the entry's parameters to v.
func setParam(e *Entry, key string, v json.RawMessage) {
	m := map[string]json.RawMessage{}
	if len(e.Params) > 0 {
		_ = json.Unmarshal(e.Params, &m)
	}
	m[key] = v
	e.Params, _ = json.Marshal(m)
}

// problemCache is a ProblemProvider that keeps every problem it builds,
// for the builds of one base's candidates.
func problemCache() ProblemProvider {
	type kept struct {
		p     objective.Problem
		warns []check.Warning
	}
	cache := map[string]kept{}
	return func(key string, _ int64, build func() (objective.Problem, []check.Warning, error)) (objective.Problem, []check.Warning, error) {
		if k, ok := cache[key]; ok {
			return k.p, k.warns, nil
		}
		p, w, err := build()
		if err == nil {
			cache[key] = kept{p, w}
		}
		return p, w, err
	}
}
