package main

import "fmt"

// The packed dense float32 kernels of core/problems/internal/learn
// (packed.go, packed_simd.go): the full-pass dots and axpys over a
// shard's rows copied row-major, padded to four columns. Each f64x2 lane
// does packedDotsGo's or packedAxpysGo's operations in their order (the
// dots in num.Dots' lanes): a float32 promoted to float64 (exact), one
// product rounded, then one sum rounded (no fused multiply-add), so the
// bits are those of the Go loops and of the AVX2 kernels (TestPacked and
// TestPackedSIMD, run under js/wasm with the dpsimsimd tag). Both
// return 1, "done"; JavaScript's fallback trampoline returns 0 and Go
// does the work.

// pdots is the exported function
//
//	pdots(rm, x, out, stride, n, d i32) i32
//
// learn.packedDots: out[k] = num.DotOf(row k's d float32, x) for n rows
// of rm, stride bytes apart, in num.Dots' lane order (laneDots), two
// rows per pass while two remain, then the last one. n = 0 touches no
// memory: a probe of whether the module is linked.
func pdots() *fn {
	f := &fn{name: "pdots", params: []byte{i32, i32, i32, i32, i32, i32}, results: []byte{i32}}
	const rm, x, out, stride, n, d = 0, 1, 2, 3, 4, 5
	L := func() uint32 { return f.local(i32) }
	k, ra, rb, jb, d8 := L(), L(), L(), L(), L()
	ld := newLaneDots(f, x, d8, jb, true)
	// at pushes out's address of row k.
	at := func() { f.Get(out); f.Get(k); f.I32Const(3); f.I32Shl(); f.I32Add() }

	f.Get(d)
	f.I32Const(3)
	f.I32Shl()
	f.Set(d8)
	f.Get(rm)
	f.Set(ra)
	f.LoopUntil(func() { f.Get(k); f.I32Const(2); f.I32Add(); f.Get(n); f.I32GtU() })
	{
		f.Get(ra)
		f.Get(stride)
		f.I32Add()
		f.Set(rb)
		ld.rows(ra, rb)
		ld.store2(at)
		f.Get(rb)
		f.Get(stride)
		f.I32Add()
		f.Set(ra)
		f.Inc(k, 2)
	}
	f.EndLoop()
	f.Block()
	f.Get(k)
	f.Get(n)
	f.I32GeU()
	f.BrIf(0)
	ld.rows(ra)
	ld.store1(at)
	f.End()
	f.I32Const(1)
	return f
}

// paxpys is the exported function
//
//	paxpys(rm, c, acc, stride, n, w i32) i32
//
// learn.packedAxpys: for each of n rows k of rm (stride bytes apart) and
// each of the tile's w columns (a multiple of 4, at most 32), acc_j +=
// c_k·float64(rm[k][j]), rows in order. The columns go in chunks of 16,
// then 8, then 4 (eight, four, two f64x2 sums held in registers through
// a pass over the rows), so every entry still adds its rows' terms in
// row order.
func paxpys() *fn {
	f := &fn{name: "paxpys", params: []byte{i32, i32, i32, i32, i32, i32}, results: []byte{i32}}
	const rm, c, acc, stride, n, w = 0, 1, 2, 3, 4, 5
	L := func() uint32 { return f.local(i32) }
	col, p, cp, ce := L(), L(), L(), L()
	ck := f.local(v128)
	var a [8]uint32
	for i := range a {
		a[i] = f.local(v128)
	}

	// ce = c + 8n.
	f.Get(c)
	f.Get(n)
	f.I32Const(3)
	f.I32Shl()
	f.I32Add()
	f.Set(ce)
	for _, width := range []int32{16, 8, 4} {
		nacc := int(width / 2)
		f.LoopUntil(func() { f.Get(col); f.I32Const(width); f.I32Add(); f.Get(w); f.I32GtU() })
		{
			// The chunk's sums from acc + 8·col.
			for i := range nacc {
				f.Get(acc)
				f.Get(col)
				f.I32Const(3)
				f.I32Shl()
				f.I32Add()
				f.V128Load(uint32(16 * i))
				f.Set(a[i])
			}
			// p = rm + 4·col; cp = c.
			f.Get(rm)
			f.Get(col)
			f.I32Const(2)
			f.I32Shl()
			f.I32Add()
			f.Set(p)
			f.Get(c)
			f.Set(cp)
			f.LoopUntil(func() { f.Get(cp); f.Get(ce); f.I32GeU() })
			{
				f.Get(cp)
				f.V128Load64Splat(0)
				f.Set(ck)
				for i := range nacc {
					f.Get(a[i])
					f.Get(ck)
					f.Get(p)
					f.V128Load64Zero(uint32(8 * i))
					f.F64x2PromoteLow()
					f.F64x2Mul()
					f.F64x2Add()
					f.Set(a[i])
				}
				f.Get(p)
				f.Get(stride)
				f.I32Add()
				f.Set(p)
				f.Get(cp)
				f.I32Const(8)
				f.I32Add()
				f.Set(cp)
			}
			f.EndLoop()
			for i := range nacc {
				f.Get(acc)
				f.Get(col)
				f.I32Const(3)
				f.I32Shl()
				f.I32Add()
				f.Get(a[i])
				f.V128Store(uint32(16 * i))
			}
			f.Get(col)
			f.I32Const(width)
			f.I32Add()
			f.Set(col)
		}
		f.EndLoop()
	}
	f.I32Const(1)
	return f
}

