package runner_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"dpsim/core/rng"
	"dpsim/core/runner"
	"dpsim/core/runner/runnertest"
	"dpsim/core/scenario"
)

// paperPresets are one built-in scenario per paper: GT-DP, DP-DGT, DPP²
// (η^k drawn), DP-RECAL (the baton's walk, with noise: the ijcnn1 preset
// is calibrated, and a calibration's warning is the seeded run's alone)
// and LDP online (sample orders); DPP²'s and LDP online's are beyond the
// default size of the replay arrays at their full length; and the
// synthetic learning sets, which a replay export writes as rows; a
// committed dataset dealt after a shuffle (LDP online's mushrooms), whose
// deal it writes as row indices; and DPP²'s classifier, whose drawn
// samples it writes by value; and the CNN, whose deal and initial
// weights θ⁰ it writes (on 12 images for 4 iterations: every iteration
// draws 2 × 4 × 5,994 noise values).
var paperPresets = []string{"gtdp-rendezvous", "dpdgt-ieee14", "dpp2-fig3", "dpp2-classifier", "recal-synthetic", "ldp-online-mushrooms", "gtdp-logistic-synthetic", "gtdp-softmax-synthetic", "gtdp-cnn-mnist"}

// Issue 30: a replay export (record.replay) holds every draw of its run
// as plain arrays; the run built from its scenario with four other seeds
// and another problem seed draws nothing from them and writes the same export byte for byte, the
// scenario's seeds aside. The seeded export of the same run (replay off)
// holds no arrays, and with other seeds it runs another trajectory, so
// the test would see a difference.
func TestReplayArraysRebuild(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a preset of every paper three times")
	}
	for _, name := range paperPresets {
		t.Run(name, func(t *testing.T) {
			edit := func(replay bool) func(*scenario.Scenario) {
				return func(s *scenario.Scenario) {
					s.Iterations, s.Record.Checkpoints = 40, []int{0, 17, 40}
					s.Record.Replay = &replay
					if u := s.Noise["u"]; u != nil {
						u.Scale = 0.5
					}
					if s.Problem.Kind == "cnn" {
						s.Iterations, s.Record.Checkpoints = 4, []int{0, 2, 4}
						s.Problem.Params = withParams(t, s.Problem.Params, map[string]any{"train_rows": 12, "eval_rows": 12})
					}
				}
			}
			want := runExport(t, runner.New(runnertest.Preset(t, name, edit(true))))
			if strings.HasSuffix(name, "-synthetic") && !bytes.Contains(want, []byte(`"dataset": "user"`)) {
				t.Fatal("the export does not write the synthetic set as rows")
			}
			if strings.HasSuffix(name, "-mushrooms") && !bytes.Contains(want, []byte(`"deal": [`)) {
				t.Fatal("the export does not write the shuffled deal as row indices")
			}
			if strings.HasPrefix(name, "dpp2-") && !bytes.Contains(want, []byte(`"drawn": {`)) {
				t.Fatal("the export does not write the drawn samples")
			}
			if strings.Contains(name, "-cnn-") && !(bytes.Contains(want, []byte(`"deal": [`)) && bytes.Contains(want, []byte(`"initial_weights": [`))) {
				t.Fatal("the export does not write the CNN's deal and initial weights")
			}
			got := rebuilt(t, want)
			if a, b := withoutScenarioSeeds(t, want), withoutScenarioSeeds(t, got); !bytes.Equal(a, b) {
				t.Fatalf("the run rebuilt from the replay arrays writes another export:\n%s", firstDiff(string(b), string(a)))
			}
			seeded := runExport(t, runner.New(runnertest.Preset(t, name, edit(false))))
			if a, b := withoutScenarioSeeds(t, seeded), withoutScenarioSeeds(t, rebuilt(t, seeded)); bytes.Equal(a, b) {
				t.Fatalf("without replay arrays, other seeds gave the same export: the test cannot tell")
			}
		})
	}
}

// rebuilt runs the scenario of export data with four other seeds, and
// another problem.params.seed where it writes one, and returns its
// export.
func rebuilt(t *testing.T, data []byte) []byte {
	t.Helper()
	var e struct{ Scenario json.RawMessage }
	if err := json.Unmarshal(data, &e); err != nil {
		t.Fatal(err)
	}
	b := runnertest.Parse(t, e.Scenario, func(s *scenario.Scenario) {
		s.Seed, s.Seeds = nil, &rng.Seeds{Data: 9001, Graph: 9002, Noise: 9003, Algorithm: 9004}
		var params map[string]json.RawMessage
		if err := json.Unmarshal(s.Problem.Params, &params); err != nil {
			t.Fatal(err)
		}
		if _, ok := params["seed"]; ok {
			s.Problem.Params = withParams(t, s.Problem.Params, map[string]any{"seed": 9005})
		}
	})
	return runExport(t, runner.New(b))
}

