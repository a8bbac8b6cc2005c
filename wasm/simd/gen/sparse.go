package main

// The sparse pixel rows of core/problems/internal/learn (sparse.go: a
// set's compressed-row form, uint16 columns and the nonzero bytes; the
// Go side in sparse_simd.go): the dot products in core/num's lane order
// for a sparse row (num.GatherDot: stored term t to lane t mod 8, then
// num.Combine's tree, then ÷255), the weighted sums row after row
// (saxpy: out[c] += (k/255)·v, each entry's terms in row order), and the
// squared loss's whole gradient sum over a shard (Rows.SquaresGrad) in
// one call. Each f64x2 lane does the Go loops' operations in their
// order — a byte converted exactly, one product rounded, then one sum,
// no fused multiply-add — so the bits are those of the Go code and of
// amd64's kernels (TestSparseSquaresSIMD, run under js/wasm with the
// dpsimsimd tag). A step of eight nonzeros widens its eight bytes from
// one load (pixels8) and converts them as signed i32 (exact for bytes:
// one instruction on x64, where V8's unsigned conversion is a slower
// sequence; the shard gradient took 0.7 of the time with it).
//
// A view's row k is the set's row idx[k] (idx: Go ints, 8 bytes, whose
// low word is read) or first + k when idx is 0. start holds Go ints too:
// row i's nonzeros are at positions start[i] … start[i+1]−1 of col and
// pix. The pixel pairs are read eight bytes at a time from the pair's
// position (v128.load8x8_u), so up to seven bytes past a row's last
// nonzero are read and not used: the form keeps eight bytes of slack
// past its end (sparseSlack).

// The indices of sdots and saxpys in kernels (TestModule checks them):
// ssqgrad calls them.
const (
	sdotsIndex  = 9
	saxpysIndex = 10
)

// sparseRow holds the locals every sparse kernel walks a row with.
type sparseRow struct {
	f                          *fn
	start, col, pix, idx, frst uint32    // the parameters
	k, pa, pe, cp, a0, a1      uint32    // view row, pixel address and end, column address, two targets
	px                         [4]uint32 // a step's eight bytes as four f64x2 (pixels8)
	pw                         uint32
}

func newSparseRow(f *fn, start, col, pix, idx, first uint32) *sparseRow {
	L := func() uint32 { return f.local(i32) }
	s := &sparseRow{f: f, start: start, col: col, pix: pix, idx: idx, frst: first,
		k: L(), pa: L(), pe: L(), cp: L(), a0: L(), a1: L()}
	for i := range s.px {
		s.px[i] = f.local(v128)
	}
	s.pw = f.local(v128)
	return s
}

// pixels8 sets px to the f64x2 of the byte pairs at pa, pa + 2, pa + 4
// and pa + 6 (exact), from one eight-byte load.
func (s *sparseRow) pixels8() {
	f := s.f
	f.Get(s.pa)
	f.V128Load8x8U(0)
	f.Set(s.pw)
	for h := range 2 {
		f.Get(s.pw)
		if h == 0 {
			f.I32x4ExtendLowI16x8U()
		} else {
			f.I32x4ExtendHighI16x8U()
		}
		f.Tee(s.px[2*h+1])
		f.F64x2ConvertLowI32x4S()
		f.Set(s.px[2*h])
		f.Get(s.px[2*h+1])
		f.Get(s.px[2*h+1])
		f.Shuffle64(1, 1)
		f.F64x2ConvertLowI32x4S()
		f.Set(s.px[2*h+1])
	}
}

