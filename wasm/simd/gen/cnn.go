package main

// The CNN's matrix products (core/nn: kern_simd.go). pnn is
// gemmStrided's micro-kernel: each output adds its k products in
// increasing order of the shared index from C's value (gemm.go's rule),
// four outputs of a row of C in each f32x4 lane group, so the bits are
// those of the scalar loop and kernWasm. pnt is gemmNT, the dot products
// (lanes.go):
// C (m×n) += A (m×k)·B (n×k)ᵀ in float32, every output in core/num's
// lane order — term p in lane p mod 8 from +0, each product rounded to
// float32 before its sum (no fused multiply-add), the lanes combined by
// ((l0+l4)+(l2+l6)) + ((l1+l5)+(l3+l7)), then added to C's value. An
// output's eight lanes are two f32x4 locals (lanes 0–3 and 4–7), so
// adding them gives (l0+l4, l1+l5, l2+l6, l3+l7), as AVX2's fold of a
// YMM register's halves does (kernnt_amd64.s), and the bits are those of
// gemmNTGo and the assembly kernels (TestGemmBits under the dpsimsimd
// tag).

// f32x4 and f32 instructions of the CNN's kernel (opcodes of the core
// spec and the fixed-width SIMD proposal).
func (f *fn) F32Load(off uint32)      { f.op(0x2a); f.memarg(2, off) }
func (f *fn) F32Store(off uint32)     { f.op(0x38); f.memarg(2, off) }
func (f *fn) F32Add()                 { f.op(0x92) }
func (f *fn) F32Mul()                 { f.op(0x94) }
func (f *fn) I32LeU()                 { f.op(0x4d) }
func (f *fn) F32x4ExtractLane(l byte) { f.simd(0x1f); f.op(l) }
func (f *fn) F32x4ReplaceLane(l byte) { f.simd(0x20); f.op(l) }
func (f *fn) F32x4Add()               { f.simd(0xe4) }
func (f *fn) F32x4Mul()               { f.simd(0xe6) }

// V128Load32Splat loads one f32 into all four lanes.
func (f *fn) V128Load32Splat(off uint32) { f.simd(0x09); f.memarg(2, off) }

