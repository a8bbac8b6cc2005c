package main

// The packed dense float32 kernels of core/problems/internal/learn
// (packed.go, packed_simd.go): the full-pass dots and axpys over a
// shard's rows copied feature-major in groups of 32 rows and row-major
// padded to four columns. Each f64x2 lane does packedDotsGo's or
// packedAxpysGo's operations in their order: a float32 promoted to
// float64 (exact), one product rounded, then one sum rounded (no fused
// multiply-add), so the bits are those of the Go loops and of the AVX2
// kernels (TestPacked, run under js/wasm with the dpsimsimd tag). Both
// return 1, "done"; JavaScript's fallback trampoline returns 0 and Go
// does the work.

// packGroup is learn's packGroup: the rows of one feature-major group.
const packGroup = 32

// pdots is the exported function
//
//	pdots(tr, x, out, groups, d i32) i32
//
// learn.packedDots: for each of groups groups of 32 rows (tr: group g,
// feature j, lane l at float32 (g·d + j)·32 + l), out[g·32 + l] = Σ_j
// float64(tr[…])·x_j, left to right from +0. A group is done in two
// halves of 16 lanes, eight f64x2 sums each (register-resident on x64's
// sixteen vector registers with x_j and a temporary), one pass over x per
// half. groups = 0 touches no memory: a probe of whether the module is
// linked.
func pdots() *fn {
	f := &fn{name: "pdots", params: []byte{i32, i32, i32, i32, i32}, results: []byte{i32}}
	const tr, x, out, groups, d = 0, 1, 2, 3, 4
	L := func() uint32 { return f.local(i32) }
	g, h, p, xp, xe, gb, ob := L(), L(), L(), L(), L(), L(), L()
	xj := f.local(v128)
	var acc [8]uint32
	for i := range acc {
		acc[i] = f.local(v128)
	}

	// xe = x + 8d; gb = tr (the group's start); ob = out.
	f.Get(x)
	f.Get(d)
	f.I32Const(3)
	f.I32Shl()
	f.I32Add()
	f.Set(xe)
	f.Get(tr)
	f.Set(gb)
	f.Get(out)
	f.Set(ob)
	f.LoopUntil(func() { f.Get(g); f.Get(groups); f.I32GeU() })
	{
		f.I32Const(0)
		f.Set(h)
		f.LoopUntil(func() { f.Get(h); f.I32Const(2); f.I32GeU() })
		{
			for _, a := range acc {
				f.V128Const(0, 0)
				f.Set(a)
			}
			// p = gb + 64h: the half's first lane of feature 0.
			f.Get(gb)
			f.Get(h)
			f.I32Const(6)
			f.I32Shl()
			f.I32Add()
			f.Set(p)
			f.Get(x)
			f.Set(xp)
			f.LoopUntil(func() { f.Get(xp); f.Get(xe); f.I32GeU() })
			{
				f.Get(xp)
				f.V128Load64Splat(0)
				f.Set(xj)
				for i, a := range acc {
					f.Get(a)
					f.Get(p)
					f.V128Load64Zero(uint32(8 * i))
					f.F64x2PromoteLow()
					f.Get(xj)
					f.F64x2Mul()
					f.F64x2Add()
					f.Set(a)
				}
				f.Get(p)
				f.I32Const(4 * packGroup)
				f.I32Add()
				f.Set(p)
				f.Get(xp)
				f.I32Const(8)
				f.I32Add()
				f.Set(xp)
			}
			f.EndLoop()
			for i, a := range acc {
				f.Get(ob)
				f.Get(a)
				f.V128Store(uint32(16 * i))
			}
			f.Get(ob)
			f.I32Const(8 * 16)
			f.I32Add()
			f.Set(ob)
			f.Get(h)
			f.I32Const(1)
			f.I32Add()
			f.Set(h)
		}
		f.EndLoop()
		// gb += 4·32·d: the next group.
		f.Get(gb)
		f.Get(d)
		f.I32Const(7)
		f.I32Shl()
		f.I32Add()
		f.Set(gb)
		f.Get(g)
		f.I32Const(1)
		f.I32Add()
		f.Set(g)
	}
	f.EndLoop()
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
