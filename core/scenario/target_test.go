package scenario_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	_ "dpsim/core/data/files" // the committed datasets, for the presets that train on them
	"dpsim/core/privacy"
	"dpsim/core/runner"
	"dpsim/core/scenario"
	"dpsim/core/sim"
)

// presetUsing returns a preset that runs algorithm kind, shortened to
// horizon iterations without stop rules or checkpoints: the first (by
// name) with noise, preferring one that does not train a CNN (which
// diverges under the large noise a small ε needs: a property of the
// problem, not of the calibration), else the first; nil when none runs
// it (the conformance test requires one for every algorithm).
func presetUsing(t *testing.T, kind string, horizon int) *scenario.Scenario {
	t.Helper()
	var pick, quiet *scenario.Scenario
	for _, p := range scenario.Presets() {
		s, err := scenario.PresetScenario(p.Name)
		if err != nil {
			t.Fatal(err)
		}
		if s.Algorithm.Kind != kind {
			continue
		}
		s.Iterations, s.Stop, s.Record.Checkpoints = horizon, nil, nil
		s.Record.Every, s.Record.EvalEvery = 1, 0
		switch {
		case hasNoise(s) && s.Problem.Kind != "cnn":
			return s
		case hasNoise(s) && pick == nil:
			pick = s
		case quiet == nil:
			quiet = s
		}
	}
	if pick != nil {
		return pick
	}
	return quiet
}

// hasNoise reports whether s gives any noise channel a scale.
func hasNoise(s *scenario.Scenario) bool {
	for _, sp := range s.Noise {
		if sp != nil && (sp.Scale > 0 || len(sp.Scales) > 0 || sp.Var > 0) {
			return true
		}
	}
	return false
}

// runTo builds s and runs it to its end, failing the test on an error.
func runTo(t *testing.T, b *scenario.Built) *runner.Runner {
	t.Helper()
	r := runner.New(b)
	if err := r.Run(); err != nil {
		t.Fatalf("%s: %v", b.Scenario.Name, err)
	}
	return r
}

// within reports whether a is target within privacy.Tolerance.
func within(a privacy.Amount, target float64) bool {
	return !a.NoGuarantee() && math.Abs(a.Log10()-math.Log10(target)) <= math.Log10(1+privacy.Tolerance)
}

// Every registered algorithm (walked from the registry, on a preset that
// runs it) calibrated to ε = 5 over its run either ends with its own
// ledger at 5 within the calibration's tolerance — checked after the
// run, not assumed — or is refused in one line naming the calibrate
// field. DP-EXTRA, DP-NIDS, DP-ADMM, DP-RWADMM, DP-MRADMM and DP-RECAL,
// whose noise followed their own target_epsilon, reported success and
// ended at that target instead.
func TestEveryAlgorithmCalibrates(t *testing.T) {
	const eps, horizon = 5.0, 40
	calibrated := 0
	for _, kind := range scenario.AlgorithmNames() {
		s := presetUsing(t, kind, horizon)
		if s == nil {
			t.Errorf("%s: no preset runs it", kind)
			continue
		}
		s.Calibrate = &scenario.Calibrate{Epsilon: eps}
		b, err := scenario.Build(s)
		if err != nil {
			if msg := err.Error(); !strings.HasPrefix(msg, "calibrate") || strings.Contains(msg, "\n") {
				t.Errorf("%s (preset %s): refused with %q: want one line naming the calibrate field", kind, s.Name, msg)
			}
			t.Logf("%s: refused: %v", kind, err)
			continue
		}
		if b.Calibration == nil {
			t.Errorf("%s: built without a calibration record", kind)
			continue
		}
		l := runTo(t, b).Ledger()
		if !within(l.Max, eps) {
			t.Errorf("%s (preset %s): calibrated to ε = %g after %d iterations (%s), the ledger reports %s", kind, s.Name, eps, horizon, b.Calibration, l.Max)
		}
		calibrated++
	}
	if calibrated < 10 {
		t.Errorf("only %d algorithms calibrated; most have an accountant that predicts", calibrated)
	}
}

// noiseLog records the first release that carried noise.
type noiseLog struct{ where string }

func (l *noiseLog) Record(s *sim.Step) {
	for _, r := range s.Releases {
		for _, v := range r.Noise {
			if v != 0 && l.where == "" {
				l.where = fmt.Sprintf("iteration %d, agent %d on %s: %g", s.Iter, r.From, r.Channel, v)
			}
		}
	}
}

