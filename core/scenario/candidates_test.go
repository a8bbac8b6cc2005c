package scenario

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestCandidatesRunOnTheirBase checks, on every preset without a
// dataset as the base, that each algorithm Candidates offers runs there
// beside the base's own algorithm — the comparison builds, as the page's
// Compare button builds it — and that each one it refuses is refused by
// a comparison of its defaults too, with the reason it gives.
func TestCandidatesRunOnTheirBase(t *testing.T) {
	for _, p := range Presets() {
		base, err := PresetScenario(p.Name)
		if err != nil {
			t.Fatal(err)
		}
		if needsData(base) {
			continue
		}
		own := Entry{Kind: base.Algorithm.Kind, Params: base.Algorithm.Params, Draws: base.Algorithm.Draws}
		for _, c := range Candidates(base, Page) {
			if c.Entry == nil {
				if c.Reason == "" {
					t.Errorf("%s: %s is refused without a reason", p.Name, c.Kind)
				}
				cmp, err := NewComparison(base, nil, []Entry{own, {Kind: c.Kind}})
				if err == nil {
					if _, err := BuildComparison(cmp, Page); err == nil {
						t.Errorf("%s: %s is refused (%s), yet its defaults run there", p.Name, c.Kind, c.Reason)
					}
				}
				continue
			}
			cmp, err := NewComparison(base, nil, []Entry{own, *c.Entry})
			if err != nil {
				t.Fatalf("%s: %s: %v", p.Name, c.Kind, err)
			}
			cb, err := BuildComparison(cmp, Page)
			if err != nil {
				t.Errorf("%s: %s is offered but does not run there: %v", p.Name, c.Kind, err)
				continue
			}
			if cb.Notes[1] != c.Note {
				t.Errorf("%s: %s: the comparison notes %q, the candidate %q", p.Name, c.Kind, cb.Notes[1], c.Note)
			}
		}
	}
}

// TestCandidatesFill checks what the candidates fill in and refuse on
// three bases: GT-DP's rendezvous without a domain (DiaDSP takes GT-DP's
// gradient bound C; DPOP has no domain to project on; DDGT mixes with
// two matrices), the tour's DP-RECAL (only the prox algorithms run on its
// elastic net, the Gaussian ones with their preset's channel) and the
// tour's GT-DP, whose problem has a domain (DPOP runs).
func TestCandidatesFill(t *testing.T) {
	for _, c := range []struct {
		base    string
		offered []string
		filled  map[string]string // kind → a part of one Filled line
		refused map[string]string // kind → a part of its Reason
	}{
		{base: "gtdp-rendezvous",
			filled:  map[string]string{"diadsp": "gradient_bound = 60, as the base's GT-DP", "dp-extra": "noise.x from DP-EXTRA's preset dp-extra-ring8"},
			refused: map[string]string{"dpop": "bounded domain", "ddgt": "2 matrices", "diff-dradt": "resource-allocation"}},
		{base: "tour-recal", offered: []string{"dp-admm", "dp-extra", "dp-nids", "dp-recal", "dp-rwadmm"},
			refused: map[string]string{"gt-dp": "proximal step", "dpop": "proximal step"}},
		{base: "tour-gtdp",
			refused: map[string]string{"dp-recal": "init.x"}},
	} {
		base, err := PresetScenario(c.base)
		if err != nil {
			t.Fatal(err)
		}
		cands := Candidates(base, Page)
		if len(cands) != len(AlgorithmNames()) {
			t.Fatalf("%s: %d candidates for %d algorithms", c.base, len(cands), len(AlgorithmNames()))
		}
		var offered []string
		for _, cd := range cands {
			if cd.Entry != nil {
				offered = append(offered, cd.Kind)
			}
			if want, ok := c.filled[cd.Kind]; ok && !slices.ContainsFunc(cd.Filled, func(l string) bool { return strings.Contains(l, want) }) {
				t.Errorf("%s: %s filled %q, want a line with %q", c.base, cd.Kind, cd.Filled, want)
			}
			if want, ok := c.refused[cd.Kind]; ok && (cd.Entry != nil || !strings.Contains(cd.Reason, want)) {
				t.Errorf("%s: %s: entry %v, reason %q; want refused with %q", c.base, cd.Kind, cd.Entry != nil, cd.Reason, want)
			}
		}
		if c.offered != nil && !slices.Equal(offered, c.offered) {
			t.Errorf("%s: offered %v, want %v", c.base, offered, c.offered)
		}
	}
	// DPOP runs on the tour's GT-DP, whose rendezvous has a domain.
	base, _ := PresetScenario("tour-gtdp")
	for _, cd := range Candidates(base, Page) {
		if cd.Kind == "dpop" && cd.Entry == nil {
			t.Errorf("tour-gtdp: DPOP refused: %s", cd.Reason)
		}
	}
}

// TestCompareOnTheLanding is the Go half of "Compare works from the
// landing page on the first click": the page opens with the run on
// screen and the first other algorithm offered there that can be
// calibrated; the comparison of the two builds, both at the landing's
// own ε.
func TestCompareOnTheLanding(t *testing.T) {
	base, err := PresetScenario(DefaultPreset)
	if err != nil {
		t.Fatal(err)
	}
	if base.Calibrate == nil {
		t.Fatalf("%s has no target ε for the comparison to share", DefaultPreset)
	}
	var other *Candidate
	cands := Candidates(base, Page)
	for i, c := range cands {
		if c.Entry != nil && c.Kind != base.Algorithm.Kind && c.Note == "" {
			other = &cands[i]
			break
		}
	}
	if other == nil {
		t.Fatalf("%s: no other algorithm runs there", DefaultPreset)
	}
	own := Entry{Kind: base.Algorithm.Kind, Params: base.Algorithm.Params}
	cmp, err := NewComparison(base, nil, []Entry{own, *other.Entry})
	if err != nil {
		t.Fatal(err)
	}
	cb, err := BuildComparison(cmp, Page)
	if err != nil {
		t.Fatal(err)
	}
	for i, b := range cb.Entries {
		if b.Calibration == nil || b.Calibration.Target != base.Calibrate.Epsilon || cb.Notes[i] != "" {
			t.Errorf("entry %d (%s) not calibrated to ε = %g: %+v, note %q", i, cb.Labels[i], base.Calibrate.Epsilon, b.Calibration, cb.Notes[i])
		}
	}
	// The page reads the candidates as JSON.
	if _, err := json.Marshal(cands); err != nil {
		t.Fatal(err)
	}
}
