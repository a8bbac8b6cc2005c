//go:build js && wasm && dpsimsimd && !purego

package logistic

import (
	"math"
	"testing"
	"unsafe"

	"dpsim/core/num"
	"dpsim/core/rng"
)

// TestExpSIMD holds the SIMD module's pexp (run through
// wasm/simd/go_js_wasm_exec) to num.Exp's bits on Exp's common path
// (2⁻²⁸ ≤ |x| ≤ 700, both signs, uniform exponents and uniform values),
// for every length 1–70 (two pairs a step, a pair, an odd last value); and
// checks that a block holding a value off that path (0, 2⁻³⁰, −745, 710,
// NaN) makes it write nothing and return 0, expTo then giving Exp's bits
// through num.ExpTo.
func TestExpSIMD(t *testing.T) {
	s := rng.New(5, "logistic/exp-simd-test")
	on := func() float64 {
		v := math.Pow(2, -28+s.Float64()*37.4) // up to ~700
		if s.IntN(2) == 0 {
			v = s.Float64() * 700
		}
		return math.Copysign(math.Max(v, 0x1p-28), float64(1-2*s.IntN(2)))
	}
	for n := 1; n <= 70; n++ {
		for trial := range 6 {
			e := make([]float64, n)
			for k := range e {
				e[k] = on()
			}
			want := make([]float64, n)
			for k, v := range e {
				want[k] = num.Exp(v)
			}
			got := append([]float64(nil), e...)
			if trial == 5 {
				bad := []float64{0, 0x1p-30, -745, 710, math.NaN()}[n%5]
				got[s.IntN(n)] = bad
				before := append([]float64(nil), got...)
				if r := simdExp(unsafe.Pointer(&got[0]), int32(n)); r != 0 {
					t.Fatalf("n %d: pexp returned %d on a block holding %v", n, r, bad)
				}
				for k := range got {
					if math.Float64bits(got[k]) != math.Float64bits(before[k]) {
						t.Fatalf("n %d: pexp wrote e[%d] on a block it declined", n, k)
					}
				}
				for k, v := range got {
					want[k] = num.Exp(v)
				}
				expTo(got)
			} else if r := simdExp(unsafe.Pointer(&got[0]), int32(n)); r != 1 {
				t.Fatalf("n %d: pexp returned %d on Exp's common path (is the module linked?)", n, r)
			}
			for k := range want {
				if math.Float64bits(got[k]) != math.Float64bits(want[k]) && !(math.IsNaN(got[k]) && math.IsNaN(want[k])) {
					t.Fatalf("n %d, trial %d: exp(%v) = %v, num.Exp %v", n, trial, e[k], got[k], want[k])
				}
			}
		}
	}
}
