//go:build js && wasm && dpsimsimd && !purego

package learn

import (
	"math"
	"testing"
	"unsafe"

	"dpsim/core/data"
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

// TestPackedSquaresSIMD holds the module's psqgrad (packedSquares under
// the tag) to the Go loops' bits directly: packedDotsGo, the
// subtraction and packedAxpysGo a block of squaresBlock rows at a time,
// over every number of features 1–32 (the module runs it rounded up to
// even: a tail of one, two or three lane pairs past the steps of eight,
// and paxpys' chunk of two) in tiles padded to four columns (x's
// padding zeros as SquaresGrad passes it), strides wider than the tile, and 1 to over two blocks of
// rows (each edge of a block), on values with wide exponents, −0 and
// ±Inf, onto an acc that is not zero; with rows of ±0 and labels of 0
// among them, so that a dot product's zero sign reaches the sums (an acc
// entry of −0 keeps a −0 product's sign: the unrolled pass's lanes start
// at their first product and must give the Go loops' +0).
func TestPackedSquaresSIMD(t *testing.T) {
	if !packKernels() {
		t.Fatal("the SIMD module is not linked: run under wasm/simd/go_js_wasm_exec")
	}
	s := rng.New(17, "learn/packed-squares-simd-test")
	// Infinities only in the short runs: over hundreds of rows they would
	// make every sum ±Inf or NaN, blind to a row summed twice or missed.
	inf := false
	wide := func() float64 {
		switch s.IntN(40) {
		case 0:
			return math.Copysign(0, -1)
		case 1:
			if inf {
				return math.Inf(1 - 2*s.IntN(2))
			}
		}
		return (s.Float64() - 0.5) * math.Pow(2, float64(s.IntN(60)-30))
	}
	same := func(a, b float64) bool {
		return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
	}
	for d := 1; d <= packTile; d++ { // the features; the rest of the tile is padding
		nv := (d + 3) / 4
		w := 4 * nv
		for _, n := range []int{1, 2, 3, squaresBlock - 1, squaresBlock, squaresBlock + 1, 2*squaresBlock + 37} {
			inf = n < 8
			stride := w + 4*s.IntN(3)
			rm, x, signs := make([]float32, (n-1)*stride+w), make([]float64, w), make([]int8, n)
			for j := range d {
				x[j] = wide()
			}
			for k := range n {
				// A row of zeros of x's opposite signs: every product −0,
				// its dot product +0 (the lanes start at +0), −0 if a
				// kernel started them at their first product and lost it.
				zero := s.IntN(8) == 0
				for j := range d {
					rm[k*stride+j] = float32(wide())
					if zero {
						rm[k*stride+j] = float32(math.Copysign(0, -x[j]))
					}
				}
				signs[k] = int8(1 - 2*s.IntN(2))
				if zero && s.IntN(2) == 0 {
					signs[k] = 0 // a residual of ±0, as the dot product's sign
				}
			}
			var acc0, got, want [packTile]float64
			for j := range acc0 {
				acc0[j] = wide()
				if s.IntN(4) == 0 {
					acc0[j] = math.Copysign(0, -1) // keeps a ±0 product's sign
				}
			}
			got, want = acc0, acc0
			if !packedSquares(rm, stride, n, x, signs, d, nv, prefix{}, &got) {
				t.Fatal("packedSquares did not run")
			}
			squaresByGoLoops(rm, stride, d, n, x, signs, nv, &want)
			for j := range want[:d] {
				if !same(got[j], want[j]) {
					t.Fatalf("%d columns (%d features), %d rows, stride %d: acc[%d] = %v, the Go loops %v", w, d, n, stride, j, got[j], want[j])
				}
			}
			for _, zn := range []int{1, 3, 7} {
				guard := math.Float64frombits(0x7ff4dead0000beef)
				buf := make([]float64, zn+2)
				buf[zn], buf[zn+1] = guard, guard
				got = acc0
				if simdPackedSquares(unsafe.Pointer(&rm[0]), unsafe.Pointer(&x[0]), unsafe.Pointer(&signs[0]), unsafe.Pointer(&buf[0]),
					unsafe.Pointer(&got), int32(4*stride), int32(n), int32((d+1)&^1), int32(zn), nil, 0, 0) != 1 {
					t.Fatal("psqgrad did not run")
				}
				for j := range want[:d] {
					if !same(got[j], want[j]) {
						t.Fatalf("blocks of %d rows, %d columns (%d features), %d rows, stride %d: acc[%d] = %v, the Go loops %v", zn, w, d, n, stride, j, got[j], want[j])
					}
				}
				if math.Float64bits(buf[zn]) != math.Float64bits(guard) || math.Float64bits(buf[zn+1]) != math.Float64bits(guard) {
					t.Fatalf("blocks of %d rows, %d rows: psqgrad wrote past its scratch", zn, n)
				}
			}
		}
	}
}

// TestPackedSquaresZeroSigns holds psqgrad to the Go loops on the one
// case where a dot product's zero sign reaches the sums: rows of zeros
// of x's opposite signs (every product −0: the Go loops' lanes start at
// +0 and give +0), labels 0, so the residual is that zero, onto an acc of
// −0, which keeps a −0 product's sign. A kernel whose lanes start at
// their first product gives −0 residuals unless it adds +0 after.
func TestPackedSquaresZeroSigns(t *testing.T) {
	if !packKernels() {
		t.Fatal("the SIMD module is not linked: run under wasm/simd/go_js_wasm_exec")
	}
	for nv := 1; nv <= packTile/4; nv++ {
		w := 4 * nv
		for _, n := range []int{1, 2, 3} {
			x := make([]float64, w)
			rm, signs := make([]float32, n*w), make([]int8, n)
			for j := range x {
				x[j] = float64(1 - 2*(j%3&1))
			}
			for k := range n {
				for j := range w {
					rm[k*w+j] = float32(math.Copysign(0, -x[j]))
				}
			}
			var got, want [packTile]float64
			for j := range got {
				got[j] = math.Copysign(0, -1)
			}
			want = got
			if !packedSquares(rm, w, n, x, signs, w, nv, prefix{}, &got) {
				t.Fatal("packedSquares did not run")
			}
			z := make([]float64, n)
			packedDotsGo(rm, w, w, n, x, z)
			packedAxpysGo(rm, w, n, z, nv, &want)
			for j := range want {
				if math.Float64bits(got[j]) != math.Float64bits(want[j]) {
					t.Fatalf("%d columns, %d rows: acc[%d] = %v, the Go loops %v", w, n, j, got[j], want[j])
				}
			}
		}
	}
}

// TestPackedSquaresPrefix holds psqgrad with a sparse prefix
// (packedSquares with a prefix) to the Go loops' bits: every even prefix width s of
// every number of features up to packTile, rows whose first s columns
// are mostly zeros (±0) with up to k nonzeros a row (k = 1 in half the
// runs), 1 to over two
// blocks of rows, values with wide exponents; acc starting at +0 or at
// wide values, and at −0 in some runs (the dense call must then run: a
// skipped ±0 term would leave −0 where the Go loops make +0), and ±Inf
// in x in the short runs (an infinite residual: the dense call again).
// Then Pack's choice on ijcnn1's shape (ten one-hot columns, twelve
// dense): s = 10, k = 1.
func TestPackedSquaresPrefix(t *testing.T) {
	if !packKernels() {
		t.Fatal("the SIMD module is not linked: run under wasm/simd/go_js_wasm_exec")
	}
	r := rng.New(23, "learn/packed-squares-prefix-test")
	wide := func() float64 { return (r.Float64() - 0.5) * math.Pow(2, float64(r.IntN(60)-30)) }
	same := func(a, b float64) bool {
		return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
	}
	for d := 3; d <= packTile; d++ {
		nv := (d + 3) / 4
		w4, w := 4*nv, (d+1)&^1
		for s := 2; s < w; s += 2 {
			for _, n := range []int{1, 3, squaresBlock + 1, 2*squaresBlock + 37} {
				stride := w4 + 4*r.IntN(2)
				rm, x, signs := make([]float32, (n-1)*stride+w4), make([]float64, w4), make([]int8, n)
				for j := range d {
					x[j] = wide()
				}
				if n < 8 && r.IntN(3) == 0 {
					x[r.IntN(d)] = math.Inf(1 - 2*r.IntN(2))
				}
				// One row in two, at most one nonzero in the prefix (k = 1:
				// sqPass adds those terms itself), else about a quarter.
				k, one := 1, r.IntN(2) == 0
				for t := range n {
					nz, hot := 0, r.IntN(s+1)
					for j := range d {
						v := wide()
						if j < s && (one && j != hot || !one && r.IntN(4) != 0) {
							v = math.Copysign(0, float64(r.IntN(2)*2-1))
						}
						rm[t*stride+j] = float32(v)
						if j < s && rm[t*stride+j] != 0 {
							nz++
						}
					}
					k = max(k, nz)
					signs[t] = int8(1 - 2*r.IntN(2))
				}
				pre := makePrefix(rm, stride, n, w, s, k+r.IntN(2))
				var acc0 [packTile]float64
				switch r.IntN(3) {
				case 1:
					for j := range acc0 {
						acc0[j] = wide()
					}
				case 2:
					acc0[r.IntN(s)] = math.Copysign(0, -1)
				}
				got, want := acc0, acc0
				if !packedSquares(rm, stride, n, x, signs, d, nv, pre, &got) {
					t.Fatal("packedSquares did not run")
				}
				squaresByGoLoops(rm, stride, d, n, x, signs, nv, &want)
				for j := range want[:d] {
					if !same(got[j], want[j]) {
						t.Fatalf("%d features, prefix %d (k = %d), %d rows, stride %d: acc[%d] = %v, the Go loops %v", d, s, pre.k, n, stride, j, got[j], want[j])
					}
				}
			}
		}
	}
	// ijcnn1's shape: column t mod 10 hot in row t, twelve dense columns.
	const m, d = 100, 22
	rm := make([]float32, m*d)
	for t := range m {
		rm[t*d+t%10] = 1
		for j := 10; j < d; j++ {
			rm[t*d+j] = float32(wide())
		}
	}
	p := pack(Rows{Set: &data.Set{Rows: m, Cols: d, Features: rm}}, false)
	if p.pre.s != 10 || p.pre.k != 1 {
		t.Errorf("Pack's prefix on one-hot columns: s = %d, k = %d; want 10 and 1", p.pre.s, p.pre.k)
	}
	if len(p.pre.dense) != m*14 {
		t.Errorf("Pack's float64 rows on one-hot columns: %d values, want %d (columns 8 … 21)", len(p.pre.dense), m*14)
	}
}

// squaresByGoLoops adds what packedSquares adds to want, by the Go loops
// (packedDotsGo, the subtraction, packedAxpysGo) a block of rows at a
// time: the reference the module's fused pass must equal bit for bit.
func squaresByGoLoops(rm []float32, stride, d, n int, x []float64, signs []int8, nv int, want *[packTile]float64) {
	var z [squaresBlock]float64
	for lo := 0; lo < n; lo += squaresBlock {
		blk := z[:min(squaresBlock, n-lo)]
		packedDotsGo(rm[lo*stride:], stride, d, len(blk), x, blk)
		for k := range blk {
			blk[k] -= float64(signs[lo+k])
		}
		packedAxpysGo(rm[lo*stride:], stride, len(blk), blk, nv, want)
	}
}