// begin sets pa, pe and cp for view row k: its set row i (a0 on the
// way), then pix + start[i], pix + start[i+1] and col + 2·start[i].
func (s *sparseRow) begin() {
	f := s.f
	f.Get(s.frst)
	f.Get(s.k)
	f.I32Add()
	f.Set(s.a0)
	f.Get(s.idx)
	f.If()
	f.Get(s.idx)
	f.Get(s.k)
	f.I32Const(3)
	f.I32Shl()
	f.I32Add()
	f.I32Load(0)
	f.Set(s.a0)
	f.End()
	// a0 = start + 8i.
	f.Get(s.start)
	f.Get(s.a0)
	f.I32Const(3)
	f.I32Shl()
	f.I32Add()
	f.Set(s.a0)
	f.Get(s.pix)
	f.Get(s.a0)
	f.I32Load(8)
	f.I32Add()
	f.Set(s.pe)
	f.Get(s.a0)
	f.I32Load(0)
	f.Tee(s.a1)
	f.Get(s.pix)
	f.I32Add()
	f.Set(s.pa)
	f.Get(s.col)
	f.Get(s.a1)
	f.I32Const(1)
	f.I32Shl()
	f.I32Add()
	f.Set(s.cp)
}

// pixels pushes the f64x2 of the two bytes at pa + off (exact).
func (s *sparseRow) pixels(off uint32) {
	f := s.f
	f.Get(s.pa)
	f.V128Load8x8U(off)
	f.I32x4ExtendLowI16x8U()
	f.F64x2ConvertLowI32x4S() // bytes: signed is exact, and one instruction on x64
}

// target pushes base + 8·c, c the column stored at cp + off: the address
// of base's value at that column.
func (s *sparseRow) target(base, off uint32) {
	f := s.f
	f.Get(base)
	f.Get(s.cp)
	f.I32Load16U(off)
	f.I32Const(3)
	f.I32Shl()
	f.I32Add()
}

// untilLeft opens a loop that ends once fewer than n nonzeros are left
// (pa + n > pe); EndLoop closes it.
func (s *sparseRow) untilLeft(n int32) {
	f := s.f
	f.LoopUntil(func() { f.Get(s.pa); f.I32Const(n); f.I32Add(); f.Get(s.pe); f.I32GtU() })
}

// advance moves pa and cp past n nonzeros.
func (s *sparseRow) advance(n int32) {
	s.f.Inc(s.pa, n)
	s.f.Inc(s.cp, 2*n)
}

// sdots is the exported function
//
//	sdots(start, col, pix, idx, first, n, x, out i32) i32
//
// learn's sparseDots on pixel rows: out[k] = num.GatherDot(row k's
// columns, bytes, x)/255 for the n view rows — lanes (0, 1), (2, 3),
// (4, 5), (6, 7) in four f64x2 locals, eight terms a step, x's two
// values at a pair's columns loaded into one f64x2; the last count mod 8
// terms by pairs into lanes (0, 1), (2, 3), (4, 5), then an odd one into
// the low half of the next pair, whose high half adds the next byte times
// x's +0 = +0, which changes no lane (a lane from +0 is never −0); then
// (l01 + l45) + (l23 + l67) and its two halves added, num.Combine's tree.
func sdots() *fn {
	f := &fn{name: "sdots", params: []byte{i32, i32, i32, i32, i32, i32, i32, i32}, results: []byte{i32}}
	const start, col, pix, idx, first, n, x, out = 0, 1, 2, 3, 4, 5, 6, 7
	s := newSparseRow(f, start, col, pix, idx, first)
	var ln [4]uint32
	for i := range ln {
		ln[i] = f.local(v128)
	}
	// pair adds the bytes at pa + off times x at the columns stored at
	// cp + 2·off to lanes i; odd: only the first (x's high half +0).
	pair := func(i int, off uint32, odd, step bool) {
		f.Get(ln[i])
		if step {
			f.Get(s.px[i])
		} else {
			s.pixels(off)
		}
		if !odd {
			s.target(x, 2*off+2)
		}
		s.target(x, 2*off)
		f.V128Load64Zero(0)
		if !odd {
			f.V128Load64Lane(0, 1)
		}
		f.F64x2Mul()
		f.F64x2Add()
		f.Set(ln[i])
	}
	f.LoopUntil(func() { f.Get(s.k); f.Get(n); f.I32GeU() })
	{
		s.begin()
		for _, l := range ln {
			f.V128Const(0, 0)
			f.Set(l)
		}
		s.untilLeft(8)
		{
			s.pixels8()
			for i := range 4 {
				pair(i, uint32(2*i), false, true)
			}
			s.advance(8)
		}
		f.EndLoop()
		// The tail: pa + 2 ≤ pe for each whole pair, then pa < pe for an
		// odd one; lanes i = 0, 1, 2, 3 in turn.
		f.Block()
		for i := range 4 {
			f.Get(s.pa)
			f.I32Const(2)
			f.I32Add()
			f.Get(s.pe)
			f.I32GtU()
			f.If()
			{
				f.Get(s.pa)
				f.Get(s.pe)
				f.I32LtU()
				f.If()
				pair(i, 0, true, false)
				f.End()
				f.Br(1)
			}
			f.End()
			if i < 3 {
				pair(i, 0, false, false)
				s.advance(2)
			}
		}
		f.End()
		// out[k] = ((l01 + l45) + (l23 + l67)), its halves added, ÷255.
		f.Get(out)
		f.Get(s.k)
		f.I32Const(3)
		f.I32Shl()
		f.I32Add()
		f.Get(ln[0])
		f.Get(ln[2])
		f.F64x2Add()
		f.Get(ln[1])
		f.Get(ln[3])
		f.F64x2Add()
		f.F64x2Add()
		f.Tee(ln[0])
		f.F64x2ExtractLane(0)
		f.Get(ln[0])
		f.F64x2ExtractLane(1)
		f.F64Add()
		f.F64Const(255)
		f.F64Div()
		f.F64Store(0)
		f.Inc(s.k, 1)
	}
	f.EndLoop()
	f.I32Const(1)
	return f
}

