package experiment

import "testing"

// TestPresetsListPapersAndClaims checks what the page's gallery of paper
// figures reads from Presets: each paper figure's paper and figure apart,
// and every claim of its expectations in order.
func TestPresetsListPapersAndClaims(t *testing.T) {
	figures := 0
	for _, p := range Presets() {
		e, err := PresetExperiment(p.Name)
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		if e.Reproduces == nil {
			if p.Paper != "" || p.Figure != "" {
				t.Errorf("%s reproduces no figure but lists paper %q, figure %q", p.Name, p.Paper, p.Figure)
			}
		} else {
			figures++
			if p.Paper != e.Reproduces.Paper || p.Figure != e.Reproduces.Figure {
				t.Errorf("%s: paper %q, figure %q; want %q, %q", p.Name, p.Paper, p.Figure, e.Reproduces.Paper, e.Reproduces.Figure)
			}
			if p.Reproduces != p.Paper+", "+p.Figure {
				t.Errorf("%s: reproduces %q is not paper, figure", p.Name, p.Reproduces)
			}
		}
		if len(p.Claims) != len(e.Expectations) {
			t.Fatalf("%s: %d claims for %d expectations", p.Name, len(p.Claims), len(e.Expectations))
		}
		for i, x := range e.Expectations {
			if p.Claims[i] != x.Claim {
				t.Errorf("%s claim %d = %q, want %q", p.Name, i, p.Claims[i], x.Claim)
			}
		}
	}
	if figures == 0 {
		t.Error("no preset reproduces a paper figure")
	}
}

// TestPresetsNamePapers checks that every paper figure names its paper
// the same way — authors, title, algorithm (Papers) — never by a file
// name or a short title of its own.
func TestPresetsNamePapers(t *testing.T) {
	seen := map[string]bool{}
	for _, p := range Presets() {
		if p.Paper == "" {
			continue
		}
		pp, ok := PaperNamed(p.Paper)
		if !ok {
			t.Errorf("%s: reproduces.paper %q is not one of the papers' names (experiment.Papers)", p.Name, p.Paper)
			continue
		}
		seen[pp.Algorithm] = true
		if p.PaperTitle != pp.Title || p.PaperAuthors != pp.Authors {
			t.Errorf("%s: listed as %q by %q, want %q by %q", p.Name, p.PaperTitle, p.PaperAuthors, pp.Title, pp.Authors)
		}
	}
	for _, pp := range Papers {
		if !seen[pp.Algorithm] {
			t.Errorf("no preset reproduces a figure of %s", pp.Name())
		}
	}
}
