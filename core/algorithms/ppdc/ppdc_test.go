package ppdc_test

import (
	"math"
	"strings"
	"testing"

	"dpsim/core/algorithms/ppdc"
	"dpsim/core/runner/runnertest"
	"dpsim/core/scenario"
)

const small = `{"name":"ppdc-small","seed":5,"graph":{"kind":"ring","n":6},"weights":{"kind":"normalized-laplacian"},
 "problem":{"kind":"nonconvex-classifier","params":{"samples":20,"dim":3,"scale":2}},
 "algorithm":{"kind":"ppdc","params":{"gamma":65,"omega":5,"eta":0.01,"gradient_bound":2}},
 "noise":{"zeta_x":{"dist":"laplace","scale":1,"decay":{"kind":"geometric","c":1,"r":0.5}},
          "zeta_v":{"dist":"laplace","scale":1,"decay":{"kind":"geometric","c":1,"r":0.5}}},
 "iterations":2000}`

// TestConverges checks that PPDC (both forms) drives the stationarity
// ‖(1/n)Σ∇f_i(x_i)‖² and the consensus error down on a small instance,
// that the local-dual form sends no v, and that the factory shows the
// source confidence.
func TestConverges(t *testing.T) {
	if !strings.Contains(ppdc.Factory.Paper, "confidence low") {
		t.Errorf("the factory's description lacks the source confidence: %q", ppdc.Factory.Paper)
	}
	for _, form := range []string{"pi", "local-dual"} {
		edit := func(s *scenario.Scenario) {
			s.Algorithm.Params = []byte(`{"gamma":65,"omega":5,"eta":0.01,"gradient_bound":2,"form":"` + form + `"}`)
		}
		st := runnertest.Parse(t, []byte(small), edit).Algorithm.Advance()
		channels := map[string]bool{}
		for _, r := range st.Releases {
			channels[r.Channel] = true
		}
		if channels["v"] != (form == "pi") || !channels["x"] {
			t.Errorf("%s: released channels %v", form, channels)
		}
		b := runnertest.Parse(t, []byte(small), edit)
		stat := func() float64 {
			x := runnertest.State(b.Algorithm, "x")
			n, d := b.Env.Problem.Agents(), b.Env.Problem.Dim()
			sum, g := make([]float64, d), make([]float64, d)
			for i := range n {
				b.Env.Problem.Grad(i, x[i*d:(i+1)*d], g)
				for c := range d {
					sum[c] += g[c] / float64(n)
				}
			}
			v := 0.0
			for _, s := range sum {
				v += float64(s * s)
			}
			return v
		}
		first := stat()
		r := runnertest.Run(t, b)
		last := stat()
		if cons := r.Metrics.Latest().Consensus; !(last < 1e-6*first) || !(cons < 1e-6) {
			t.Errorf("%s: stationarity %g → %g, consensus %g after %d iterations", form, first, last, cons, r.Iter())
		}
	}
}

// TestLedger checks the reconstructed ledger against its closed form
// Σ_{k=1..K−1} 2√d·C·η·k/(u_x r^k) after K iterations.
func TestLedger(t *testing.T) {
	b := runnertest.Parse(t, []byte(small), func(s *scenario.Scenario) { s.Iterations = 12 })
	r := runnertest.Run(t, b)
	want := 0.0
	for k := 1; k < 12; k++ {
		want += 2 * math.Sqrt(3) * 2 * 0.01 * float64(k) / math.Pow(0.5, float64(k))
	}
	l := r.Ledger()
	if got := l.Max.Value(); math.Abs(got-want) > 1e-12*want {
		t.Errorf("ε after 12 iterations = %.15g, want %.15g", got, want)
	}
}