// saxpys is the exported function
//
//	saxpys(start, col, pix, idx, first, n, c, out i32) i32
//
// learn's sparseAxpys on pixel rows: for each of the n view rows k in
// turn, out[col] += (c[k]/255)·float64(byte) over its nonzeros — the
// product of a pair of nonzeros in one f64x2, added to out's two entries
// at their columns (distinct within a row) gathered into one f64x2 and
// stored back lane by lane; an odd last one in scalar. Every entry adds
// its rows' terms in row order, as the Go loop (saxpy).
func saxpys() *fn {
	f := &fn{name: "saxpys", params: []byte{i32, i32, i32, i32, i32, i32, i32, i32}, results: []byte{i32}}
	const start, col, pix, idx, first, n, c, out = 0, 1, 2, 3, 4, 5, 6, 7
	s := newSparseRow(f, start, col, pix, idx, first)
	kf := f.local(f64)
	kv, o := f.local(v128), f.local(v128)
	// pair adds k times the bytes at pa + off to out at the columns
	// stored at cp + 2·off.
	pair := func(off uint32, step bool) {
		s.target(out, 2*off)
		f.Set(s.a0)
		s.target(out, 2*off+2)
		f.Set(s.a1)
		f.Get(s.a1)
		f.Get(s.a0)
		f.V128Load64Zero(0)
		f.V128Load64Lane(0, 1)
		f.Get(kv)
		if step {
			f.Get(s.px[off/2])
		} else {
			s.pixels(off)
		}
		f.F64x2Mul()
		f.F64x2Add()
		f.Set(o)
		f.Get(s.a0)
		f.Get(o)
		f.V128Store64Lane(0, 0)
		f.Get(s.a1)
		f.Get(o)
		f.V128Store64Lane(0, 1)
	}
	f.LoopUntil(func() { f.Get(s.k); f.Get(n); f.I32GeU() })
	{
		s.begin()
		f.Get(c)
		f.Get(s.k)
		f.I32Const(3)
		f.I32Shl()
		f.I32Add()
		f.F64Load(0)
		f.F64Const(255)
		f.F64Div()
		f.Tee(kf)
		f.F64x2Splat()
		f.Set(kv)
		s.untilLeft(8)
		{
			s.pixels8()
			for i := range 4 {
				pair(uint32(2*i), true)
			}
			s.advance(8)
		}
		f.EndLoop()
		s.untilLeft(2)
		{
			pair(0, false)
			s.advance(2)
		}
		f.EndLoop()
		f.Get(s.pa)
		f.Get(s.pe)
		f.I32LtU()
		f.If()
		{
			s.target(out, 0)
			f.Tee(s.a0)
			f.Get(s.a0)
			f.F64Load(0)
			f.Get(kf)
			f.Get(s.pa)
			f.I32Load8U(0)
			f.F64ConvertI32U()
			f.F64Mul()
			f.F64Add()
			f.F64Store(0)
		}
		f.End()
		f.Inc(s.k, 1)
	}
	f.EndLoop()
	f.I32Const(1)
	return f
}

