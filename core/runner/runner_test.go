package runner_test

import (
	"bytes"
	"encoding/json"
	"math"
	"testing"

	"dpsim/core/metrics"
	"dpsim/core/runner"
	"dpsim/core/scenario"
)

func built(t *testing.T, preset string, edit func(*scenario.Scenario)) *scenario.Built {
	t.Helper()
	s, err := scenario.PresetScenario(preset)
	if err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(s)
	}
	b, err := scenario.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// The streamed export is byte for byte what MarshalIndent writes.
func TestWriteExportIsMarshalIndent(t *testing.T) {
	for _, preset := range []string{"gtdp-rendezvous", "gtdp-paper-fig1"} {
		r := runner.New(built(t, preset, func(s *scenario.Scenario) { s.Iterations, s.Record.Checkpoints = 50, []int{0, 50} }))
		if err := r.Run(); err != nil {
			t.Fatal(err)
		}
		want, err := json.MarshalIndent(r.Export(), "", " ")
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, '\n')
		var got bytes.Buffer
		if err := r.WriteExport(&got); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want) {
			i := 0
			for i < min(got.Len(), len(want)) && got.Bytes()[i] == want[i] {
				i++
			}
			t.Fatalf("%s: streamed export differs at byte %d: %q vs %q", preset, i,
				got.Bytes()[max(0, i-40):min(got.Len(), i+40)], want[max(0, i-40):min(len(want), i+40)])
		}
	}
}

// A checkpoint holding non-finite values still encodes (as null).
func TestCheckpointNonFiniteEncodes(t *testing.T) {
	st := runner.State{Name: "x", Values: []metrics.Floats{{1, math.Inf(1)}, {math.NaN(), 2}}}
	js, err := json.Marshal(st)
	if err != nil || string(js) != `{"name":"x","values":[[1,null],[null,2]]}` {
		t.Fatalf("%s, %v", js, err)
	}
}
