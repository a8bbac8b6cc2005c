package experiment

import (
	"math"
	"strings"
	"testing"
)

// A sweep's ε never reads 0 when the budget overflows: DP-DGT with a decay
// r = 0 has no guarantee (ε = ∞: the mean is ∞, not the mean of nothing
// or 0), and with μ = 1e-4 its ε is beyond float64 (10^N: epsilon_log10
// holds N). Both once read "max ε 0" in every run and a mean ε of 0.
func TestSweepEpsilonOverflow(t *testing.T) {
	p := plan(t, `{"format":"dpsim-experiment/1","name":"eps","title":"T","base":{"preset":"dpdgt-ieee14"},
	 "set":{"iterations":1000,"record.every":100},
	 "series":[{"name":"r0","set":{"noise.xi.decay.r":0}},
	           {"name":"mu","set":{"algorithm.params.mu":1e-4}}],
	 "x":{"kind":"iteration","label":"k"},"runs":2,"seed":1,"metrics":[{"name":"optimality"}],"quantities":["epsilon","epsilon_log10"],
	 "statistic":"mean","figure":{"title":"T","y":{"metric":"optimality","label":"e"}}}`)
	recs, err := p.Execute(t.Context(), p.AllTasks(), 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Assemble(p, recs, nil)
	if err != nil {
		t.Fatal(err)
	}
	r0, mu := res.Series[0].Quantities, res.Series[1].Quantities
	if e := r0["epsilon"]; !math.IsInf(float64(e.Mean), 1) || e.Infinite != 2 {
		t.Errorf("r = 0: mean ε %v (infinite %d), want +Inf over 2 runs", e.Mean, e.Infinite)
	}
	if l := mu["epsilon_log10"]; !(float64(l.Mean) > 308) || l.N != 2 {
		t.Errorf("μ = 1e-4: mean log10 ε %v over %d runs, want a finite N > 308 over 2", l.Mean, l.N)
	}
	if e := mu["epsilon"]; float64(e.Mean) == 0 || math.IsNaN(float64(e.Mean)) {
		t.Errorf("μ = 1e-4: mean ε %v, want +Inf (beyond float64)", e.Mean)
	}
	js := string(res.JSON())
	if !strings.Contains(js, `"mean":"Inf"`) {
		t.Error(`the JSON does not write the infinite mean ε as "Inf"`)
	}
	back, _, err := ReadResult([]byte(js))
	if err != nil {
		t.Fatal(err)
	}
	if e := back.Series[0].Quantities["epsilon"]; !math.IsInf(float64(e.Mean), 1) {
		t.Errorf("read back: mean ε %v, want +Inf", e.Mean)
	}
}