// The index of paxpys in kernels, and of pres(4), then pres(8), …,
// pres(packTile) (TestModule checks them): psqgrad calls them.
const (
	paxpysIndex = 2
	presBase    = 9
)

// packTile is the widest tile of psqgrad (learn.packTile).
const packTile = 32

// psqgrad is the exported function
//
//	psqgrad(rm, x, signs, z, acc, stride, n, w, zn i32) i32
//
// learn.packedSquares under js/wasm: the squared loss's gradient sum
// Σ_k (row_kᵀx − signs[k])·row_k over n rows of rm (stride bytes apart,
// w columns each, w a multiple of 4 and at most packTile, x as wide,
// the columns past the features zeros in both) added to acc's first w
// entries — Packed.SquaresGrad's two passes, a block of up to zn ≥ 1 rows
// at a time, in one call from Go: the residuals into the scratch z (zn
// float64) by pres(w), then paxpys into acc. What it saves against Go's
// own blocks is Go's loop over the residuals and two calls through
// JavaScript a block (a quarter of the wasm time, by node's profile).
func psqgrad() *fn {
	f := &fn{name: "psqgrad", params: []byte{i32, i32, i32, i32, i32, i32, i32, i32, i32}, results: []byte{i32}}
	const rm, x, signs, z, acc, stride, n, w, zn = 0, 1, 2, 3, 4, 5, 6, 7, 8
	nb := f.local(i32)
	f.LoopUntil(func() { f.Get(n); f.I32Eqz() })
	{
		// nb = min(n, zn).
		f.Get(zn)
		f.Get(n)
		f.Get(n)
		f.Get(zn)
		f.I32GtU()
		f.Select()
		f.Set(nb)
		f.Block()
		for i, width := 0, int32(4); width <= packTile; i, width = i+1, width+4 {
			f.Get(w)
			f.I32Const(width)
			f.I32Eq()
			f.If()
			f.Get(rm)
			f.Get(x)
			f.Get(signs)
			f.Get(z)
			f.Get(stride)
			f.Get(nb)
			f.Call(uint32(presBase + i))
			f.Br(1)
			f.End()
		}
		f.Unreachable() // w is a multiple of 4 up to packTile (packedSquares' check)
		f.End()
		f.Get(rm)
		f.Get(z)
		f.Get(acc)
		f.Get(stride)
		f.Get(nb)
		f.Get(w)
		f.Call(paxpysIndex)
		f.Drop()
		// rm += nb·stride; signs += nb; n −= nb.
		f.Get(rm)
		f.Get(nb)
		f.Get(stride)
		f.I32Mul()
		f.I32Add()
		f.Set(rm)
		f.Get(signs)
		f.Get(nb)
		f.I32Add()
		f.Set(signs)
		f.Get(n)
		f.Get(nb)
		f.I32Sub()
		f.Set(n)
	}
	f.EndLoop()
	f.I32Const(1)
	return f
}

