package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"dpsim/core/jsonout"
	"dpsim/core/privacy"
	"dpsim/core/scenario"
)

// `dpsim run --epsilon 5` on every registered algorithm (walked from the
// presets, each on the first that runs it with noise, a CNN last — it
// diverges under the noise a small ε needs —, shortened to 30 iterations
// without stop rules) either writes an export whose own ledger reads
// ε = 5 within the calibration's tolerance, with the calibration
// recorded, or exits 1 with one line naming the calibrate field. DP-EXTRA,
// DP-NIDS, DP-ADMM, DP-RWADMM and DP-MRADMM printed "calibrated … so
// that ε = 5" while their ledgers read their own target_epsilon.
func TestEpsilonFlagOnEveryAlgorithm(t *testing.T) {
	const horizon = 30
	dir := t.TempDir()
	done := map[string]bool{}
	var first, cnn []*scenario.Scenario
	for _, p := range scenario.Presets() {
		s, err := scenario.PresetScenario(p.Name)
		if err != nil {
			t.Fatal(err)
		}
		if !noisy(s) {
			continue
		}
		if s.Problem.Kind == "cnn" {
			cnn = append(cnn, s)
		} else {
			first = append(first, s)
		}
	}
	for _, s := range append(first, cnn...) {
		kind := s.Algorithm.Kind
		if done[kind] {
			continue
		}
		done[kind] = true
		p := s.Name
		s.Iterations, s.Stop, s.Record.Checkpoints = horizon, nil, nil
		js, err := jsonout.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		in, out := filepath.Join(dir, kind+".json"), filepath.Join(dir, kind+"-run.json")
		if err := os.WriteFile(in, js, 0o644); err != nil {
			t.Fatal(err)
		}
		code, _, errs := dpsim(t, "", "run", "--quiet", "--epsilon", "5", "--out", out, in)
		if code != 0 {
			line := strings.TrimSpace(errs)
			if code != 1 || strings.Contains(line, "\n") || !strings.HasPrefix(line, "dpsim: "+in+": calibrate") {
				t.Errorf("%s (preset %s): exit %d, %q: want an export, or one line naming the calibrate field", kind, p, code, errs)
			}
			continue
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		var ex struct {
			Privacy struct {
				Max privacy.Amount `json:"max_epsilon"`
			}
			Calibration *privacy.Calibration
		}
		if err := json.Unmarshal(data, &ex); err != nil {
			t.Fatal(err)
		}
		if ex.Calibration == nil || ex.Calibration.Target != 5 {
			t.Errorf("%s: the export's calibration %+v", kind, ex.Calibration)
		}
		if m := ex.Privacy.Max; m.NoGuarantee() || math.Abs(m.Log10()-math.Log10(5)) > math.Log10(1+privacy.Tolerance) {
			t.Errorf("%s (preset %s): --epsilon 5 over %d iterations, the export's ledger reads ε = %s", kind, p, horizon, m)
		}
	}
	if want := len(scenario.AlgorithmNames()); len(done) < want-1 {
		t.Errorf("%d of %d algorithms have a noisy preset", len(done), want)
	}
}

// noisy reports whether a preset gives any channel a scale.
func noisy(s *scenario.Scenario) bool {
	for _, sp := range s.Noise {
		if sp != nil && (sp.Scale > 0 || len(sp.Scales) > 0 || sp.Var > 0) {
			return true
		}
	}
	return false
}
