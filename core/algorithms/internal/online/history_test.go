package online_test

import (
	"encoding/json"
	"math"
	"testing"

	"dpsim/core/algorithms/internal/online"
	_ "dpsim/core/data/files"
	"dpsim/core/method"
	"dpsim/core/objective"
	"dpsim/core/runner/runnertest"
	"dpsim/core/scenario"
)

// The gradient over everything received (kept as counts per row) equals
// the literal (1/(t+1))·Σ_k ∇l(θ; ξ_k) over the list of received
// batches to 1e-13, in every sample mode (shuffle and in-order make at
// most two count groups, replace many) and long after the shard has been
// visited; a window reads exactly the latest batches.
func TestGradientOverReceivedData(t *testing.T) {
	for _, c := range []struct {
		mode          string
		batch, window int
	}{{"shuffle", 3, 0}, {"in-order", 2, 0}, {"replace", 5, 0}, {"shuffle", 3, 4}, {"replace", 2, 1}} {
		b := runnertest.Preset(t, "ldp-online-mushrooms", func(s *scenario.Scenario) {
			s.Samples = &scenario.Samples{Mode: c.mode}
			s.Problem.Params = json.RawMessage(`{"dataset": "synthetic", "rows": 120, "features": 5, "test_rows": 0, "l2": 0.05}`)
		})
		st := b.Env.Problem.(objective.Stochastic)
		// A second environment walks the same cursors: same data seed.
		twin := runnertest.Preset(t, "ldp-online-mushrooms", func(s *scenario.Scenario) {
			s.Samples = &scenario.Samples{Mode: c.mode}
			s.Problem.Params = json.RawMessage(`{"dataset": "synthetic", "rows": 120, "features": 5, "test_rows": 0, "l2": 0.05}`)
		})
		h, err := online.NewHistory(b.Env, c.batch, c.window)
		if err != nil {
			t.Fatal(err)
		}
		n, d := st.Agents(), st.Dim()
		lists := make([][][]int, n)
		x := []float64{0.3, -1, 0.2, 0.7, -0.4}
		got, want, tmp := make([]float64, d), make([]float64, d), make([]float64, d)
		for step := 1; step <= 60; step++ { // shards of 12 rows: 5+ epochs
			h.Receive()
			for i := range n {
				lists[i] = append(lists[i], append([]int(nil), cursor(twin.Env, i).Next(c.batch)...))
			}
			for i := range n {
				h.Grad(i, x, got)
				clear(want)
				from := 0
				if c.window > 0 {
					from = max(0, len(lists[i])-c.window)
				}
				for _, bt := range lists[i][from:] {
					st.GradBatch(i, x, bt, tmp)
					for j := range want {
						want[j] += tmp[j] / float64(len(lists[i])-from)
					}
				}
				for j := range want {
					if math.Abs(got[j]-want[j]) > 1e-13*(1+math.Abs(want[j])) {
						t.Fatalf("%s batch %d window %d, step %d agent %d: gradient[%d] = %.17g, literal average %.17g", c.mode, c.batch, c.window, step, i, j, got[j], want[j])
					}
				}
			}
		}
	}
}

func cursor(env *method.Env, i int) *method.Cursor { return env.Samples(i) }

// ClipL1 and ProjectBall leave short vectors alone and scale long ones
// onto the bound exactly.
func TestClipAndProject(t *testing.T) {
	g := []float64{3, -4}
	if online.ClipL1(g, 7) || g[0] != 3 {
		t.Errorf("clipped a vector inside the bound: %v", g)
	}
	if !online.ClipL1(g, 3.5) || math.Abs(math.Abs(g[0])+math.Abs(g[1])-3.5) > 1e-15 {
		t.Errorf("‖g‖₁ after clipping to 3.5: %v", g)
	}
	x := []float64{3, 4}
	online.ProjectBall(x, 10)
	if x[0] != 3 {
		t.Errorf("projected a point inside the ball: %v", x)
	}
	online.ProjectBall(x, 1)
	if math.Abs(math.Hypot(x[0], x[1])-1) > 1e-15 {
		t.Errorf("‖x‖ after projecting onto the unit ball: %v", x)
	}
}
