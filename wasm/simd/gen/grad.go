package main

// block is how many samples grad scores per pass, as nonconvex.Grad's
// gradBlock: its scratch s and e hold block+1 values (the pad).
const block = 256

// Exp's constants (core/num, FreeBSD's e_exp.c) by their bits, and the
// others the kernel needs, one f64x2 local each, set once on entry.
var consts = []struct {
	name string
	bits uint64
}{
	{"log2e", 0x3ff71547652b82fe},
	{"half", 0x3fe0000000000000},
	{"sign", 0x8000000000000000},
	{"magic", 0x4338000000000000}, // 1.5·2⁵²: k as the low bits of a float
	{"ln2hi", 0x3fe62e42fee00000},
	{"ln2lo", 0x3dea39ef35793c76},
	{"p1", 0x3fc5555555555555},
	{"p2", 0xbf66c16c16bebd93},
	{"p3", 0x3f11566aaf25de2c},
	{"p4", 0xbebbbd41c5d26bf1},
	{"p5", 0x3e66376972bea4d0},
	{"one", 0x3ff0000000000000},
	{"two", 0x4000000000000000},
	{"bias", 1023},               // i64 lanes: the exponent bias
	{"near", 0x3e30000000000000}, // 2⁻²⁸
	{"far", 0x4085e00000000000},  // 700
	{"zero", 0},
}

