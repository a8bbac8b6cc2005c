package learn

import (
	"math"
	"testing"

	"dpsim/core/data"
	"dpsim/core/rng"
)

// TestPacked checks that Packed.Dots and Packed.Axpys give exactly the
// bits of Dot and Axpy row after row (the Go loops): widths 1–70 (one and
// three column tiles, with and without a 1–3 column remainder), both
// layouts of the dot products (row-major and feature-major), rows in
// stored order and through a permutation, blocks starting on and off
// a group and ending inside one, features and points with wide exponents
// (products and sums round at every step), −0, and ±Inf (results
// compared as NaN or not: NaN payloads are not portable).
func TestPacked(t *testing.T) { checkPacked(t) }

// checkPacked runs TestPacked's checks with whichever kernels are on.
func checkPacked(t *testing.T) {
	s := rng.New(7, "learn/packed-test")
	wide := func() float64 { return (s.Float64() - 0.5) * math.Pow(2, float64(s.IntN(60)-30)) }
	same := func(a, b float64) bool {
		return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
	}
	const rows = 101
	for _, cols := range []int{1, 2, 3, 4, 5, 8, 13, 22, 31, 32, 33, 36, 64, 70} {
		set := &data.Set{Name: "w", Split: "train", Rows: rows, Cols: cols, Features: make([]float32, rows*cols),
			Y: make([]uint8, rows), Classes: []string{"a", "b"}}
		for k := range set.Features {
			set.Features[k] = float32(wide())
			if s.IntN(9) == 0 {
				set.Features[k] = float32(math.Copysign(0, -1))
			}
		}
		idx := make([]int, rows-3)
		for k := range idx {
			idx[k] = (k*37 + 5) % rows // 37 is prime to 101: distinct rows
		}
		x := make([]float64, cols)
		for c := range x {
			x[c] = wide()
		}
		xs := map[string][]float64{"wide": x, "±Inf": append([]float64{math.Inf(-1)}, x[1:]...)}
		for _, v := range []struct {
			r  Rows
			tr bool
		}{{Rows{Set: set}, false}, {Rows{Set: set}, true}, {Rows{Set: set, Idx: idx}, true}, {Rows{Set: set}.Sub(10, 75), true}} {
			r, p := v.r, pack(v.r, v.tr)
			m := r.Len()
			for name, x := range xs {
				for _, blk := range [][2]int{{0, m}, {0, 32}, {0, 31}, {32, 64}, {64, m - 64}, {96, m - 96}, {5, 40}, {33, 1}, {0, 0}} {
					lo, n := blk[0], blk[1]
					if n < 0 || lo+n > m {
						continue
					}
					got := make([]float64, n)
					p.Dots(lo, x, got)
					for k := range n {
						if want := r.Dot(lo+k, x); !same(want, got[k]) {
							t.Fatalf("cols %d, view %d rows, x %s, rows [%d, %d): Packed.Dots[%d] = %v, Dot %v", cols, m, name, lo, lo+n, k, got[k], want)
						}
					}
					c := make([]float64, n)
					for k := range c {
						c[k] = wide()
					}
					if name == "±Inf" && n > 0 {
						c[n/2] = math.Inf(1)
					}
					want, gout := make([]float64, cols), make([]float64, cols)
					for j := range want {
						want[j] = wide()
						if j%5 == 0 {
							want[j] = math.Copysign(0, -1)
						}
						gout[j] = want[j]
					}
					for k := range n {
						r.Axpy(lo+k, c[k], want)
					}
					p.Axpys(lo, c, gout)
					for j := range want {
						if !same(want[j], gout[j]) {
							t.Fatalf("cols %d, view %d rows, x %s, rows [%d, %d): Packed.Axpys[%d] = %v, Axpy row by row %v", cols, m, name, lo, lo+n, j, gout[j], want[j])
						}
					}
				}
			}
		}
	}
}

// TestPackPolicy checks where Pack declines: pixel sets, sparse sets and
// empty views get no packed copy; a dense float32 set gets one exactly
// when the packed kernels exist, with the memory Bytes reports.
func TestPackPolicy(t *testing.T) {
	dense := Synthetic(3, "train", 40, 22, 2, 0.1)
	px := &data.Set{Name: "px", Split: "train", Rows: 40, Cols: 22, Y: dense.Y, Classes: dense.Classes, Pixels: make([]uint8, 40*22)}
	sparse := &data.Set{Name: "sp", Split: "train", Rows: 40, Cols: 22, Y: dense.Y, Classes: dense.Classes, Features: make([]float32, 40*22)}
	for k := range sparse.Features {
		if k%7 == 0 {
			sparse.Features[k] = 1
		}
	}
	for _, tc := range []struct {
		name string
		r    Rows
		want bool
	}{
		{"dense", Rows{Set: dense}, packKernels()},
		{"dense view", Rows{Set: dense}.Sub(3, 20), packKernels()},
		{"empty view", Rows{Set: dense}.Sub(3, 3), false},
		{"pixels", Rows{Set: px}, false},
		{"sparse", Rows{Set: sparse}, false},
	} {
		p := Pack(tc.r)
		if (p != nil) != tc.want {
			t.Errorf("%s: Pack gave %v, want a copy %v", tc.name, p != nil, tc.want)
		}
		if p != nil {
			m := tc.r.Len()
			want := 4 * m * 24
			if p.tr != nil {
				want += 4 * ((m + 31) / 32 * 32 * 22)
			}
			if p.Bytes() != want {
				t.Errorf("%s: Bytes %d, want %d", tc.name, p.Bytes(), want)
			}
		}
	}
}

