package nn

import (
	"testing"

	"dpsim/core/rng"
)

func BenchmarkParts(b *testing.B) {
	s := rng.NewStream(5, "bench")
	x := randSlice(s, 28*28)
	q1 := randSlice(s, 8*12*12)
	cols := make([]float32, 25*576)
	a1 := randSlice(s, 8*576)
	out := make([]float32, 8*144)
	arg := make([]uint8, 8*144)
	at := make([]float32, 8*576)
	dx := make([]float32, 8*144)
	run := func(name string, f func()) {
		b.Run(name, func(b *testing.B) {
			cpu, unlock := threadCPU()
			defer unlock()
			t0 := cpu()
			for range b.N {
				f()
			}
			b.ReportMetric((cpu()-t0)/float64(b.N)/1e3, "cpu-us/op")
		})
	}
	run("im2col1", func() { im2col(x, 1, 28, 28, cols) })
	run("im2col2", func() { im2col(q1, 8, 12, 12, cols) })
	run("col2im2", func() { col2im(cols[:200*64], 8, 12, 12, dx) })
	run("pool1", func() { poolReLU(a1, 8, 24, 24, out, arg) })
	run("unpool1", func() { unpool(out, out, arg, 8, 24, 24, a1) })
	run("transpose1", func() { transpose(8, 576, a1, at) })
	run("rowsums1", func() { rowSums(a1, 8, 576, out[:8]) })
	run("fillbias1", func() { fillBias(a1, out[:8], 576) })
}
