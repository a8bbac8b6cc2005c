package main

// expGen emits num.Exp on its common path in f64x2 lanes, in place over
// n float64 values (pslopes) or on pairs in its locals ex (grad.go: the
// phases kf, hlrt, cc and yy): every lane does Exp's operations in their
// order, so the bits are Exp's — and the check
// that every value is on that path (2⁻²⁸ ≤ |x| ≤ 700: not NaN, not near
// zero, no overflow or underflow, where Exp branches). Two pairs per step
// with their phases interleaved (one exp is a chain of dependent
// operations), then a pair, then an odd last value in both lanes of a
// splat.
type expGen struct {
	f        *fn
	c        map[string]uint32 // the constants, one f64x2 local each
	ex       [2][5]uint32      // two pairs in flight: x (then c), k, hi, r, t
	va, ok   uint32
	t, n2, p uint32 // i32: byte offset, the pairs' bytes, an address
	e, n     uint32 // i32: the values' address and count
	// minusHalf, when negative is set, is a local holding −½ in both
	// lanes: every argument is known to be negative (grad's −|s|), so
	// kf takes ½ with x's sign from it instead of from x.
	minusHalf uint32
	negative  bool
}

// newExpGen declares expGen's locals in f and sets its constants; e and
// n are locals holding the values' address and count.
func newExpGen(f *fn, e, n uint32) *expGen {
	g := &expGen{f: f, e: e, n: n, c: map[string]uint32{}}
	g.t, g.n2, g.p = f.local(i32), f.local(i32), f.local(i32)
	g.va, g.ok = f.local(v128), f.local(v128)
	for i := range g.ex {
		for j := range g.ex[i] {
			g.ex[i][j] = f.local(v128)
		}
	}
	for _, k := range consts {
		g.c[k.name] = f.local(v128)
		f.V128Const(k.bits, k.bits)
		f.Set(g.c[k.name])
	}
	return g
}

// ratio pushes n/(1 + e) for the pair e in the local va: n = 1 where
// the margin (the pair margin pushes) is ≥ 0, else e — the sigmoid's two
// forms, each exact on its side (grad and pslopes).
func (g *expGen) ratio(va uint32, margin func()) {
	f := g.f
	f.Get(g.c["one"])
	f.Get(va)
	margin()
	f.Get(g.c["zero"])
	f.F64x2Ge()
	f.V128Bitselect()
	f.Get(g.c["one"])
	f.Get(va)
	f.F64x2Add()
	f.F64x2Div()
}

// ratio1 is ratio for one value e in the f64 local ev.
func ratio1(f *fn, ev uint32, margin func()) {
	f.F64Const(1)
	f.Get(ev)
	margin()
	f.F64Const(0)
	f.F64Ge()
	f.Select()
	f.F64Const(1)
	f.Get(ev)
	f.F64Add()
	f.F64Div()
}

// pairs sets n2 from n.
func (g *expGen) pairs() {
	f := g.f
	f.Get(g.n)
	f.I32Const(-2)
	f.I32And()
	f.I32Const(3)
	f.I32Shl()
	f.Set(g.n2)
}

// odd emits then where n is odd, with p at the last value.
func (g *expGen) odd(then func()) {
	f := g.f
	f.Block()
	f.Get(g.n)
	f.I32Const(1)
	f.I32And()
	f.I32Eqz()
	f.BrIf(0)
	f.Get(g.e)
	f.Get(g.n2)
	f.I32Add()
	f.Set(g.p)
	then()
	f.End()
}

// inPath ands into the local ok the lanes of the pair on the stack that
// are on Exp's common path (2⁻²⁸ ≤ |x| ≤ 700; NaN is not).
func (g *expGen) inPath(ok uint32) {
	f, c := g.f, g.c
	f.F64x2Abs()
	f.Tee(g.va)
	f.Get(c["near"])
	f.F64x2Ge()
	f.Get(g.va)
	f.Get(c["far"])
	f.F64x2Le()
	f.V128And()
	f.Get(ok)
	f.V128And()
	f.Set(ok)
}

// onPath pushes an i32: 1 when every value is on Exp's common path.
func (g *expGen) onPath() {
	f := g.f
	g.pairs()
	f.V128Const(^uint64(0), ^uint64(0))
	f.Set(g.ok)
	f.I32Const(0)
	f.Set(g.t)
	f.LoopUntil(func() { f.Get(g.t); f.Get(g.n2); f.I32GeU() })
	{
		f.Get(g.e)
		f.Get(g.t)
		f.I32Add()
		f.V128Load(0)
		g.inPath(g.ok)
		f.Inc(g.t, 16)
	}
	f.EndLoop()
	g.odd(func() { f.Get(g.p); f.V128Load64Splat(0); g.inPath(g.ok) })
	f.Get(g.ok)
	f.I64x2AllTrue()
}

