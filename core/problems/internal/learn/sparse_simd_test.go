//go:build js && wasm && dpsimsimd && !purego

package learn

import (
	"math"
	"testing"
	"unsafe"

	"dpsim/core/data"
	"dpsim/core/rng"
)

// TestSparseSquaresSIMD holds the module's ssqgrad (Rows.SquaresGrad on a
// pixel set's sparse form under the tag) to the Go path's bits: Dot and
// Axpy row after row (pure Go), and SquaresGrad with the module off (the
// scalar assembly and Go loops). The rows hold 0 to 20 nonzeros (every
// tail of the eight lanes, empty rows, a single one), 100 (every column)
// and about a fifth of the columns, bytes 1–255; the views are the set
// in order and a permutation, 1 to over two blocks of rows; x holds wide
// exponents, −0 and, in one case, +Inf at a column that only a row of
// the second block stores (the module must stop there: its residual is
// infinite and Go takes that block's dense loops, where 0·Inf is NaN).
// Called directly with blocks of 1, 3 and 7 rows, it must return the
// rows it did and leave the guards past its scratch and past out alone.
func TestSparseSquaresSIMD(t *testing.T) {
	if !packKernels() {
		t.Fatal("the SIMD module is not linked: run under wasm/simd/go_js_wasm_exec")
	}
	const rows, cols = 2*squaresBlock + 37, 100
	s := rng.New(23, "learn/sparse-squares-simd-test")
	set := &data.Set{Name: "sq", Split: "train", Rows: rows, Cols: cols, Pixels: make([]uint8, rows*cols),
		Y: make([]uint8, rows), Classes: []string{"a", "b"}}
	for i := range rows {
		row := set.Pixels[i*cols : (i+1)*cols]
		byteAt := func() uint8 {
			switch s.IntN(10) {
			case 0:
				return 255
			case 1:
				return 1
			}
			return uint8(1 + s.IntN(255))
		}
		switch {
		case i%50 == 7:
			for j := range cols - 1 {
				row[j] = byteAt()
			}
		case i < 100 || i%3 == 0:
			for _, j := range s.Perm(cols - 1)[:i%21] {
				row[j] = byteAt()
			}
		default:
			for j := range cols - 1 {
				if s.Float64() < 0.2 {
					row[j] = byteAt()
				}
			}
		}
	}
	set.Pixels[400*cols+cols-1] = 77 // the last column's only nonzero
	sparseForms.force(set, newSparseRows(set, 1))
	sp := Rows{Set: set}.sparse()
	if sp == nil || sp.pix == nil {
		t.Fatal("no sparse form")
	}
	wide := func() float64 {
		switch s.IntN(30) {
		case 0:
			return math.Copysign(0, -1)
		case 1:
			return 0
		}
		return (s.Float64() - 0.5) * math.Pow(2, float64(s.IntN(80)-40))
	}
	same := func(a, b float64) bool {
		return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
	}
	perm := s.Perm(rows)
	for _, n := range []int{1, 2, 21, squaresBlock - 1, squaresBlock, squaresBlock + 1, rows} {
		views := []Rows{{Set: set, Idx: perm[:n]}, {Set: set, Idx: identity(n)}}
		if n == rows {
			views = append(views, Rows{Set: set}) // first + k
		}
		for _, view := range views {
			m := view.Len()
			has400 := false
			for k := range m {
				has400 = has400 || view.Row(k) == 400
			}
			signs := make([]int8, m)
			for k := range signs {
				signs[k] = int8(1 - 2*s.IntN(2))
			}
			for _, inf := range []bool{false, true} {
				x := make([]float64, cols)
				for j := range x {
					x[j] = wide()
				}
				if inf {
					x[cols-1] = math.Inf(1)
				}
				want := make([]float64, cols)
				for k := range m {
					view.Axpy(k, view.Dot(k, x)-float64(signs[k]), want)
				}
				useSparseSIMD = false
				off := make([]float64, cols)
				view.SquaresGrad(x, signs, off)
				useSparseSIMD = true
				got := make([]float64, cols)
				for j := range got {
					got[j] = 1.5 // overwritten, not added to
				}
				view.SquaresGrad(x, signs, got)
				for j := range want {
					if !same(got[j], want[j]) || !same(off[j], want[j]) {
						t.Fatalf("%d rows, idx %v, +Inf %v: SquaresGrad[%d] = %v (module), %v (off), Dot and Axpy row by row %v",
							m, view.Idx != nil, inf, j, got[j], off[j], want[j])
					}
				}
				// Directly: blocks of zn rows, guards past z and out.
				for _, zn := range []int{1, 3, 7, squaresBlock} {
					guard := math.Float64frombits(0x7ff4dead0000beef)
					z := make([]float64, zn+2)
					z[zn], z[zn+1] = guard, guard
					out := make([]float64, cols+2)
					out[cols], out[cols+1] = guard, guard
					idx, first := view.viewRows(0, m)
					done := int(simdSparseSquares(unsafe.Pointer(&sp.start[0]), unsafe.Pointer(&sp.col[0]), unsafe.Pointer(&sp.pix[0]),
						unsafe.Pointer(idx), int32(first), int32(m), unsafe.Pointer(&x[0]), unsafe.Pointer(&signs[0]),
						unsafe.Pointer(&z[0]), unsafe.Pointer(&out[0]), int32(zn)))
					// The reference: whole blocks of zn rows while every
					// residual of the block is finite.
					ref := make([]float64, cols)
					stop := m
					for lo := 0; lo < m; lo += zn {
						res := make([]float64, min(zn, m-lo))
						for t := range res {
							res[t] = view.Dot(lo+t, x) - float64(signs[lo+t])
						}
						if !finite(res) {
							stop = lo
							break
						}
						for t, c := range res {
							view.Axpy(lo+t, c, ref)
						}
					}
					if done != stop {
						t.Fatalf("%d rows, idx %v, +Inf %v, blocks of %d: ssqgrad did %d rows, want %d", m, view.Idx != nil, inf, zn, done, stop)
					}
					if inf && has400 && stop == m {
						t.Fatalf("%d rows: the infinite residual did not stop the module", m)
					}
					for j := range ref {
						if !same(out[j], ref[j]) {
							t.Fatalf("%d rows, idx %v, +Inf %v, blocks of %d: out[%d] = %v, the Go loops %v", m, view.Idx != nil, inf, zn, j, out[j], ref[j])
						}
					}
					for _, g := range []float64{z[zn], z[zn+1], out[cols], out[cols+1]} {
						if math.Float64bits(g) != math.Float64bits(guard) {
							t.Fatalf("%d rows, blocks of %d: ssqgrad wrote past its scratch or out", m, zn)
						}
					}
				}
			}
		}
	}
}

// identity returns the view indices 0 … n−1.
func identity(n int) []int {
	idx := make([]int, n)
	for k := range idx {
		idx[k] = k
	}
	return idx
}
