package ui

import (
	"reflect"

	"dpsim/core/scenario"
	"dpsim/ui/query"
)

// LinkParams describes a run for a link (docs/url.md): loaded is the
// scenario as loaded (before the seed override), seed the seed that
// overrides its own (−1: none), built the scenario as built. While loaded
// is a preset unchanged but for its seed and target ε, the link names the
// preset with its seed and ε — short, and readable; otherwise it carries
// the whole built scenario, which reproduces the run as it is.
func LinkParams(loaded *scenario.Scenario, seed int64, built *scenario.Scenario) query.Params {
	if p, ok := presetLink(loaded, seed); ok {
		return p
	}
	return query.Params{Scenario: built.JSON()}
}

// buildCopy is the copy of a loaded scenario s that the page builds, with
// seed (≥ 0) overriding its own: a clone, since the build fills in
// defaults (a noise channel's decay) that would otherwise be written into
// s, and s would then no longer read as the preset it is (LinkParams).
func buildCopy(s *scenario.Scenario, seed int64) *scenario.Scenario {
	cp := s.Clone()
	if seed >= 0 {
		v := uint64(seed)
		cp.Seed, cp.Seeds = &v, nil
	}
	return cp
}

// presetLink reports whether s is a preset, unmodified but for the seed
// and the target ε, and its short link if so.
func presetLink(s *scenario.Scenario, seed int64) (query.Params, bool) {
	if s == nil {
		return query.Params{}, false
	}
	pre, err := scenario.PresetScenario(s.Name)
	if err != nil {
		return query.Params{}, false
	}
	cur := *s
	cur.Calibrate = pre.Calibrate
	if string(cur.JSON()) != string(pre.JSON()) {
		return query.Params{}, false
	}
	p := query.Params{Preset: s.Name}
	if seed >= 0 {
		n := uint64(seed)
		p.Seed = &n
	}
	if c := s.Calibrate; !reflect.DeepEqual(c, pre.Calibrate) {
		// ?epsilon= sets the target at the scenario's horizon only (the
		// build writes that horizon in), and cannot remove a preset's own
		// target.
		horizon := c != nil && (c.Iterations == 0 || c.Iterations == s.Iterations)
		if !horizon || !(c.Epsilon >= query.MinEpsilon && c.Epsilon <= query.MaxEpsilon) {
			return query.Params{}, false
		}
		eps := c.Epsilon
		p.Epsilon = &eps
	}
	return p, true
}
