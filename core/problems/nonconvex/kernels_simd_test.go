//go:build js && wasm && dpsimsimd

package nonconvex

import (
	"math"
	"testing"
	"unsafe"

	"dpsim/core/num"
	"dpsim/core/rng"
)

// TestFusedGradBits holds the SIMD module's gradient loop (run through
// wasm/simd/go_js_wasm_exec) to the bits of one sample after another
// (gradOne), for widths 1–27 (pairs of columns and an odd one) and
// sample counts that fill no group of eight, of four or pair; and checks
// that it scores every group (eight samples from the first, then four, a
// pair, one) whose exp arguments are all on num.Exp's common path and
// stops before the first that is not, leaving out as it was for that
// group.
func TestFusedGradBits(t *testing.T) {
	r := rng.New(4, "fused")
	// group returns where the group of sample k starts among m.
	group := func(k, m int) int {
		at := m &^ 7
		if k < at {
			return k &^ 7
		}
		for _, size := range []int{4, 2} {
			if at+size <= m {
				if k < at+size {
					return at
				}
				at += size
			}
		}
		return k
	}
	for k := range 2 * 27 * 13 {
		// Features ~ N(0, 1), x ~ N(0, sc²): margins to ~±60 at sc = 2,
		// over most of the exp's range at sc = 40 (and past 700, a stop).
		sc, d, m := []float64{2, 40}[k%2], 1+k/2%27, []int{1, 2, 3, 4, 5, 7, 14, 65, 67, 130, 203, 257, 600}[k/54]
		{
			z, y, x := make([]float64, m*d), make([]float64, m), make([]float64, d)
			for k := range z {
				z[k] = r.NormFloat64()
			}
			for k := range y {
				y[k] = float64(1 - 2*int(r.Uint64()&1))
			}
			for k := range x {
				x[k] = sc * r.NormFloat64()
			}
			// A sample with margin 0 (e = 0, off the common path) in
			// the larger cases, the last or inside a group of eight (at
			// 203, 257 and 600 in turn): the call stops before its group.
			stop := m
			if m > 200 {
				bad := []int{m - 1, m - 2, m/2 + 1}[k/54-10]
				clear(z[bad*d : (bad+1)*d])
				stop = group(bad, m)
			}
			got, want := make([]float64, d), make([]float64, d)
			for k := range got {
				got[k] = r.NormFloat64()
				want[k] = got[k]
			}
			n := gradFused(z, y, x, got)
			for k := range stop {
				if a := math.Abs(num.Dot(z[k*d:(k+1)*d], x)); a < 1.0/(1<<28) || a > 700 {
					stop = group(k, m)
					break
				}
			}
			for k := range stop {
				a := -y[k] * sigmoid(-y[k]*num.Dot(z[k*d:(k+1)*d], x))
				for j := range want {
					want[j] += a * z[k*d+j]
				}
			}
			if n != stop {
				t.Fatalf("d = %d, m = %d, scale %g: the SIMD module scored %d samples, want %d", d, m, sc, n, stop)
			}
			for j := range got {
				if math.Float64bits(got[j]) != math.Float64bits(want[j]) {
					t.Fatalf("d = %d, m = %d, scale %g: out[%d] = %v, one sample after another %v", d, m, sc, j, got[j], want[j])
				}
			}
		}
	}
}

// BenchmarkSIMDCall is one call of the SIMD module with no samples: the
// cost of Go → JavaScript trampoline → SIMD module and back, which Grad
// pays once per agent (docs/dpp2-paper.md).
func BenchmarkSIMDCall(b *testing.B) {
	x, out := make([]float64, 10), make([]float64, 10)
	for b.Loop() {
		simdGrad(unsafe.Pointer(&x[0]), unsafe.Pointer(&x[0]), unsafe.Pointer(&x[0]), unsafe.Pointer(&out[0]), 0, 10)
	}
}
