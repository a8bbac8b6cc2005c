//go:build js && wasm && dpsimsimd && !purego

package learn

import (
	"math"
	"unsafe"
)

// Under js/wasm built with the dpsimsimd tag (the page's and the solver
// Workers' build), the packed full passes run in the WebAssembly SIMD
// module (wasm/simd/gen, packed.go; public/simd.wasm), which works in
// this program's own memory: whoever instantiates this program links it
// (public/simd.js: the page, the Workers, and node through
// wasm/simd/go_js_wasm_exec). Its f64x2 lanes do packedDotsGo's (core/num's
// lane order) and packedAxpysGo's operations in their order — a float32 promoted to
// float64, one product rounded, then one sum, no fused multiply-add — so
// the bits are those of the Go loops (TestPacked, run under the tag).
// One call covers a block's rows or a tile's rows: the JavaScript
// trampoline between Go and the module costs tens of nanoseconds a call.

// simdPackedDots is the module's pdots: packedDots over n rows of rm,
// stride bytes apart, d features each, into out; it returns 1, or 0
// where the module is not linked (simd.js's fallback), and then did
// nothing. n = 0 touches no memory: a probe.
//
//go:wasmimport dpsimsimd pdots
//go:noescape
func simdPackedDots(rm, x, out unsafe.Pointer, stride, n, d int32) int32

// simdPackedAxpys is the module's paxpys: packedAxpys over n rows of rm,
// stride bytes apart, and the tile's first w entries of acc (w a multiple
// of 4, at most packTile); it returns 1, or 0 where the module is not
// linked, and then did nothing.
//
//go:wasmimport dpsimsimd paxpys
//go:noescape
func simdPackedAxpys(rm, c, acc unsafe.Pointer, stride, n, w int32) int32

// packKernels reports whether Pack builds the packed layouts: when the
// SIMD module is linked, which it is from the program's start wherever
// simd.js's promise .ready was awaited before go.run (exec_node.js, the
// Workers) — else packing would cost the memory and run the Go loops,
// slower than the in-place assembly (kernels_wasm.s).
func packKernels() bool { return simdPackedDots(nil, nil, nil, 0, 0, 0) == 1 }

// packedDots writes the dot products of n rows of rm (row k's d features
// at k·stride) with x into out: packedDotsGo's sums, in the SIMD module
// when linked.
func packedDots(rm []float32, stride, d, n int, x, out []float64) {
	if n == 0 {
		return
	}
	if d > stride || len(rm) < (n-1)*stride+d || len(out) < n || len(x) < d {
		panic("learn: packedDots slices shorter than their rows")
	}
	if d == 0 || simdPackedDots(unsafe.Pointer(&rm[0]), unsafe.Pointer(&x[0]),
		unsafe.Pointer(&out[0]), int32(4*stride), int32(n), int32(d)) == 0 {
		packedDotsGo(rm, stride, d, n, x, out)
	}
}

// packedAxpys adds c[k]·row_k to the tile's 4·nv entries in acc for n
// rows of rm, stride floats apart: packedAxpysGo's sums, in the SIMD
// module when linked.
func packedAxpys(rm []float32, stride, n int, c []float64, nv int, acc *[packTile]float64) {
	if n == 0 {
		return
	}
	if nv < 1 || 4*nv > packTile || len(c) < n || len(rm) < (n-1)*stride+4*nv {
		panic("learn: packedAxpys slices shorter than their rows")
	}
	if simdPackedAxpys(unsafe.Pointer(&rm[0]), unsafe.Pointer(&c[0]), unsafe.Pointer(acc),
		int32(4*stride), int32(n), int32(4*nv)) == 0 {
		packedAxpysGo(rm, stride, n, c, nv, acc)
	}
}

// packFeatureMajor reports whether Pack builds the feature-major copy:
// not here (the module's pdots reads the row-major rows, two at a time).
func packFeatureMajor() bool { return false }

// packedTrDots runs packedTrDotsGo (Pack builds no feature-major copy
// here: tests only).
func packedTrDots(tr []float32, groups, d int, x, out []float64) {
	packedTrDotsGo(tr, groups, d, x, out)
}

