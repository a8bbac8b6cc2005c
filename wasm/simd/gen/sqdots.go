package main

// sqPass emits psqgrad's first pass over a block for rows of w ≥ 8
// columns (w even, at most 32; x as wide): each row's dot
// product with x in num.Dots' lane order and its residual,
//
//	z_t = row_tᵀx − float64(signs_t),  t < nb,
//
// two rows a step, with signs advanced past the block (paxpys then adds
// the weighted sums). The operations are laneDots' in their order, so
// the bits are the Go loops' (TestPackedSquaresSIMD). How they are laid
// out is what V8 (node 20, x64) turned out to run fastest, about 0.9 of
// pdots and the residual loop it replaces (node's CPU clock, ijcnn1's
// 24 columns):
//
//   - the steps of eight columns (lane pairs (0, 1) … (6, 7) at constant
//     offsets) are unrolled, each after the first entered by a branch on
//     w (w ≥ 8(s+1)), then the w mod 8 = 2, 4 or 6 columns left. The
//     branches are what keep V8's code tight: TurboFan schedules a basic
//     block's loads ahead of its arithmetic, and with a row pair's twelve
//     x pairs in one block they held twelve of its fifteen vector
//     registers and spilled the lanes (the unrolled form tried on branch
//     wasmratio); one step's four beside the eight lanes fit. The rows'
//     addresses carry the step's offset and the row loads only 8k: V8
//     gives each distinct offset of a load it folds into the conversion
//     a register of its own (the memory's base plus it), and twelve
//     spilled.
//   - a lane starts at its first product instead of +0 + that product,
//     and the two sums of a pair get +0 added at the end. The two differ
//     only where a lane's products so far are all −0, and then only in
//     the zero's sign: every sum after is the same number, the same bits
//     once nonzero, and a zero sum is +0 either way once +0 is added (a
//     lane that starts at +0 is never −0, so neither is the Go loops'
//     sum). Four additions a row fewer, one a pair more.
//   - the residuals are subtracted two at a time as the sums are made
//     (the labels widened from two bytes), not in a loop of their own.
//
// Tried and dropped (branch recalwasm): widening each row to float64
// once, in this pass, into a scratch the weighted sums read (paxpys
// converts every float32 again, and on L1-resident rows it ran 3.5 ns a
// row of 24 against 2.5 from float64 rows). With the stores in the pass
// TurboFan scheduled every step's conversions ahead of the arithmetic
// again and spilled; one row a step kept the registers but the whole
// gradient was 0.97–0.98 of this form's time, not worth a scratch of
// zn·w float64 more.
type sqPass struct {
	f                                *fn
	rm, x, signs, z, stride, nb, w   uint32 // psqgrad's parameters and its block size
	sp, k, acc                       uint32 // psqgrad's prefix, its pairs a row and acc
	zv                               uint32 // a row pair's residuals (v128)
	ra, rb, zp, ze, w8, tb, xt, wodd uint32 // i32 locals
	rt                               [2]uint32
	lanes                            [2][4]uint32
	xv                               [4]uint32
	tree                             [2]uint32
}

func newSqPass(f *fn, rm, x, signs, z, stride, nb, w, sp, k, acc uint32) *sqPass {
	s := &sqPass{f: f, rm: rm, x: x, signs: signs, z: z, stride: stride, nb: nb, w: w, sp: sp, k: k, acc: acc}
	for _, l := range []*uint32{&s.ra, &s.rb, &s.zp, &s.ze, &s.w8, &s.tb, &s.xt, &s.wodd, &s.rt[0], &s.rt[1]} {
		*l = f.local(i32)
	}
	V := func() uint32 { return f.local(v128) }
	for r := range s.lanes {
		for k := range s.lanes[r] {
			s.lanes[r][k] = V()
		}
	}
	for k := range s.xv {
		s.xv[k] = V()
	}
	s.tree = [2]uint32{V(), V()}
	s.zv = V()
	return s
}

// prefixTerms adds the prefix's terms of rows whose residuals are lanes
// 0 … len(lanes)−1 of zv when k = 1 (one pair a row: acc_c +=
// z·float64(a) for the pair (8c, a) at sp, sp advancing), here in the
// pass that makes the residuals rather than in a loop of their own after
// paxpys (psqgrad), which cost about what the prefix saved there.
func (s *sqPass) prefixTerms(acc uint32, lanes ...byte) {
	f := s.f
	f.Get(s.k)
	f.I32Const(1)
	f.I32Eq()
	f.If()
	for r, l := range lanes {
		f.Get(acc)
		f.Get(s.sp)
		f.I32Load(uint32(8 * r))
		f.I32Add()
		f.Tee(s.rt[0])
		f.Get(s.rt[0])
		f.F64Load(0)
		f.Get(s.zv)
		f.F64x2ExtractLane(l)
		f.Get(s.sp)
		f.F32Load(uint32(8*r + 4))
		f.F64PromoteF32()
		f.F64Mul()
		f.F64Add()
		f.F64Store(0)
	}
	f.Inc(s.sp, int32(8*len(lanes)))
	f.End()
}

// pairs adds the products of a step's lane pairs ks (columns 2k, 2k+1
// of the step, k < 4) of each row to its lanes: x's pair loaded once
// from xAddr + xOff + 16k, row r's two float32 from rows[r] + 8k,
// promoted. first sets the lanes to the products.
func (s *sqPass) pairs(rows []uint32, ks []int, xAddr func(), xOff uint32, first bool) {
	f := s.f
	for _, k := range ks {
		xAddr()
		f.V128Load(xOff + uint32(16*k))
		f.Set(s.xv[k])
	}
	for _, k := range ks {
		for r, row := range rows {
			if !first {
				f.Get(s.lanes[r][k])
			}
			f.Get(row)
			f.V128Load64Zero(uint32(8 * k))
			f.F64x2PromoteLow()
			f.Get(s.xv[k])
			f.F64x2Mul()
			if !first {
				f.F64x2Add()
			}
			f.Set(s.lanes[r][k])
		}
	}
}

