package main

// The CNN's dot-product products (core/nn, lanes.go and kernnt_simd.go):
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