// simdPackedSquares is the module's psqgrad: packedSquares' sum over n
// rows of rm, stride bytes apart, w columns each (w even; x as wide),
// added to acc, a block of zn ≥ 1 rows at a time through the scratch z
// of zn float64 (the dot products — the module's pdots for rows under 8
// wide, its own unrolled pass (gen's sqPass) for 8 and wider — then the
// residuals and its paxpys); it returns 1, or 0 where the module is not
// linked, and then did nothing. With k > 0 its weighted sums run paxpys
// over columns s … w−1 only and add the first s columns' terms from the
// sparse prefix sp (k pairs a row, as prefix.ents; s even, 2 ≤ s < w).
// With k = −s8 < 0, the float64 mode (prefix.dense): rm holds the rows'
// columns s8 … as float64, w their count, stride their bytes, and sp is
// preceded by the prefix's mask table (one pair a row).
//
//go:wasmimport dpsimsimd psqgrad
//go:noescape
func simdPackedSquares(rm, x, signs, z, acc unsafe.Pointer, stride, n, w, zn int32, sp unsafe.Pointer, k, s int32) int32

// plainSquares adds (row_kᵀx − signs[k])·row_k to acc's first d entries
// for n rows of rm (stride floats apart, x holding the 4·nv columns, the
// padding zeros) in one call to the module, which runs
// Packed.SquaresGrad's two passes block by block (psqgrad) — one call a
// gradient instead of two a block, and no Go loop over the residuals
// between them. The module runs d rounded up to even columns, not the
// 4·nv the rows are padded to: ijcnn1's 22 features are eleven f64x2
// lane pairs, not twelve, a twelfth less work in both passes (acc's
// entries past that are left as they are). The dot products run over
// the columns up to that width: a padding column adds +0·+0 to its
// lane, which can turn only a −0 lane into +0, and a dot product's zero
// sign is lost once the nonzero label is subtracted, so the residuals
// and the sums keep the two passes' bits (TestPackedSquares,
// TestPackedSquaresSIMD). It reports false where the module is not
// linked: the caller then runs the two passes.
func plainSquares(rm []float32, stride, n int, x []float64, signs []int8, d, nv int, acc *[packTile]float64) bool {
	if n == 0 {
		return true
	}
	w := (d + 1) &^ 1
	if nv < 1 || 4*nv > packTile || d < 1 || w > 4*nv || 4*nv > stride || len(x) < 4*nv || len(signs) < n || len(rm) < (n-1)*stride+4*nv {
		panic("learn: plainSquares slices shorter than their rows")
	}
	var z [squaresBlock]float64
	return simdPackedSquares(unsafe.Pointer(&rm[0]), unsafe.Pointer(&x[0]), unsafe.Pointer(&signs[0]),
		unsafe.Pointer(&z[0]), unsafe.Pointer(acc), int32(4*stride), int32(n), int32(w), int32(len(z)), nil, 0, 0) == 1
}

func init() { packPrefix = buildPrefix }

// buildPrefix gives p a sparse prefix where one saves work: the even
// width s of first columns whose nonzeros a row, k at most, cost less
// added one by one (a scalar term weighed as 1.5 lane pairs: its loads
// and store beside the f64x2 sums' one conversion and add) than the s/2
// lane pairs of the dense weighted sum, by two pairs at least. ijcnn1's
// first ten features are one-hot: s = 10, k = 1 — five lane pairs of
// eleven replaced by one scalar term a row (its shard gradient's
// weighted sums, by node's profile, 453 → 252 ms of 20,000 gradients).
func buildPrefix(p *Packed) {
	m, w := p.rows.Len(), (p.d+1)&^1
	if !packKernels() || w < 4 || p.d4 > packTile || m == 0 {
		return // (SquaresGrad's one call takes rows of at most packTile)
	}
	// kmax[q]: the most nonzeros a row has in its first 2q columns.
	kmax := make([]int, w/2)
	for t := range m {
		row, n := p.rm[t*p.d4:t*p.d4+w], 0
		for q := 1; q < len(kmax); q++ {
			if row[2*q-2] != 0 {
				n++
			}
			if row[2*q-1] != 0 {
				n++
			}
			kmax[q] = max(kmax[q], n)
		}
	}
	best, bq := 2.0, 0
	for q := 1; q < len(kmax); q++ {
		if g := float64(q) - 1.5*float64(kmax[q]); g > best {
			best, bq = g, q
		}
	}
	if bq == 0 {
		return
	}
	p.pre = makePrefix(p.rm, p.d4, m, w, 2*bq, kmax[bq])
}

