package nn

import (
	"fmt"
	"testing"

	"dpsim/core/rng"
)

// BenchmarkStrided times gemmStrided on the MNIST network's per-image
// products (conv1 forward, conv2 forward, conv2's transposed weight
// gradient, the patch gradient, conv1's transposed weight gradient) and
// reports CPU GFLOP/s (2 per multiply–add): docs/cnn.md quotes it.
func BenchmarkStrided(b *testing.B) {
	type shape struct {
		name     string
		m, n, k  int
		sai, sap int
	}
	for _, sh := range []shape{
		{"conv1", 8, 576, 25, 25, 1},
		{"conv2", 16, 64, 200, 200, 1},
		{"conv2-wgrad", 200, 16, 64, 64, 1},
		{"patch-grad", 200, 64, 16, 1, 200},
		{"conv1-wgrad", 25, 8, 576, 576, 1},
	} {
		b.Run(fmt.Sprintf("%s-%dx%dx%d", sh.name, sh.m, sh.n, sh.k), func(b *testing.B) {
			s := rng.NewStream(5, "bench")
			a, bb, c := randSlice(s, sh.m*sh.k), randSlice(s, sh.k*sh.n), randSlice(s, sh.m*sh.n)
			cpu, unlock := threadCPU()
			defer unlock()
			b.ResetTimer()
			t0 := cpu()
			for range b.N {
				gemmStrided(sh.m, sh.n, sh.k, a, sh.sai, sh.sap, bb, sh.n, c, sh.n)
			}
			if t := cpu() - t0; t > 0 {
				b.ReportMetric(2*float64(sh.m*sh.n*sh.k)*float64(b.N)/t, "cpu-GFLOP/s")
			}
		})
	}
}
