package metrics

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"dpsim/core/rendezvous"
	"dpsim/core/sim"
)

func TestCompute(t *testing.T) {
	p, _ := rendezvous.New([][]float64{{0, 0}, {2, 0}})
	s := &sim.Step{Iter: 3, Dim: 2, Estimates: []float64{1, 1, 1, -1}}
	got := Compute(p, p.Optimum(), s, make([]float64, 2))
	// x* = (1,0): errors 1 and 1 → 1; mean (1,0): disagreements 1 and 1 → 1.
	if math.Abs(got.Optimality-1) > 1e-15 || math.Abs(got.Consensus-1) > 1e-15 {
		t.Errorf("got %+v", got)
	}
	if math.Abs(got.Objective-1) > 1e-15 { // (1+1)/2 at x̄ = x*
		t.Errorf("objective %v, want 1", got.Objective)
	}
}

func TestRecorderAndExports(t *testing.T) {
	p, _ := rendezvous.New([][]float64{{0, 0}, {2, 0}})
	r := NewRecorder(p, 2, 5)
	for k := range 6 {
		r.Record(&sim.Step{Iter: k, Dim: 2, Estimates: []float64{1, 0, 1, 0}})
	}
	if want := []int{0, 2, 4, 5}; len(r.Series.Iter) != len(want) {
		t.Fatalf("recorded %v, want %v", r.Series.Iter, want)
	}
	var b bytes.Buffer
	if err := r.Series.WriteCSV(&b); err != nil {
		t.Fatal(err)
	}
	if lines := strings.Split(strings.TrimSpace(b.String()), "\n"); len(lines) != 5 || lines[0] != "iteration,optimality,consensus,objective" {
		t.Errorf("csv: %q", b.String())
	}
	r.Series.Optimality[0] = math.NaN()
	js, err := json.Marshal(&r.Series)
	if err != nil {
		t.Fatal(err)
	}
	var back Series
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	if !math.IsNaN(back.Optimality[0]) || back.Optimality[1] != 0 {
		t.Errorf("round trip: %s → %+v", js, back)
	}
}
