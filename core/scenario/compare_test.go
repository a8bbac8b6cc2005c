package scenario

import (
	"strconv"
	"strings"
	"testing"
)

// compareText is a comparison of GT-DP, DPOP and DiaDSP on the base of
// the GT-DP paper's Fig. 2 (DPOP takes the base's eta channel, DiaDSP
// gives its own noise).
func compareText(extra string) string {
	base, err := PresetJSON("gtdp-fig2")
	if err != nil {
		panic(err)
	}
	return `{"format": "dpsim-compare/1", ` + extra + `"base": ` + string(base) + `,
  "compare": [
    {"kind": "gt-dp", "params": {"alpha": 0.1, "gamma": {"kind": "constant", "c": 1}, "clip_gradients": true}},
    {"kind": "dpop", "label": "DPOP, q = 0.98", "params": {"c": 0.25, "q": 0.98}},
    {"kind": "diadsp", "params": {"alpha": 0.1},
     "noise": {"eta": {"dist": "laplace", "scale": 2, "decay": {"kind": "geometric", "c": 1, "r": 0.99}},
               "xi": {"dist": "laplace", "scale": 5, "decay": {"kind": "geometric", "c": 1, "r": 0.99}}}}
  ]}`
}

// A comparison parses, names its entries, gives each the base's problem,
// graph and seeds with its own algorithm and noise, and reads back
// from its JSON to the same entries.
func TestComparisonEntries(t *testing.T) {
	c, err := ParseComparison([]byte(compareText("")))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"GT-DP", "DPOP, q = 0.98", "DiaDSP"}
	for i, l := range c.Labels() {
		if !strings.HasPrefix(l, want[i]) {
			t.Errorf("label %d = %q, want %q…", i, l, want[i])
		}
	}
	base := c.BaseScenario()
	for i, kind := range []string{"gt-dp", "dpop", "diadsp"} {
		s, err := c.EntryScenario(i)
		if err != nil {
			t.Fatalf("entry %d: %v", i, err)
		}
		if s.Algorithm.Kind != kind || s.Graph.Kind != base.Graph.Kind || s.Graph.N != base.Graph.N ||
			s.StreamSeeds() != base.StreamSeeds() || s.Problem.Kind != base.Problem.Kind || s.Iterations != base.Iterations {
			t.Errorf("entry %d: %s on %s/%d, seeds %v; want %s on the base's %s/%d, seeds %v",
				i, s.Algorithm.Kind, s.Graph.Kind, s.Graph.N, s.StreamSeeds(), kind, base.Graph.Kind, base.Graph.N, base.StreamSeeds())
		}
	}
	if s, _ := c.EntryScenario(1); len(s.Noise) != 1 || s.Noise["eta"] == nil || s.Noise["eta"].Scale != 1 {
		t.Errorf("DPOP's noise %v: want the base's eta channel alone", s.Noise)
	}
	if s, _ := c.EntryScenario(2); s.Noise["xi"].Scale != 5 {
		t.Errorf("DiaDSP's xi scale %v: want its own 5", s.Noise["xi"].Scale)
	}
	again, err := ParseComparison(c.JSON())
	if err != nil {
		t.Fatalf("re-reading its JSON: %v", err)
	}
	if string(again.JSON()) != string(c.JSON()) {
		t.Error("the comparison's JSON does not read back to itself")
	}
}

// Bad comparisons are refused in one line naming the field, the rule
// and the value; an algorithm incompatible with the problem is refused
// naming the entry, the algorithm and the reason.
func TestComparisonBad(t *testing.T) {
	good := compareText("")
	for _, c := range []struct {
		name, text string
		want       []string
	}{
		{"format", strings.Replace(good, "dpsim-compare/1", "dpsim-compare/9", 1), []string{"format: ", "dpsim-compare/9"}},
		{"unknown key", strings.Replace(good, `"format"`, `"colour": 1, "format"`, 1), []string{"colour"}},
		{"no base", `{"format": "dpsim-compare/1", "compare": []}`, []string{"base: ", "required"}},
		{"base field", strings.Replace(good, `"n": 6`, `"n": 6, "m": 1`, 1), []string{"base.graph", `"m"`}},
		{"one entry", compareOne(), []string{"compare: ", "2 to 8", "got 1"}},
		{"kind", strings.Replace(good, `"kind": "dpop"`, `"kind": "dpopp"`, 1), []string{"compare[1].kind: ", `"dpopp"`}},
		{"label", strings.Replace(good, `"DPOP, q = 0.98"`, `"`+strings.Repeat("x", 81)+`"`, 1), []string{"compare[1].label: ", "80", "got 81"}},
		{"epsilon", compareTextCal(-1), []string{"calibrate.epsilon: ", "-1"}},
	} {
		_, err := ParseComparison([]byte(c.text))
		if err == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		msg := err.Error()
		for _, w := range c.want {
			if !strings.Contains(msg, w) || strings.Contains(msg, "\n") {
				t.Errorf("%s: error %q, want one line containing %q", c.name, msg, w)
			}
		}
	}

	// Parses, but the algorithm does not fit the problem or the base.
	for _, c := range []struct {
		name, text string
		want       []string
	}{
		{"allocation method", strings.Replace(good, `{"kind": "dpop", "label": "DPOP, q = 0.98", "params": {"c": 0.25, "q": 0.98}}`, `{"kind": "dp-dgt"}`, 1),
			[]string{"compare[1]: DP-DGT cannot run on this base scenario: ", "matrices"}},
		{"bad params", strings.Replace(good, `"q": 0.98`, `"q": 7`, 1), []string{"compare[1]: DPOP cannot run", "q"}},
	} {
		cmp, err := ParseComparison([]byte(c.text))
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		_, err = BuildComparison(cmp, CLI)
		if err == nil {
			t.Errorf("%s: built", c.name)
			continue
		}
		for _, w := range c.want {
			if msg := err.Error(); !strings.Contains(msg, w) || strings.Contains(msg, "\n") {
				t.Errorf("%s: error %q, want one line containing %q", c.name, msg, w)
			}
		}
	}
}

func compareOne() string {
	base, _ := PresetJSON("gtdp-fig2")
	return `{"format": "dpsim-compare/1", "base": ` + string(base) + `, "compare": [{"kind": "gt-dp"}]}`
}

func compareTextCal(eps float64) string {
	return compareText(`"calibrate": {"epsilon": ` + strings.TrimSpace(strings.Replace(fmtG(eps), "+", "", 1)) + `}, `)
}

func fmtG(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