// withParams returns the problem parameters params with the values set.
func withParams(t *testing.T, params json.RawMessage, set map[string]any) json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage // the other values' text unchanged
	if err := json.Unmarshal(params, &m); err != nil {
		t.Fatal(err)
	}
	for k, v := range set {
		js, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		m[k] = js
	}
	js, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return js
}

// withoutScenarioSeeds returns an export's bytes with the seed lines of
// its scenario and its problem removed (the only lines a run rebuilt
// with other seeds may change).
func withoutScenarioSeeds(t *testing.T, data []byte) []byte {
	t.Helper()
	var out [][]byte
	skip := false
	for _, l := range bytes.Split(data, []byte("\n")) {
		switch {
		case skip:
			skip = !bytes.HasPrefix(l, []byte("  }"))
		case bytes.HasPrefix(l, []byte(`  "seeds": {`)):
			skip = true
		case !bytes.HasPrefix(bytes.TrimLeft(l, " "), []byte(`"seed": `)):
			out = append(out, l)
		}
	}
	return bytes.Join(out, []byte("\n"))
}

// A run on a user's inline rows (docs/data.md, "Your own data") writes
// its replay arrays too — the sample orders of LDP online's streams and
// the noise — and rebuilt with other seeds writes the same export.
func TestReplayArraysUserData(t *testing.T) {
	js := []byte(`{"name": "user", "seed": 2, "graph": {"kind": "ring", "n": 3}, "weights": {"kind": "ldp-laplacian", "c": 0.3},
	  "problem": {"kind": "logistic", "params": {"dataset": "user", "l2": 0.05, "shards": "shuffled", "data": {"train": {
	    "features": [[0, 1], [1, 0], [1, 1], [0.5, 0.2], [0.3, 0.9], [0.8, 0.1], [0.1, 0.1], [0.9, 0.7]], "labels": [0, 1, 1, 0, 0, 1, 0, 1]}}}},
	  "algorithm": {"kind": "ldp-online", "params": {"gradient_bound": 1}},
	  "noise": {"theta": {"dist": "laplace", "scale": 0.1, "decay": {"kind": "polynomial", "c": 1, "m": 1, "p": 0.6}}},
	  "iterations": 30, "record": {"checkpoints": [0, 10, 30]}}`)
	b := runnertest.Parse(t, js, nil)
	if !b.Replay {
		t.Fatalf("a run of %d replay values writes no arrays", b.ReplayValues)
	}
	want := runExport(t, runner.New(b))
	if !bytes.Contains(want, []byte(`"order": [`)) {
		t.Fatal("the export pins no sample order")
	}
	if a, g := withoutScenarioSeeds(t, want), withoutScenarioSeeds(t, rebuilt(t, want)); !bytes.Equal(a, g) {
		t.Fatalf("the run rebuilt from the replay arrays writes another export:\n%s", firstDiff(string(g), string(a)))
	}
}

// A replay export's checkpoints stand in its arrays: a position outside
// them, or a count of another run, is refused in one line before the run.
func TestReplayCheckpointsRefused(t *testing.T) {
	good := runExport(t, runner.New(runnertest.Preset(t, "gtdp-rendezvous", func(s *scenario.Scenario) {
		s.Iterations, s.Record.Checkpoints = 20, []int{0, 10, 20}
	})))
	if _, err := runner.ResumeExport(good, 10, scenario.CLI); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		edit func(e *runner.Saved)
		want string
	}{
		{"noise position", func(e *runner.Saved) { e.States[1].Sources.Noise["gt-dp/eta"] = 1 << 20 },
			`checkpoints[1].sources: the checkpoint's position 1048576 of the pinned noise "gt-dp/eta" is outside its 320 draws`},
		{"count missing", func(e *runner.Saved) { delete(e.States[1].Sources.Counts, "noise/gt-dp/xi") },
			`checkpoints[1].sources: the checkpoint has no count of the draws "noise/gt-dp/xi"`},
		{"count negative", func(e *runner.Saved) { e.States[1].Sources.Counts["noise/gt-dp/xi"] = -3 },
			`checkpoints[1].sources: the checkpoint's count -3 of the draws "noise/gt-dp/xi" is negative`},
	} {
		_, err := runner.ResumeExport(tamper(t, good, c.edit), 10, scenario.CLI)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want one line starting %q", c.name, err, c.want)
		}
	}
}
