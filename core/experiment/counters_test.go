package experiment

import (
	"context"
	"math"
	"testing"
)

// The communication counters are quantities a derived x-axis can plot
// against, and a stop rule's runs count with their values at the stop:
// an error against the messages sent, Table IV's comparison.
func TestMessagesAxisWithStopRule(t *testing.T) {
	p := plan(t, `{"format":"dpsim-experiment/1","name":"msgs","title":"T",
	 "base":{"scenario":{"name":"inline","seed":1,"graph":{"kind":"ring","n":6},
	   "weights":{"kind":"metropolis"},"problem":{"kind":"rendezvous","params":{"dim":2,"box":2}},
	   "algorithm":{"kind":"gt-dp","params":{"alpha":0.1,"gradient_bound":20}},
	   "noise":{"eta":{"dist":"laplace","scale":0.1},"xi":{"dist":"laplace","scale":0.1}},
	   "iterations":100,"record":{"every":7},"stop":{"max_messages":1}}},
	 "series":[{"name":"g","sweep":{"fields":["stop.max_messages"],"values":[240,470]}}],
	 "x":{"kind":"derived","quantity":"messages","label":"messages"},"runs":2,"seed":9,
	 "metrics":[{"name":"optimality"},{"name":"messages","id":"m"}],"quantities":["activations_max","releases"],"statistic":"mean",
	 "figure":{"title":"T","y":{"metric":"optimality","label":"err"}}}`)
	recs, err := p.Execute(context.Background(), p.AllTasks(), 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 4 {
		t.Fatalf("%d records, want 2 points × 2 runs", len(recs))
	}
	// A ring of 6 has 12 links; GT-DP sends on 2 channels: 24 messages
	// and 12 releases per iteration. 470 messages are reached at
	// iteration 20 (480).
	for _, r := range recs {
		iters := []int{10, 20}[r.Point]
		if r.Status != StatusStopped || r.Iterations != iters {
			t.Fatalf("point %d: status %s after %d iterations; want stopped after %d", r.Point, r.Status, r.Iterations, iters)
		}
		for q, want := range map[string]float64{"messages": float64(24 * iters), "releases": float64(12 * iters), "activations_max": float64(iters)} {
			if got := float64(r.Quantities[q]); got != want {
				t.Errorf("point %d: %s = %v, want %v", r.Point, q, got, want)
			}
		}
		if m := float64(r.Metrics["m"]); m != float64(24*iters) || math.IsNaN(float64(r.Metrics["optimality"])) {
			t.Errorf("point %d: final messages metric %v, optimality %v", r.Point, m, r.Metrics["optimality"])
		}
	}
	res, err := Assemble(p, recs, nil)
	if err != nil {
		t.Fatal(err)
	}
	fd := p.Figure(res)
	if len(fd.Series) != 1 || len(fd.Series[0].X) != 2 || fd.Series[0].X[0] != 240 || fd.Series[0].X[1] != 480 {
		t.Fatalf("figure x (mean messages per point): %+v", fd.Series)
	}
}
