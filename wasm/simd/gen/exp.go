package main

// pexp is the exported function
//
//	pexp(e, n i32) i32
//
// num.ExpTo in place over the n values at e, for the logistic model's
// slopes (core/problems/logistic, slopes_simd.go): every lane does
// num.Exp's operations on its common path in their order (grad's exp,
// the same instruction list), so the bits are Exp's. It first checks
// that every value is on that path (2⁻²⁸ ≤ |x| ≤ 700: not NaN, not near
// zero, no overflow or underflow, where Exp branches) and returns 0
// without writing if one is not — Go then runs num.ExpTo — else 1 once
// all are done. Two pairs per step with their phases interleaved (one exp
// is a chain of dependent operations), then a pair, then an odd last
// value in both lanes of a splat.
func pexp() *fn {
	f := &fn{name: "pexp", params: []byte{i32, i32}, results: []byte{i32}}
	const e, n = 0, 1
	L := func() uint32 { return f.local(i32) }
	t, n2, p := L(), L(), L()
	V := func() uint32 { return f.local(v128) }
	va, ok := V(), V()
	var ex [2][5]uint32
	for i := range ex {
		for j := range ex[i] {
			ex[i][j] = V()
		}
	}
	c := map[string]uint32{}
	for _, k := range consts {
		c[k.name] = V()
		f.V128Const(k.bits, k.bits)
		f.Set(c[k.name])
	}
	inc := func(l uint32, n int32) { f.Get(l); f.I32Const(n); f.I32Add(); f.Set(l) }
	loopUntil := func(cond func()) { f.Block(); f.Loop(); cond(); f.BrIf(1) }
	endLoop := func() { f.Br(0); f.End(); f.End() }
	odd := func(then func()) { // then, where n is odd, with p at the last value
		f.Block()
		f.Get(n)
		f.I32Const(1)
		f.I32And()
		f.I32Eqz()
		f.BrIf(0)
		f.Get(e)
		f.Get(n2)
		f.I32Add()
		f.Set(p)
		then()
		f.End()
	}

	// n2 = the bytes of the pairs.
	f.Get(n)
	f.I32Const(-2)
	f.I32And()
	f.I32Const(3)
	f.I32Shl()
	f.Set(n2)

	// Every value on Exp's common path, or nothing is written.
	check := func() {
		f.F64x2Abs()
		f.Tee(va)
		f.Get(c["near"])
		f.F64x2Ge()
		f.Get(va)
		f.Get(c["far"])
		f.F64x2Le()
		f.V128And()
		f.Get(ok)
		f.V128And()
		f.Set(ok)
	}
	f.V128Const(^uint64(0), ^uint64(0))
	f.Set(ok)
	loopUntil(func() { f.Get(t); f.Get(n2); f.I32GeU() })
	{
		f.Get(e)
		f.Get(t)
		f.I32Add()
		f.V128Load(0)
		check()
		inc(t, 16)
	}
	endLoop()
	odd(func() { f.Get(p); f.V128Load64Splat(0); check() })
	f.Block()
	f.Get(ok)
	f.I64x2AllTrue()
	f.BrIf(0)
	f.I32Const(0)
	f.Return()
	f.End()

	// grad's phases (grad.go), on the pair in r = {x (then c), k, hi, r, t}.
	kf := func(r [5]uint32) { // k = trunc(log2e·x ± ½) as k + 1.5·2⁵²
		xv, k := r[0], r[1]
		f.Get(xv)
		f.Get(c["log2e"])
		f.F64x2Mul()
		f.Get(xv)
		f.Get(c["half"])
		f.Get(c["sign"])
		f.V128Bitselect() // ½ with x's sign
		f.F64x2Add()
		f.F64x2Trunc()
		f.Get(c["magic"])
		f.F64x2Add()
		f.Set(k)
	}
	fk := func(k uint32) { f.Get(k); f.Get(c["magic"]); f.F64x2Sub() } // float64(k)
	lov := func(k uint32) { fk(k); f.Get(c["ln2lo"]); f.F64x2Mul() }
	hlrt := func(r [5]uint32) { // hi = x − k·ln2Hi, r = hi − lo, t = r·r
		xv, k, hi, rv, tv := r[0], r[1], r[2], r[3], r[4]
		f.Get(xv)
		fk(k)
		f.Get(c["ln2hi"])
		f.F64x2Mul()
		f.F64x2Sub()
		f.Tee(hi)
		lov(k)
		f.F64x2Sub()
		f.Tee(rv)
		f.Get(rv)
		f.F64x2Mul()
		f.Set(tv)
	}
	cc := func(r [5]uint32) { // c = r − t·(P1 + t·(P2 + t·(P3 + t·(P4 + t·P5)))), into x's local
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
	yy := func(r [5]uint32) { // (1 − ((lo − r·c/(2 − c)) − hi))·2^k, pushed
		cv, k, hi, rv := r[0], r[1], r[2], r[3]
		f.Get(c["one"])
		lov(k)
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
	one := func(r [5]uint32) { kf(r); hlrt(r); cc(r) }

	f.I32Const(0)
	f.Set(t)
	loopUntil(func() { f.Get(t); f.I32Const(32); f.I32Add(); f.Get(n2); f.I32GtU() })
	{
		f.Get(e)
		f.Get(t)
		f.I32Add()
		f.Tee(p)
		f.V128Load(0)
		f.Set(ex[0][0])
		f.Get(p)
		f.V128Load(16)
		f.Set(ex[1][0])
		for _, ph := range []func([5]uint32){kf, hlrt, cc} {
			ph(ex[0])
			ph(ex[1])
		}
		f.Get(p)
		yy(ex[0])
		f.V128Store(0)
		f.Get(p)
		yy(ex[1])
		f.V128Store(16)
		inc(t, 32)
	}
	endLoop()
	f.Block()
	f.Get(t)
	f.Get(n2)
	f.I32GeU()
	f.BrIf(0)
	f.Get(e)
	f.Get(t)
	f.I32Add()
	f.Tee(p)
	f.V128Load(0)
	f.Set(ex[0][0])
	one(ex[0])
	f.Get(p)
	yy(ex[0])
	f.V128Store(0)
	f.End()
	odd(func() {
		f.Get(p)
		f.V128Load64Splat(0)
		f.Set(ex[0][0])
		one(ex[0])
		f.Get(p)
		yy(ex[0])
		f.V128Store64Lane(0, 0)
	})
	f.I32Const(1)
	return f
}
