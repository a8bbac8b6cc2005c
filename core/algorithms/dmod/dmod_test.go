package dmod_test

import (
	"encoding/json"
	"math"
	"testing"

	_ "dpsim/core/data/files"
	"dpsim/core/objective"
	"dpsim/core/runner/runnertest"
	"dpsim/core/scenario"
)

// One noise-free iteration from pinned estimates is the mirror step with
// the Euclidean map, x_1^i = y^i − α_0·∇f_0^i(x_0^i), y^i = Σ_j a_ij·x_0^j
// with A = I + W — the gradient at the agent's own x (DOLA takes it at
// y^i: the two must differ).
func TestOneStep(t *testing.T) {
	n, d := 10, 4
	init := make([][]float64, n)
	for i := range init {
		init[i] = []float64{float64(i) / 10, -0.3, 0.2 * float64(i%3), 1}
	}
	run := func(preset string) ([]float64, *scenario.Built) {
		b := runnertest.Preset(t, preset, func(s *scenario.Scenario) {
			s.Iterations = 1
			s.Calibrate = nil
			s.Init = map[string][][]float64{"x": init}
			for _, ch := range s.Noise {
				ch.Scale = 0
			}
			s.Problem.Params = json.RawMessage(`{"dataset": "synthetic", "rows": 100, "features": 4, "test_rows": 0, "l2": 0.05}`)
		})
		runnertest.Run(t, b)
		return b.Algorithm.State()[0].Data, b
	}
	got, b := run("dmod-mushrooms")
	dola, _ := run("dola-mushrooms")
	st := b.Env.Problem.(objective.Stochastic)
	// The samples each agent received: replay its cursor on a fresh build.
	fresh := runnertest.Preset(t, "dmod-mushrooms", func(s *scenario.Scenario) {
		s.Problem.Params = json.RawMessage(`{"dataset": "synthetic", "rows": 100, "features": 4, "test_rows": 0, "l2": 0.05}`)
	})
	g := make([]float64, d)
	differ := false
	for i := range n {
		y := make([]float64, d)
		for c := range y {
			y[c] = float64(0.4*init[i][c]) + float64(0.3*init[(i+1)%n][c]) + float64(0.3*init[(i+n-1)%n][c])
		}
		st.GradBatch(i, init[i], fresh.Env.Samples(i).Next(2), g)
		for c := range y {
			want := y[c] - float64(0.25*g[c])
			if math.Abs(got[i*d+c]-want) > 1e-15 {
				t.Fatalf("agent %d coordinate %d: x_1 = %.17g, mirror step %.17g", i, c, got[i*d+c], want)
			}
			differ = differ || dola[i*d+c] != got[i*d+c]
		}
	}
	if !differ {
		t.Error("DMOD and DOLA gave the same step: the gradient point makes no difference")
	}
}
