package learn

import (
	"math"
	"testing"

	"dpsim/core/data"
	"dpsim/core/num"
)

// TestBlockedKernels checks that Dots and Axpys, the blocked kernels of
// the full gradient, give exactly the bits of Dot and Axpy row after
// row, the dot products those of core/num's lane order over the row
// (num.Dot of its features as float64, denseRef), on float32 and pixel rows, through a permutation, for block
// lengths that are and are not multiples of four and widths with and
// without a remainder.
func TestBlockedKernels(t *testing.T) {
	for _, cols := range []int{1, 4, 7, 22} {
		f := Synthetic(3, "train", 37, cols, 2, 0.1)
		px := &data.Set{Name: "px", Split: "train", Rows: f.Rows, Cols: cols, Y: f.Y, Classes: f.Classes,
			Pixels: make([]uint8, len(f.Features))}
		for k, v := range f.Features {
			px.Pixels[k] = uint8(math.Round(float64(v) * 255))
		}
		for _, s := range []*data.Set{f, px} {
			idx := make([]int, s.Rows)
			for k := range idx {
				idx[k] = (k * 11) % s.Rows // 11 is prime to 37: a permutation
			}
			for _, r := range []Rows{{Set: s}, {Set: s, Idx: idx}} {
				x := make([]float64, cols)
				for c := range x {
					x[c] = math.Sin(float64(3*c+1)) / 3
				}
				for _, n := range []int{0, 1, 4, 5, 8, 11, 37} {
					got := make([]float64, n)
					r.Dots(0, x, got)
					want := make([]float64, cols)
					gout := make([]float64, cols)
					for k := range n {
						if d := r.Dot(k, x); math.Float64bits(d) != math.Float64bits(got[k]) {
							t.Fatalf("cols %d, pixels %v, idx %v, n %d: Dots[%d] = %v, Dot = %v", cols, s.Pixels != nil, r.Idx != nil, n, k, got[k], d)
						}
						if d := denseRef(s, r.Row(k), x); !r.Sparse() && math.Float64bits(d) != math.Float64bits(got[k]) {
							t.Fatalf("cols %d, pixels %v, idx %v, n %d: Dots[%d] = %v, num.Dot of the row = %v", cols, s.Pixels != nil, r.Idx != nil, n, k, got[k], d)
						}
						got[k] = float64(got[k]*1.5) - 0.25 // some slope
						r.Axpy(k, got[k], want)
					}
					r.Axpys(0, got, gout)
					for c := range want {
						if math.Float64bits(want[c]) != math.Float64bits(gout[c]) {
							t.Fatalf("cols %d, pixels %v, idx %v, n %d: Axpys[%d] = %v, Axpy row by row = %v", cols, s.Pixels != nil, r.Idx != nil, n, c, gout[c], want[c])
						}
					}
				}
			}
		}
	}
}

// denseRef is a dense row's dot product by core/num's definition: num.Dot
// of the row's features as float64 (exact) with x, divided by 255 on
// pixels.
func denseRef(s *data.Set, i int, x []float64) float64 {
	a := make([]float64, s.Cols)
	for j := range a {
		if s.Pixels != nil {
			a[j] = float64(s.Pixels[i*s.Cols+j])
		} else {
			a[j] = float64(s.Features[i*s.Cols+j])
		}
	}
	if s.Pixels != nil {
		return num.Dot(a, x) / 255
	}
	return num.Dot(a, x)
}