// pres is psqgrad's internal function
//
//	presW(rm, x, signs, z, stride, n i32)
//
// for the width w: z_k = row_kᵀx − float64(signs_k) for n rows of rm
// (stride bytes apart, w float32 each, the padding zeros) — pdots' sums
// in num.Dots' lanes, unrolled for the width: column pairs at constant
// offsets, two rows a step sharing x's loads, then the last one. Each
// lane starts at its first product rather than at +0 plus it, and a lane
// pair no column reaches (w = 4) is left out of the tree rather than
// added as +0: the two differ only where a lane is −0, and then only in
// the sign of a zero lane, so of a zero dot product, which the
// subtraction of the nonzero label erases (±0 − s = −s), as amd64's fused
// kernel argues; so the residuals keep pdots' bits (TestPackedSquaresSIMD).
func pres(w int) *fn {
	f := &fn{name: fmt.Sprintf("pres%d", w), internal: true, params: []byte{i32, i32, i32, i32, i32, i32}}
	const rm, x, signs, z, stride, n = 0, 1, 2, 3, 4, 5
	rb, ze := f.local(i32), f.local(i32)
	var lanes [2][4]uint32
	for r := range lanes {
		for q := range lanes[r] {
			lanes[r][q] = f.local(v128)
		}
	}
	xv, t0, t1 := f.local(v128), f.local(v128), f.local(v128)
	pairs := w / 2
	// dots sets the trees of the rows at the addresses in rows into t0
	// (and t1).
	dots := func(rows ...uint32) {
		for p := range pairs {
			f.Get(x)
			f.V128Load(uint32(16 * p))
			f.Set(xv)
			for r, row := range rows {
				ln := lanes[r][p%4]
				if p >= 4 {
					f.Get(ln)
				}
				f.Get(row)
				f.V128Load64Zero(uint32(8 * p))
				f.F64x2PromoteLow()
				f.Get(xv)
				f.F64x2Mul()
				if p >= 4 {
					f.F64x2Add()
				}
				f.Set(ln)
			}
		}
		for r := range rows {
			ls := lanes[r]
			// (Q0 + Q2) + (Q1 + Q3), the pairs no column reached left out.
			f.Get(ls[0])
			if pairs > 2 {
				f.Get(ls[2])
				f.F64x2Add()
			}
			f.Get(ls[1])
			if pairs > 3 {
				f.Get(ls[3])
				f.F64x2Add()
			}
			f.F64x2Add()
			f.Set([]uint32{t0, t1}[r])
		}
	}
	// ze = z + 8·(n rounded down to even).
	f.Get(z)
	f.Get(n)
	f.I32Const(-2)
	f.I32And()
	f.I32Const(3)
	f.I32Shl()
	f.I32Add()
	f.Set(ze)
	f.LoopUntil(func() { f.Get(z); f.Get(ze); f.I32GeU() })
	{
		f.Get(rm)
		f.Get(stride)
		f.I32Add()
		f.Set(rb)
		dots(rm, rb)
		f.Get(z)
		f.Get(t0)
		f.Get(t1)
		f.Shuffle64(0, 2)
		f.Get(t0)
		f.Get(t1)
		f.Shuffle64(1, 3)
		f.F64x2Add()
		// The two labels as f64x2.
		f.Get(signs)
		f.V128Load16Splat(0)
		f.I16x8ExtendLowI8x16S()
		f.I32x4ExtendLowI16x8S()
		f.F64x2ConvertLowI32x4S()
		f.F64x2Sub()
		f.V128Store(0)
		f.Get(rb)
		f.Get(stride)
		f.I32Add()
		f.Set(rm)
		f.Inc(z, 16)
		f.Inc(signs, 2)
	}
	f.EndLoop()
	f.Get(n)
	f.I32Const(1)
	f.I32And()
	f.If()
	{
		dots(rm)
		f.Get(z)
		f.Get(t0)
		f.F64x2ExtractLane(0)
		f.Get(t0)
		f.F64x2ExtractLane(1)
		f.F64Add()
		f.Get(signs)
		f.I32Load8S(0)
		f.F64ConvertI32S()
		f.F64Sub()
		f.F64Store(0)
	}
	f.End()
	return f
}