// Every algorithm that takes a privacy target among its parameters
// (found by building each algorithm's presets: Built.Target), with its
// noise scales set to 0, draws no noise, warns in one line that its
// target is ignored, naming the parameter, and its ledger says no noise.
// The target used to set σ_1 regardless: a scale of 0 changed nothing.
func TestZeroNoiseIgnoresTarget(t *testing.T) {
	var found []string
	for _, kind := range scenario.AlgorithmNames() {
		s := presetUsing(t, kind, 30)
		b, err := scenario.Build(s.Clone())
		if err != nil || b.Target == nil {
			continue // a build error is the conformance test's business
		}
		found = append(found, kind)
		field := b.Target.Field()
		for name, sp := range s.Noise {
			z := *sp
			z.Scale, z.Scales, z.Var, z.VarOf = 0, nil, 0, ""
			s.Noise[name] = &z
		}
		b, err = scenario.Build(s)
		if err != nil {
			t.Errorf("%s with zero noise: %v", kind, err)
			continue
		}
		warned := false
		for _, w := range b.Warnings {
			warned = warned || (w.Field == field && strings.Contains(w.Message, "ignored because the noise is off") && !strings.Contains(w.String(), "\n"))
		}
		if !warned {
			t.Errorf("%s with zero noise: no warning that %s is ignored; warnings %v", kind, field, b.Warnings)
		}
		if b.Calibration != nil {
			t.Errorf("%s with zero noise was calibrated: %s", kind, b.Calibration)
		}
		log := &noiseLog{}
		r := runner.New(b, log)
		if err := r.Run(); err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		if log.where != "" {
			t.Errorf("%s with zero noise drew noise (%s)", kind, log.where)
		}
		for _, e := range r.Ledger().Agents {
			if !e.Epsilon.IsInf() || !strings.Contains(e.Reason, "no noise") {
				t.Errorf("%s with zero noise: agent %d's ledger reads ε = %s (%q), want ∞ for no noise", kind, e.Agent, e.Epsilon, e.Reason)
				break
			}
		}
	}
	t.Logf("algorithms with a privacy target: %v", found)
	if len(found) == 0 {
		t.Fatal("no algorithm declares a privacy target: DP-RECAL and its baselines do (target_epsilon)")
	}
}

// A plug-in's target is a calibration of its noise channel, recorded as
// such; a calibrate section replaces it with a warning naming both
// fields; the pinned scenario carries the calibrated scale and no target
// (its replay calibrates nothing and draws the same noise); a target out
// of reach is refused naming the parameter.
func TestTargetIsACalibration(t *testing.T) {
	s, err := scenario.PresetScenario("dp-extra-ring8")
	if err != nil {
		t.Fatal(err)
	}
	s.Iterations = 60
	b, err := scenario.Build(s.Clone())
	if err != nil {
		t.Fatal(err)
	}
	c := b.Calibration
	if c == nil || c.Field != "algorithm.params.target_epsilon" || c.HorizonField != "algorithm.params.plf" || c.Unit != "publications" || c.Iterations != 500 || c.Target != 12 {
		t.Fatalf("the target's calibration record: %+v", c)
	}
	if got := c.Channels[0].After[0]; got != c.Factor*1 || b.Env.Noise["x"].Scale != got {
		t.Errorf("noise.x.scale 1 calibrated to %v, factor %v, channel %v", got, c.Factor, b.Env.Noise["x"].Scale)
	}
	if !strings.HasPrefix(c.String(), "algorithm.params.target_epsilon = 12 after algorithm.params.plf = 500 publications: noise scales ×") {
		t.Errorf("the calibration says %q", c)
	}
	// The pinned scenario replays without calibrating, at the same scale.
	p := b.Pinned()
	if p.Calibrate != nil || !strings.Contains(string(p.Algorithm.Params), `"target_epsilon":0`) || p.Noise["x"].Scale != c.Channels[0].After[0] {
		t.Errorf("pinned: calibrate %v, params %s, scale %v", p.Calibrate, p.Algorithm.Params, p.Noise["x"].Scale)
	}
	if again, err := scenario.Build(p); err != nil || again.Calibration != nil || again.Env.Noise["x"].Scale != b.Env.Noise["x"].Scale {
		t.Errorf("the pinned scenario rebuilt: %v, calibration %v", err, again.Calibration)
	}

	// The scenario's calibration takes precedence, and says so.
	cs := s.Clone()
	cs.Calibrate = &scenario.Calibrate{Epsilon: 5}
	b, err = scenario.Build(cs)
	if err != nil {
		t.Fatal(err)
	}
	said := false
	for _, w := range b.Warnings {
		said = said || (w.Field == "calibrate.epsilon" && strings.Contains(w.Message, "algorithm.params.target_epsilon = 12"))
	}
	if !said || b.Calibration.Field != "" || b.Calibration.Iterations != 60 {
		t.Errorf("calibrate with a target: warnings %v, calibration %+v", b.Warnings, b.Calibration)
	}
	if l := runTo(t, b).Ledger(); !within(l.Max, 5) {
		t.Errorf("calibrate.epsilon = 5 over the run: the ledger reports %s", l.Max)
	}

	// A target that needs a scale beyond the bound is refused by name.
	far := s.Clone()
	far.Algorithm.Params = []byte(`{"target_epsilon": 1e-9, "plf": 100000000}`)
	if _, err := scenario.Build(far); err == nil || !strings.HasPrefix(err.Error(), "algorithm.params.target_epsilon: ") || strings.Contains(err.Error(), "\n") {
		t.Errorf("an unreachable target: %v, want one line naming algorithm.params.target_epsilon", err)
	}
}
