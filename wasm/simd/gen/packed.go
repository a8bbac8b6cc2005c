package main

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
// each of the tile's w columns (even, at most 32: a multiple of 4 from
// Packed.Axpys, any even width from psqgrad), acc_j += c_k·float64(rm[k][j]),
// rows in order. The columns go in chunks of 16, then one of the
// remaining 2–14 (eight f64x2 sums, then one to seven, held in registers
// through a pass over the rows: ⌈w/16⌉ passes), so every entry still adds
// its rows' terms in row order.
func paxpys() *fn { return paxpysOf("paxpys", false) }

// paxpysd is paxpys over float64 rows (f64: psqgrad's dense columns in
// the float64 mode; no conversions), called by psqgrad alone.
func paxpysd() *fn { return paxpysOf("paxpysd", true) }

// paxpysOf emits paxpys as name, over float64 rows when f64 (a column 8
// bytes, its pairs loaded whole) else float32 rows (promoted).
func paxpysOf(name string, f64rows bool) *fn {
	f := &fn{name: name, params: []byte{i32, i32, i32, i32, i32, i32}, results: []byte{i32}}
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
	for _, width := range []int32{16, 14, 12, 10, 8, 6, 4, 2} {
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
			// p = rm + 4·col (8·col for float64 rows); cp = c.
			f.Get(rm)
			f.Get(col)
			if f64rows {
				f.I32Const(3)
			} else {
				f.I32Const(2)
			}
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
					if f64rows {
						f.V128Load(uint32(16 * i))
					} else {
						f.V128Load64Zero(uint32(8 * i))
						f.F64x2PromoteLow()
					}
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

// The indices of pdots and paxpys in kernels (TestModule checks them):
// psqgrad calls them.
const (
	pdotsIndex   = 1
	paxpysIndex  = 2
	paxpysdIndex = 12
)

// psqgrad is the exported function
//
//	psqgrad(rm, x, signs, z, acc, stride, n, w, zn, sp, k, s i32) i32
//
// learn.packedSquares under js/wasm: the squared loss's gradient sum
// Σ_k (row_kᵀx − signs[k])·row_k over n rows of rm (stride bytes apart,
// w columns each, w even and at most 32, x as wide) added to acc's first
// w entries — Packed.SquaresGrad's two passes, a block of up
// to zn ≥ 1 rows at a time, in one call from Go: the dot products and
// residuals z_t − float64(signs_t) (signs int8) into the scratch z (zn
// float64) — sqPass (sqdots.go) for w ≥ 8, else pdots and a loop over
// the residuals — then paxpys into acc. The same operations in the same
// order as the Go loops between the module's calls, so the same bits;
// what it saves is Go's loop over the residuals and a block's calls
// through JavaScript (the larger part of the wasm time beside the two
// kernels, by node's profile), and sqPass a tenth of the kernels' time.
// With k > 0, the sparse prefix (learn.packedSquares' prefix: the first
// s columns' nonzeros, k pairs (8c, float32 bits) a row at sp, s even,
// 2 ≤ s < w): paxpys runs over columns s … w−1 only, and each row's k
// terms acc_c += z_t·float64(a) are added in row order — by sqPass as
// it makes the residuals when k = 1, else by a loop after paxpys. The
// terms of the prefix's zeros are left out: Go runs that only where it
// gives the same bits (learn.packedSquares). With k < 0, the float64
// mode (psqgradFloat64): rm holds the dense columns as float64.
func psqgrad() *fn {
	f := &fn{name: "psqgrad", params: []byte{i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32}, results: []byte{i32}}
	const rm, x, signs, z, acc, stride, n, w, zn, sp, k, s = 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
	nb, p, e := f.local(i32), f.local(i32), f.local(i32)
	ke, a := f.local(i32), f.local(i32)
	zt := f.local(f64)
	sq := newSqPass(f, rm, x, signs, z, stride, nb, w, sp, k, acc)
	// The float64 mode, k < 0: see psqgradFloat64.
	f.Get(k)
	f.I32Const(0)
	f.I32LtS()
	f.If()
	psqgradFloat64(f, nb)
	f.I32Const(1)
	f.Return()
	f.End()
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
		// z_t = row_tᵀx − float64(signs_t) for t < nb; signs advances
		// past the block.
		f.Get(w)
		f.I32Const(8)
		f.I32GeU()
		f.If()
		sq.block()
		f.Else()
		f.Get(rm)
		f.Get(x)
		f.Get(z)
		f.Get(stride)
		f.Get(nb)
		f.Get(w)
		f.Call(pdotsIndex)
		f.Drop()
		residuals(f, z, nb, signs, p, e, nil)
		f.End()
		// The weighted sums of columns s … w−1 (s = 0 without a prefix).
		f.Get(rm)
		f.Get(s)
		f.I32Const(2)
		f.I32Shl()
		f.I32Add()
		f.Get(z)
		f.Get(acc)
		f.Get(s)
		f.I32Const(3)
		f.I32Shl()
		f.I32Add()
		f.Get(stride)
		f.Get(nb)
		f.Get(w)
		f.Get(s)
		f.I32Sub()
		f.Call(paxpysIndex)
		f.Drop()
		// Those of the first s columns from the prefix: for each row t
		// and its k pairs (8c, a) at sp, acc_c += z_t·float64(a), rows in
		// order; sp advances past the block. sqPass adds them itself
		// when k = 1.
		// k > 1 || k = 1 && w < 8, as k > 1 − (w < 8).
		f.Get(k)
		f.I32Const(1)
		f.Get(w)
		f.I32Const(8)
		f.I32LtU()
		f.I32Sub()
		f.I32GtU()
		f.If()
		{
			f.Span(p, e, z, nb, 3)
			f.LoopUntil(func() { f.Get(p); f.Get(e); f.I32GeU() })
			{
				f.Get(p)
				f.F64Load(0)
				f.Set(zt)
				f.Get(sp)
				f.Get(k)
				f.I32Const(3)
				f.I32Shl()
				f.I32Add()
				f.Set(ke)
				f.LoopUntil(func() { f.Get(sp); f.Get(ke); f.I32GeU() })
				{
					f.Get(acc)
					f.Get(sp)
					f.I32Load(0)
					f.I32Add()
					f.Tee(a)
					f.Get(a)
					f.F64Load(0)
					f.Get(zt)
					f.Get(sp)
					f.F32Load(4)
					f.F64PromoteF32()
					f.F64Mul()
					f.F64Add()
					f.F64Store(0)
					f.Inc(sp, 8)
				}
				f.EndLoop()
				f.Inc(p, 8)
			}
			f.EndLoop()
		}
		f.End()
		// rm += nb·stride; n −= nb.
		f.Get(rm)
		f.Get(nb)
		f.Get(stride)
		f.I32Mul()
		f.I32Add()
		f.Set(rm)
		f.Get(n)
		f.Get(nb)
		f.I32Sub()
		f.Set(n)
	}
	f.EndLoop()
	f.I32Const(1)
	return f
}

// residuals subtracts float64(the int8 at s), s advancing a byte a row,
// from each of the nb float64 at z (p and e: i32 locals it uses), as the
// Go loops between a block's dot products and its weighted sum do; with
// fin (two f64 locals: a sum and a residual), it also adds each residual
// r's r − r to fin[0] (+0, or NaN once one is infinite or NaN).
func residuals(f *fn, z, nb, s, p, e uint32, fin *[2]uint32) {
	f.Span(p, e, z, nb, 3)
	f.LoopUntil(func() { f.Get(p); f.Get(e); f.I32GeU() })
	{
		f.Get(p)
		f.Get(p)
		f.F64Load(0)
		f.Get(s)
		f.I32Load8S(0)
		f.F64ConvertI32S()
		f.F64Sub()
		if fin == nil {
			f.F64Store(0)
		} else {
			f.Tee(fin[1])
			f.F64Store(0)
			f.Get(fin[0])
			f.Get(fin[1])
			f.Get(fin[1])
			f.F64Sub()
			f.F64Add()
			f.Set(fin[0])
		}
		f.Inc(p, 8)
		f.Inc(s, 1)
	}
	f.EndLoop()
}

// psqgradFloat64 emits psqgrad's float64 mode, k = −s8 < 0: the sparse
// prefix of one pair a row (k = 1: the first s columns' nonzeros, at
// most one a row) and the rows' columns s8 … w−1 (s8 = s rounded down to
// a multiple of 8, at least 8) as float64 at rm, stride bytes apart, w
// here their count (even, at most 24: np = w/2 lane pairs) — so neither
// pass converts a float32. The prefix's pairs follow its mask table at
// sp − 64s (rowPass). A block's dot products, residuals and the prefix's
// weighted terms by rowPass, specialised for each np, then paxpysd's
// weighted sums of columns s … (the dense rows from s − s8). The Go
// loops' bits where Go runs it (learn.packedSquares: x finite in the
// columns below s8, acc not −0 in the first s).
func psqgradFloat64(f *fn, nb uint32) {
	const rm, x, signs, z, acc, stride, n, w, zn, sp, k, s = 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11
	xd, mt := f.local(i32), f.local(i32)
	rp := newRowPass(f, rm, xd, x, mt, signs, z, acc, stride, sp, nb)
	// s8 = −k (into k); xd = x + 8·s8; mt = sp − 64s.
	f.I32Const(0)
	f.Get(k)
	f.I32Sub()
	f.Set(k)
	f.Get(x)
	f.Get(k)
	f.I32Const(3)
	f.I32Shl()
	f.I32Add()
	f.Set(xd)
	f.Get(sp)
	f.Get(s)
	f.I32Const(6)
	f.I32Shl()
	f.I32Sub()
	f.Set(mt)
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
		// The pass specialised for np = w/2 lane pairs.
		for np := 1; np <= 12; np++ {
			f.Get(w)
			f.I32Const(int32(2 * np))
			f.I32Eq()
			f.If()
			rp.block(np)
			f.End()
		}
		// The weighted sums of columns s … : the dense rows from column
		// s − s8, acc from s, w − (s − s8) columns.
		f.Get(rm)
		f.Get(s)
		f.Get(k)
		f.I32Sub()
		f.I32Const(3)
		f.I32Shl()
		f.I32Add()
		f.Get(z)
		f.Get(acc)
		f.Get(s)
		f.I32Const(3)
		f.I32Shl()
		f.I32Add()
		f.Get(stride)
		f.Get(nb)
		f.Get(w)
		f.Get(s)
		f.Get(k)
		f.I32Sub()
		f.I32Sub()
		f.Call(paxpysdIndex)
		f.Drop()
		// rm += nb·stride; n −= nb.
		f.Get(rm)
		f.Get(nb)
		f.Get(stride)
		f.I32Mul()
		f.I32Add()
		f.Set(rm)
		f.Get(n)
		f.Get(nb)
		f.I32Sub()
		f.Set(n)
	}
	f.EndLoop()
}
