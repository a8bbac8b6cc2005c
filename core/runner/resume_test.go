package runner_test

import (
	"bytes"
	"strings"
	"testing"

	"dpsim/core/runner"
	"dpsim/core/runner/runnertest"
	"dpsim/core/scenario"
)

// runExport runs r to its end and returns its export's bytes.
func runExport(t *testing.T, r *runner.Runner) []byte {
	t.Helper()
	if err := r.Run(); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := r.WriteExport(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

var resumePoints = []int{0, 1, 17, 40, 59, 60}

func withCheckpoints(s *scenario.Scenario) {
	s.Iterations = 60
	s.Record.Checkpoints = resumePoints
}

// A run resumed from any of its checkpoints, on a fresh build of the same
// scenario, writes the uninterrupted run's export bit for bit: metrics,
// ledger, checkpoints (stream positions included) and final state. Every
// built-in scenario, so every algorithm.
func TestResumeIsBitIdentical(t *testing.T) {
	var presets []string
	for _, p := range scenario.Presets() {
		presets = append(presets, p.Name)
	}
	if testing.Short() {
		presets = []string{"gtdp-rendezvous", "dpdgt-ieee14"}
	}
	for _, name := range presets {
		t.Run(name, func(t *testing.T) {
			whole := runner.New(runnertest.Preset(t, name, withCheckpoints))
			want := runExport(t, whole)
			saved := whole.Export().States
			for _, cp := range saved {
				r, err := runner.Resume(runnertest.Preset(t, name, withCheckpoints), cp)
				if err != nil {
					t.Fatal(err)
				}
				if err := r.SetHistory(&whole.Metrics.Series, saved); err != nil {
					t.Fatal(err)
				}
				if got := runExport(t, r); !bytes.Equal(got, want) {
					t.Fatalf("resumed at %d: the export differs:\n%s", cp.Iter, firstDiff(string(got), string(want)))
				}
			}
		})
	}
}

// export → ResumeExport → run writes the export again, for every
// built-in scenario whose pinned scenario replays (calibrated ones
// included: the export's calibration record is carried over). The
// conformance test is where a pinned scenario that does not replay fails;
// here it is only logged.
func TestResumeExport(t *testing.T) {
	for _, p := range scenario.Presets() {
		name := p.Name
		want := runExport(t, runner.New(runnertest.Preset(t, name, withCheckpoints)))
		for _, k := range []int{-1, 0, 17, 59, 60} {
			r, err := runner.ResumeExport(want, k, scenario.CLI)
			if err != nil {
				t.Fatalf("%s from %d: %v", name, k, err)
			}
			if got := runExport(t, r); !bytes.Equal(got, want) {
				t.Fatalf("%s resumed at %d: the export differs:\n%s", name, k, firstDiff(string(got), string(want)))
			}
		}
	}
}

// Resuming refuses, in one line, what it cannot continue.
func TestResumeExportErrors(t *testing.T) {
	good := runExport(t, runner.New(runnertest.Preset(t, "gtdp-rendezvous", withCheckpoints)))
	none := runExport(t, runner.New(runnertest.Preset(t, "gtdp-rendezvous", func(s *scenario.Scenario) { s.Iterations = 5; s.Record.Checkpoints = nil })))
	for _, c := range []struct {
		name string
		data []byte
		from int
		want string
	}{
		{"no checkpoint at K", good, 33, "no checkpoint at iteration 33; it has [0 1 17 40 59 60]"},
		{"no checkpoints", none, -1, "holds no checkpoints"},
		{"other format", bytes.Replace(good, []byte(`"dpsim-run/1"`), []byte(`"dpsim-run/0"`), 1), -1, `format is "dpsim-run/0"`},
		{"other generator", bytes.Replace(good, []byte(`"noise_stream": "`), []byte(`"noise_stream": "old-`), 1), -1, "noise was drawn by"},
		{"not JSON", []byte("{"), -1, "reading the export"},
		{"edited state", bytes.Replace(good, []byte(`"name": "s"`), []byte(`"name": "q"`), 1), 0, `state variable 1 is "q"`},
	} {
		_, err := runner.ResumeExport(c.data, c.from, scenario.CLI)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: got %v, want one line containing %q", c.name, err, c.want)
		}
	}
}