// Exp's phases on one pair in the locals r: x (then c), k, hi, r, t.
// A caller interleaves two pairs' phases (one exp is a chain of
// dependent operations) and pushes the result with yy.

// kf sets k = trunc(log2e·x ± ½) as k + 1.5·2⁵².
func (g *expGen) kf(r [5]uint32) {
	f, c := g.f, g.c
	xv, k := r[0], r[1]
	f.Get(xv)
	f.Get(c["log2e"])
	f.F64x2Mul()
	if g.negative {
		f.Get(g.minusHalf)
	} else {
		f.Get(xv)
		f.Get(c["half"])
		f.Get(c["sign"])
		f.V128Bitselect() // ½ with x's sign
	}
	f.F64x2Add()
	f.F64x2Trunc()
	f.Get(c["magic"])
	f.F64x2Add()
	f.Set(k)
}

// fk pushes float64(k).
func (g *expGen) fk(k uint32) { g.f.Get(k); g.f.Get(g.c["magic"]); g.f.F64x2Sub() }

// lov pushes lo = k·ln2Lo.
func (g *expGen) lov(k uint32) { g.fk(k); g.f.Get(g.c["ln2lo"]); g.f.F64x2Mul() }

// hlrt sets hi = x − k·ln2Hi, r = hi − lo, t = r·r.
func (g *expGen) hlrt(r [5]uint32) {
	f, c := g.f, g.c
	xv, k, hi, rv, tv := r[0], r[1], r[2], r[3], r[4]
	f.Get(xv)
	g.fk(k)
	f.Get(c["ln2hi"])
	f.F64x2Mul()
	f.F64x2Sub()
	f.Tee(hi)
	g.lov(k)
	f.F64x2Sub()
	f.Tee(rv)
	f.Get(rv)
	f.F64x2Mul()
	f.Set(tv)
}

// cc sets c = r − t·(P1 + t·(P2 + t·(P3 + t·(P4 + t·P5)))) into x's local.
func (g *expGen) cc(r [5]uint32) {
	f, c := g.f, g.c
	rv, tv := r[3], r[4]
	f.Get(rv)
	for _, pn := range []string{"p1", "p2", "p3", "p4", "p5"} {
		f.Get(tv)
		f.Get(c[pn])
	}
	for range 4 {
		f.F64x2Mul()
		f.F64x2Add()
	}
	f.F64x2Mul()
	f.F64x2Sub()
	f.Set(r[0])
}

// yy pushes (1 − ((lo − r·c/(2 − c)) − hi))·2^k, Exp of the pair.
func (g *expGen) yy(r [5]uint32) {
	f, c := g.f, g.c
	cv, k, hi, rv := r[0], r[1], r[2], r[3]
	f.Get(c["one"])
	g.lov(k)
	f.Get(rv)
	f.Get(cv)
	f.F64x2Mul()
	f.Get(c["two"])
	f.Get(cv)
	f.F64x2Sub()
	f.F64x2Div()
	f.F64x2Sub()
	f.Get(hi)
	f.F64x2Sub()
	f.F64x2Sub()
	f.Get(k)
	f.Get(c["bias"])
	f.I64x2Add()
	f.I32Const(52)
	f.I64x2Shl()
	f.F64x2Mul()
}

// all emits Exp in place over the n values (all on its common path).
func (g *expGen) all() {
	f, ex, p := g.f, g.ex, g.p
	g.pairs()
	one := func(r [5]uint32) { g.kf(r); g.hlrt(r); g.cc(r) }

	f.I32Const(0)
	f.Set(g.t)
	f.LoopUntil(func() { f.Get(g.t); f.I32Const(32); f.I32Add(); f.Get(g.n2); f.I32GtU() })
	{
		f.Get(g.e)
		f.Get(g.t)
		f.I32Add()
		f.Tee(p)
		f.V128Load(0)
		f.Set(ex[0][0])
		f.Get(p)
		f.V128Load(16)
		f.Set(ex[1][0])
		for _, ph := range []func([5]uint32){g.kf, g.hlrt, g.cc} {
			ph(ex[0])
			ph(ex[1])
		}
		f.Get(p)
		g.yy(ex[0])
		f.V128Store(0)
		f.Get(p)
		g.yy(ex[1])
		f.V128Store(16)
		f.Inc(g.t, 32)
	}
	f.EndLoop()
	f.Block()
	f.Get(g.t)
	f.Get(g.n2)
	f.I32GeU()
	f.BrIf(0)
	f.Get(g.e)
	f.Get(g.t)
	f.I32Add()
	f.Tee(p)
	f.V128Load(0)
	f.Set(ex[0][0])
	one(ex[0])
	f.Get(p)
	g.yy(ex[0])
	f.V128Store(0)
	f.End()
	g.odd(func() {
		f.Get(p)
		f.V128Load64Splat(0)
		f.Set(ex[0][0])
		one(ex[0])
		f.Get(p)
		g.yy(ex[0])
		f.V128Store64Lane(0, 0)
	})
}

