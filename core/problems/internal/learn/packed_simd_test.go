//go:build js && wasm && dpsimsimd && !purego

package learn

import (
	"math"
	"testing"

	"dpsim/core/rng"
)

// TestPackedSIMD checks that the SIMD module is linked (run through
// wasm/simd/go_js_wasm_exec; else TestPacked would check only the Go
// fallback) and holds its two kernels to the Go loops' bits directly:
// dots over 1, 2, 3 and 7 rows (both of the module's loops) of widths
// 1–25 (every tail of the lanes) and strides up to three wider, axpys over every tile width
// (4–32 columns: each mix of the module's 16-, 8- and 4-column chunks)
// and 1–70 rows with a stride wider than the tile, on values with wide
// exponents, −0 and ±Inf (NaN compared as NaN: payloads are not
// portable).
func TestPackedSIMD(t *testing.T) {
	if !packKernels() {
		t.Fatal("the SIMD module is not linked: run under wasm/simd/go_js_wasm_exec")
	}
	s := rng.New(11, "learn/packed-simd-test")
	wide := func() float64 {
		switch s.IntN(40) {
		case 0:
			return math.Copysign(0, -1)
		case 1:
			return math.Inf(1 - 2*s.IntN(2))
		}
		return (s.Float64() - 0.5) * math.Pow(2, float64(s.IntN(60)-30))
	}
	same := func(a, b float64) bool {
		return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
	}
	for _, n := range []int{1, 2, 3, 7} {
		for d := 1; d <= 25; d++ {
			stride := d + s.IntN(4)
			rm, x := make([]float32, (n-1)*stride+d), make([]float64, d)
			for k := range rm {
				rm[k] = float32(wide())
			}
			for k := range x {
				x[k] = wide()
			}
			got, want := make([]float64, n), make([]float64, n)
			packedDots(rm, stride, d, n, x, got)
			packedDotsGo(rm, stride, d, n, x, want)
			for k := range want {
				if !same(got[k], want[k]) {
					t.Fatalf("dots: %d rows, width %d, stride %d: out[%d] = %v, the Go loop %v", n, d, stride, k, got[k], want[k])
				}
			}
		}
	}
	for nv := 1; nv <= packTile/4; nv++ {
		for _, n := range []int{1, 2, 5, 64, 70} {
			stride := 4*nv + 4*s.IntN(3)
			rm, c := make([]float32, (n-1)*stride+4*nv), make([]float64, n)
			for k := range rm {
				rm[k] = float32(wide())
			}
			for k := range c {
				c[k] = wide()
			}
			var got, want [packTile]float64
			for j := range got {
				got[j] = wide()
				want[j] = got[j]
			}
			packedAxpys(rm, stride, n, c, nv, &got)
			packedAxpysGo(rm, stride, n, c, nv, &want)
			for j := range want {
				if !same(got[j], want[j]) {
					t.Fatalf("axpys: %d columns, %d rows, stride %d: acc[%d] = %v, the Go loop %v", 4*nv, n, stride, j, got[j], want[j])
				}
			}
		}
	}
}
