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
// is timed). MNIST 0 vs 1 runs the sparse kernels, ijcnn1 the dense
// ones (learn.SparseDensity) over its packed rows, as New builds them. It reports ‖∇f(x)‖₂ as "gradnorm" so that the script can
// check both sides computed the same thing.
func BenchmarkFullGrad(b *testing.B) {
	for _, name := range []string{"ijcnn1", "mnist-01"} {
		b.Run(name, func(b *testing.B) {
			set, err := data.Load(name, "train")
			if err != nil {
				b.Fatal(err)
			}
			m := &Model{loss: Logistic, lambda: 1e-3, shards: []learn.Rows{{Set: set}}, dim: set.Cols}
			m.packed = []*learn.Packed{learn.Pack(m.shards[0])}
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

// TestBlockedGradient checks that the full gradient (blocked: Dots, then
// Axpys, the slopes' exps in one num.ExpTo call per block; the squared
// loss's slopes from the ±1 signs New stores) has exactly the bits of
// the row-by-row batch path over the same rows (Dot and Axpy: dense, in
// Go), for both losses, on a committed float32 set (mushrooms, 19 %
// nonzero) and a pixel set (MNIST 0 vs 1, 17 %), both sparse, and a
// dense float32 set (ijcnn1, over its packed rows where learn.Pack
// builds them, as New does), so that the sparse, AVX2 and packed full
// passes are checked against the plain loops.
func TestBlockedGradient(t *testing.T) {
	for _, name := range []string{"mushrooms", "mnist-01", "ijcnn1"} {
		set, err := data.Load(name, "test")
		if err != nil {
			t.Fatal(err)
		}
		rows := min(set.Rows, 1001) // not a multiple of the block or of 4
		// A view through a permutation (Sub) and the whole set in its own
		// order (no Idx: the wasm kernels' other way of naming rows).
		for _, shard := range []learn.Rows{learn.Rows{Set: set}.Sub(0, rows), {Set: set}} {
			for _, loss := range []string{Logistic, Squares} {
				m := &Model{loss: loss, lambda: 1e-3, shards: []learn.Rows{shard}, dim: set.Cols}
				m.setSigns()
				m.packed = []*learn.Packed{learn.Pack(shard)}
				if name == "ijcnn1" && m.packed[0] == nil && learn.Pack(learn.Rows{Set: learn.Synthetic(1, "train", 8, 3, 2, 0)}) != nil {
					t.Fatal("ijcnn1 is not packed where dense float32 sets are")
				}
				blockedMatchesBatch(t, name, m, shard.Len())
			}
		}
	}
}

// blockedMatchesBatch compares m.Grad(0) with m.GradBatch(0) over every
// row, bit for bit, at small and large scores.
func blockedMatchesBatch(t *testing.T, name string, m *Model, rows int) {
	t.Helper()
	set := m.Set()
	{
		all := make([]int, rows)
		for k := range all {
			all[k] = k
		}
		// Small scores, and large ones (the sigmoid's both branches far
		// out, e^(−|t|) down to underflow).
		for _, scale := range []float64{0.01, 40} {
			x := make([]float64, set.Cols)
			for c := range x {
				x[c] = scale * float64(c%7-3)
			}
			got, want := make([]float64, set.Cols), make([]float64, set.Cols)
			m.Grad(0, x, got)
			m.GradBatch(0, x, all, want)
			for c := range got {
				if math.Float64bits(got[c]) != math.Float64bits(want[c]) {
					t.Fatalf("%s, %s, sparse %v, x scale %g: ∇f[%d] = %v blocked, %v row by row", name, m.loss, m.shards[0].Sparse(), scale, c, got[c], want[c])
				}
			}
		}
	}
}
