//go:build !purego

package learn

import (
	"math"
	"testing"

	"dpsim/core/data"
	"dpsim/core/rng"
)

// TestAVX2Kernels checks that the AVX2 kernels of Dots and Axpys give
// exactly the bits of the Go loops: widths 1–35 (every tail of the dot
// products' eight lanes and of the axpys' four columns), block lengths around multiples of eight, rows through
// a permutation, features and points with wide exponents (products and
// sums round at every step), −0, and non-finite values (whose results are
// compared as NaN or not: NaN payloads are not portable).
func TestAVX2Kernels(t *testing.T) {
	if !hasAVX2() {
		t.Skip("this processor has no AVX2: Dots and Axpys run the Go loops")
	}
	if !useAVX2 {
		t.Fatal("the processor has AVX2 but the kernels are off")
	}
	defer func() { useAVX2 = true }()
	s := rng.New(5, "learn/avx2-test")
	wide := func() float64 { return (s.Float64() - 0.5) * math.Pow(2, float64(s.IntN(60)-30)) }
	for cols := 1; cols <= 35; cols++ {
		const rows = 83
		set := &data.Set{Name: "w", Split: "train", Rows: rows, Cols: cols, Features: make([]float32, rows*cols),
			Y: make([]uint8, rows), Classes: []string{"a", "b"}}
		for k := range set.Features {
			set.Features[k] = float32(wide())
			if s.IntN(9) == 0 {
				set.Features[k] = float32(math.Copysign(0, -1))
			}
		}
		idx := make([]int, rows)
		for k := range idx {
			idx[k] = (k * 29) % rows // 29 is prime to 83: a permutation
		}
		x := make([]float64, cols)
		for c := range x {
			x[c] = wide()
		}
		xs := map[string][]float64{"wide": x, "±Inf": append([]float64{math.Inf(1)}, x[1:]...)}
		for _, r := range []Rows{{Set: set}, {Set: set, Idx: idx}} {
			for name, x := range xs {
				for _, n := range []int{7, 8, 9, 16, 63, 64, 65, 80} {
					lo := rows - n
					want, got := make([]float64, n), make([]float64, n)
					useAVX2 = false
					r.Dots(lo, x, want)
					useAVX2 = true
					r.Dots(lo, x, got)
					for k := range n {
						if !sameBits(want[k], got[k]) {
							t.Fatalf("cols %d, idx %v, x %s, n %d: AVX2 Dots[%d] = %v, Go %v", cols, r.Idx != nil, name, n, k, got[k], want[k])
						}
					}
					c := make([]float64, n)
					for k := range c {
						c[k] = wide()
					}
					wout, gout := make([]float64, cols), make([]float64, cols)
					for j := range wout {
						wout[j] = wide()
						gout[j] = wout[j]
					}
					useAVX2 = false
					r.Axpys(lo, c, wout)
					useAVX2 = true
					r.Axpys(lo, c, gout)
					for j := range wout {
						if !sameBits(wout[j], gout[j]) {
							t.Fatalf("cols %d, idx %v, x %s, n %d: AVX2 Axpys[%d] = %v, Go %v", cols, r.Idx != nil, name, n, j, gout[j], wout[j])
						}
					}
				}
			}
		}
	}
}

// TestPackedGo runs TestPacked's checks over the Go loops of the packed
// layouts (TestPacked runs the AVX2 kernels where the processor has
// them).
func TestPackedGo(t *testing.T) {
	defer func(on bool) { useAVX2 = on }(useAVX2)
	useAVX2 = false
	checkPacked(t)
}

