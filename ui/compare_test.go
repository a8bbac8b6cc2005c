package ui

import (
	"math"
	"os"
	"slices"
	"testing"
	"time"

	"dpsim/core/scenario"
)

// The page's comparison: the followers catch up with the viewed entry,
// every entry's curve is read at the plot's iterations, and the report
// reads each entry's ε from its ledger — equal to the target for the
// three calibrated entries after the run.
func TestCompareFollowsAndReports(t *testing.T) {
	data, err := os.ReadFile("../core/scenario/testdata/compare-gtdp-fig2.json")
	if err != nil {
		t.Fatal(err)
	}
	c, err := scenario.ParseComparison(data)
	if err != nil {
		t.Fatal(err)
	}
	cb, err := scenario.BuildComparison(c, scenario.Page)
	if err != nil {
		t.Fatal(err)
	}
	cmp := NewCompare(c, c, cb)
	cmp.View = 1
	main := cmp.Entries[1].Run
	for main.Iter() < 40 {
		if _, err := main.Advance(); err != nil {
			t.Fatal(err)
		}
	}
	// The report reads the ledgers: 40 of 300 iterations in, the viewed
	// entry has spent only part of the target.
	if e := cmp.Report().Items[1]; e.Epsilon == nil || !(*e.Epsilon < 0.9*10000) || *e.Epsilon <= 0 {
		t.Errorf("%s after 40 of 300 iterations: ε %v, want a part of the target 10000 read from its ledger", e.Label, e.Epsilon)
	}
	before := cmp.Progress()
	for cmp.Entries[0].Run.Iter() < 40 || cmp.Entries[2].Run.Iter() < 40 {
		cmp.CatchUp(main.Iter(), time.Second)
	}
	if cmp.Entries[0].Run.Iter() != 40 || cmp.Entries[2].Run.Iter() != 40 {
		t.Errorf("followers at %d and %d, want 40 (the viewed entry's iteration, not beyond)", cmp.Entries[0].Run.Iter(), cmp.Entries[2].Run.Iter())
	}
	if cmp.Progress() == before {
		t.Error("Progress did not change as the followers advanced")
	}
	iters := []float64{0, 10, 40, 41}
	head := []float64{1, 2, 3, 4}
	cols := cmp.At(iters, head, false)
	if len(cols) != 3 || &cols[1][0] != &head[0] {
		t.Fatalf("At: %d columns; want 3, the viewed entry's its own history", len(cols))
	}
	for _, i := range []int{0, 2} {
		s := &cmp.Entries[i].Run.Metrics.Series
		if cols[i][2] != s.At(40).Optimality || !math.IsNaN(cols[i][3]) {
			t.Errorf("entry %d at iterations 40, 41: %v, %v; want %v and NaN (not there yet)", i, cols[i][2], cols[i][3], s.At(40).Optimality)
		}
	}
	for _, e := range cmp.Entries {
		if err := e.Run.Run(); err != nil {
			t.Fatal(err)
		}
	}
	r := cmp.Report()
	if r.Target != 10000 || len(r.Items) != 3 {
		t.Fatalf("report: target %v, %d entries; want 10000 and 3", r.Target, len(r.Items))
	}
	for _, e := range r.Items {
		// Ended: done, or (at ε = 10⁴ the noise wins) worse than its start.
		if !e.Calibrated || e.Epsilon == nil || math.Abs(*e.Epsilon-10000) > 1e-6*10000 || !slices.Contains([]string{"done", OutcomeWorse, OutcomeDiverged}, e.Status) {
			t.Errorf("%s: calibrated %v, ε %v (%s), %s; want calibrated, ε = 10000 from the ledger, ended", e.Label, e.Calibrated, e.Epsilon, e.EpsilonText, e.Status)
		}
	}
}
