//go:build !purego

package learn

import (
	"unsafe"

	"dpsim/core/internal/cpufeat"
	"dpsim/core/num"
)

// The float32 kernels of the dense rows in AVX2 on amd64 processors that
// have it (checked once, with the operating system's consent to save the
// ymm registers). The dot products sum each row in core/num's lane order
// (num.DotsAt: its AVX2 kernel, four float64 lanes per register, four
// rows per step); the axpys keep the pure-Go loops' order — each entry adds its
// rows' terms in row order, eight rows per step — products and sums
// rounded apart (no fused multiply-add), so they give the same bits,
// natively and against js/wasm. TestBlockedKernels checks the bits
// against Dot and Axpy row by row, TestAVX2Kernels against the Go loops.

// tailMask holds the lane masks of a row's last 1–3 columns: ps for
// four float32, pd for four float64.
type tailMask struct {
	ps [4]int32
	pd [4]int64
}

// tailMasks[k] masks the first k lanes.
var tailMasks = func() (m [4]tailMask) {
	for k := range m {
		for l := range k {
			m[k].ps[l], m[k].pd[l] = -1, -1
		}
	}
	return m
}()

//go:noescape
func axpysF32AVX2(f *float32, off *int, groups int, c *float64, n int, mask *tailMask, out *float64)

// hasAVX2 reports whether the processor has AVX2 and the operating
// system saves the ymm registers (cpufeat.AVX2).
func hasAVX2() bool { return cpufeat.AVX2 }

// useAVX2 selects the AVX2 kernels; tests turn it off to compare.
var useAVX2 = hasAVX2()

// useAVX512 selects the AVX-512 kernels where there are some (the split
// axpys of pixel sets, the squared loss's fused pass on an even count of
// column groups), with useAVX2 also on; tests turn it off to compare.
var useAVX512 = cpufeat.AVX512

// wideBlock is the most rows one call of the wide kernels takes.
const wideBlock = 64

// offsets writes the start of view rows lo … lo+len(off)−1 in the set's
// features (row index · d) into off, checking that each row lies inside
// the features (the assembly loads them unchecked): one compare a row,
// against the set's row count, once the features are known to hold
// every row.
func (r Rows) offsets(lo int, off []int) {
	s := r.Set
	if len(s.Features) < s.Rows*s.Cols {
		panic("learn: a set's features are shorter than its rows")
	}
	if r.Idx == nil {
		if lo < 0 || lo+len(off) > s.Rows {
			panic("learn: view rows outside the set")
		}
		for k := range off {
			off[k] = (lo + k) * s.Cols
		}
		return
	}
	for k, i := range r.Idx[lo : lo+len(off)] {
		if uint(i) >= uint(s.Rows) {
			panic("learn: a view row outside its set")
		}
		off[k] = i * s.Cols
	}
}

// dotsWide writes a_kᵀx for the view rows lo, lo+1, …, lo+len(out)−1
// into out in AVX2 and returns how many rows it did: all, or 0 without
// AVX2 or on pixel rows.
func (r Rows) dotsWide(lo int, x []float64, out []float64) int {
	d := r.Set.Cols
	if !useAVX2 || r.Set.Pixels != nil || d == 0 {
		return 0
	}
	x = x[:d]
	var off [wideBlock]int
	for done := 0; done < len(out); {
		b := min(wideBlock, len(out)-done)
		r.offsets(lo+done, off[:b])
		num.DotsAt(r.Set.Features, off[:b], x, out[done:done+b])
		done += b
	}
	return len(out)
}

// axpysWide adds Σ_t c[t]·a_{lo+t} to out over the first multiple of
// eight of len(c) rows, eight rows per pass over out in AVX2, each
// entry's terms in row order, and returns how many rows it did: 0
// without AVX2 or on pixel rows.
func (r Rows) axpysWide(lo int, c []float64, out []float64) int {
	d := r.Set.Cols
	if !useAVX2 || r.Set.Pixels != nil || d == 0 {
		return 0
	}
	out = out[:d]
	done := 0
	var off [wideBlock]int
	for m := len(c) &^ 7; done < m; {
		b := min(wideBlock, m-done)
		r.offsets(lo+done, off[:b])
		axpysF32AVX2(unsafe.SliceData(r.Set.Features), &off[0], b/8, &c[done], d&^3, tail(d), &out[0])
		done += b
	}
	return done
}

// tail returns the mask of a row's last d mod 4 columns, nil when none.
func tail(d int) *tailMask {
	if d%4 == 0 {
		return nil
	}
	return &tailMasks[d%4]
}

//go:noescape
func packedDotsAVX2(tr *float32, groups, d int, x *float64, out *float64)

//go:noescape
func packedAxpysAVX2(rm *float32, stride, n int, c *float64, nv int, acc *[packTile]float64)

// packKernels reports whether Pack builds the packed layouts: when the
// AVX2 kernels read them.
func packKernels() bool { return useAVX2 }