// pslopes is the exported function
//
//	pslopes(z, e, nb, y, idx, first, n i32) i32
//
// The logistic model's slopes over a block of n view rows
// (core/problems/logistic, slopes_other.go and slopes_wasm.s, in their
// order): first, row by row, −b = −1 for class 1 and +1 otherwise (the
// class y[idx[t]], y[first + t] where idx is 0; idx holds Go ints),
// nb[t] = −b, s = (−b)·z[t], z[t] = s and e[t] = −|s|; then, where every
// e is on Exp's common path, e = Exp(e) and z[t] = (−b)·(n/(1 + e)) with
// n = 1 where s ≥ 0, else e, in f64x2 pairs and an odd last value. It
// returns 2 when done; 1 when a value is off Exp's path, having done
// the first pass only (Go finishes with num.ExpTo and slopesPost); and
// JavaScript's fallback trampoline returns 0, nothing done.
func pslopes() *fn {
	f := &fn{name: "pslopes", params: []byte{i32, i32, i32, i32, i32, i32, i32}, results: []byte{i32}}
	const z, e, nb, y, idx, first, n = 0, 1, 2, 3, 4, 5, 6
	g := newExpGen(f, e, n)
	t, n8 := f.local(i32), f.local(i32)
	sv := f.local(f64)
	va := f.local(v128)

	f.Get(n)
	f.I32Const(3)
	f.I32Shl()
	f.Set(n8)
	f.LoopUntil(func() { f.Get(t); f.Get(n8); f.I32GeU() })
	{
		// nb[t] = −b: the class of y[row], row = idx ? idx[t] : first + t
		// (a nil idx's load reads low memory, discarded by the select).
		f.Addr(nb, t)
		f.F64Const(-1)
		f.F64Const(1)
		f.Get(y)
		f.Addr(idx, t)
		f.I64Load(0)
		f.I32WrapI64()
		f.Get(first)
		f.Get(t)
		f.I32Const(3)
		f.I32ShrU()
		f.I32Add()
		f.Get(idx)
		f.Select()
		f.I32Add()
		f.I32Load8U(0)
		f.I32Const(1)
		f.I32Eq()
		f.Select()
		f.F64Store(0)
		// s = (−b)·z; z = s; e = −|s|.
		f.Addr(z, t)
		f.Addr(nb, t)
		f.F64Load(0)
		f.Addr(z, t)
		f.F64Load(0)
		f.F64Mul()
		f.Tee(sv)
		f.F64Store(0)
		f.Addr(e, t)
		f.Get(sv)
		f.F64Abs()
		f.F64Neg()
		f.F64Store(0)
		f.Inc(t, 8)
	}
	f.EndLoop()

	f.Block()
	g.onPath()
	f.BrIf(0)
	f.I32Const(1)
	f.Return()
	f.End()
	g.all()

	// z = (−b)·(n/(1 + e)), n = 1 where s ≥ 0, else e: pairs, then an
	// odd last value.
	f.I32Const(0)
	f.Set(t)
	f.LoopUntil(func() { f.Get(t); f.Get(g.n2); f.I32GeU() })
	{
		f.Addr(e, t)
		f.V128Load(0)
		f.Set(va)
		f.Addr(z, t)
		f.Addr(nb, t)
		f.V128Load(0)
		g.ratio(va, func() { f.Addr(z, t); f.V128Load(0) })
		f.F64x2Mul()
		f.V128Store(0)
		f.Inc(t, 16)
	}
	f.EndLoop()
	f.Block()
	f.Get(t)
	f.Get(n8)
	f.I32GeU()
	f.BrIf(0)
	f.Addr(e, t)
	f.F64Load(0)
	f.Set(sv)
	f.Addr(z, t)
	f.Addr(nb, t)
	f.F64Load(0)
	ratio1(f, sv, func() { f.Addr(z, t); f.F64Load(0) })
	f.F64Mul()
	f.F64Store(0)
	f.End()
	f.I32Const(2)
	return f
}
