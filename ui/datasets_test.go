package ui

import (
	"os"
	"testing"

	"dpsim/core/data"
	"dpsim/ui/internal/datatoy"
)

// TestDataToyBuilds checks the test plug-in itself: built once its file
// is provided, its optimum is the mean of the shard means.
func TestDataToyBuilds(t *testing.T) {
	datatoy.Use(t)
	b, err := os.ReadFile("../core/data/files/mushrooms-train.gz")
	if err != nil {
		t.Fatal(err)
	}
	if err := data.Provide("mushrooms-train.gz", b); err != nil {
		t.Fatal(err)
	}
	built := build(t, datatoy.Scenario("mushrooms"))
	x := built.Env.Problem.Optimum()
	s, _ := data.Load("mushrooms", "train")
	var want [2]float64
	for i := range 6 {
		lo, hi := i*s.Rows/6, (i+1)*s.Rows/6
		for r := lo; r < hi; r++ {
			want[0] += s.At(r, 0) / float64(hi-lo) / 6
			want[1] += s.At(r, 1) / float64(hi-lo) / 6
		}
	}
	for c := range 2 {
		if d := x[c] - want[c]; d > 1e-12 || d < -1e-12 {
			t.Errorf("optimum[%d] = %v, want %v", c, x[c], want[c])
		}
	}
}