// pnn is the exported function
//
//	pnn(a, sai, sap, b, ldb, c, ldc, m, n, k i32) i32
//
// nn.gemmStrided's micro-kernel for m, k ≥ 1 and n a positive multiple
// of 4: C (m×n, ldc bytes a row) += A·B, A's (i, p) entry at a + i·sai
// + p·sap, B's (p, j) at b + p·ldb + 4j (strides in bytes). Tiles of 4
// rows × 8 columns (eight f32x4 sums: four A values splatted, two B
// vectors loaded per p), then 4 × 4 for n mod 8, and the last m mod 4
// rows one at a time; every sum runs over the whole of k, adding
// (A·B rounded) to the running value, p in increasing order. It
// returns 1; JavaScript's fallback returns 0 and Go does the work.
func pnn() *fn {
	f := &fn{name: "pnn", params: []byte{i32, i32, i32, i32, i32, i32, i32, i32, i32, i32}, results: []byte{i32}}
	const a, sai, sap, b, ldb, c, ldc, m, n, k = 0, 1, 2, 3, 4, 5, 6, 7, 8, 9
	L := func() uint32 { return f.local(i32) }
	i, col, bp, p, nb := L(), L(), L(), L(), L()
	var ap [4]uint32
	for r := range ap {
		ap[r] = L()
	}
	V := func() uint32 { return f.local(v128) }
	av := V()
	var bv [2]uint32
	for h := range bv {
		bv[h] = V()
	}
	var acc [4][2]uint32
	for r := range acc {
		for h := range acc[r] {
			acc[r][h] = V()
		}
	}
	// cAddr pushes C's address of row r of the tile at column byte col.
	cAddr := func(r int) {
		f.Addr(c, col)
		if r > 0 {
			f.Get(ldc)
			f.I32Const(int32(r))
			f.I32Mul()
			f.I32Add()
		}
	}
	// tile does rows × 4·vecs outputs at column byte col of the rows
	// from a and c.
	tile := func(rows, vecs int) {
		for r := range rows {
			for h := range vecs {
				cAddr(r)
				f.V128Load(uint32(16 * h))
				f.Set(acc[r][h])
			}
			f.Get(a)
			if r > 0 {
				f.Get(sai)
				f.I32Const(int32(r))
				f.I32Mul()
				f.I32Add()
			}
			f.Set(ap[r])
		}
		f.Addr(b, col)
		f.Set(bp)
		f.I32Const(0)
		f.Set(p)
		f.LoopUntil(func() { f.Get(p); f.Get(k); f.I32GeU() })
		{
			for h := range vecs {
				f.Get(bp)
				f.V128Load(uint32(16 * h))
				f.Set(bv[h])
			}
			for r := range rows {
				f.Get(ap[r])
				f.V128Load32Splat(0)
				f.Set(av)
				for h := range vecs {
					f.Get(acc[r][h])
					f.Get(av)
					f.Get(bv[h])
					f.F32x4Mul()
					f.F32x4Add()
					f.Set(acc[r][h])
				}
				f.Get(ap[r])
				f.Get(sap)
				f.I32Add()
				f.Set(ap[r])
			}
			f.Get(bp)
			f.Get(ldb)
			f.I32Add()
			f.Set(bp)
			f.Inc(p, 1)
		}
		f.EndLoop()
		for r := range rows {
			for h := range vecs {
				cAddr(r)
				f.Get(acc[r][h])
				f.V128Store(uint32(16 * h))
			}
		}
		f.Inc(col, int32(16*vecs))
	}

	// nb = 4n: a row of C's bytes.
	f.Get(n)
	f.I32Const(2)
	f.I32Shl()
	f.Set(nb)
	for _, rows := range []int{4, 1} {
		f.LoopUntil(func() { f.Get(i); f.I32Const(int32(rows)); f.I32Add(); f.Get(m); f.I32GtU() })
		{
			f.I32Const(0)
			f.Set(col)
			f.LoopUntil(func() { f.Get(col); f.I32Const(32); f.I32Add(); f.Get(nb); f.I32GtU() })
			tile(rows, 2)
			f.EndLoop()
			f.LoopUntil(func() { f.Get(col); f.I32Const(16); f.I32Add(); f.Get(nb); f.I32GtU() })
			tile(rows, 1)
			f.EndLoop()
			for _, step := range []struct{ base, stride uint32 }{{a, sai}, {c, ldc}} {
				f.Get(step.base)
				f.Get(step.stride)
				f.I32Const(int32(rows))
				f.I32Mul()
				f.I32Add()
				f.Set(step.base)
			}
			f.Inc(i, int32(rows))
		}
		f.EndLoop()
	}
	f.I32Const(1)
	return f
}

