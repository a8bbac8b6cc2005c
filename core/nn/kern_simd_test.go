//go:build js && wasm && dpsimsimd && !purego

package nn

import (
	"math"
	"testing"

	"dpsim/core/rng"
)

// TestCNNSIMD checks that the SIMD module is linked (run through
// wasm/simd/go_js_wasm_exec; else TestGemmBits would check only the
// fallbacks, kernWasm and kernNTWasm) and holds its pnn to the naive
// strided loop, its pnt to gemmNT's definition and its pim2col and
// pcol2im to the Go loops directly: every tile
// remainder (rows mod 4, columns mod 8, k mod 8), A row-major and
// transposed, rows of B and C wider than the product, on values with
// wide exponents, −0 and ±Inf (NaN compared as NaN: payloads are not
// portable).
func TestCNNSIMD(t *testing.T) {
	if simdNT(nil, nil, nil, 0, 0, 0) != 1 {
		t.Fatal("the SIMD module is not linked: run under wasm/simd/go_js_wasm_exec")
	}
	s := rng.New(12, "nn/cnn-simd-test")
	wide := func(n int) []float32 {
		v := make([]float32, n)
		for i := range v {
			switch s.IntN(40) {
			case 0:
				v[i] = float32(math.Copysign(0, -1))
			case 1:
				v[i] = float32(math.Inf(1 - 2*s.IntN(2)))
			default:
				v[i] = float32((s.Float64() - 0.5) * math.Pow(2, float64(s.IntN(40)-20)))
			}
		}
		return v
	}
	check := func(what string, sh [3]int, got, want []float32) {
		t.Helper()
		for i := range got {
			if math.Float32bits(got[i]) != math.Float32bits(want[i]) && !(got[i] != got[i] && want[i] != want[i]) {
				t.Errorf("%s %v: C[%d] = %v, want %v", what, sh, i, got[i], want[i])
				return
			}
		}
	}
	for _, sh := range [][3]int{{1, 4, 1}, {4, 8, 3}, {5, 12, 7}, {8, 576, 25}, {16, 100, 200}, {200, 64, 16}, {10, 256, 32}, {3, 20, 9}} {
		m, n, k := sh[0], sh[1], sh[2]
		for _, trans := range []bool{false, true} {
			sai, sap := k, 1
			if trans {
				sai, sap = 1, m
			}
			ldb, ldc := n+3, n+5
			a, b, c := wide(m*k), wide(k*ldb), wide(m*ldc)
			got, want := append([]float32(nil), c...), append([]float32(nil), c...)
			if !simdGemm(&a[0], sai, sap, &b[0], ldb, &got[0], ldc, m, n, k) {
				t.Fatal("pnn did not run")
			}
			naiveStrided(m, n, k, a, sai, sap, b, ldb, want, ldc)
			check("pnn", sh, got, want)
		}
	}
	for _, sh := range [][3]int{{1, 1, 1}, {2, 5, 7}, {3, 9, 16}, {4, 4, 23}, {8, 25, 576}, {16, 200, 100}, {5, 10, 256}, {1, 6, 9}} {
		m, n, k := sh[0], sh[1], sh[2]
		a, b, c := wide(m*k), wide(n*k), wide(m*n)
		got, want := append([]float32(nil), c...), append([]float32(nil), c...)
		if simdNT(unsafePtr(a), unsafePtr(b), unsafePtr(got), int32(m), int32(n), int32(k)) != 1 {
			t.Fatal("pnt did not run")
		}
		naiveNT(m, n, k, a, b, want)
		check("pnt", sh, got, want)
	}
	// pim2col and pcol2im against the Go loops, on runs of wo mod 4 = 0–3.
	for _, sh := range [][3]int{{1, 28, 28}, {3, 32, 32}, {8, 14, 14}, {2, 9, 5}, {3, 6, 11}} {
		c, h, w := sh[0], sh[1], sh[2]
		n := c * kk * (h - Kernel + 1) * (w - Kernel + 1)
		x, dcols := wide(c*h*w), wide(n)
		got, want := make([]float32, n), make([]float32, n)
		if !simdPatches(false, &x[0], c, h, w, &got[0]) {
			t.Fatal("pim2col did not run")
		}
		im2colGo(x, c, h, w, want)
		check("pim2col", sh, got, want)
		gx, wx := append([]float32(nil), x...), append([]float32(nil), x...)
		if !simdPatches(true, &gx[0], c, h, w, &dcols[0]) {
			t.Fatal("pcol2im did not run")
		}
		col2imGo(dcols, c, h, w, wx)
		check("pcol2im", sh, gx, wx)
	}
}
