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
// nn.gemmNT for m, n, k ≥ 1: tiles of two rows of A × two rows of B
// (four outputs, eight f32x4 sums; per eight terms four vectors of A and
// four of B, one half of each row at a time), then one row or column
// for odd m or n; eight terms a pass, the last k mod 8 one lane at a
// time (extract, add, replace: the scalar f32 operations of the lane).
// It returns 1, "done"; JavaScript's fallback trampoline returns 0 and
// Go does the work.
func pnt() *fn {
	f := &fn{name: "pnt", params: []byte{i32, i32, i32, i32, i32, i32}, results: []byte{i32}}
	const a, b, c, m, n, k = 0, 1, 2, 3, 4, 5
	L := func() uint32 { return f.local(i32) }
	i, j, q, rem, kb, k8b, crow := L(), L(), L(), L(), L(), L(), L()
	var ap, bp [2]uint32
	for r := range 2 {
		ap[r], bp[r] = L(), L()
	}
	V := func() uint32 { return f.local(v128) }
	t := V()
	var av, bv [2]uint32
	for r := range 2 {
		av[r], bv[r] = V(), V()
	}
	var acc [2][2][2]uint32 // row, column, half
	for r := range 2 {
		for col := range 2 {
			for h := range 2 {
				acc[r][col][h] = V()
			}
		}
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

	// addr pushes base + idx·stride.
	addr := func(base, idx, stride uint32) { f.Get(base); f.Get(idx); f.Get(stride); f.I32Mul(); f.I32Add() }
	// tile does rows × cols outputs: rows i, i+1 of A and j, j+1 of B
	// (ap, bp: their rows at the pass's start, q the pass's byte).
	tile := func(rows, cols int) {
		for r := range rows {
			for col := range cols {
				for h := range 2 {
					f.V128Const(0, 0)
					f.Set(acc[r][col][h])
				}
			}
			addr(a, i, kb)
			if r > 0 {
				f.Get(kb)
				f.I32Add()
			}
			f.Set(ap[r])
		}
		for col := range cols {
			addr(b, j, kb)
			if col > 0 {
				f.Get(kb)
				f.I32Add()
			}
			f.Set(bp[col])
		}
		f.I32Const(0)
		f.Set(q)
		f.LoopUntil(func() { f.Get(q); f.Get(k8b); f.I32GeU() })
		{
			for h := range 2 {
				for r := range rows {
					f.Addr(ap[r], q)
					f.V128Load(uint32(16 * h))
					f.Set(av[r])
				}
				for col := range cols {
					f.Addr(bp[col], q)
					f.V128Load(uint32(16 * h))
					f.Set(bv[col])
				}
				for r := range rows {
					for col := range cols {
						l := acc[r][col][h]
						f.Get(l)
						f.Get(av[r])
						f.Get(bv[col])
						f.F32x4Mul()
						f.F32x4Add()
						f.Set(l)
					}
				}
			}
			f.Inc(q, 32)
		}
		f.EndLoop()
		// The tail: term u (u < rem) to lane u.
		f.Block()
		for u := range 7 {
			f.Get(rem)
			f.I32Const(int32(u))
			f.I32LeU()
			f.BrIf(0)
			for r := range rows {
				for col := range cols {
					l := acc[r][col][u/4]
					f.Get(l)
					f.Get(l)
					f.F32x4ExtractLane(byte(u % 4))
					f.Addr(ap[r], q)
					f.F32Load(uint32(4 * u))
					f.Addr(bp[col], q)
					f.F32Load(uint32(4 * u))
					f.F32Mul()
					f.F32Add()
					f.F32x4ReplaceLane(byte(u % 4))
					f.Set(l)
				}
			}
		}
		f.End()
		// C's entry + the tree: lo + hi = (l0+l4, l1+l5, l2+l6, l3+l7), its
		// high pair onto its low, then lane 0 + lane 1.
		for r := range rows {
			// crow = c + 4((i+r)·n + j).
			f.Get(i)
			if r > 0 {
				f.I32Const(int32(r))
				f.I32Add()
			}
			f.Get(n)
			f.I32Mul()
			f.Get(j)
			f.I32Add()
			f.I32Const(2)
			f.I32Shl()
			f.Get(c)
			f.I32Add()
			f.Set(crow)
			for col := range cols {
				f.Get(crow)
				f.Get(crow)
				f.F32Load(uint32(4 * col))
				f.Get(acc[r][col][0])
				f.Get(acc[r][col][1])
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
				f.F32Store(uint32(4 * col))
			}
		}
	}
	// cols runs the tiles of rows rows across n.
	cols := func(rows int) {
		f.I32Const(0)
		f.Set(j)
		f.LoopUntil(func() { f.Get(j); f.I32Const(2); f.I32Add(); f.Get(n); f.I32GtU() })
		tile(rows, 2)
		f.Inc(j, 2)
		f.EndLoop()
		f.LoopUntil(func() { f.Get(j); f.Get(n); f.I32GeU() })
		tile(rows, 1)
		f.Inc(j, 1)
		f.EndLoop()
	}
	f.LoopUntil(func() { f.Get(i); f.I32Const(2); f.I32Add(); f.Get(m); f.I32GtU() })
	cols(2)
	f.Inc(i, 2)
	f.EndLoop()
	f.LoopUntil(func() { f.Get(i); f.Get(m); f.I32GeU() })
	cols(1)
	f.Inc(i, 1)
	f.EndLoop()
	f.I32Const(1)
	return f
}

// pim2col and pcol2im are the exported functions
//
//	pim2col(x, c, h, w, cols i32) i32
//	pcol2im(x, c, h, w, cols i32) i32
//
// nn's im2col (x the c×h×w image, cols the patch matrix) and col2im (x
// the image's gradient, onto which the patch matrix's columns are added
// back) for c ≥ 1, h, w ≥ 5, in im2colGo's and col2imGo's order: each
// patch row's runs of wo = w − 4 values four at a time (v128 moves, or
// f32x4 adds: four distinct values of x each), then one at a time.
// They return 1; JavaScript's fallback returns 0 and Go does the work.
func pim2col() *fn { return patches("pim2col", false) }
func pcol2im() *fn { return patches("pcol2im", true) }

func patches(name string, add bool) *fn {
	f := &fn{name: name, params: []byte{i32, i32, i32, i32, i32}, results: []byte{i32}}
	const x, c, h, w, cols = 0, 1, 2, 3, 4
	L := func() uint32 { return f.local(i32) }
	ch, ky, kx, y, j, src, wob, rowb, ho, planeb, run := L(), L(), L(), L(), L(), L(), L(), L(), L(), L(), L()
	// wob = 4(w − 4), rowb = 4w, ho = h − 4, planeb = 4hw.
	f.Get(w)
	f.I32Const(4)
	f.I32Sub()
	f.I32Const(2)
	f.I32Shl()
	f.Set(wob)
	f.Get(w)
	f.I32Const(2)
	f.I32Shl()
	f.Set(rowb)
	f.Get(h)
	f.I32Const(4)
	f.I32Sub()
	f.Set(ho)
	f.Get(h)
	f.Get(rowb)
	f.I32Mul()
	f.Set(planeb)
	// move copies (or adds back) four values, or one, at byte j of the
	// run: src is the image's run, cols the patch matrix's.
	move := func(vec bool) {
		load, store := func(off uint32) { f.F32Load(off) }, func(off uint32) { f.F32Store(off) }
		if vec {
			load, store = f.V128Load, f.V128Store
		}
		if !add {
			f.Addr(cols, j)
			f.Addr(src, j)
			load(0)
			store(0)
			return
		}
		f.Addr(src, j)
		f.Addr(src, j)
		load(0)
		f.Addr(cols, j)
		load(0)
		if vec {
			f.F32x4Add()
		} else {
			f.F32Add()
		}
		store(0)
	}
	f.LoopUntil(func() { f.Get(ch); f.Get(c); f.I32GeU() })
	{
		f.I32Const(0)
		f.Set(ky)
		f.LoopUntil(func() { f.Get(ky); f.I32Const(5); f.I32GeU() })
		{
			f.I32Const(0)
			f.Set(kx)
			f.LoopUntil(func() { f.Get(kx); f.I32Const(5); f.I32GeU() })
			{
				// src = x + ky·rowb + 4kx: the patch row's first run.
				f.Get(x)
				f.Get(ky)
				f.Get(rowb)
				f.I32Mul()
				f.I32Add()
				f.Get(kx)
				f.I32Const(2)
				f.I32Shl()
				f.I32Add()
				f.Set(src)
				f.I32Const(0)
				f.Set(y)
				f.LoopUntil(func() { f.Get(y); f.Get(ho); f.I32GeU() })
				{
					f.I32Const(0)
					f.Set(j)
					f.Get(wob)
					f.I32Const(-16)
					f.I32And()
					f.Set(run)
					f.LoopUntil(func() { f.Get(j); f.Get(run); f.I32GeU() })
					move(true)
					f.Inc(j, 16)
					f.EndLoop()
					f.LoopUntil(func() { f.Get(j); f.Get(wob); f.I32GeU() })
					move(false)
					f.Inc(j, 4)
					f.EndLoop()
					f.Get(cols)
					f.Get(wob)
					f.I32Add()
					f.Set(cols)
					f.Get(src)
					f.Get(rowb)
					f.I32Add()
					f.Set(src)
					f.Inc(y, 1)
				}
				f.EndLoop()
				f.Inc(kx, 1)
			}
			f.EndLoop()
			f.Inc(ky, 1)
		}
		f.EndLoop()
		f.Get(x)
		f.Get(planeb)
		f.I32Add()
		f.Set(x)
		f.Inc(ch, 1)
	}
	f.EndLoop()
	f.I32Const(1)
	return f
}