// pnt is the exported function
//
//	pnt(a, b, c, m, n, k i32) i32
//
// nn.gemmNT for m, n, k ≥ 1: for each row of A, tiles of four rows of B
// (eight f32x4 sums, A's eight values loaded once for the four), then
// one row at a time for the last n mod 4; eight terms a pass, the last
// k mod 8 one lane at a time (extract, add, replace: the scalar f32
// operations of the lane). It returns 1, "done"; JavaScript's fallback
// trampoline returns 0 and Go does the work.
func pnt() *fn {
	f := &fn{name: "pnt", params: []byte{i32, i32, i32, i32, i32, i32}, results: []byte{i32}}
	const a, b, c, m, n, k = 0, 1, 2, 3, 4, 5
	L := func() uint32 { return f.local(i32) }
	i, brow, cp, j, ap, pe, rem, kb, k8b := L(), L(), L(), L(), L(), L(), L(), L(), L()
	var bp [4]uint32
	for o := range bp {
		bp[o] = L()
	}
	V := func() uint32 { return f.local(v128) }
	alo, ahi, t := V(), V(), V()
	var acc [8]uint32
	for q := range acc {
		acc[q] = V()
	}

	// rem = k mod 8; kb = 4k (a row's bytes); k8b = kb − 4·rem.
	f.Get(k)
	f.I32Const(7)
	f.I32And()
	f.Set(rem)
	f.Get(k)
	f.I32Const(2)
	f.I32Shl()
	f.Tee(kb)
	f.Get(rem)
	f.I32Const(2)
	f.I32Shl()
	f.I32Sub()
	f.Set(k8b)
	f.Get(c)
	f.Set(cp)

	// tile does w outputs (w rows of B from brow) of row a, then moves
	// brow and cp past them.
	tile := func(w int) {
		for q := range 2 * w {
			f.V128Const(0, 0)
			f.Set(acc[q])
		}
		f.Get(a)
		f.Set(ap)
		for o := range w {
			f.Get(brow)
			if o > 0 {
				f.Get(kb)
				f.I32Const(int32(o))
				f.I32Mul()
				f.I32Add()
			}
			f.Set(bp[o])
		}
		f.Addr(a, k8b)
		f.Set(pe)
		f.LoopUntil(func() { f.Get(ap); f.Get(pe); f.I32GeU() })
		{
			f.Get(ap)
			f.V128Load(0)
			f.Set(alo)
			f.Get(ap)
			f.V128Load(16)
			f.Set(ahi)
			for o := range w {
				for h, av := range []uint32{alo, ahi} {
					f.Get(acc[2*o+h])
					f.Get(av)
					f.Get(bp[o])
					f.V128Load(uint32(16 * h))
					f.F32x4Mul()
					f.F32x4Add()
					f.Set(acc[2*o+h])
				}
				f.Inc(bp[o], 32)
			}
			f.Inc(ap, 32)
		}
		f.EndLoop()
		// The tail: term q (q < rem) to lane q.
		f.Block()
		for q := range 7 {
			f.Get(rem)
			f.I32Const(int32(q))
			f.I32LeU()
			f.BrIf(0)
			for o := range w {
				l := acc[2*o+q/4]
				f.Get(l)
				f.Get(l)
				f.F32x4ExtractLane(byte(q % 4))
				f.Get(ap)
				f.F32Load(uint32(4 * q))
				f.Get(bp[o])
				f.F32Load(uint32(4 * q))
				f.F32Mul()
				f.F32Add()
				f.F32x4ReplaceLane(byte(q % 4))
				f.Set(l)
			}
		}
		f.End()
		// C's entry + the tree: lo + hi = (l0+l4, l1+l5, l2+l6, l3+l7), its
		// high pair onto its low, then lane 0 + lane 1.
		for o := range w {
			f.Get(cp)
			f.Get(cp)
			f.F32Load(uint32(4 * o))
			f.Get(acc[2*o])
			f.Get(acc[2*o+1])
			f.F32x4Add()
			f.Tee(t)
			f.Get(t)
			f.Get(t)
			f.Shuffle64(1, 1)
			f.F32x4Add()
			f.Tee(t)
			f.F32x4ExtractLane(0)
			f.Get(t)
			f.F32x4ExtractLane(1)
			f.F32Add()
			f.F32Add()
			f.F32Store(uint32(4 * o))
		}
		f.Inc(cp, int32(4*w))
		f.Get(brow)
		f.Get(kb)
		f.I32Const(int32(w))
		f.I32Mul()
		f.I32Add()
		f.Set(brow)
	}

	f.LoopUntil(func() { f.Get(i); f.Get(m); f.I32GeU() })
	{
		f.Get(b)
		f.Set(brow)
		f.I32Const(0)
		f.Set(j)
		f.LoopUntil(func() { f.Get(j); f.I32Const(4); f.I32Add(); f.Get(n); f.I32GtU() })
		{
			tile(4)
			f.Inc(j, 4)
		}
		f.EndLoop()
		f.LoopUntil(func() { f.Get(j); f.Get(n); f.I32GeU() })
		{
			tile(1)
			f.Inc(j, 1)
		}
		f.EndLoop()
		f.Get(a)
		f.Get(kb)
		f.I32Add()
		f.Set(a)
		f.Inc(i, 1)
	}
	f.EndLoop()
	f.I32Const(1)
	return f
}
