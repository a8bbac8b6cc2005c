package runner_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"dpsim/core/runner"
	"dpsim/core/runner/runnertest"
	"dpsim/core/scenario"
)

// A run that the growth rule (runner.Growth) stops resumes, from any
// checkpoint — within the rule's window of the divergence or before it —
// to the same divergence at the same iteration, with the same export:
// each checkpoint holds the window of peaks the rule compares with. A
// resumed run once started an empty window and diverged 17 iterations
// later than the run it continued.
func TestResumeDivergesWhereTheRunDid(t *testing.T) {
	mk := func(cps []int) *runner.Runner {
		return runner.New(runnertest.Preset(t, "gtdp-rendezvous", func(s *scenario.Scenario) {
			s.Algorithm.Params = json.RawMessage(`{"alpha": 1.2, "gradient_bound": 60}`)
			s.Iterations, s.Record.Checkpoints = 2000, cps
		}))
	}
	r := mk([]int{0, 1, 16, 30, 35})
	var want bytes.Buffer
	if err := r.Run(); err == nil || !strings.Contains(err.Error(), "runner.Growth") {
		t.Fatalf("the run should diverge by growth: %v", err)
	}
	if err := r.WriteExport(&want); err != nil {
		t.Fatal(err)
	}
	for _, k := range []int{0, 1, 16, 30, 35} {
		rr, err := runner.ResumeExport(want.Bytes(), k, scenario.CLI)
		if err != nil {
			t.Fatalf("from %d: %v", k, err)
		}
		if err := rr.Run(); err == nil || err.Error() != r.Err().Error() {
			t.Errorf("from %d: %v; want %v", k, err, r.Err())
		}
		var got bytes.Buffer
		if err := rr.WriteExport(&got); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("from %d: the export differs:\n%s", k, firstDiff(got.String(), want.String()))
		}
	}
}
