package experiment

import (
	"strings"
	"testing"

	"dpsim/core/metrics"
)

// TestOnGrid checks that a completed run must cover the whole grid, and
// only a diverged run may stop early (on the grid, as a prefix).
func TestOnGrid(t *testing.T) {
	grid := []int{0, 20, 40, 60}
	vals := []float64{4, 3, 2, 1}
	for _, c := range []struct {
		name      string
		iters     []int
		completed bool
		ok        bool
	}{
		{"completed, whole grid", grid, true, true},
		{"completed, shortened", grid[:3], true, false},
		{"completed, nothing", nil, true, false},
		{"diverged, prefix", grid[:2], false, true},
		{"diverged, whole grid", grid, false, true},
		{"diverged, off the grid", []int{0, 30}, false, false},
		{"too long", append(append([]int(nil), grid...), 80), true, false},
	} {
		v := vals
		if len(c.iters) > len(v) {
			v = append(v, 0)
		}
		out, err := onGrid(c.iters, v[:len(c.iters)], grid, c.completed)
		if (err == nil) != c.ok {
			t.Errorf("%s: err = %v, want ok = %v", c.name, err, c.ok)
		}
		if err == nil && len(out) != len(c.iters) {
			t.Errorf("%s: %d values for %d points", c.name, len(out), len(c.iters))
		}
	}
}

// TestFigureSaysDiverged checks that a figure with diverged runs says how
// many, and one without says nothing.
func TestFigureSaysDiverged(t *testing.T) {
	p := plan(t, small["iteration"])
	for _, c := range []struct {
		statuses []string
		want     string
	}{
		{[]string{StatusCompleted, StatusCompleted}, ""},
		{[]string{StatusCompleted, StatusDiverged, StatusDiverged}, "2 of 3 runs diverged: their curves stop where they diverged"},
	} {
		r := &Result{}
		for _, s := range c.statuses {
			r.Runs = append(r.Runs, RunRecord{Status: s})
		}
		f := p.Figure(r)
		switch {
		case c.want == "" && (f.Diverged != 0 || strings.Contains(f.Subtitle, "diverged")):
			t.Errorf("no run diverged, but the figure says %q (%d)", f.Subtitle, f.Diverged)
		case c.want != "" && !strings.Contains(f.Subtitle, c.want):
			t.Errorf("subtitle %q does not say %q", f.Subtitle, c.want)
		}
	}
}

// TestFigureMetricLabel checks that a figure defines the optimality and
// consensus metrics as the scenario's problem does: the rendezvous
// distance to x*, the dispatch's ‖w − w*‖² and price disagreement.
func TestFigureMetricLabel(t *testing.T) {
	disp := strings.NewReplacer(`"base":{"preset":"gtdp-rendezvous"},"set":{"iterations":60,"record.every":20}`,
		`"base":{"preset":"dpdgt-ieee14"},"set":{"iterations":60,"record.every":20}`,
		`"series":[{"name":"lo","set":{"noise.eta.scale":0.1,"noise.xi.scale":0.1}},{"name":"hi"}]`,
		`"series":[{"name":"hi"}]`,
		`"expectations":[{"claim":"falls","kind":"decreasing","series":"hi"},{"claim":"lo below hi","kind":"below","series":"lo","than":"hi"}]`,
		`"expectations":[]`).Replace(small["iteration"])
	if disp == small["iteration"] {
		t.Fatal("the dispatch variant of the experiment was not made")
	}
	for _, c := range []struct {
		name, text, metric string
		want, not          string
	}{
		{"rendezvous optimality", small["iteration"], "optimality", metrics.OptimalityLabel, "w*"},
		{"dispatch optimality", disp, "optimality", "‖w − w*‖²", "x*"},
		{"dispatch consensus", disp, "consensus", "(prices)", "x̄"},
	} {
		text := strings.Replace(c.text, `"metrics":[{"name":"optimality"}]`, `"metrics":[{"name":"`+c.metric+`"}]`, 1)
		text = strings.Replace(text, `"y":{"metric":"optimality"`, `"y":{"metric":"`+c.metric+`"`, 1)
		f := plan(t, text).Figure(&Result{})
		if !strings.Contains(f.YNote, c.want) || strings.Contains(f.YNote, c.not) {
			t.Errorf("%s: the note %q must say %q and not %q", c.name, f.YNote, c.want, c.not)
		}
	}
}

// TestFigureEvaluatedMarkers checks that a metric evaluated every k
// iterations only (a test accuracy), plotted along the run, is drawn
// with markers at the evaluated points and no line (Evaluated), while a
// metric of every recorded point keeps its line (issue 29: ldp-mnist-200
// drew accuracy evaluated at 0 and 200 as a straight line).
func TestFigureEvaluatedMarkers(t *testing.T) {
	acc := `{"format":"dpsim-experiment/1","name":"acc","title":"T",
	 "base":{"preset":"gtdp-logistic-synthetic"},"set":{"iterations":40,"record.every":20,"record.eval_every":20},
	 "series":[{"name":"g"}],"x":{"kind":"iteration","label":"k"},"runs":1,"seed":3,
	 "metrics":[{"name":"test_accuracy"},{"name":"optimality"}],"statistic":"mean",
	 "figure":{"title":"T","y":{"metric":"%s","label":"y"}}}`
	for metric, want := range map[string]bool{"test_accuracy": true, "optimality": false} {
		f := plan(t, strings.Replace(acc, "%s", metric, 1)).Figure(&Result{})
		if f.Evaluated != want || (want && !f.Markers) {
			t.Errorf("%s along the run: evaluated %v, markers %v; want evaluated %v with markers", metric, f.Evaluated, f.Markers, want)
		}
	}
}
