package ui

import (
	"fmt"
	"os"
	"testing"

	"dpsim/core/data"
	"dpsim/ui/internal/datatoy"
)

// dataScenario is GT-DP on a ring of six agents with the data toy on the
// named dataset.
func dataScenario(dataset string) string {
	return fmt.Sprintf(`{"name": "data", "seed": 3, "graph": {"kind": "ring", "n": 6},
		"weights": {"kind": "metropolis"}, "problem": {"kind": %q, "params": {"dataset": %q}},
		"algorithm": {"kind": "gt-dp", "params": {"alpha": 0.1, "gradient_bound": 2}},
		"noise": {"eta": {"dist": "laplace", "scale": 0.01, "decay": {"kind": "polynomial", "c": 1, "m": 1, "p": 0.8}},
			"xi": {"dist": "laplace", "scale": 0.01, "decay": {"kind": "polynomial", "c": 1, "m": 1, "p": 0.8}}}, "iterations": 20}`, datatoy.Kind, dataset)
}

// TestDataToyBuilds checks the test plug-in itself: built once its file
// is provided, its optimum is the mean of the shard means.
func TestDataToyBuilds(t *testing.T) {
	un, err := datatoy.Register()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(un)
	b, err := os.ReadFile("../core/data/files/mushrooms-train.gz")
	if err != nil {
		t.Fatal(err)
	}
	if err := data.Provide("mushrooms-train.gz", b); err != nil {
		t.Fatal(err)
	}
	built := build(t, dataScenario("mushrooms"))
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
