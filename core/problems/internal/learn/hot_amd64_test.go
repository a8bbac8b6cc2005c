//go:build !purego

package learn

import (
	"math"
	"testing"

	"dpsim/core/data"
	"dpsim/core/internal/cpufeat"
	"dpsim/core/rng"
)

// TestHotAxpys checks the split axpys of a pixel set (newPixHot, hotAxpys)
// against saxpy's Go loops bit for bit, in AVX-512 where the processor
// has it and in AVX2: a set whose middle columns are mostly ink and whose
// rim is nearly blank (an odd count of hot chunks, so that one goes back
// to the rest), every count of rows 1…9 from several first rows (the
// four-row passes and their last 0–3 rows), through a permutation, at
// wide coefficients and an accumulator holding ±Inf and NaN. The split
// must also hold every pixel once: the hot bytes and the rest's nonzeros
// rebuild each row.
func TestHotAxpys(t *testing.T) {
	if !hasAVX2() {
		t.Skip("this processor has no AVX2: the split axpys do not run")
	}
	defer func(a2, a5, h bool) { useAVX2, useAVX512, useHot = a2, a5, h }(useAVX2, useAVX512, useHot)
	s := rng.New(11, "learn/hot-axpys-test")
	const rows, cols = 41, 60
	set := &data.Set{Name: "h", Split: "train", Rows: rows, Cols: cols, Pixels: make([]uint8, rows*cols),
		Y: make([]uint8, rows), Classes: []string{"a", "b"}}
	for i := range rows {
		for j := range cols {
			ink := 0.05 // the rim
			if j >= 16 && j < 36 {
				ink = 0.6 // five chunks of mostly ink
			}
			if s.Float64() < ink {
				set.Pixels[i*cols+j] = uint8(1 + s.IntN(255))
			}
		}
	}
	ph := newPixHot(set, 0.3)
	if ph == nil || ph.h == 0 || ph.h%(2*hotChunk) != 0 || len(ph.rest.pix) == 0 {
		t.Fatalf("the split has h = %d and %d rest nonzeros: want a positive multiple of 8 and some", ph.h, len(ph.rest.pix))
	}
	for i := range rows {
		row := make([]uint8, cols)
		for k, o := range ph.offs {
			copy(row[o/8:o/8+hotChunk], ph.bytes[i*ph.h+k*hotChunk:i*ph.h+(k+1)*hotChunk])
		}
		for q := ph.rest.start[i]; q < ph.rest.start[i+1]; q++ {
			if row[ph.rest.col[q]] != 0 {
				t.Fatalf("row %d: column %d is both hot and in the rest", i, ph.rest.col[q])
			}
			row[ph.rest.col[q]] = ph.rest.pix[q]
		}
		for j, p := range row {
			if p != set.Pixels[i*cols+j] {
				t.Fatalf("row %d column %d: the split holds %d, the set %d", i, j, p, set.Pixels[i*cols+j])
			}
		}
	}
	sp := newSparseRows(set, 1)
	idx := make([]int, rows)
	for k := range idx {
		idx[k] = (k * 8) % rows // 8 is prime to 41: a permutation
	}
	wide := func(n int) []float64 {
		v := make([]float64, n)
		for k := range v {
			v[k] = (s.Float64() - 0.5) * math.Pow(2, float64(s.IntN(60)-30))
		}
		return v
	}
	acc := wide(cols)
	acc[3], acc[20], acc[cols-1] = math.Inf(1), math.NaN(), math.Inf(-1)
	kernels := []bool{false}
	if cpufeat.AVX512 {
		kernels = append(kernels, true)
	}
	for _, r := range []Rows{{Set: set}, {Set: set, Idx: idx}} {
		for _, avx512 := range kernels {
			for lo := 0; lo < rows; lo += 7 {
				for n := 1; n <= 9 && lo+n <= rows; n++ {
					c := wide(n)
					want, got := append([]float64(nil), acc...), append([]float64(nil), acc...)
					useAVX2, useHot = false, false
					r.sparseAxpys(sp, lo, c, want)
					useAVX2, useAVX512, useHot = true, avx512, true
					hotSplits.pin(set, ph)
					if r.sparseAxpysWide(sp, lo, c, got) != n {
						t.Fatal("the AVX2 sparse axpy kernel did not run")
					}
					for j := range want {
						if !sameBits(want[j], got[j]) {
							t.Fatalf("idx %v, AVX-512 %v, rows %d…%d: out[%d] = %v, Go %v", r.Idx != nil, avx512, lo, lo+n-1, j, got[j], want[j])
						}
					}
				}
			}
		}
	}
	hotSplits.unpin()
}

// mnistShard is the benchmarks' shard: the first eighth of MNIST 0 vs
// 1's training rows, an x with every sign, an output and the ±1 labels.
func mnistShard(b *testing.B) (set *data.Set, r Rows, x, out []float64, signs []int8) {
	set, err := data.Load("mnist-01", "train")
	if err != nil {
		b.Fatal(err)
	}
	r = Rows{Set: set}.Sub(0, set.Rows/8)
	x, out = make([]float64, set.Cols), make([]float64, set.Cols)
	for c := range x {
		x[c] = 0.01 * float64(c%7-3)
	}
	signs = make([]int8, r.Len())
	for k := range signs {
		signs[k] = int8(2*r.Label(k) - 1)
	}
	return set, r, x, out, signs
}

// BenchmarkHotAxpys times MNIST 0 vs 1's shard gradient (the squared
// loss's passes, Rows.SquaresGrad) without the split axpys (sparse) and
// with them (hot: AVX-512 where the processor has it, and AVX2).
func BenchmarkHotAxpys(b *testing.B) {
	set, r, x, out, signs := mnistShard(b)
	for _, form := range []string{"sparse", "hot-avx2", "hot-avx512"} {
		if form == "hot-avx512" && !cpufeat.AVX512 {
			continue
		}
		b.Run(form, func(b *testing.B) {
			defer func(h, a5 bool) { useHot, useAVX512 = h, a5 }(useHot, useAVX512)
			useHot, useAVX512 = form != "sparse", form == "hot-avx512"
			// The split at the threshold of the kernel that runs.
			hotSplits.pin(set, newPixHot(set, hotDensity()))
			defer hotSplits.unpin()
			r.SquaresGrad(x, signs, out)
			b.ResetTimer()
			for range b.N {
				r.SquaresGrad(x, signs, out)
			}
		})
	}
}
