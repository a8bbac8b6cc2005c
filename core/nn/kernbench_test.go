package nn

import (
	"fmt"
	"testing"

	"dpsim/core/rng"
)

// BenchmarkStrided times gemmStrided on the MNIST network's per-image
// NN and TN products (conv1 forward, conv2 forward, the patch gradient) and
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
		{"patch-grad", 200, 64, 16, 1, 200},
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

// BenchmarkNT times gemmNT (lanes.go) on the network's dot-product
// shapes — the weight gradients of conv1 and conv2 per image on MNIST
// and CIFAR, the logits of a batch of 32 — and reports CPU GFLOP/s.
func BenchmarkNT(b *testing.B) {
	for _, sh := range []struct {
		name    string
		m, n, k int
	}{
		{"conv1-wgrad", 8, 25, 576},
		{"conv2-wgrad", 16, 200, 64},
		{"conv1-wgrad-cifar", 8, 75, 784},
		{"conv2-wgrad-cifar", 16, 200, 100},
		{"logits", 32, 10, 256},
	} {
		b.Run(fmt.Sprintf("%s-%dx%dx%d", sh.name, sh.m, sh.n, sh.k), func(b *testing.B) {
			s := rng.NewStream(5, "bench")
			a, bb, c := randSlice(s, sh.m*sh.k), randSlice(s, sh.n*sh.k), randSlice(s, sh.m*sh.n)
			cpu, unlock := threadCPU()
			defer unlock()
			b.ResetTimer()
			t0 := cpu()
			for range b.N {
				gemmNT(sh.m, sh.n, sh.k, a, bb, c)
			}
			if t := cpu() - t0; t > 0 {
				b.ReportMetric(2*float64(sh.m*sh.n*sh.k)*float64(b.N)/t, "cpu-GFLOP/s")
			}
		})
	}
}

// BenchmarkPatches times im2col and col2im on the network's four
// inputs (the two convolutions on MNIST and CIFAR) and reports the
// patch matrix's GB/s (4 bytes a value written, or added back).
func BenchmarkPatches(b *testing.B) {
	for _, sh := range [][3]int{{1, 28, 28}, {8, 12, 12}, {3, 32, 32}, {8, 14, 14}} {
		c, h, w := sh[0], sh[1], sh[2]
		n := c * kk * (h - Kernel + 1) * (w - Kernel + 1)
		s := rng.NewStream(5, "bench")
		x, cols := randSlice(s, c*h*w), make([]float32, n)
		for _, dir := range []string{"im2col", "col2im"} {
			b.Run(fmt.Sprintf("%s-%dx%dx%d", dir, c, h, w), func(b *testing.B) {
				cpu, unlock := threadCPU()
				defer unlock()
				b.ResetTimer()
				t0 := cpu()
				for range b.N {
					if dir == "im2col" {
						im2col(x, c, h, w, cols)
					} else {
						col2im(cols, c, h, w, x)
					}
				}
				if t := cpu() - t0; t > 0 {
					b.ReportMetric(4*float64(n)*float64(b.N)/t, "cpu-GB/s")
				}
			})
		}
	}
}
