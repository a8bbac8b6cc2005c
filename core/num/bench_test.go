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
		xs[i] = -20 + 40*unit(&state)
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