// packedDots writes the dot products of n rows of rm (row k's d features
// at k·stride) with x into out: packedDotsGo's sums, in AVX2 when
// present (num.DotsAt at offsets k·stride).
func packedDots(rm []float32, stride, d, n int, x, out []float64) {
	if n == 0 {
		return
	}
	if d > stride || len(rm) < (n-1)*stride+d || len(out) < n || len(x) < d {
		panic("learn: packedDots slices shorter than their rows")
	}
	if !useAVX2 || d == 0 {
		packedDotsGo(rm, stride, d, n, x, out)
		return
	}
	var off [wideBlock]int
	for done := 0; done < n; {
		b := min(wideBlock, n-done)
		for k := range b {
			off[k] = (done + k) * stride
		}
		num.DotsAt(rm, off[:b], x[:d], out[done:done+b])
		done += b
	}
}

// packFeatureMajor reports whether Pack builds the feature-major copy:
// where packedDotsAVX2 reads it.
func packFeatureMajor() bool { return useAVX2 }

// packedTrDots writes the dot products of groups feature-major groups of
// packGroup rows (tr holds exactly those groups) with x into out
// (groups·packGroup entries): packedTrDotsGo's sums, in AVX2 when
// present.
func packedTrDots(tr []float32, groups, d int, x, out []float64) {
	if len(tr) < groups*d*packGroup || len(out) < groups*packGroup || len(x) < d {
		panic("learn: packedTrDots slices shorter than their groups")
	}
	if !useAVX2 || groups == 0 || d == 0 {
		packedTrDotsGo(tr, groups, d, x, out)
		return
	}
	packedDotsAVX2(&tr[0], groups, d, &x[0], &out[0])
}

// packedAxpys adds c[k]·row_k to the tile's 4·nv entries in acc for n
// rows of rm, stride floats apart: packedAxpysGo's sums, in AVX2 when
// present.
func packedAxpys(rm []float32, stride, n int, c []float64, nv int, acc *[packTile]float64) {
	if n == 0 {
		return
	}
	if nv < 1 || 4*nv > packTile || len(c) < n || len(rm) < (n-1)*stride+4*nv {
		panic("learn: packedAxpys slices shorter than their rows")
	}
	if !useAVX2 {
		packedAxpysGo(rm, stride, n, c, nv, acc)
		return
	}
	packedAxpysAVX2(&rm[0], 4*stride, n, &c[0], nv, acc)
}

//go:noescape
func packedSquaresAVX2(rm *float32, stride, n int, x *float64, signs *int8, nv int, acc *[packTile]float64, values *float64)

//go:noescape
func packedSquaresAVX512(rm *float32, stride, n int, x *float64, signs *int8, nz int, acc *[packTile]float64, values *float64)

// int8Values holds float64(v) for every int8 v at index v + 128:
// packedSquaresAVX2 widens a label by one load from it.
var int8Values = func() (t [256]float64) {
	for k := range t {
		t[k] = float64(k - 128)
	}
	return t
}()

// packedSquares adds (row_kᵀx − signs[k])·row_k to acc's first 4·nv
// entries for n ≥ 1 rows of rm, stride floats apart (x holding 4·nv
// entries, zeros past the features; the number of features after signs
// and the WebAssembly module's prefix after nv are not needed here), in
// one pass in AVX2 (in AVX-512
// where the processor has it and nv is even: ijcnn1's shard gradient,
// min of 1,000 interleaved runs, 22.5 → 18.9 µs) — packedDots' (and
// packedTrDots') sums, the subtraction and packedAxpys' sums, in their
// order — and reports whether it did: not without AVX2 nor above
// squaresTile columns, where the caller runs those three. Its lanes
// start at their first product rather than at +0 plus it: the two differ
// only where that product is −0, and then only in the sign of a zero
// lane, so of a zero dot product, which the subtraction of a nonzero
// label erases (±0 − s = −s): the residuals, so the sums, keep the
// order's bits, and the two adds a row saved are a tenth of its work.
func packedSquares(rm []float32, stride, n int, x []float64, signs []int8, _, nv int, _ prefix, acc *[packTile]float64) bool {
	if !useAVX2 || nv < 1 || 4*nv > squaresTile {
		return false
	}
	if n < 1 || len(signs) < n || len(x) < 4*nv || len(rm) < (n-1)*stride+4*nv {
		panic("learn: packedSquares slices shorter than their rows")
	}
	if useAVX512 && nv%2 == 0 {
		// Two groups of four columns a zmm (ijcnn1: 22 columns, nv = 6).
		packedSquaresAVX512(&rm[0], 4*stride, n, &x[0], &signs[0], nv/2, acc, &int8Values[128])
		return true
	}
	packedSquaresAVX2(&rm[0], 4*stride, n, &x[0], &signs[0], nv, acc, &int8Values[128])
	return true
}
