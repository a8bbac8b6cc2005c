//go:build !purego

package learn

import (
	"math"
	"testing"

	"dpsim/core/data"
	"dpsim/core/internal/cpufeat"
	"dpsim/core/rng"
)

// TestWinDots holds the window kernel to the Go loops (num.GatherDot,
// term t to lane t mod 8) bit for bit: on pixel sets of 8, 9, 30 and 784
// columns whose rows hold no nonzero, one, runs of eight and more (a
// window full, windows clamped at d − 8), every column, and random ones;
// on every row count 1–9 (the pairs and the odd last row), through an
// index and without, at x with wide exponents, ±0 and values whose
// products cancel. Non-finite x must leave the rows to the other kernel.
func TestWinDots(t *testing.T) {
	if !cpufeat.AVX512 || !cpufeat.BMI2 {
		t.Skip("this processor lacks AVX-512 or BMI2: the window kernel never runs")
	}
	s := rng.New(11, "learn/win-dots-test")
	for _, cols := range []int{8, 9, 30, 784} {
		const rows = 61
		set := &data.Set{Name: "p", Split: "train", Rows: rows, Cols: cols, Pixels: make([]uint8, rows*cols),
			Y: make([]uint8, rows), Classes: []string{"a", "b"}}
		for i := range rows {
			row := set.Pixels[i*cols : (i+1)*cols]
			switch i % 6 {
			case 0: // empty, or one nonzero
				if i > 0 {
					row[s.IntN(cols)] = uint8(1 + s.IntN(255))
				}
			case 1: // every column
				for j := range row {
					row[j] = uint8(1 + s.IntN(255))
				}
			case 2: // runs of up to nine from a random start
				for j := s.IntN(cols); j < cols; j += 1 + s.IntN(12) {
					for q := j; q < min(cols, j+1+s.IntN(9)); q++ {
						row[q] = uint8(1 + s.IntN(255))
					}
				}
			case 3: // the last columns
				for j := cols - 1 - s.IntN(min(cols, 11)); j < cols; j++ {
					row[j] = 255
				}
			default: // random, a fifth to a half ink
				p := 0.2 + 0.3*s.Float64()
				for j := range row {
					if s.Float64() < p {
						row[j] = uint8(1 + s.IntN(255))
					}
				}
			}
		}
		sp := newSparseRows(set, 1)
		x := make([]float64, cols)
		for j := range x {
			switch s.IntN(8) {
			case 0:
				x[j] = math.Copysign(0, -1)
			case 1:
				x[j] = 0
			case 2:
				x[j] = -x[max(j-1, 0)] // cancels its neighbour's products
			default:
				x[j] = (s.Float64() - 0.5) * math.Pow(2, float64(s.IntN(60)-30))
			}
		}
		idx := make([]int, rows)
		for k := range idx {
			idx[k] = (k * 7) % rows // 7 is prime to 61: a permutation
		}
		for _, r := range []Rows{{Set: set}, {Set: set, Idx: idx}} {
			for n := 1; n <= 9; n++ {
				for lo := 0; lo+n <= rows; lo += n {
					want, got := make([]float64, n), make([]float64, n)
					for k := range want {
						want[k] = sp.dot(r.Row(lo+k), x)
					}
					if r.winDots(lo, x, got) != n {
						t.Fatalf("cols %d: the window kernel did not take %d rows", cols, n)
					}
					for k := range want {
						if !sameBits(want[k], got[k]) {
							t.Fatalf("cols %d, idx %v, rows %d from %d: window Dots[%d] = %v (%#x), Go %v (%#x)", cols, r.Idx != nil, n, lo, k,
								got[k], math.Float64bits(got[k]), want[k], math.Float64bits(want[k]))
						}
					}
				}
			}
		}
		for _, v := range []float64{math.Inf(1), math.Inf(-1), math.NaN()} {
			bad := append([]float64(nil), x...)
			bad[cols/2] = v
			if (Rows{Set: set}).winDots(0, bad, make([]float64, rows)) != 0 {
				t.Fatalf("cols %d: the window kernel took x with %v", cols, v)
			}
		}
	}
}

// TestWinDotsMNIST: every row of MNIST 0 vs 1 by the window kernel and by
// the Go loops, at a solver-like x.
func TestWinDotsMNIST(t *testing.T) {
	if !cpufeat.AVX512 || !cpufeat.BMI2 {
		t.Skip("this processor lacks AVX-512 or BMI2: the window kernel never runs")
	}
	set, err := data.Load("mnist-01", "train")
	if err != nil {
		t.Fatal(err)
	}
	s := rng.New(12, "learn/win-dots-mnist")
	x := make([]float64, set.Cols)
	for j := range x {
		x[j] = (s.Float64() - 0.5) * 2e-3
	}
	r := Rows{Set: set}
	sp := r.sparse()
	got := make([]float64, set.Rows)
	if r.winDots(0, x, got) != set.Rows {
		t.Fatal("the window kernel did not run")
	}
	for k := range got {
		if want := sp.dot(k, x); !sameBits(want, got[k]) {
			t.Fatalf("row %d: window %v, Go %v", k, got[k], want)
		}
	}
}

// BenchmarkWinDots times MNIST 0 vs 1's shard dot products (Rows.Dots
// over an eighth of the set, in SquaresGrad's blocks of 256 rows) term
// by term (AVX2) and by windows (AVX-512), and the whole shard gradient
// (Rows.SquaresGrad) with each.
func BenchmarkWinDots(b *testing.B) {
	if !cpufeat.AVX512 || !cpufeat.BMI2 {
		b.Skip("this processor lacks AVX-512 or BMI2")
	}
	_, r, x, out, signs := mnistShard(b)
	z := make([]float64, squaresBlock)
	for _, pass := range []string{"dots", "grad"} {
		for _, form := range []string{"terms", "windows"} {
			b.Run(pass+"/"+form, func(b *testing.B) {
				defer func(w bool) { useWin = w }(useWin)
				useWin = form == "windows"
				r.SquaresGrad(x, signs, out)
				b.ResetTimer()
				for range b.N {
					if pass == "grad" {
						r.SquaresGrad(x, signs, out)
						continue
					}
					for lo := 0; lo < r.Len(); lo += len(z) {
						r.Dots(lo, x, z[:min(len(z), r.Len()-lo)])
					}
				}
			})
		}
	}
}
