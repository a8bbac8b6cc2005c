//go:build js && wasm && dpsimsimd && !purego

package nn

import (
	"math"
	"testing"

	"dpsim/core/rng"
)

// TestNTSIMD checks that the SIMD module is linked (run through
// wasm/simd/go_js_wasm_exec; else TestGemmBits would check only the
// fallback, kernNTWasm) and holds its pnt to gemmNT's definition
// directly, on every tile remainder and k mod 8, with wide exponents,
// −0 and ±Inf (NaN compared as NaN: payloads are not portable).
func TestNTSIMD(t *testing.T) {
	if simdNT(nil, nil, nil, 0, 0, 0) != 1 {
		t.Fatal("the SIMD module is not linked: run under wasm/simd/go_js_wasm_exec")
	}
	s := rng.New(12, "nn/nt-simd-test")
	wide := func() float32 {
		switch s.IntN(40) {
		case 0:
			return float32(math.Copysign(0, -1))
		case 1:
			return float32(math.Inf(1 - 2*s.IntN(2)))
		}
		return float32((s.Float64() - 0.5) * math.Pow(2, float64(s.IntN(40)-20)))
	}
	for _, sh := range [][3]int{{1, 1, 1}, {2, 5, 7}, {3, 9, 16}, {4, 4, 23}, {8, 25, 576}, {16, 200, 100}, {5, 10, 256}, {1, 6, 9}} {
		m, n, k := sh[0], sh[1], sh[2]
		a, b, c := make([]float32, m*k), make([]float32, n*k), make([]float32, m*n)
		for _, v := range [][]float32{a, b, c} {
			for i := range v {
				v[i] = wide()
			}
		}
		got, want := append([]float32(nil), c...), append([]float32(nil), c...)
		if simdNT(unsafePtr(a), unsafePtr(b), unsafePtr(got), int32(m), int32(n), int32(k)) != 1 {
			t.Fatal("pnt did not run")
		}
		naiveNT(m, n, k, a, b, want)
		for i := range got {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) && !(got[i] != got[i] && want[i] != want[i]) {
				t.Errorf("%v: C[%d] = %v, the definition %v", sh, i, got[i], want[i])
				break
			}
		}
	}
}