// ssqgrad is the exported function
//
//	ssqgrad(start, col, pix, idx, first, n, x, signs, z, out, zn i32) i32
//
// learn's Rows.SquaresGrad on a pixel set's sparse form: the squared
// loss's gradient sum Σ_k (a_kᵀx − signs[k])·a_k over the n view rows
// added to out (zeroed by Go), a block of zn ≥ 1 rows at a time through
// the scratch z (zn float64): sdots into z, each residual z_t −
// float64(signs_t) (int8), then saxpys — the same blocks and operations
// as the Go loop, in one call from Go. Go runs the sparse weighted sum
// only over a block whose residuals are all finite (0·Inf is NaN: it
// takes the dense loops there), so a block with a residual that is
// infinite or NaN (r − r ≠ 0) stops the call before it touches out: it
// returns the rows done, lo, a multiple of zn, and n when all are.
func ssqgrad() *fn {
	f := &fn{name: "ssqgrad", params: []byte{i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32}, results: []byte{i32}}
	const start, col, pix, idx, first, n, x, signs, z, out, zn = 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10
	L := func() uint32 { return f.local(i32) }
	lo, nb, ib, p, e, sp := L(), L(), L(), L(), L(), L()
	fin := [2]uint32{f.local(f64), f.local(f64)}
	f.LoopUntil(func() { f.Get(lo); f.Get(n); f.I32GeU() })
	{
		// nb = min(zn, n − lo); ib = idx + 8·lo, or 0 when idx is.
		f.Get(zn)
		f.Get(n)
		f.Get(lo)
		f.I32Sub()
		f.Tee(nb)
		f.Get(nb)
		f.Get(zn)
		f.I32GtU()
		f.Select()
		f.Set(nb)
		f.Get(idx)
		f.Get(lo)
		f.I32Const(3)
		f.I32Shl()
		f.I32Add()
		f.I32Const(0)
		f.Get(idx)
		f.Select()
		f.Set(ib)
		args := func(last uint32) {
			f.Get(start)
			f.Get(col)
			f.Get(pix)
			f.Get(ib)
			f.Get(first)
			f.Get(lo)
			f.I32Add()
			f.Get(nb)
			f.Get(last)
		}
		args(x)
		f.Get(z)
		f.Call(sdotsIndex)
		f.Drop()
		// z_t −= float64(signs[lo+t]); fin[0] adds each r − r (+0, or
		// NaN for an infinite or NaN r).
		f.F64Const(0)
		f.Set(fin[0])
		f.Get(signs)
		f.Get(lo)
		f.I32Add()
		f.Set(sp)
		residuals(f, z, nb, sp, p, e, &fin)
		f.Get(fin[0])
		f.Get(fin[0])
		f.F64Ne()
		f.If()
		f.Get(lo)
		f.Return()
		f.End()
		args(z)
		f.Get(out)
		f.Call(saxpysIndex)
		f.Drop()
		f.Get(lo)
		f.Get(nb)
		f.I32Add()
		f.Set(lo)
	}
	f.EndLoop()
	f.Get(n)
	return f
}
