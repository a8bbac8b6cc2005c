package figure

import (
	"encoding/json"
	"testing"

	"dpsim/core/experiment"
)

// TestPresetGlyphs: every text an experiment preset's figure draws (its
// title, axis labels, series labels and claims) has a glyph for each of
// its symbols once spelled, so no PNG or PDF shows an empty box (Fig. 3 of
// DPP² lost the ∇ of its y label before).
func TestPresetGlyphs(t *testing.T) {
	if has('∇') {
		t.Skip("the figures' font has ∇: the fallback is not exercised")
	}
	if got := spell("‖(1/N)Σ∇f_i‖²"); got != "‖(1/N)Σgrad f_i‖²" {
		t.Errorf("spell = %q", got)
	}
	for _, p := range experiment.Presets() {
		b, err := experiment.PresetJSON(p.Name)
		if err != nil {
			t.Fatal(err)
		}
		var e struct {
			Title        string
			Series       []struct{ Label string }
			Figure       map[string]any
			Expectations []struct{ Claim string }
		}
		if err := json.Unmarshal(b, &e); err != nil {
			t.Fatal(err)
		}
		texts := []string{e.Title}
		for _, s := range e.Series {
			texts = append(texts, s.Label)
		}
		for _, x := range e.Expectations {
			texts = append(texts, x.Claim)
		}
		var walk func(v any)
		walk = func(v any) {
			switch v := v.(type) {
			case string:
				texts = append(texts, v)
			case map[string]any:
				for _, w := range v {
					walk(w)
				}
			case []any:
				for _, w := range v {
					walk(w)
				}
			}
		}
		walk(e.Figure)
		for _, s := range texts {
			for _, r := range spell(s) {
				if r >= 0x80 && !has(r) {
					t.Errorf("preset %s: %q has no glyph in the figures' font and no fallback (in %q)", p.Name, r, s)
				}
			}
		}
	}
}
