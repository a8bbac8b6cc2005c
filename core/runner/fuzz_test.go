package runner_test

import (
	"bytes"
	"errors"
	"math"
	"strings"
	"testing"

	"dpsim/core/runner"
	"dpsim/core/runner/runnertest"
	"dpsim/core/scenario"
)

// smallExport is the export of a 12-iteration GT-DP run on a ring of 4,
// recorded every 2 iterations, with checkpoints at 0, 5 and 12: small, so
// that a fuzz iteration takes milliseconds.
func smallExport(t testing.TB, edit func(*scenario.Scenario)) []byte {
	t.Helper()
	return runExport(t, runner.New(runnertest.Preset(t, "gtdp-rendezvous", func(s *scenario.Scenario) {
		s.Graph.N, s.Iterations, s.Record.Every, s.Record.Checkpoints = 4, 12, 2, []int{0, 5, 12}
		if edit != nil {
			edit(s)
		}
	})))
}

// FuzzResumeExport (issue 28): whatever an export file holds, resuming
// either refuses it in one line, or continues a run that stops with a
// Mismatch (the export disagrees with itself), or one that writes its
// export — and that export, resumed from the same checkpoint, writes
// itself again, byte for byte. Nothing panics. The seeds are a small export, one
// a stop rule ended, one interrupted, and tampered ones.
func FuzzResumeExport(f *testing.F) {
	good := smallExport(f, nil)
	stopped := smallExport(f, func(s *scenario.Scenario) { s.Stop = &scenario.Stop{MaxMessages: 50} })
	r := runner.New(runnertest.Preset(f, "gtdp-rendezvous", func(s *scenario.Scenario) {
		s.Graph.N, s.Iterations, s.Record.Every, s.Record.Checkpoints = 4, 12, 2, []int{0, 5, 12}
	}))
	for r.Iter() < 7 {
		if _, err := r.Advance(); err != nil {
			f.Fatal(err)
		}
	}
	r.Interrupt()
	paused := runExport(f, r)
	for _, seed := range [][]byte{good, stopped, paused,
		cutColumn(f, good, "consensus", -1),
		cutColumn(f, good, "optimality", 3),
		tamper(f, good, func(e *runner.Saved) { e.States[1].Communication.Messages = -5 }),
		tamper(f, good, func(e *runner.Saved) { e.States[1].Communication.Activations = []int64{1} }),
		tamper(f, good, func(e *runner.Saved) { e.Metrics = nil }),
		tamper(f, good, func(e *runner.Saved) { e.States[1].States[0].Values[0][0] = math.NaN() }),
		tamper(f, good, func(e *runner.Saved) { e.States[1].States[1].Values[0][0] = 1e308 }),
		tamper(f, good, func(e *runner.Saved) { e.Metrics.Iter[2] = 3 }),
	} {
		for _, from := range []int{-1, 5} {
			f.Add(seed, from)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, from int) {
		r, err := runner.ResumeExport(data, from, scenario.CLI)
		if err != nil {
			if msg := err.Error(); strings.Contains(msg, "\n") || msg == "" {
				t.Fatalf("not one line: %q", msg)
			}
			return
		}
		// An edited scenario may ask for a long run: keep each input short.
		if s := r.Built().Scenario; s.Iterations > 200 || s.Graph.N > 20 {
			return
		}
		k := r.Iter()
		var out bytes.Buffer
		var m *runner.Mismatch
		if err := r.Run(); errors.As(err, &m) {
			return // an edit the run betrayed: the CLI writes nothing
		} // a divergence is a valid outcome
		if err := r.WriteExport(&out); err != nil {
			t.Fatalf("the continuation's export did not write: %v", err)
		}
		again, err := runner.ResumeExport(out.Bytes(), k, scenario.CLI)
		if err != nil {
			t.Fatalf("the continuation's own export does not resume from %d: %v", k, err)
		}
		_ = again.Run()
		var out2 bytes.Buffer
		if err := again.WriteExport(&out2); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out.Bytes(), out2.Bytes()) {
			t.Fatalf("resumed twice from %d, the exports differ:\n%s", k, firstDiff(out2.String(), out.String()))
		}
	})
}
