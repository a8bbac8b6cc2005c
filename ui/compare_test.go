package ui

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"dpsim/core/data"
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

// The comparison card's list on every preset, whether the page or a
// Worker computes it: every registered algorithm once, in name order,
// each either with an entry that builds there or with a one-line reason
// that says what fails — never none, never "unknown" — the preset's own
// algorithm always offered unless the preset is too heavy to build on
// the page's thread, which then is every algorithm's reason.
func TestCompareCandidatesEveryPreset(t *testing.T) {
	var kinds []string
	for _, f := range scenario.Factories() {
		kinds = append(kinds, f.Name)
	}
	offered := map[string]int{}
	for _, p := range scenario.Presets() {
		s, err := scenario.PresetScenario(p.Name)
		if err != nil {
			t.Fatal(err)
		}
		remote := heavy(s) != ""
		// The Worker that runs a remote one builds them on its scenario
		// (natively the datasets are read from disk).
		asked := false
		cs, final := CompareCandidatesOn(s, remote, func() ([]scenario.Candidate, bool) {
			asked = true
			return WorkerCandidates(s.JSON()), true
		})
		if !final || asked != (remote && heavyBuild(s) == "") {
			t.Errorf("%s (remote %v): final %v, the Worker asked %v", p.Name, remote, final, asked)
		}
		if len(cs) != len(kinds) {
			t.Errorf("%s: %d candidates for %d algorithms", p.Name, len(cs), len(kinds))
			continue
		}
		tooHeavy := remote && heavyBuild(s) != ""
		for k, c := range cs {
			switch {
			case c.Kind != kinds[k]:
				t.Errorf("%s: candidate %d is %s, want %s", p.Name, k, c.Kind, kinds[k])
			case (c.Entry == nil) == (c.Reason == ""):
				t.Errorf("%s: %s has an entry %v and the reason %q: want exactly one", p.Name, c.Kind, c.Entry != nil, c.Reason)
			case strings.Contains(c.Reason, "\n") || strings.Contains(c.Reason, "unknown algorithm"):
				t.Errorf("%s: %s's reason %q", p.Name, c.Kind, c.Reason)
			case tooHeavy && !strings.Contains(c.Reason, "too heavy for it (its dataset holds"):
				t.Errorf("%s (built in a Worker: %s): %s's reason %q", p.Name, heavyBuild(s), c.Kind, c.Reason)
			case !tooHeavy && c.Kind == s.Algorithm.Kind && c.Entry == nil:
				t.Errorf("%s: its own algorithm is not offered: %s", p.Name, c.Reason)
			}
			if c.Entry != nil {
				offered[p.Name]++
			}
		}
		if testing.Verbose() {
			t.Logf("%s (remote %v): %d of %d offered", p.Name, remote, offered[p.Name], len(cs))
		}
	}
	// DP-ADMM, which the card dropped as "unknown" on a dataset preset
	// computed in a Worker, is offered on DP-RECAL's ijcnn1 and on the
	// mushrooms' logistic regression.
	for _, name := range []string{"dp-recal-ijcnn1", "gtdp-logistic-mushrooms"} {
		s, _ := scenario.PresetScenario(name)
		i := slices.Index(kinds, "dp-admm")
		cs, _ := CompareCandidatesOn(s, true, func() ([]scenario.Candidate, bool) { return WorkerCandidates(s.JSON()), true })
		if c := cs[i]; c.Entry == nil {
			t.Errorf("%s: DP-ADMM is not offered: %s", name, c.Reason)
		}
	}
}

// The comparison candidates of a scenario on the user's file are built
// again when another file is given under the same name: they were kept
// by the scenario's text alone, which names the file but not its
// content, so the card offered the entries of the file it had before.
func TestCandidatesAnotherFileSameName(t *testing.T) {
	row := func(a, b int) string { return fmt.Sprintf("%d,%d,%d\n", a, b, (a+b)%2) }
	file := func(k int) []byte {
		b := "a,b,label\n"
		for i := range 8 {
			b += row(i*k, i+k)
		}
		return []byte(b)
	}
	if _, err := data.ProvideUser("cand-same-name.csv", file(1)); err != nil {
		t.Fatal(err)
	}
	s, err := scenario.PresetScenario("gtdp-logistic-synthetic")
	if err != nil {
		t.Fatal(err)
	}
	on, err := scenario.TrainOn(s, "cand-same-name.csv")
	if err != nil {
		t.Fatal(err)
	}
	var c candidateCache
	builds := 0
	build := func() (string, bool) { builds++; return fmt.Sprint("built ", builds), true }
	if got := c.get(on, build); got != "built 1" {
		t.Fatalf("first: %q", got)
	}
	if got := c.get(on.Clone(), build); got != "built 1" {
		t.Errorf("the same scenario and file: %q, want the kept candidates", got)
	}
	if _, err := data.ProvideUser("cand-same-name.csv", file(2)); err != nil {
		t.Fatal(err)
	}
	if got := c.get(on, build); got != "built 2" {
		t.Errorf("another file under the same name: %q, want candidates built again", got)
	}
	if got := c.get(on, func() (string, bool) { return "not final", false }); got != "built 2" {
		t.Errorf("kept: %q", got)
	}
}
