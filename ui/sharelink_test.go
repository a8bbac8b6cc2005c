package ui

import (
	"bytes"
	"testing"

	"dpsim/core/scenario"
	"dpsim/ui/query"
)

// TestLinkParams: an unmodified preset (but for seed and ε) gets the
// short link; anything else the whole scenario, which parses back to
// the same scenario.
func TestLinkParams(t *testing.T) {
	preset := func() *scenario.Scenario {
		s, err := scenario.PresetScenario("gtdp-rendezvous")
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	s := preset()
	cases := []struct {
		name string
		edit func(*scenario.Scenario)
		seed int64
		link string // "" for a whole-scenario link
	}{
		{"as is", func(*scenario.Scenario) {}, -1, "?preset=gtdp-rendezvous"},
		{"seeded", func(*scenario.Scenario) {}, 7, "?preset=gtdp-rendezvous&seed=7"},
		{"calibrated", func(s *scenario.Scenario) { s.Calibrate = &scenario.Calibrate{Epsilon: 2.5} }, 1, "?preset=gtdp-rendezvous&seed=1&epsilon=2.5"},
		{"calibrated at its horizon", func(s *scenario.Scenario) {
			s.Calibrate = &scenario.Calibrate{Epsilon: 2.5, Iterations: s.Iterations}
		}, 1, "?preset=gtdp-rendezvous&seed=1&epsilon=2.5"},
		{"calibrated at another horizon", func(s *scenario.Scenario) { s.Calibrate = &scenario.Calibrate{Epsilon: 2.5, Iterations: 10} }, 1, ""},
		{"ε out of the URL's range", func(s *scenario.Scenario) { s.Calibrate = &scenario.Calibrate{Epsilon: 1e-7} }, 1, ""},
		{"more iterations", func(s *scenario.Scenario) { s.Iterations++ }, 1, ""},
		{"renamed", func(s *scenario.Scenario) { s.Name = "mine" }, 1, ""},
		{"retitled", func(s *scenario.Scenario) { s.Title += "!" }, 1, ""},
	}
	for _, c := range cases {
		cp := *s
		c.edit(&cp)
		p := LinkParams(&cp, c.seed, &cp)
		got := query.Link(p)
		if c.link != "" {
			if got != c.link {
				t.Errorf("%s: link %q, want %q", c.name, got, c.link)
			}
			continue
		}
		if p.Scenario == nil || p.Preset != "" {
			t.Errorf("%s: link %.60q, want a whole scenario", c.name, got)
			continue
		}
		back, errs := query.Parse(got)
		if len(errs) > 0 {
			t.Fatalf("%s: %v", c.name, errs)
		}
		parsed, err := scenario.Parse(back.Scenario)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if !bytes.Equal(parsed.JSON(), cp.JSON()) {
			t.Errorf("%s: the link's scenario differs from the run's", c.name)
		}
	}
	if s.Calibrate != nil || s.Iterations != preset().Iterations {
		t.Fatal("the cases edited the preset itself")
	}
}

// TestPresetLinkAfterBuild checks that every preset, loaded and built as
// the page does, still links as itself: the build filled the default decay
// of the landing's noise into the loaded scenario, which then read as
// edited ("(custom: tour-recal, edited)" in the menu, a whole scenario in
// its link).
func TestPresetLinkAfterBuild(t *testing.T) {
	for _, pr := range scenario.Presets() {
		s, err := scenario.PresetScenario(pr.Name)
		if err != nil {
			t.Fatal(err)
		}
		b, err := scenario.BuildFor(buildCopy(s, 3), scenario.Page)
		if err != nil {
			t.Fatalf("%s: %v", pr.Name, err)
		}
		p := LinkParams(s, 3, b.Scenario)
		if p.Preset != pr.Name || p.Scenario != nil || p.Seed == nil || *p.Seed != 3 {
			t.Errorf("%s: links as preset %q, seed %v, a whole scenario %t", pr.Name, p.Preset, p.Seed, p.Scenario != nil)
		}
	}
}
