package runner_test

import (
	"bytes"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"

	"dpsim/core/jsonout"
	"dpsim/core/privacy"
	"dpsim/core/runner"
	"dpsim/core/runner/runnertest"
	"dpsim/core/scenario"
	"dpsim/core/sim"
)

// runExport runs r to its end and returns its export's bytes.
func runExport(t testing.TB, r *runner.Runner) []byte {
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
	s.Record.Checkpoints = slices.Clone(resumePoints) // each build its own: TestResumeExport's run side by side
}

// A run resumed from any of its checkpoints, on a fresh build of the same
// scenario, writes the uninterrupted run's export bit for bit: metrics,
// ledger, checkpoints (stream positions included) and final state. Every
// built-in scenario, so every algorithm. Without replay arrays: a replay
// export's checkpoints stand in its own arrays, not in the seeds' streams
// (TestResumeExport resumes those).
func TestResumeIsBitIdentical(t *testing.T) {
	if runtime.GOOS == "js" {
		t.Skip("natively: resume is the CLI's, the page does not resume")
	}
	seeded := func(s *scenario.Scenario) {
		withCheckpoints(s)
		off := false
		s.Record.Replay = &off
	}
	var presets []string
	for _, p := range scenario.Presets() {
		presets = append(presets, p.Name)
	}
	if testing.Short() {
		presets = []string{"gtdp-rendezvous", "dpdgt-ieee14"}
	}
	for _, name := range presets {
		t.Run(name, func(t *testing.T) {
			whole := runner.New(runnertest.Preset(t, name, seeded))
			want := runExport(t, whole)
			saved := whole.Export().States
			for _, cp := range saved {
				r, err := runner.Resume(runnertest.Preset(t, name, seeded), cp)
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
	if runtime.GOOS == "js" {
		t.Skip("resumes every preset from five checkpoints: natively (resume is the CLI's; the page does not resume)")
	}
	for _, p := range scenario.Presets() {
		name := p.Name
		t.Run(name, func(t *testing.T) {
			t.Parallel() // the presets share nothing; side by side on every core
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
		})
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
		{"edited state", bytes.Replace(good, []byte(`"name": "s"`), []byte(`"name": "q"`), 1), 0, `checkpoints[0].states[1].name: is "q"; GT-DP's state variable 1 is "s"`},
	} {
		_, err := runner.ResumeExport(c.data, c.from, scenario.CLI)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: got %v, want one line containing %q", c.name, err, c.want)
		}
	}
}

// Issue 30: a run its stop rule ends saves a checkpoint where it stopped,
// asked for or not, and resuming from it ends the run there again, with
// the export of the run that stopped.
func TestStopSavesCheckpoint(t *testing.T) {
	data, stop := recalStopped(t)
	r, err := runner.ResumeExport(data, -1, scenario.CLI)
	if err != nil {
		t.Fatal(err)
	}
	if r.Iter() != stop || !r.Done() || !strings.HasPrefix(r.Stopped(), "stop.max_activations") {
		t.Fatalf("resumed at %d (the stop: %d), done %v, stopped %q", r.Iter(), stop, r.Done(), r.Stopped())
	}
	if got := runExport(t, r); !bytes.Equal(got, data) {
		t.Fatalf("resumed at the stop: the export differs:\n%s", firstDiff(string(got), string(data)))
	}
}

// Issue 28: an interrupted run (Ctrl-C) saves a checkpoint where it
// stands — at iteration 0 if it had not started — from which the export
// it writes resumes, bit for bit, to the uninterrupted run's export. A run
// that ended, or whose algorithm cannot resume, saves none and says so.
func TestInterruptSavesCheckpoint(t *testing.T) {
	edit := func(s *scenario.Scenario) { s.Iterations, s.Record.Every, s.Record.Checkpoints = 60, 4, []int{0, 40} }
	want := runExport(t, runner.New(runnertest.Preset(t, "gtdp-rendezvous", edit)))
	for _, at := range []int{0, 1, 23, 40, 59} {
		r := runner.New(runnertest.Preset(t, "gtdp-rendezvous", edit))
		for r.Iter() < at {
			if _, err := r.Advance(); err != nil {
				t.Fatal(err)
			}
		}
		if !r.Interrupt() {
			t.Fatalf("interrupted at %d: no checkpoint", at)
		}
		var paused bytes.Buffer
		if err := r.WriteExport(&paused); err != nil {
			t.Fatal(err)
		}
		e := r.Export()
		if n := len(e.States); e.Status != "paused" || !e.Partial || e.States[n-1].Iter != at {
			t.Fatalf("interrupted at %d: status %q, partial %v, checkpoints up to %d", at, e.Status, e.Partial, e.States[n-1].Iter)
		}
		rr, err := runner.ResumeExport(paused.Bytes(), -1, scenario.CLI)
		if err != nil {
			t.Fatalf("interrupted at %d: %v", at, err)
		}
		if got := runExport(t, rr); !bytes.Equal(got, want) {
			t.Fatalf("interrupted at %d and resumed: the export differs:\n%s", at, firstDiff(string(got), string(want)))
		}
	}
	done := runner.New(runnertest.Preset(t, "gtdp-rendezvous", edit))
	if err := done.Run(); err != nil {
		t.Fatal(err)
	}
	if done.Interrupt() {
		t.Error("a completed run saved a checkpoint when interrupted")
	}
	b := runnertest.Parse(t, ldpToyScenario(streamProblem, ""), nil)
	b.Algorithm = struct{ sim.Algorithm }{b.Algorithm}
	if runner.New(b).Interrupt() {
		t.Error("an algorithm that cannot resume saved a checkpoint when interrupted")
	}
}

// Issue 28, class 3: a ledger input that overflows (DP-DGT at noise
// scale 1e-320, a subnormal: its privacy inputs are +Inf) is written as
// "Inf" — the export used to fail with "json: unsupported value: +Inf"
// after the whole run — and the export resumes to itself; the CSV's ε
// reads +Inf.
func TestNonFiniteExportsAndResumes(t *testing.T) {
	r := runner.New(runnertest.Preset(t, "dpdgt-ieee14", func(s *scenario.Scenario) {
		s.Iterations, s.Record.Every, s.Record.Checkpoints = 200, 10, []int{0, 100, 200}
		for _, ch := range s.Noise {
			ch.Scale = 1e-320
		}
	}))
	r.TrackEpsilon()
	data := runExport(t, r)
	if !bytes.Contains(data, []byte(`"value": "Inf"`)) {
		t.Fatal(`no ledger input written "Inf" in the export`)
	}
	var csv bytes.Buffer
	if err := r.WriteCSV(&csv, runner.CSVMeta{}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(csv.Bytes(), []byte(",+Inf")) {
		t.Error("the CSV's ε columns do not read +Inf")
	}
	for _, k := range []int{0, 100} {
		rr, err := runner.ResumeExport(data, k, scenario.CLI)
		if err != nil {
			t.Fatalf("from %d: %v", k, err)
		}
		if got := runExport(t, rr); !bytes.Equal(got, data) {
			t.Fatalf("resumed at %d: the export differs:\n%s", k, firstDiff(string(got), string(data)))
		}
	}
}

// jsonout's copy for non-finite numbers writes a whole run export —
// recursive weights by role (DP-DGT), a calibration, embedded and
// self-written types — exactly as encoding/json does: only the number
// that was NaN or infinite changes.
func TestExportWithNaNKeepsItsBytes(t *testing.T) {
	for _, name := range []string{"gtdp-rendezvous", "dpdgt-ieee14", "dp-recal-ijcnn1", "diadsp-fig2"} {
		r := runner.New(runnertest.Preset(t, name, func(s *scenario.Scenario) { s.Iterations, s.Record.Checkpoints = 3, nil }))
		if err := r.Run(); err != nil {
			t.Fatal(err)
		}
		e := r.Export()
		e.Metrics, e.States = nil, nil
		in := &e.Ledger.Agents[0].Inputs
		*in = append(*in, privacy.Num("sentinel", 123456.789))
		want, err := jsonout.MarshalIndent(e, "", " ")
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range []struct {
			v    float64
			text string
		}{{math.NaN(), "null"}, {math.Inf(1), `"Inf"`}, {math.Inf(-1), `"-Inf"`}} {
			(*in)[len(*in)-1].Value = c.v
			got, err := jsonout.MarshalIndent(e, "", " ")
			if err != nil || string(got) != strings.Replace(string(want), "123456.789", c.text, 1) {
				t.Fatalf("%s, %v: %v\n%s", name, c.v, err, firstDiff(string(got), strings.Replace(string(want), "123456.789", c.text, 1)))
			}
		}
	}
}