// TestPackBytes checks that PackBytes bounds what Pack takes for every
// shard of a split (the problem's memory estimate relies on it), within
// the padding of one group a shard and the bound of the sparse prefixes
// (js/wasm with the SIMD module), and is 0 where Pack builds nothing.
func TestPackBytes(t *testing.T) {
	for _, tc := range []struct{ rows, cols, n int }{{1000, 22, 8}, {37, 3, 5}, {64, 32, 2}, {33, 70, 1}} {
		set := Synthetic(2, "train", tc.rows, tc.cols, 2, 0.1)
		shards, err := Split(set, tc.n, Contiguous, 1)
		if err != nil {
			t.Fatal(err)
		}
		got := 0
		for _, r := range shards {
			if p := Pack(r); p != nil {
				got += p.Bytes()
			}
		}
		bound := PackBytes(int64(tc.rows), tc.cols, tc.n)
		if !packKernels() {
			if got != 0 || bound != 0 {
				t.Errorf("%+v: no packed kernels, yet Pack took %d bytes and PackBytes says %d", tc, got, bound)
			}
			continue
		}
		if slack := bound - int64(got); slack < 0 || slack > int64(4*tc.n*packGroup*tc.cols)+prefixBound(int64(tc.rows), tc.cols, tc.n) {
			t.Errorf("%+v: Pack took %d bytes, PackBytes says %d", tc, got, bound)
		}
	}
}

// TestPackedSquares checks that Packed.SquaresGrad gives exactly the bits
// of Dot, the subtraction and Axpy row after row into a zeroed sum (the
// Go loops): every width 1–26 (each of the fused kernel's six loops and
// every tail of its lanes, and past its widest, where the two passes
// run) and 31, 33, views in stored order, through a permutation and
// offset, features with wide exponents and −0, x with wide exponents,
// zeros of both signs (dot products of ±0) and ±Inf.
func TestPackedSquares(t *testing.T) { checkSquares(t) }

// checkSquares runs TestPackedSquares' checks with whichever kernels are
// on.
func checkSquares(t *testing.T) {
	s := rng.New(13, "learn/packed-squares-test")
	wide := func() float64 { return (s.Float64() - 0.5) * math.Pow(2, float64(s.IntN(60)-30)) }
	same := func(a, b float64) bool {
		return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
	}
	const rows = 77
	widths := []int{31, 33}
	for d := 1; d <= 26; d++ {
		widths = append(widths, d)
	}
	for _, cols := range widths {
		set := &data.Set{Name: "w", Split: "train", Rows: rows, Cols: cols, Features: make([]float32, rows*cols),
			Y: make([]uint8, rows), Classes: []string{"a", "b"}}
		for k := range set.Features {
			switch s.IntN(9) {
			case 0:
				set.Features[k] = float32(math.Copysign(0, -1))
			case 1:
				set.Features[k] = 0
			default:
				set.Features[k] = float32(wide())
			}
		}
		idx := make([]int, rows-2)
		for k := range idx {
			idx[k] = (k*31 + 4) % rows // 31 is prime to 77: distinct rows
		}
		x := make([]float64, cols)
		for c := range x {
			x[c] = wide()
		}
		zeros := make([]float64, cols) // every product ±0
		for c := range zeros {
			zeros[c] = math.Copysign(0, float64(c%2)-0.5)
		}
		inf := append([]float64(nil), x...)
		inf[0], inf[cols-1] = math.Inf(-1), math.Inf(1)
		xs := map[string][]float64{"wide": x, "±0": zeros, "±Inf": inf}
		for _, r := range []Rows{{Set: set}, {Set: set, Idx: idx}, Rows{Set: set}.Sub(9, 70)} {
			p := pack(r, packFeatureMajor())
			m := r.Len()
			signs := make([]int8, m)
			for k := range signs {
				signs[k] = int8(1 - 2*s.IntN(2))
			}
			for name, x := range xs {
				want := make([]float64, cols)
				for k := range m {
					r.Axpy(k, r.Dot(k, x)-float64(signs[k]), want)
				}
				got := make([]float64, cols)
				for j := range got {
					got[j] = wide() // overwritten, not added to
				}
				p.SquaresGrad(x, signs, got)
				for j := range want {
					if !same(want[j], got[j]) {
						t.Fatalf("cols %d, view %d rows, x %s: SquaresGrad[%d] = %v, Dot and Axpy row by row %v", cols, m, name, j, got[j], want[j])
					}
				}
				r.SquaresGrad(x, signs, got)
				for j := range want {
					if !same(want[j], got[j]) {
						t.Fatalf("cols %d, view %d rows, x %s: Rows.SquaresGrad[%d] = %v, Dot and Axpy row by row %v", cols, m, name, j, got[j], want[j])
					}
				}
			}
		}
	}
}