// grad is the exported function
//
//	grad(z, y, x, out, s, e, m, d i32) i32
//
// nonconvex.Grad's logistic loop over one agent's m samples (z: m rows
// of d features, y: m labels, x: d values; s, e: scratch of block+1
// values): for each block of 256 samples, dots (in num.Dots' lane
// order), margins (s = −y·s, e = −|s|), e = Exp(e), sigmoids
// (s = −y·(n/(1 + e)), n = 1 if the margin is ≥ 0 and e below), then
// out += Σ s_t·z_t in sample order, four rows per pass. Every lane does
// the scalar code's operations in its order (kernels_go.go, num.Exp):
// f64x2 lanes are two of AVX2's four, WebAssembly rounds each operation
// as IEEE says and has no fused multiply-add, so the bits are those of
// the Go code. A block holding a value off Exp's common path (NaN, |e| <
// 2⁻²⁸ or > 700, where Exp branches) stops the call before its out is
// touched: grad returns how many samples it added, m when done, and Go
// scores that block itself.
func grad() *fn {
	f := &fn{name: "grad", params: []byte{i32, i32, i32, i32, i32, i32, i32, i32}, results: []byte{i32}}
	const z, y, x, out, s, e, m, d = 0, 1, 2, 3, 4, 5, 6, 7
	L := func() uint32 { return f.local(i32) }
	lo, nb, nb8, nbp, zb, yb, g, ra, rb, rc, re, jb, d8, t, p, q := L(), L(), L(), L(), L(), L(), L(), L(), L(), L(), L(), L(), L(), L(), L(), L()
	sv, ev := f.local(f64), f.local(f64)
	V := func() uint32 { return f.local(v128) }
	va, wa, wb, wc, we := V(), V(), V(), V(), V()
	ld := newLaneDots(f, x, d8, jb, false)
	// Exp over a block's e, padded to pairs: np values (exp.go).
	np := L()
	ex := newExpGen(f, e, np)

	f.Get(d)
	f.I32Const(3)
	f.I32Shl()
	f.Set(d8)

	f.LoopUntil(func() { f.Get(lo); f.Get(m); f.I32GeU() })
	{
		// nb = min(block, m − lo); nb8 its bytes; nbp rounded up to pairs.
		f.Get(m)
		f.Get(lo)
		f.I32Sub()
		f.Set(nb)
		f.I32Const(block)
		f.Get(nb)
		f.Get(nb)
		f.I32Const(block)
		f.I32GtU()
		f.Select()
		f.Tee(nb)
		f.I32Const(3)
		f.I32Shl()
		f.Tee(nb8)
		f.I32Const(15)
		f.I32Add()
		f.I32Const(-16)
		f.I32And()
		f.Set(nbp)
		f.Get(z)
		f.Get(lo)
		f.Get(d8)
		f.I32Mul()
		f.I32Add()
		f.Set(zb)
		f.Get(y)
		f.Get(lo)
		f.I32Const(3)
		f.I32Shl()
		f.I32Add()
		f.Set(yb)

		// Dots in num.Dots' lane order (lanes.go), two rows per pass
		// while two remain, then the last one.
		f.Get(zb)
		f.Set(ra)
		f.I32Const(0)
		f.Set(g)
		f.LoopUntil(func() { f.Get(g); f.I32Const(2); f.I32Add(); f.Get(nb); f.I32GtU() })
		{
			f.Get(ra)
			f.Get(d8)
			f.I32Add()
			f.Set(rb)
			ld.rows(ra, rb)
			ld.store2(func() { f.Get(s); f.Get(g); f.I32Const(3); f.I32Shl(); f.I32Add() })
			f.Get(rb)
			f.Get(d8)
			f.I32Add()
			f.Set(ra)
			f.Inc(g, 2)
		}
		f.EndLoop()
		f.Block()
		f.Get(g)
		f.Get(nb)
		f.I32GeU()
		f.BrIf(0)
		ld.rows(ra)
		ld.store1(func() { f.Get(s); f.Get(g); f.I32Const(3); f.I32Shl(); f.I32Add() })
		f.End()

		// Margins, two samples per step, then an odd one (and e's pad).
		f.I32Const(0)
		f.Set(t)
		f.LoopUntil(func() { f.Get(t); f.I32Const(16); f.I32Add(); f.Get(nb8); f.I32GtU() })
		{
			f.Addr(s, t)
			f.Tee(p)
			f.Addr(yb, t)
			f.V128Load(0)
			f.F64x2Neg()
			f.Get(p)
			f.V128Load(0)
			f.F64x2Mul()
			f.Tee(va)
			f.V128Store(0)
			f.Addr(e, t)
			f.Get(va)
			f.F64x2Abs()
			f.F64x2Neg()
			f.V128Store(0)
			f.Inc(t, 16)
		}
		f.EndLoop()
		f.Block()
		f.Get(t)
		f.Get(nb8)
		f.I32GeU()
		f.BrIf(0)
		f.Addr(s, t)
		f.Tee(p)
		f.Addr(yb, t)
		f.F64Load(0)
		f.F64Neg()
		f.Get(p)
		f.F64Load(0)
		f.F64Mul()
		f.Tee(sv)
		f.F64Store(0)
		f.Addr(e, t)
		f.Tee(p)
		f.Get(sv)
		f.F64Abs()
		f.F64Neg()
		f.F64Store(0)
		f.Get(p)
		f.F64Const(-1) // the pad: in Exp's common path, its result unused
		f.F64Store(8)
		f.End()

		// Every exp argument on Exp's common path, or Go scores the block;
		// then Exp in place.
		f.Get(nbp)
		f.I32Const(3)
		f.I32ShrU()
		f.Set(np)
		f.Block()
		ex.onPath()
		f.BrIf(0)
		f.Get(lo)
		f.Return()
		f.End()
		ex.all()

		// Sigmoids, two samples per step, then an odd one:
		// s = −y·(n/(1 + e)), n = 1 where the margin is ≥ 0, e below.
		f.I32Const(0)
		f.Set(t)
		f.LoopUntil(func() { f.Get(t); f.I32Const(16); f.I32Add(); f.Get(nb8); f.I32GtU() })
		{
			f.Addr(e, t)
			f.V128Load(0)
			f.Set(va)
			f.Addr(s, t)
			f.Tee(p)
			f.Addr(yb, t)
			f.V128Load(0)
			f.F64x2Neg()
			ex.ratio(va, func() { f.Get(p); f.V128Load(0) })
			f.F64x2Mul()
			f.V128Store(0)
			f.Inc(t, 16)
		}
		f.EndLoop()
		f.Block()
		f.Get(t)
		f.Get(nb8)
		f.I32GeU()
		f.BrIf(0)
		f.Addr(e, t)
		f.F64Load(0)
		f.Set(ev)
		f.Addr(s, t)
		f.Tee(p)
		f.Addr(yb, t)
		f.F64Load(0)
		f.F64Neg()
		ratio1(f, ev, func() { f.Get(p); f.F64Load(0) })
		f.F64Mul()
		f.F64Store(0)
		f.End()

		// out += Σ s_t·z_t, four rows per pass over out (each entry's
		// terms in row order), two entries per step, then an odd one.
		rows := func() {
			for _, r := range [][2]uint32{{ra, rb}, {rb, rc}, {rc, re}} {
				f.Get(r[0])
				f.Get(d8)
				f.I32Add()
				f.Set(r[1])
			}
		}
		f.Get(zb)
		f.Set(ra)
		f.I32Const(0)
		f.Set(g)
		f.LoopUntil(func() { f.Get(g); f.I32Const(4); f.I32Add(); f.Get(nb); f.I32GtU() })
		{
			rows()
			f.Get(s)
			f.Get(g)
			f.I32Const(3)
			f.I32Shl()
			f.I32Add()
			f.Set(p)
			for i, w := range []uint32{wa, wb, wc, we} {
				f.Get(p)
				f.V128Load64Splat(uint32(8 * i))
				f.Set(w)
			}
			f.I32Const(0)
			f.Set(jb)
			f.LoopUntil(func() { f.Get(jb); f.I32Const(16); f.I32Add(); f.Get(d8); f.I32GtU() })
			{
				f.Addr(out, jb)
				f.Tee(q)
				f.Get(q)
				f.V128Load(0)
				for _, r := range [][2]uint32{{wa, ra}, {wb, rb}, {wc, rc}, {we, re}} {
					f.Get(r[0])
					f.Addr(r[1], jb)
					f.V128Load(0)
					f.F64x2Mul()
					f.F64x2Add()
				}
				f.V128Store(0)
				f.Inc(jb, 16)
			}
			f.EndLoop()
			f.Block()
			f.Get(jb)
			f.Get(d8)
			f.I32GeU()
			f.BrIf(0)
			f.Addr(out, jb)
			f.Tee(q)
			f.Get(q)
			f.F64Load(0)
			for i, r := range []uint32{ra, rb, rc, re} {
				f.Get(p)
				f.F64Load(uint32(8 * i))
				f.Addr(r, jb)
				f.F64Load(0)
				f.F64Mul()
				f.F64Add()
			}
			f.F64Store(0)
			f.End()
			f.Get(re)
			f.Get(d8)
			f.I32Add()
			f.Set(ra)
			f.Inc(g, 4)
		}
		f.EndLoop()
		// The block's last rows one at a time: out += w·z_t.
		f.LoopUntil(func() { f.Get(g); f.Get(nb); f.I32GeU() })
		{
			f.Get(s)
			f.Get(g)
			f.I32Const(3)
			f.I32Shl()
			f.I32Add()
			f.Tee(p)
			f.V128Load64Splat(0)
			f.Set(wa)
			f.I32Const(0)
			f.Set(jb)
			f.LoopUntil(func() { f.Get(jb); f.I32Const(16); f.I32Add(); f.Get(d8); f.I32GtU() })
			{
				f.Addr(out, jb)
				f.Tee(q)
				f.Get(q)
				f.V128Load(0)
				f.Get(wa)
				f.Addr(ra, jb)
				f.V128Load(0)
				f.F64x2Mul()
				f.F64x2Add()
				f.V128Store(0)
				f.Inc(jb, 16)
			}
			f.EndLoop()
			f.Block()
			f.Get(jb)
			f.Get(d8)
			f.I32GeU()
			f.BrIf(0)
			f.Addr(out, jb)
			f.Tee(q)
			f.Get(q)
			f.F64Load(0)
			f.Get(p)
			f.F64Load(0)
			f.Addr(ra, jb)
			f.F64Load(0)
			f.F64Mul()
			f.F64Add()
			f.F64Store(0)
			f.End()
			f.Get(ra)
			f.Get(d8)
			f.I32Add()
			f.Set(ra)
			f.Inc(g, 1)
		}
		f.EndLoop()

		f.Get(lo)
		f.Get(nb)
		f.I32Add()
		f.Set(lo)
	}
	f.EndLoop()
	f.Get(m)
	return f
}
