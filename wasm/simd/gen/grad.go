package main

// group is how many samples grad scores at a time: four pairs' exps in
// flight, whose chains of dependent operations the processor overlaps
// (with four samples, two pairs, the fused loop ran slower than the
// separate passes over a block it replaced).
const group = 8

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
//	grad(z, y, x, out, m, d i32) i32
//
// nonconvex.Grad's logistic loop over one agent's m samples (z: m rows
// of d features, y: m labels, x: d values) in one pass over the rows,
// eight samples at a time (then four, a pair, an odd one): their dot
// products (num.Dots' lane order), margins (s = −y·s, e = −|s|), e =
// Exp(e), sigmoids (s = −y·(n/(1 + e)), n = 1 if the margin is ≥ 0 and e
// below), then out += Σ s_t·z_t, each entry's terms in sample order —
// the values in registers between the steps, the rows read again while
// still in the first-level cache. Every lane does the scalar code's
// operations in its order (kernels_go.go, num.Exp): f64x2 lanes are two
// of AVX2's four, WebAssembly rounds each operation as IEEE says and has
// no fused multiply-add, and the order of out's sums is the samples', so
// the bits are those of the Go code with any grouping. A group holding a
// value off Exp's common path (NaN, |e| < 2⁻²⁸ or > 700, where Exp
// branches) stops the call before its out is touched: grad returns how
// many samples it added, m when done, and Go scores from there.
func grad() *fn {
	f := &fn{name: "grad", params: []byte{i32, i32, i32, i32, i32, i32}, results: []byte{i32}}
	const z, y, x, out, m, d = 0, 1, 2, 3, 4, 5
	L := func() uint32 { return f.local(i32) }
	g, yb, jb, d8, q, none := L(), L(), L(), L(), L(), L()
	var rw [group]uint32 // the group's rows' addresses
	for r := range rw {
		rw[r] = L()
	}
	ra := rw[0]
	V := func() uint32 { return f.local(v128) }
	ok := V()
	var sv, ny, ev [group / 2]uint32
	var exs [group / 2][5]uint32 // Exp's locals for each pair
	for p := range sv {
		sv[p], ny[p], ev[p] = V(), V(), V()
		for j := range exs[p] {
			exs[p][j] = V()
		}
	}
	var w [group]uint32
	for r := range w {
		w[r] = V()
	}
	ld := newLaneDots(f, x, d8, jb, false)
	ex := newExpGen(f, none, none) // its loops over memory unused: none
	// −|s| is s with its sign bit set, −y is y with it flipped (the bits of
	// f64x2.abs, .neg); every exp argument is then negative or NaN, so
	// the path check is −700 ≤ e ≤ −2⁻²⁸ and Exp's ½ with x's sign is −½.
	nnear, nfar := V(), V()
	ex.minusHalf, ex.negative = V(), true
	for _, c := range []struct {
		l    uint32
		bits uint64
	}{{nnear, 0xbe30000000000000}, {nfar, 0xc085e00000000000}, {ex.minusHalf, 0xbfe0000000000000}} {
		f.V128Const(c.bits, c.bits)
		f.Set(c.l)
	}

	f.Get(d)
	f.I32Const(3)
	f.I32Shl()
	f.Set(d8)
	f.Get(z)
	f.Set(ra)
	f.Get(y)
	f.Set(yb)

	// score scores the k samples (group, 4, 2 or 1) from g, whose rows
	// start at ra and labels at yb, and moves the three on.
	score := func(k int) {
		rows := rw[:k]
		for r := 1; r < k; r++ {
			f.Get(rows[r-1])
			f.Get(d8)
			f.I32Add()
			f.Set(rows[r])
		}
		pairs := (k + 1) / 2
		// The dot products: sv[p] = (s_2p, s_2p+1), or (s, s) for one.
		for p := range pairs {
			if k == 1 {
				ld.rows(ra)
				ld.sum1()
			} else {
				ld.rows(rows[2*p], rows[2*p+1])
				ld.sums2()
			}
			f.Set(sv[p])
		}
		// Margins: ny = −y, s = ny·s, the exp's argument −|s|, and
		// whether every lane is on Exp's common path.
		f.V128Const(^uint64(0), ^uint64(0))
		f.Set(ok)
		for p := range pairs {
			f.Get(yb)
			if k == 1 {
				f.V128Load64Splat(0)
			} else {
				f.V128Load(uint32(16 * p))
			}
			f.Get(ex.c["sign"])
			f.V128Xor()
			f.Tee(ny[p])
			f.Get(sv[p])
			f.F64x2Mul()
			f.Tee(sv[p])
			f.Get(ex.c["sign"])
			f.V128Or()
			f.Tee(exs[p][0])
			f.Get(nnear)
			f.F64x2Le()
			f.Get(exs[p][0])
			f.Get(nfar)
			f.F64x2Ge()
			f.V128And()
			f.Get(ok)
			f.V128And()
			f.Set(ok)
		}
		f.Block()
		f.Get(ok)
		f.I64x2AllTrue()
		f.BrIf(0)
		f.Get(g)
		f.Return()
		f.End()
		// e = Exp(e), the pairs' phases interleaved; then the sigmoids
		// s = ny·(n/(1 + e)), the weights of the rows.
		for _, ph := range []func([5]uint32){ex.kf, ex.hlrt, ex.cc} {
			for p := range pairs {
				ph(exs[p])
			}
		}
		for p := range pairs {
			ex.yy(exs[p])
			f.Set(ev[p])
		}
		for p := range pairs {
			f.Get(ny[p])
			ex.ratio(ev[p], func() { f.Get(sv[p]) })
			f.F64x2Mul()
			f.Set(sv[p])
		}
		for r := range k {
			f.Get(sv[r/2])
			f.Get(sv[r/2])
			f.Shuffle64(byte(r%2), byte(r%2))
			f.Set(w[r])
		}
		// out += Σ w_r·z_r, each entry's terms in row order: two entries
		// per step, then an odd one (lane 0 of a pair loaded with a zero
		// beside it; only lane 0 is stored).
		f.I32Const(0)
		f.Set(jb)
		axpy := func(load func(off uint32)) {
			f.Addr(out, jb)
			f.Tee(q)
			f.Get(q)
			load(0)
			for r, row := range rows {
				f.Get(w[r])
				f.Addr(row, jb)
				load(0)
				f.F64x2Mul()
				f.F64x2Add()
			}
		}
		f.LoopUntil(func() { f.Get(jb); f.I32Const(16); f.I32Add(); f.Get(d8); f.I32GtU() })
		{
			axpy(f.V128Load)
			f.V128Store(0)
			f.Inc(jb, 16)
		}
		f.EndLoop()
		f.Block()
		f.Get(jb)
		f.Get(d8)
		f.I32GeU()
		f.BrIf(0)
		axpy(f.V128Load64Zero)
		f.V128Store64Lane(0, 0)
		f.End()

		f.Get(rows[k-1])
		f.Get(d8)
		f.I32Add()
		f.Set(ra)
		f.Inc(yb, int32(8*k))
		f.Inc(g, int32(k))
	}

	f.LoopUntil(func() { f.Get(g); f.I32Const(group); f.I32Add(); f.Get(m); f.I32GtU() })
	score(group)
	f.EndLoop()
	f.Block()
	f.Get(g)
	f.I32Const(4)
	f.I32Add()
	f.Get(m)
	f.I32GtU()
	f.BrIf(0)
	score(4)
	f.End()
	f.Block()
	f.Get(g)
	f.I32Const(2)
	f.I32Add()
	f.Get(m)
	f.I32GtU()
	f.BrIf(0)
	score(2)
	f.End()
	f.Block()
	f.Get(g)
	f.Get(m)
	f.I32GeU()
	f.BrIf(0)
	score(1)
	f.End()
	f.Get(m)
	return f
}