// rowsDots sets tree[r] to the first levels of rows[r]'s tree.
func (s *sqPass) rowsDots(rows ...uint32) {
	f := s.f
	xAddr := func() { f.Get(s.x) }
	// Steps 0–3: columns 8s … 8s+7; step s > 0 only if w ≥ 8(s+1).
	f.Block()
	for st := range 4 {
		at := rows
		if st > 0 {
			f.Get(s.w8)
			f.I32Const(int32(st))
			f.I32LeU()
			f.BrIf(0)
			at = s.rt[:len(rows)]
			for r, row := range rows {
				f.Get(row)
				f.I32Const(int32(32 * st))
				f.I32Add()
				f.Set(at[r])
			}
		}
		s.pairs(at, []int{0, 1, 2, 3}, xAddr, uint32(64*st), st == 0)
	}
	f.End()
	// The last w mod 8 = 2, 4 or 6 columns (one, two or three lane
	// pairs): rows + tb, x + xt; each pair after the first behind a
	// branch, as the steps are.
	f.Get(s.wodd)
	f.If()
	{
		for r, row := range rows {
			f.Get(row)
			f.Get(s.tb)
			f.I32Add()
			f.Set(s.rt[r])
		}
		xt := func() { f.Get(s.xt) }
		s.pairs(s.rt[:len(rows)], []int{0}, xt, 0, false)
		f.Get(s.wodd)
		f.I32Const(4)
		f.I32And()
		f.If()
		{
			s.pairs(s.rt[:len(rows)], []int{1}, xt, 0, false)
			f.Get(s.wodd)
			f.I32Const(2)
			f.I32And()
			f.If()
			s.pairs(s.rt[:len(rows)], []int{2}, xt, 0, false)
			f.End()
		}
		f.End()
	}
	f.End()
	for r := range rows {
		laneTree(f, s.lanes[r], s.tree[r])
	}
}

// block emits the pass over psqgrad's current block (rm, nb rows) into
// z, signs advanced by nb.
func (s *sqPass) block() {
	f := s.f
	// w8 = w/8; wodd = w & 6 (the tail's columns); tb = 4·(w &^ 7) (the
	// tail's byte offset in a row); xt = x + 2·tb.
	f.Get(s.w)
	f.I32Const(3)
	f.I32ShrU()
	f.Set(s.w8)
	f.Get(s.w)
	f.I32Const(6)
	f.I32And()
	f.Set(s.wodd)
	f.Get(s.w)
	f.I32Const(-8)
	f.I32And()
	f.I32Const(2)
	f.I32Shl()
	f.Set(s.tb)
	f.Get(s.x)
	f.Get(s.tb)
	f.I32Const(1)
	f.I32Shl()
	f.I32Add()
	f.Set(s.xt)
	f.Get(s.rm)
	f.Set(s.ra)
	f.Get(s.z)
	f.Set(s.zp)
	// ze = z + 8·(nb &^ 1): the end of the pairs.
	f.Get(s.z)
	f.Get(s.nb)
	f.I32Const(-2)
	f.I32And()
	f.I32Const(3)
	f.I32Shl()
	f.I32Add()
	f.Set(s.ze)
	f.LoopUntil(func() { f.Get(s.zp); f.Get(s.ze); f.I32GeU() })
	{
		f.Get(s.ra)
		f.Get(s.stride)
		f.I32Add()
		f.Set(s.rb)
		s.rowsDots(s.ra, s.rb)
		// z[t], z[t+1] = the sums + 0 − the two labels, widened exactly.
		f.Get(s.zp)
		pairSums(f, s.tree)
		f.V128Const(0, 0)
		f.F64x2Add()
		f.Get(s.signs)
		f.V128Load16Splat(0)
		f.I16x8ExtendLowI8x16S()
		f.I32x4ExtendLowI16x8S()
		f.F64x2ConvertLowI32x4S()
		f.F64x2Sub()
		f.Tee(s.zv)
		f.V128Store(0)
		s.prefixTerms(s.acc, 0, 1)
		f.Get(s.rb)
		f.Get(s.stride)
		f.I32Add()
		f.Set(s.ra)
		f.Inc(s.zp, 16)
		f.Inc(s.signs, 2)
	}
	f.EndLoop()
	// An odd last row.
	f.Get(s.nb)
	f.I32Const(1)
	f.I32And()
	f.If()
	{
		s.rowsDots(s.ra)
		s.storeOne()
	}
	f.End()
}

// storeOne stores tree[0]'s sum + 0 − float64(signs[0]) at zp and
// advances signs.
func (s *sqPass) storeOne() {
	f := s.f
	f.Get(s.zp)
	f.Get(s.tree[0])
	f.F64x2ExtractLane(0)
	f.Get(s.tree[0])
	f.F64x2ExtractLane(1)
	f.F64Add()
	f.F64Const(0)
	f.F64Add()
	f.Get(s.signs)
	f.I32Load8S(0)
	f.F64ConvertI32S()
	f.F64Sub()
	f.F64x2Splat()
	f.Tee(s.zv)
	f.F64x2ExtractLane(0)
	f.F64Store(0)
	f.Inc(s.signs, 1)
	s.prefixTerms(s.acc, 0)
}
