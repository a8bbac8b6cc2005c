package scenario

import (
	"slices"
	"strings"
	"testing"

	_ "dpsim/core/data/files"
	"dpsim/core/glossary"
	"dpsim/core/method"
)

// TestEveryPluginHasWords walks the registries: every algorithm and
// problem says its own words (what a link carries, what the plot shows,
// a glossary of its symbols), every algorithm's baselines and every
// problem's papers name a paper's own algorithm, and no algorithm's
// messages name another algorithm.
func TestEveryPluginHasWords(t *testing.T) {
	papers := map[string]bool{} // the papers' own algorithms: baselines of none
	for _, f := range Factories() {
		if len(f.Words.BaselineOf) == 0 {
			papers[f.Name] = true
		}
	}
	if len(papers) != 5 {
		t.Errorf("%d papers' own algorithms (baselines of none), want the five papers': %v", len(papers), papers)
	}
	for _, f := range Factories() {
		if err := f.CheckWords(); err != nil {
			t.Error(err)
		}
		for _, b := range f.Words.BaselineOf {
			if !papers[b] {
				t.Errorf("%s: BaselineOf names %q, which is not a paper's own algorithm", f.Name, b)
			}
		}
		for _, g := range Factories() {
			if g != f && mentions(f.Words.Messages, g.Title) {
				t.Errorf("%s's messages name another algorithm, %s: %q", f.Name, g.Title, f.Words.Messages)
			}
		}
	}
	for _, f := range Problems() {
		if err := f.CheckWords(); err != nil {
			t.Error(err)
		}
		for _, p := range f.Words.Papers {
			if !papers[p] {
				t.Errorf("problem %s: Papers names %q, which is not a paper's own algorithm", f.Name, p)
			}
		}
	}
}

// mentions reports whether text names the algorithm titled title (its
// short name before any parenthesis).
func mentions(text, title string) bool {
	short := strings.TrimSpace(strings.SplitN(title, " (", 2)[0])
	return short != "" && strings.Contains(text, short)
}

// TestPaperSymbols checks that the glossary has an entry for the
// symbols of all five papers that a newcomer meets on the page, each in
// the words of the plug-in that prints it.
func TestPaperSymbols(t *testing.T) {
	want := map[string][]string{
		"gt-dp":      {"α", "β_k", "γ_k", "C", "s_i"},
		"dpp2":       {"ū", "r̄", "η^k", "ρ", "δ", "M̄", "y_i", "z_i"},
		"dp-dgt":     {"λ*", "w̃_i", "θ_ξ", "δ", "α_k"},
		"ldp-online": {"λ_t", "ς^i", "ϑ_i", "d", "y_i"},
		"dp-recal":   {"PLF", "ũ", "σ_1", "R", "ρ-zCDP", "(ε, δ)", "τ"},
	}
	for name, syms := range want {
		f := factories[name]
		for _, s := range syms {
			if !hasSymbol(f.Words.Symbols, s) {
				t.Errorf("%s's glossary has no entry for %s", name, s)
			}
		}
	}
}

// hasSymbol reports whether an entry prints sym, alone or in a list
// ("u, ũ").
func hasSymbol(terms []glossary.Term, sym string) bool {
	for _, t := range terms {
		if t.Symbol == sym {
			return true
		}
		for _, s := range strings.Split(t.Symbol, ", ") {
			if s == sym {
				return true
			}
		}
	}
	return false
}

