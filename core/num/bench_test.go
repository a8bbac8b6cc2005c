package num

import "testing"

var sink float64

// BenchmarkExp times Exp over the arguments the logistic loss's sigmoid
// sees (|t| ≲ 20), natively and under js/wasm: one call per value, and ExpTo over
// blocks of 64 (per value), and expToGeneric (ExpTo without assembly: Exp
// in a loop) beside it for the vector path's gain.
func BenchmarkExp(b *testing.B) {
	xs := make([]float64, 1024)
	state := uint64(3)
	for i := range xs {
		xs[i] = -20 + float64(40*unit(&state))
	}
	b.Run("num", func(b *testing.B) {
		s := 0.0
		for i := range b.N {
			s += Exp(xs[i&1023])
		}
		sink = s
	})
	b.Run("ExpTo", func(b *testing.B) {
		out := make([]float64, 64)
		s := 0.0
		for i := 0; i < b.N; i += 64 {
			ExpTo(out, xs[i&1023:i&1023+64])
			s += out[0]
		}
		sink = s
	})
	b.Run("generic", func(b *testing.B) {
		out := make([]float64, 64)
		s := 0.0
		for i := 0; i < b.N; i += 64 {
			expToGeneric(out, xs[i&1023:i&1023+64])
			s += out[0]
		}
		sink = s
	})
}

// seqDots is Dots in the order it replaced, each row's sum left to right
// in one accumulator: BenchmarkDots' baseline.
func seqDots(z, x, out []float64) {
	d := len(x)
	for s := range out {
		a := z[s*d : (s+1)*d]
		acc := 0.0
		for j, v := range x {
			acc += float64(a[j] * v)
		}
		out[s] = acc
	}
}

// BenchmarkDots times Dots on the shapes that use it or might — the
// classifier's block of samples (64 rows of d = 10: DPP²), 64 rows of 22
// (ijcnn1's width) and of 784 (MNIST's), one row of 4096 (in L1) and one
// of 2²² (16 MiB, from memory) — in the lane order (the assembly where
// there is one), the same order in portable Go, and the sequential sum
// it replaced, with the floating-point rate and the bytes read a second
// (the floors to set beside core/internal/peak's ceilings).
func BenchmarkDots(b *testing.B) {
	for _, sh := range []struct {
		name    string
		rows, d int
	}{{"64x10", 64, 10}, {"64x22", 64, 22}, {"64x784", 64, 784}, {"1x4096", 1, 4096}, {"1x4Mi", 1, 1 << 22}} {
		z, x, out := make([]float64, sh.rows*sh.d), make([]float64, sh.d), make([]float64, sh.rows)
		state := uint64(1)
		for k := range z {
			z[k] = unit(&state) - 0.5
		}
		for k := range x {
			x[k] = unit(&state) - 0.5
		}
		for _, p := range []struct {
			name string
			f    func(z, x, out []float64)
		}{{"lanes", Dots}, {"lanes-go", dotsGo}, {"sequential", seqDots}} {
			b.Run(sh.name+"/"+p.name, func(b *testing.B) {
				for range b.N {
					p.f(z, x, out)
				}
				sec := b.Elapsed().Seconds()
				n := float64(float64(b.N) * float64(sh.rows*sh.d))
				b.ReportMetric(2*n/sec/1e9, "GFLOP/s")
				b.ReportMetric(8*(n+float64(b.N*sh.d))/sec/1e9, "GB/s")
			})
		}
	}
}
