package main

// rowPass emits psqgrad's float64 mode (psqgradFloat64): a block's dot
// products, residuals and the sparse prefix's weighted terms over rows
// whose dense columns s8 … w−1 are float64 (np lane pairs, s8 a multiple
// of 8 so that dense pair j falls in lane pair j mod 4) and whose first
// s columns are the prefix's one pair a row. One row at a time, its
// lanes started from its prefix term, x's np pairs in locals loaded
// before the rows: what V8 (node 20, x64) ran fastest — with no
// float32 to widen it runs about 1.25× psqgrad's two-rows-a-step pass
// (sqPass), whose lanes and x pairs of two rows overflowed its fifteen
// vector registers here.
type rowPass struct {
	f                                     *fn
	rm, xd, xf, mt, signs, z, acc, stride uint32 // the mode's parameters and locals
	sp, nb                                uint32
	ra, zp, ze, e, at                     uint32 // i32 locals
	a, zs                                 uint32 // f64 locals
	lanes                                 [4]uint32
	pv                                    uint32
	xp                                    []uint32 // x's pairs (v128), up to rowPassRegs
}

// rowPassRegs is the most x pairs rowPass keeps in locals: with the four
// lanes and a temporary they fill V8's fifteen vector registers; wider
// rows load x's pairs from memory at each use.
const rowPassRegs = 8

func newRowPass(f *fn, rm, xd, xf, mt, signs, z, acc, stride, sp, nb uint32) *rowPass {
	p := &rowPass{f: f, rm: rm, xd: xd, xf: xf, mt: mt, signs: signs, z: z, acc: acc, stride: stride, sp: sp, nb: nb}
	for _, l := range []*uint32{&p.ra, &p.zp, &p.ze, &p.e, &p.at} {
		*l = f.local(i32)
	}
	p.a, p.zs = f.local(f64), f.local(f64)
	for q := range p.lanes {
		p.lanes[q] = f.local(v128)
	}
	p.pv = f.local(v128)
	for range rowPassRegs {
		p.xp = append(p.xp, f.local(v128))
	}
	return p
}

// block emits the pass over the current block (rm, nb rows) for np
// dense lane pairs: z_t = row_tᵀx − float64(signs_t) and acc_c +=
// z_t·float64(a_t) for the row's prefix pair (8c, a_t); sp and signs
// advance past the block.
//
// The lanes: the Go loops' start at +0 and add every column's product
// in column order. Row t's prefix products other than its pair's are
// x_j·0 = ±0 (x finite there: Go checks), which leave a lane that is
// not −0 as it is; its pair's, p = x_c·float64(a), goes first into lane
// c mod 8 — by p splat and ANDed with row c of the mask table mt (four
// v128: all ones at lane c mod 8 where c < s8, else none, the columns
// from s8 on being in the dense rows) — and the dense columns' products
// follow in order. So each lane gets the Go loops' sums but for a zero's
// sign, and only lane c mod 8 can differ at all: every other lane starts
// at +0, as the Go loops' do, and a sum started at +0 is never −0; the
// tree adds lane c to such a lane first, (−0) + (+0) = +0, so the row's
// sum is never −0 either and has the Go loops' bits — no +0 to add after,
// as sqPass must.
func (p *rowPass) block(np int) {
	f := p.f
	inReg := np <= rowPassRegs
	if inReg {
		for j := range np {
			f.Get(p.xd)
			f.V128Load(uint32(16 * j))
			f.Set(p.xp[j])
		}
	}
	f.Get(p.rm)
	f.Set(p.ra)
	f.Span(p.zp, p.ze, p.z, p.nb, 3)
	f.LoopUntil(func() { f.Get(p.zp); f.Get(p.ze); f.I32GeU() })
	p.row(np, inReg)
	f.EndLoop()
}

// row emits one row's step of block (two rows a step, each as here:
// no faster, 0.97–1.0 of the time).
func (p *rowPass) row(np int, inReg bool) {
	f := p.f
	{
		// a = float64 of the prefix's value, e = 8c; pv = splat(x_c·a).
		f.Get(p.sp)
		f.F32Load(4)
		f.F64PromoteF32()
		f.Set(p.a)
		f.Get(p.sp)
		f.I32Load(0)
		f.Set(p.e)
		f.Get(p.xf)
		f.Get(p.e)
		f.I32Add()
		f.F64Load(0)
		f.Get(p.a)
		f.F64Mul()
		f.F64x2Splat()
		f.Set(p.pv)
		// The lanes from the table's row c at mt + 8e.
		f.Get(p.mt)
		f.Get(p.e)
		f.I32Const(3)
		f.I32Shl()
		f.I32Add()
		f.Set(p.at)
		for q := range 4 {
			f.Get(p.pv)
			f.Get(p.at)
			f.V128Load(uint32(16 * q))
			f.V128And()
			f.Set(p.lanes[q])
		}
		for j := range np {
			l := p.lanes[j%4]
			f.Get(l)
			f.Get(p.ra)
			f.V128Load(uint32(16 * j))
			if inReg {
				f.Get(p.xp[j])
			} else {
				f.Get(p.xd)
				f.V128Load(uint32(16 * j))
			}
			f.F64x2Mul()
			f.F64x2Add()
			f.Set(l)
		}
		laneTree(f, p.lanes, p.pv)
		// z = the sum − float64(sign), stored at zp.
		f.Get(p.zp)
		f.Get(p.pv)
		f.F64x2ExtractLane(0)
		f.Get(p.pv)
		f.F64x2ExtractLane(1)
		f.F64Add()
		f.Get(p.signs)
		f.I32Load8S(0)
		f.F64ConvertI32S()
		f.F64Sub()
		f.Tee(p.zs)
		f.F64Store(0)
		// acc_c += z·a.
		f.Get(p.acc)
		f.Get(p.e)
		f.I32Add()
		f.Tee(p.at)
		f.Get(p.at)
		f.F64Load(0)
		f.Get(p.zs)
		f.Get(p.a)
		f.F64Mul()
		f.F64Add()
		f.F64Store(0)
		f.Inc(p.sp, 8)
		f.Inc(p.signs, 1)
		f.Inc(p.zp, 8)
		f.Get(p.ra)
		f.Get(p.stride)
		f.I32Add()
		f.Set(p.ra)
	}
}
