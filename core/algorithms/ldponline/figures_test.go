//go:build !js

// Natively only, as claims_test.go: these load MNIST and CIFAR-10 and
// train the CNN.

package ldponline_test

import (
	"encoding/json"
	"math"
	"testing"

	"dpsim/core/experiment"
	"dpsim/core/privacy"
	"dpsim/core/runner/runnertest"
	"dpsim/core/scenario"
)

// seriesScenario returns run 0's scenario of series name of experiment
// preset exp.
func seriesScenario(t *testing.T, exp, name string) *scenario.Scenario {
	t.Helper()
	e, err := experiment.PresetExperiment(exp)
	if err != nil {
		t.Fatal(err)
	}
	p, err := experiment.NewPlan(e)
	if err != nil {
		t.Fatal(err)
	}
	for si, se := range e.Series {
		if se.Name == name {
			s, err := p.Scenario(p.TaskIndex(si, 0, 0))
			if err != nil {
				t.Fatal(err)
			}
			return s
		}
	}
	t.Fatalf("%s has no series %q", exp, name)
	return nil
}

// The figures' privacy matching: every calibrated series of ldp-fig1, 2
// and 3 targets Algorithm 1's largest ε^i at the calibration horizon, as
// Algorithm 1's own accountant predicts it (a preset edited on one side
// only fails here).
func TestFigureTargetsAreAlgorithm1Budget(t *testing.T) {
	for _, exp := range []string{"ldp-fig1", "ldp-fig2", "ldp-fig3"} {
		e, err := experiment.PresetExperiment(exp)
		if err != nil {
			t.Fatal(err)
		}
		ldp, err := scenario.Build(seriesScenario(t, exp, "ldp-online"))
		if err != nil {
			t.Fatal(err)
		}
		for _, se := range e.Series {
			s := seriesScenario(t, exp, se.Name)
			if s.Calibrate == nil {
				continue
			}
			want := ldp.Accountant.(privacy.Predictor).PredictEpsilon(s.Calibrate.Iterations, 1).Value()
			if math.Abs(s.Calibrate.Epsilon-want) > 1e-9*want {
				t.Errorf("%s/%s: calibrated to ε = %.12g; Algorithm 1's largest ε^i after %d iterations is %.12g", exp, se.Name, s.Calibrate.Epsilon, s.Calibrate.Iterations, want)
			}
		}
	}
}

// Fig. 2, reduced to 30 iterations and one run of the preset's seeds:
// Algorithm 1's test accuracy on MNIST is above 0.3 (chance is 0.1),
// while DOLA and DMOD, at the same ε, stay below 0.2. The preset
// (60 iterations, 5 runs) is in docs/ldp-paper.md.
func TestFig2MNIST(t *testing.T) {
	acc := func(name string) float64 {
		s := seriesScenario(t, "ldp-fig2", name)
		s.Iterations, s.Record.Every, s.Record.EvalEvery = 30, 30, 30
		r := runnertest.Run(t, runnertest.Parse(t, mustJSON(t, s), nil))
		ser := &r.Metrics.Series
		k := -1
		for j, n := range ser.ExtraNames {
			if n == "test_accuracy" {
				k = j
			}
		}
		p := ser.At(ser.Len() - 1)
		if k < 0 || p.Iter != 30 || math.IsNaN(p.Extra[k]) {
			t.Fatalf("%s: no test accuracy at iteration 30 (names %v, last point %d)", name, ser.ExtraNames, p.Iter)
		}
		return p.Extra[k]
	}
	ldp := acc("ldp-online")
	if ldp < 0.3 {
		t.Errorf("Algorithm 1: test accuracy %.3f after 30 iterations, want ≥ 0.3", ldp)
	}
	for _, name := range []string{"dola", "dmod"} {
		a := acc(name)
		if a >= 0.2 {
			t.Errorf("%s: test accuracy %.3f after 30 iterations, want < 0.2 (Algorithm 1: %.3f)", name, a, ldp)
		}
		t.Logf("test accuracy after 30 iterations: Algorithm 1 %.3f, %s %.3f", ldp, name, a)
	}
}

func mustJSON(t *testing.T, s *scenario.Scenario) []byte {
	t.Helper()
	js, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	return js
}
