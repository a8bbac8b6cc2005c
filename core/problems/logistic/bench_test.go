package logistic

import (
	"math"
	"testing"

	"dpsim/core/data"
	"dpsim/core/problems/internal/learn"
)

// BenchmarkFullGrad times one full gradient of logistic regression with
// ℓ2 (λ = 1e-3) over a whole training split held by one agent, at the
// point x_c = 0.01·(c mod 7) — the workload bench/data/compare.sh sets
// beside NumPy's vectorised A @ x and Aᵀ @ s on the same committed file.
// The model is assembled directly (no central solve: only the gradient
// is timed). It reports ‖∇f(x)‖₂ as "gradnorm" so that the script can
// check both sides computed the same thing.
func BenchmarkFullGrad(b *testing.B) {
	for _, name := range []string{"ijcnn1", "mnist-01"} {
		b.Run(name, func(b *testing.B) {
			set, err := data.Load(name, "train")
			if err != nil {
				b.Fatal(err)
			}
			m := &Model{loss: Logistic, lambda: 1e-3, shards: []learn.Rows{{Set: set}}, dim: set.Cols}
			x, g := make([]float64, set.Cols), make([]float64, set.Cols)
			for c := range x {
				x[c] = 0.01 * float64(c%7)
			}
			b.ResetTimer()
			for range b.N {
				m.Grad(0, x, g)
			}
			b.StopTimer()
			b.ReportMetric(math.Sqrt(learn.Dot(g, g)), "gradnorm")
		})
	}
}