// makePrefix returns the prefix of the first s columns of m rows of rm,
// stride floats apart, k pairs a row (k ≥ each row's nonzeros there);
// for k = 1 and s ≥ 8, with the float64 mode's dense rows (columns s8 …
// w−1, w the rows' width rounded up to even, at most stride) and mask
// table (prefix).
func makePrefix(rm []float32, stride, m, w, s, k int) prefix {
	var buf, ents []uint32
	var dense []float64
	s8 := s &^ 7
	if k == 1 && s8 >= 8 {
		// Row c of the table: all ones at lane c mod 8 of its eight
		// where c < s8 (the columns from s8 on are in the dense rows).
		buf = make([]uint32, 16*s+2*m)
		for c := range s8 {
			buf[16*c+2*(c%8)], buf[16*c+2*(c%8)+1] = math.MaxUint32, math.MaxUint32
		}
		ents = buf[16*s:]
		wd := w - s8
		dense = make([]float64, m*wd)
		for t := range m {
			for j, v := range rm[t*stride+s8 : t*stride+w] {
				dense[t*wd+j] = float64(v)
			}
		}
	} else {
		ents = make([]uint32, 2*k*m)
	}
	for t := range m {
		e := ents[2*k*t : 2*k*(t+1)]
		for c, v := range rm[t*stride : t*stride+s] {
			if v != 0 {
				e[0], e[1], e = uint32(8*c), math.Float32bits(v), e[2:]
			}
		}
	}
	return prefix{ents: ents, k: k, s: s, dense: dense}
}

// packedSquares is plainSquares with the sparse prefix pre, where it
// has one (k > 0) — in psqgrad's float64 mode where pre has float64
// rows and x is finite in the columns they leave out (x_j·0 = ±0 there),
// which runs about 0.8 of the float32 call's time in node (ijcnn1's
// shard gradient: no float32 widened, one row a step with x's pairs in
// registers; wasm/simd/gen, sqrow.go): the first pre.s columns' terms added from their nonzeros
// alone. A zero feature's term is z·0 = ±0, which leaves a sum that is
// not −0 as it is (a sum of finite or infinite numbers is −0 only when
// both terms are), so skipping it keeps the bits as long as z is finite
// and acc starts with no −0 there (SquaresGrad's starts at +0; else the
// dense call runs). An infinite or NaN residual makes every entry of the
// dense columns infinite or NaN (z·a, z·0 alike), and then the call runs
// again without the prefix from acc as it was: the dense sums' bits
// (TestPackedSquaresPrefix).
func packedSquares(rm []float32, stride, n int, x []float64, signs []int8, d, nv int, pre prefix, acc *[packTile]float64) bool {
	w := (d + 1) &^ 1
	if pre.k == 0 || n == 0 || pre.s < 2 || pre.s >= w || pre.s&1 != 0 || len(pre.ents) < 2*pre.k*n {
		return plainSquares(rm, stride, n, x, signs, d, nv, acc)
	}
	for _, v := range acc[:pre.s] {
		if v == 0 && math.Signbit(v) {
			return plainSquares(rm, stride, n, x, signs, d, nv, acc)
		}
	}
	if nv < 1 || 4*nv > packTile || w > 4*nv || 4*nv > stride || len(x) < 4*nv || len(signs) < n || len(rm) < (n-1)*stride+4*nv {
		panic("learn: packedSquares slices shorter than their rows")
	}
	acc0 := *acc
	var z [squaresBlock]float64
	if s8 := pre.s &^ 7; pre.dense != nil && finite(x[:s8]) {
		// The float64 mode: the prefix's terms start the dot products'
		// lanes, whose other prefix products are x_j·0 = ±0 only where x
		// is finite there.
		wd := w - s8
		if pre.k != 1 || s8 < 8 || len(pre.dense) < n*wd {
			panic("learn: packedSquares' float64 rows shorter than their rows")
		}
		if simdPackedSquares(unsafe.Pointer(&pre.dense[0]), unsafe.Pointer(&x[0]), unsafe.Pointer(&signs[0]),
			unsafe.Pointer(&z[0]), unsafe.Pointer(acc), int32(8*wd), int32(n), int32(wd), int32(len(z)),
			unsafe.Pointer(&pre.ents[0]), int32(-s8), int32(pre.s)) != 1 {
			return false
		}
	} else if simdPackedSquares(unsafe.Pointer(&rm[0]), unsafe.Pointer(&x[0]), unsafe.Pointer(&signs[0]),
		unsafe.Pointer(&z[0]), unsafe.Pointer(acc), int32(4*stride), int32(n), int32(w), int32(len(z)),
		unsafe.Pointer(&pre.ents[0]), int32(pre.k), int32(pre.s)) != 1 {
		return false
	}
	for _, v := range acc[pre.s:w] {
		if math.IsInf(v, 0) || math.IsNaN(v) {
			*acc = acc0
			return plainSquares(rm, stride, n, x, signs, d, nv, acc)
		}
	}
	return true
}
