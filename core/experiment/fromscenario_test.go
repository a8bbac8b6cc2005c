package experiment

import (
	"context"
	"math"
	"strings"
	"testing"

	"dpsim/core/scenario"
)

// The sweep of one scenario (the page's "Sweep the current scenario")
// plans and runs: along the iterations without a field, over the field's
// values with one; a bad field or values are refused in one line naming
// them.
func TestFromScenario(t *testing.T) {
	s, err := scenario.PresetScenario("gtdp-rendezvous")
	if err != nil {
		t.Fatal(err)
	}
	s.Iterations = 20
	for _, c := range []struct {
		field  string
		values []float64
		points int
		x      string
		stat   string
	}{
		{"", nil, 1, "iteration", "median"},
		{"noise.eta.scale", []float64{0.1, 1, 10}, 3, "field", "mean"},
	} {
		e, err := FromScenario(s, c.field, c.values, 3)
		if err != nil {
			t.Fatalf("%q: %v", c.field, err)
		}
		if e.X.Kind != c.x || e.Statistic != c.stat || e.Runs != 3 || e.Name != "sweep-gtdp-rendezvous" {
			t.Errorf("%q: x %s, statistic %s, runs %d, name %s", c.field, e.X.Kind, e.Statistic, e.Runs, e.Name)
		}
		p, err := NewPlan(e)
		if err != nil {
			t.Fatalf("%q: %v", c.field, err)
		}
		if p.Points(0) != c.points || p.Tasks() != 3*c.points {
			t.Errorf("%q: %d points, %d tasks", c.field, p.Points(0), p.Tasks())
		}
		recs, err := p.Execute(context.Background(), p.AllTasks(), 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		res, err := Assemble(p, recs, nil)
		if err != nil {
			t.Fatal(err)
		}
		y := res.Series[0].Points[len(res.Series[0].Points)-1].Metrics[ErrorRatio]
		if !(y.Mean > 0 && y.Mean < 1) {
			t.Errorf("%q: the last point's error ratio %v: want in (0, 1), the run learns", c.field, y.Mean)
		}
	}
	if e, _ := FromScenario(s, "", nil, 0); e.Runs != ScenarioRuns {
		t.Errorf("runs 0 gives %d per point, want %d", e.Runs, ScenarioRuns)
	}

	for _, c := range []struct {
		field  string
		values []float64
		want   string
	}{
		{"noise.eta.scale", nil, "x.values: noise.eta.scale: give the values"},
		{"", []float64{1}, "x.fields: the values [1] need a field"},
	} {
		_, err := FromScenario(s, c.field, c.values, 3)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q %v: error %v, want %q", c.field, c.values, err, c.want)
		}
	}
	// A field the scenario lacks is refused when planned, naming it.
	e, err := FromScenario(s, "noise.eta.scal", []float64{1}, 3)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewPlan(e); err == nil || !strings.Contains(err.Error(), "scal") || strings.Contains(err.Error(), "\n") {
		t.Errorf("a misspelt field: %v", err)
	}
}

func TestParseValues(t *testing.T) {
	for _, c := range []struct {
		text string
		want []float64
		err  string
	}{
		{"0.1, 1, 10", []float64{0.1, 1, 10}, ""},
		{"1e-3 2;3", []float64{1e-3, 2, 3}, ""},
		{"", []float64{}, ""},
		{"1, two", nil, `x.values: must be finite numbers separated by commas (got "two")`},
		{"NaN", nil, `(got "NaN")`},
		{"1e999", nil, `(got "1e999")`},
	} {
		got, err := ParseValues(c.text)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: error %v, want %q", c.text, err, c.err)
			}
			continue
		}
		if err != nil || len(got) != len(c.want) {
			t.Errorf("%q: %v, %v", c.text, got, err)
			continue
		}
		for i := range got {
			if math.Abs(got[i]-c.want[i]) > 0 {
				t.Errorf("%q: %v, want %v", c.text, got, c.want)
			}
		}
	}
}
