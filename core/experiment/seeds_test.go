package experiment

import (
	"strings"
	"testing"
)

// "noise_seeds": "common" gives run r the noise of point 0 at every
// point of a series, changes nothing else, and is recorded in the seed
// rule; an unknown value is refused naming the field.
func TestCommonNoiseSeeds(t *testing.T) {
	const text = `{"format":"dpsim-experiment/1","name":"c","title":"T","base":{"preset":"gtdp-rendezvous"},
	 "set":{"iterations":5},"series":[{"name":"a"},{"name":"b"}],
	 "x":{"kind":"field","fields":["noise.eta.scale"],"values":[0.1,0.2,0.3],"label":"b"},"runs":2,"seed":7,%s
	 "metrics":[{"name":"optimality"}],"statistic":"mean","figure":{"title":"T","y":{"metric":"optimality","label":"e"}}}`
	fresh := plan(t, strings.Replace(text, "%s", "", 1))
	common := plan(t, strings.Replace(text, "%s", `"noise_seeds":"common",`, 1))
	seeds := func(p *Plan, s, pt, r int) [4]uint64 {
		sc, err := p.Scenario(p.TaskIndex(s, pt, r))
		if err != nil {
			t.Fatal(err)
		}
		return seeds4(*sc.Seeds)
	}
	for s := range 2 {
		for r := range 2 {
			c0 := seeds(common, s, 0, r)
			if f0 := seeds(fresh, s, 0, r); f0 != c0 {
				t.Errorf("series %d run %d: point 0 differs between fresh and common (%#x, %#x)", s, r, f0, c0)
			}
			for pt := 1; pt < 3; pt++ {
				if c := seeds(common, s, pt, r); c != c0 {
					t.Errorf("common: series %d point %d run %d has seeds %#x, want point 0's %#x", s, pt, r, c, c0)
				}
				if f := seeds(fresh, s, pt, r); f[2] == c0[2] {
					t.Errorf("fresh: series %d point %d run %d shares point 0's noise", s, pt, r)
				}
			}
		}
	}
	if seeds(common, 0, 1, 0)[2] == seeds(common, 1, 1, 0)[2] {
		t.Error("common: two series share their noise")
	}
	res, err := Assemble(common, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.SeedRule != SeedRuleCommon || !strings.Contains(res.SeedRule, `"noise_seeds": "common"`) {
		t.Errorf("seed rule %q", res.SeedRule)
	}
	if _, err := Parse([]byte(strings.Replace(text, "%s", `"noise_seeds":"sometimes",`, 1))); err == nil || !strings.Contains(err.Error(), "noise_seeds") {
		t.Errorf("noise_seeds \"sometimes\": %v", err)
	}
}
