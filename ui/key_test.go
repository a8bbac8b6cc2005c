package ui

import (
	"slices"
	"strings"
	"testing"

	_ "dpsim/core/data/files"
	"dpsim/core/runner"
	"dpsim/core/scenario"
	"dpsim/render/scene"
	"dpsim/render/sceneof"
)

// TestKeyFromWords walks every preset (and through them every registered
// algorithm and problem: each has one) and checks the legend under the
// network and the panels against the plug-ins' words: the algorithm's own
// messages and no other algorithm's name or messages, the picture's
// words where the problem draws one ("beside" or "below" as the layout
// puts it, never a "right panel"), the learning curve where it draws
// none, the attack panel only where the algorithm says it applies, and
// a glossary that starts with the run's own plug-ins' entries.
func TestKeyFromWords(t *testing.T) {
	algs, probs := map[string]bool{}, map[string]bool{}
	for _, p := range scenario.Presets() {
		s, err := scenario.PresetScenario(p.Name)
		if err != nil {
			t.Fatal(err)
		}
		b, err := scenario.Build(s)
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		algs[b.Factory.Name], probs[b.ProblemFactory.Name] = true, true
		plane, alloc := sceneof.Plane(b.Env.Problem), sceneof.Allocation(b.Env.Problem)
		m := scene.NewModel(b.Env.Graph, plane)
		m.SetAllocation(alloc)
		r := runner.New(b, m)
		for range 2 {
			if _, err := r.Advance(); err != nil {
				t.Fatalf("%s: %v", p.Name, err)
			}
		}
		aw, pw := b.Factory.Words, b.ProblemFactory.Words
		for _, lay := range []struct {
			w, h  int
			where string
		}{{1200, 700, Beside}, {420, 900, Below}} {
			k := KeyOf(b, m, m.Frame(0.5, lay.w, lay.h))
			txt := k.Text
			if k.Messages != aw.Messages || !strings.Contains(txt, aw.Messages) {
				t.Errorf("%s: the legend does not carry %s's messages %q: %q", p.Name, b.Factory.Name, aw.Messages, txt)
			}
			for _, g := range scenario.Factories() {
				if g == b.Factory {
					continue
				}
				if mentions(txt, g.Title) && !mentions(b.Factory.Title, g.Title) {
					t.Errorf("%s: the legend names another algorithm, %s: %q", p.Name, g.Title, txt)
				}
				if g.Words.Messages != aw.Messages && strings.Contains(txt, g.Words.Messages) {
					t.Errorf("%s: the legend carries %s's messages", p.Name, g.Name)
				}
			}
			if strings.Contains(strings.ToLower(txt), "right panel") {
				t.Errorf("%s: a hard-coded position: %q", p.Name, txt)
			}
			var want []string
			switch {
			case plane != nil:
				want = append(want, PanelPlane)
			case alloc != nil:
				want = append(want, PanelGauge)
			default:
				want = append(want, PanelCurve)
			}
			if aw.Attack != "" {
				want = append(want, PanelAttack)
			}
			if !slices.Equal(k.Panels, want) {
				t.Errorf("%s at %d×%d: panels %v, want %v", p.Name, lay.w, lay.h, k.Panels, want)
			}
			if plane != nil || alloc != nil {
				lead := map[string]string{Beside: "Beside the network: ", Below: "Below the network: "}[lay.where]
				if k.Where != lay.where || !strings.Contains(txt, lead+pw.Picture) {
					t.Errorf("%s at %d×%d: picture %q, want %q and %q: %q", p.Name, lay.w, lay.h, k.Where, lay.where, lead+pw.Picture, txt)
				}
			} else if k.Where != "" || !strings.Contains(txt, pw.Curve) || strings.Contains(txt, "Beside the network") {
				t.Errorf("%s: no picture, but the legend says %q (where %q)", p.Name, txt, k.Where)
			}
		}
		gl := GlossaryOf(b)
		if len(gl) != len(scenario.Factories())+len(scenario.Problems()) {
			t.Errorf("%s: %d glossary groups", p.Name, len(gl))
		}
		if len(gl) < 2 || !gl[0].Current || !gl[1].Current || gl[0].Title != b.Factory.Title || gl[1].Title != b.ProblemFactory.Title ||
			!slices.Equal(gl[0].Terms, aw.Symbols) || !slices.Equal(gl[1].Terms, pw.Symbols) {
			t.Errorf("%s: the glossary does not start with the run's own algorithm's and problem's entries", p.Name)
		}
	}
	for _, f := range scenario.Factories() {
		if !algs[f.Name] {
			t.Errorf("algorithm %s has no preset, so its legend is not checked", f.Name)
		}
	}
	for _, f := range scenario.Problems() {
		if !probs[f.Name] {
			t.Errorf("problem %s has no preset, so its legend is not checked", f.Name)
		}
	}
}

// mentions reports whether text names the algorithm titled title (its
// short name, before any parenthesis).
func mentions(text, title string) bool {
	short := strings.TrimSpace(strings.SplitN(title, " (", 2)[0])
	return short != "" && strings.Contains(text, short)
}
