package tour

import (
	"math"
	"slices"
	"strings"
	"testing"

	_ "dpsim/core/data/files" // the presets that train on a dataset
	"dpsim/core/experiment"
	"dpsim/core/runner"
	"dpsim/core/scenario"
)

// TestResultsMatchPresets checks results.json against the presets it
// was measured on, without running the sweeps (cmd/mktour -check does):
// one lesson per paper, the landing among them with meaningful privacy,
// each scenario preset at its knee and saying its ε (and δ) in its
// title, each frontier's grid, runs and knee series as measured.
func TestResultsMatchPresets(t *testing.T) {
	rs, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if rs.Threshold != Threshold || len(rs.Lessons) != len(Lessons()) {
		t.Fatalf("results.json: threshold %g, %d lessons; want %g, %d", rs.Threshold, len(rs.Lessons), Threshold, len(Lessons()))
	}
	var algs []string
	landing := false
	for i, r := range rs.Lessons {
		if r.Lesson != Lessons()[i] {
			t.Errorf("lesson %d is %+v in results.json, %+v in Lessons", i, r.Lesson, Lessons()[i])
			continue
		}
		algs = append(algs, r.Algorithm)
		sc, err := scenario.PresetScenario(r.Preset)
		if err != nil {
			t.Fatal(err)
		}
		if sc.Algorithm.Kind != r.Algorithm || sc.Problem.Kind != r.Problem || sc.Iterations != r.Iterations || sc.Iterations > MaxIterations {
			t.Errorf("%s: %s on %s, %d iterations; results.json says %s on %s, %d", r.Preset, sc.Algorithm.Kind, sc.Problem.Kind, sc.Iterations, r.Algorithm, r.Problem, r.Iterations)
		}
		if r.Epsilon == nil {
			t.Errorf("%s: no knee: every lesson's preset sits at one", r.Preset)
			continue
		}
		if sc.Calibrate == nil || r.Field != "calibrate.epsilon" || sc.Calibrate.Epsilon != *r.Epsilon {
			t.Errorf("%s: calibrate %+v, the knee is %g at %s", r.Preset, sc.Calibrate, *r.Epsilon, r.Field)
		}
		if r.Meaningful != (*r.Epsilon <= Meaningful) {
			t.Errorf("%s: meaningful %v at ε = %g", r.Preset, r.Meaningful, *r.Epsilon)
		}
		if want := Phrase(*r.Epsilon, r.Delta); !strings.Contains(sc.Title, want) {
			t.Errorf("%s: the title %q does not say %q", r.Preset, sc.Title, want)
		}
		if r.Preset == scenario.DefaultPreset {
			landing = r.Meaningful
		}
		e, err := experiment.PresetExperiment(r.Frontier)
		if err != nil {
			t.Fatal(err)
		}
		var grid []float64
		for _, p := range r.Points {
			grid = append(grid, float64(p.Epsilon))
		}
		if e.Base.Preset != r.Preset || !slices.Equal(e.X.Values, grid) || e.Runs != r.Runs || len(e.X.Fields) != 1 || e.X.Fields[0] != r.Field {
			t.Errorf("%s: base %q, grid %v, runs %d, field %v; results.json: %q, %v, %d, %s", r.Frontier, e.Base.Preset, e.X.Values, e.Runs, e.X.Fields, r.Preset, grid, r.Runs, r.Field)
		}
		k := slices.IndexFunc(e.Series, func(s experiment.Series) bool { return s.Name == "knee" })
		if k < 0 || e.Series[k].Sweep == nil || len(e.Series[k].Sweep.Values) != 1 || e.Series[k].Sweep.Values[0] != *r.Epsilon {
			t.Errorf("%s: the series knee is not at ε = %g", r.Frontier, *r.Epsilon)
		}
		if r.Knee == nil || !r.Knee.Holds || float64(r.Knee.Mean) > Threshold {
			t.Errorf("%s: the knee is not confirmed: %+v", r.Preset, r.Knee)
		}
		if d := ledgerDelta(t, sc); d != r.Delta {
			t.Errorf("%s: the ledger's δ is %g, results.json says %g", r.Preset, d, r.Delta)
		}
	}
	slices.Sort(algs)
	if want := []string{"dp-dgt", "dp-recal", "dpp2", "gt-dp", "ldp-online"}; !slices.Equal(algs, want) {
		t.Errorf("the lessons run %v, want one per paper: %v", algs, want)
	}
	if !landing {
		t.Errorf("the page opens on %s, not a lesson with meaningful privacy", scenario.DefaultPreset)
	}
}

func ledgerDelta(t *testing.T, sc *scenario.Scenario) float64 {
	t.Helper()
	b, err := scenario.Build(sc)
	if err != nil {
		t.Fatal(err)
	}
	d := 0.0
	for _, a := range runner.New(b).Ledger().Agents {
		d = max(d, a.Delta)
	}
	return d
}

// TestPresetTitlesSayTheirEpsilon runs every scenario preset to its end
// and checks that its title says the ε its ledger ends at, in the words
// Phrase writes ("ε ≈ 4·10⁷", "ε = 12 (δ = 10⁻³)"), or "ε = ∞" with why:
// the papers' own settings keep their budget in sight (issue 29).
func TestPresetTitlesSayTheirEpsilon(t *testing.T) {
	for _, p := range scenario.Presets() {
		t.Run(p.Name, func(t *testing.T) {
			t.Parallel()
			sc, err := scenario.PresetScenario(p.Name)
			if err != nil {
				t.Fatal(err)
			}
			b, err := scenario.Build(sc)
			if err != nil {
				t.Fatal(err)
			}
			r := runner.New(b)
			if err := r.Run(); err != nil {
				t.Fatal(err)
			}
			led := r.Ledger()
			delta, reason := 0.0, ""
			for _, a := range led.Agents {
				delta = max(delta, a.Delta)
				reason += a.Reason
			}
			want := Phrase(led.Max.Value(), delta)
			if math.IsInf(led.Max.Value(), 1) {
				want = "ε = ∞ (noise without a DP guarantee)"
				if strings.Contains(reason, "no noise") {
					want = "ε = ∞ (no noise)"
				}
			}
			if !strings.Contains(sc.Title, want) {
				t.Errorf("the title %q does not say %q (the ledger ends at %s)", sc.Title, want, led.Max)
			}
		})
	}
}

// TestEpsilonText pins the words of a budget.
func TestEpsilonText(t *testing.T) {
	for _, c := range []struct {
		eps, delta float64
		want       string
	}{
		{6, 1e-5, "ε = 6 (δ = 10⁻⁵)"},
		{11.99999999999792, 1e-3, "ε = 12 (δ = 10⁻³)"},
		{1500, 0, "ε = 1500"},
		{6005.85, 0, "ε ≈ 6000"},
		{20000, 0, "ε = 2·10⁴"},
		{100000, 0, "ε = 10⁵"},
		{4.02955e7, 0, "ε ≈ 4·10⁷"},
		{2.38918e151, 0, "ε ≈ 2.4·10¹⁵¹"},
		{96, 0, "ε = 96"},
		{99.96, 0, "ε ≈ 100"},
		{0.5, 0, "ε = 0.5"},
		{math.Inf(1), 0, "ε = ∞"},
	} {
		if got := Phrase(c.eps, c.delta); got != c.want {
			t.Errorf("Phrase(%g, %g) = %q, want %q", c.eps, c.delta, got, c.want)
		}
	}
}