// TestPresetMenu checks the grouping of the preset menu: every preset in
// exactly one group, each group a paper's with the paper's own algorithm
// first, the landing's group first, and the baselines with the paper
// whose problem they run (DiaDSP with GT-DP on the rendezvous, with
// DPP² on its classifier; PDOP with LDP online); the groups in the
// Tour's order, each led by its lesson.
func TestPresetMenu(t *testing.T) {
	menu := PresetMenu()
	if len(menu) != 5 {
		t.Fatalf("%d groups, want the five papers'", len(menu))
	}
	if menu[0].Presets[0].Name != DefaultPreset {
		t.Errorf("the menu starts with %q, want the landing's %q", menu[0].Presets[0].Name, DefaultPreset)
	}
	seen := map[string]string{}
	for _, g := range menu {
		if g.Label == "" || !strings.HasPrefix(g.Label, factories[g.Paper].Title) {
			t.Errorf("group %q: label %q", g.Paper, g.Label)
		}
		own := true
		for _, p := range g.Presets {
			if prev, dup := seen[p.Name]; dup {
				t.Errorf("%s in groups %s and %s", p.Name, prev, g.Paper)
			}
			seen[p.Name] = g.Paper
			if p.Algorithm != g.Paper {
				own = false
			} else if !own {
				t.Errorf("group %s: %s (the paper's algorithm) after a baseline", g.Paper, p.Name)
			}
		}
		if g.Presets[0].Algorithm != g.Paper {
			t.Errorf("group %s starts with a baseline, %s", g.Paper, g.Presets[0].Name)
		}
	}
	if len(seen) != len(Presets()) {
		t.Errorf("%d presets in the menu, %d presets", len(seen), len(Presets()))
	}
	// The Tour's lessons lead their groups, and the groups follow the Tour.
	tours := TourPresets()
	if len(tours) != len(menu) {
		t.Fatalf("%d tour presets, %d groups: want one lesson per paper", len(tours), len(menu))
	}
	for k, name := range tours {
		if got := menu[k].Presets[0].Name; got != name {
			t.Errorf("group %d (%s) starts with %s, want the Tour's lesson %s", k, menu[k].Paper, got, name)
		}
	}
	for name, paper := range map[string]string{
		"diadsp-fig2": "gt-dp", "diadsp-dpp2-fig3": "dpp2", "pdop-online-mushrooms": "ldp-online",
		"dpop-fig1": "gt-dp", "dp-nids-ring8": "dp-recal", "ddgt-ieee14": "dp-dgt", "dsgd-mushrooms": "ldp-online",
	} {
		if seen[name] != paper {
			t.Errorf("%s is in %s's group, want %s's", name, seen[name], paper)
		}
	}
}

// TestAssumptionsPerPreset decides every preset's assumptions: each is
// decided with its numbers, and the verdicts that the presets are known
// to give hold (GT-DP's rendezvous satisfies Lemma 1; the landing, the
// Tour's DP-RECAL, satisfies every hypothesis of Theorem 2; the DP-RECAL
// baselines' bounded gradients are checked against the problem's).
func TestAssumptionsPerPreset(t *testing.T) {
	for _, p := range Presets() {
		s, err := PresetScenario(p.Name)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Build(s)
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		got := b.Assumptions()
		if len(got) != len(b.Factory.Words.Assumptions) {
			t.Errorf("%s: %d verdicts for %d assumptions", p.Name, len(got), len(b.Factory.Words.Assumptions))
		}
		for _, c := range got {
			if !slices.Contains([]string{"holds", "fails", "unknown"}, c.Verdict) || c.Detail == "" {
				t.Errorf("%s: %+v", p.Name, c)
			}
		}
		if p.Name == "gtdp-rendezvous" && !strings.HasPrefix(verdict(got, "α·γ_0 < 2/(μ+L)"), "holds") {
			t.Errorf("%s: Lemma 1 %q", p.Name, verdict(got, "α·γ_0 < 2/(μ+L)"))
		}
		if p.Name == DefaultPreset {
			if len(got) == 0 {
				t.Errorf("%s: no assumptions decided", p.Name)
			}
			for _, c := range got {
				if c.Verdict != "holds" {
					t.Errorf("the landing %s: %s (%s) %s: %s", p.Name, c.Name, c.Source, c.Verdict, c.Detail)
				}
			}
		}
	}
}

func verdict(cs []method.Checked, name string) string {
	for _, c := range cs {
		if c.Name == name {
			return c.Verdict + ": " + c.Detail
		}
	}
	return "(none)"
}
