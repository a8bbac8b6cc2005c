package ui

import (
	"encoding/json"
	"math"
	"testing"

	"dpsim/core/eavesdrop"
	"dpsim/core/runner/runnertest"
	"dpsim/core/scenario"
)

// TestEavesdropJSON checks the panel's view: null without a tap, and
// valid JSON (no Inf) with the frames, the agent count and the dimension,
// even when a vector overflowed.
func TestEavesdropJSON(t *testing.T) {
	if b, err := EavesdropJSON(nil, "dpp2", 5, 2); err != nil || string(b) != "null" {
		t.Fatalf("no tap: %s, %v", b, err)
	}
	bl := runnertest.Preset(t, "dpp2-classifier", func(s *scenario.Scenario) { s.Iterations = 3 })
	rec, err := eavesdrop.New(bl.Env.Problem, bl.Algorithm, 4, 1)
	if err != nil {
		t.Fatal(err)
	}
	rec.Record(bl.Algorithm.Initial())
	for range 3 {
		rec.Record(bl.Algorithm.Advance())
	}
	rec.Frames[1].X[0] = math.Inf(1)
	b, err := EavesdropJSON(rec, "dpp2", 50, 10)
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Agent, Agents, Dim int
		Inverts            bool
		Frames             []struct{ X []float64 }
	}
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%v: %.200s", err, b)
	}
	if v.Agent != 4 || v.Agents != 50 || v.Dim != 10 || !v.Inverts || len(v.Frames) != 3 || v.Frames[1].X[0] != math.MaxFloat64 {
		t.Errorf("view: agent %d of %d, dim %d, inverts %v, %d frames, x[0] %g", v.Agent, v.Agents, v.Dim, v.Inverts, len(v.Frames), v.Frames[1].X[0])
	}
}