// TestSparseAVX2 checks that the AVX2 sparse dot products of pixel rows
// give exactly num.GatherDot's bits (the Go loops), and the AVX2 sparse
// axpys exactly saxpy's: rows of every count of stored terms 0…70 and a
// few hundred (every tail of the eight lanes and of the four products),
// through a permutation, at points, coefficients and accumulators with
// wide exponents (every product and sum rounds) and ±Inf.
func TestSparseAVX2(t *testing.T) {
	if !hasAVX2() {
		t.Skip("this processor has no AVX2: the sparse Dots run the Go loops")
	}
	defer func() { useAVX2 = true }()
	s := rng.New(9, "learn/sparse-avx2-test")
	const rows, cols = 90, 784
	set := &data.Set{Name: "p", Split: "train", Rows: rows, Cols: cols, Pixels: make([]uint8, rows*cols),
		Y: make([]uint8, rows), Classes: []string{"a", "b"}}
	for i := range rows {
		nnz := i // rows 0…70 hold i nonzeros, the rest a few hundred
		if i > 70 {
			nnz = 100 + 11*i
		}
		for t := range nnz {
			set.Pixels[i*cols+(t*cols)/nnz] = uint8(1 + s.IntN(255))
		}
	}
	sp := newSparseRows(set, 1)
	if sp == nil || sp.pix == nil {
		t.Fatal("no sparse form of the pixel set")
	}
	idx := make([]int, rows)
	for k := range idx {
		idx[k] = (k * 7) % rows // 7 is prime to 90: a permutation
	}
	wide := func(n int) []float64 {
		v := make([]float64, n)
		for k := range v {
			v[k] = (s.Float64() - 0.5) * math.Pow(2, float64(s.IntN(60)-30))
		}
		return v
	}
	x := wide(cols)
	inf := append([]float64(nil), x...)
	inf[cols/2], inf[cols-1] = math.Inf(1), math.Inf(-1)
	for _, r := range []Rows{{Set: set}, {Set: set, Idx: idx}} {
		for name, x := range map[string][]float64{"wide": x, "±Inf": inf} {
			// Each pass by the Go loops (want) and by AVX2 (got), which must
			// take every row.
			check := func(what string, want, got []float64, goPass func(), avx2 func() int) {
				useAVX2 = false
				goPass()
				useAVX2 = true
				if avx2() != rows {
					t.Fatalf("the AVX2 sparse %s kernel did not run", what)
				}
				for k := range want {
					if !sameBits(want[k], got[k]) {
						t.Fatalf("idx %v, x %s: AVX2 sparse %s[%d] = %v, Go %v", r.Idx != nil, name, what, k, got[k], want[k])
					}
				}
			}
			want, got := make([]float64, rows), make([]float64, rows)
			check("Dots", want, got, func() { r.sparseDots(sp, 0, x, want) }, func() int { return r.sparseDotsWide(sp, 0, x, got) })
			// The axpys, with x as the accumulator and wide coefficients.
			c := wide(rows)
			wout, gout := append([]float64(nil), x...), append([]float64(nil), x...)
			check("Axpys", wout, gout, func() { r.sparseAxpys(sp, 0, c, wout) }, func() int { return r.sparseAxpysWide(sp, 0, c, gout) })
		}
	}
}

// sameBits reports whether a and b have the same bits, or are both NaN
// (NaN payloads are not portable).
func sameBits(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
}

// TestPackedSquaresGo runs TestPackedSquares' checks over the two passes
// that run where the fused kernel does not (TestPackedSquares runs the
// AVX2 kernel where the processor has it), and checks that the kernel
// takes every width up to squaresTile and declines wider ones.
func TestPackedSquaresGo(t *testing.T) {
	if hasAVX2() {
		var x, acc [packTile]float64
		rm := make([]float32, 2*packTile)
		for nv := 1; nv <= packTile/4; nv++ {
			if got, want := packedSquares(rm, packTile, 2, x[:], []int8{1, -1}, 4*nv, nv, prefix{}, &acc), 4*nv <= squaresTile; got != want {
				t.Errorf("packedSquares on %d columns ran %v, want %v", 4*nv, got, want)
			}
		}
	}
	defer func(on bool) { useAVX2 = on }(useAVX2)
	useAVX2 = false
	checkSquares(t)
}

// TestPackedSquaresLabels checks that the fused kernel widens every int8
// label as float64 does (it loads them from int8Values): one row of ones
// at x = 0 leaves acc at 0 − v for each label v.
func TestPackedSquaresLabels(t *testing.T) {
	if !hasAVX2() {
		t.Skip("this processor has no AVX2: the fused kernel does not run")
	}
	rm, x := []float32{1, 1, 1, 1}, make([]float64, 4)
	for v := -128; v < 128; v++ {
		var acc [packTile]float64
		if !packedSquares(rm, 4, 1, x, []int8{int8(v)}, 4, 1, prefix{}, &acc) {
			t.Fatal("the fused kernel did not run")
		}
		for j, got := range acc[:4] {
			if want := float64(-v); !sameBits(got, want) {
				t.Fatalf("label %d: acc[%d] = %v, want %v", v, j, got, want)
			}
		}
	}
}

// TestPackedSquaresAVX2 runs TestPackedSquares' checks over the AVX2
// fused pass where the processor would take the AVX-512 one (which
// TestPackedSquares then checks).
func TestPackedSquaresAVX2(t *testing.T) {
	if !useAVX512 {
		t.Skip("no AVX-512: TestPackedSquares checks the AVX2 pass")
	}
	defer func() { useAVX512 = true }()
	useAVX512 = false
	checkSquares(t)
}
