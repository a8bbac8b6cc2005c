package main

// laneDots writes the dot products of rows with x in num.Dots' lane order
// (core/num, lanes.go) for grad (rows of float64) and pdots (float32,
// promoted exactly): a row's lanes (0, 1), (2, 3), (4, 5), (6, 7) in four
// f64x2 locals, eight columns per step with x's four pairs loaded once
// for the pass's rows; the last d mod 8 columns by pairs into lanes
// (0, 1), (2, 3), (4, 5), then an odd one into the low half of the next
// pair (its high half adds 0·0 = +0, which changes no lane); then
// (l01 + l45) + (l23 + l67) = ((l0+l4)+(l2+l6), (l1+l5)+(l3+l7)) and its
// two halves added: the tree of num.Combine. A pass of two rows gathers
// their halves by shuffles and adds them in one f64x2.
type laneDots struct {
	f         *fn
	x, d8, jb uint32 // x's address, its bytes (8d) and the column's byte offset in x
	f32       bool   // rows hold float32: a column's offset in a row is jb/2
	lanes     [2][4]uint32
	xv        uint32
	tree      [2]uint32
}

// newLaneDots takes the locals of two rows' lanes, x's pair and the
// trees from f; x, d8 and jb are f's.
func newLaneDots(f *fn, x, d8, jb uint32, f32 bool) *laneDots {
	l := &laneDots{f: f, x: x, d8: d8, jb: jb, f32: f32}
	for r := range l.lanes {
		for k := range l.lanes[r] {
			l.lanes[r][k] = f.local(v128)
		}
	}
	l.xv = f.local(v128)
	l.tree = [2]uint32{f.local(v128), f.local(v128)}
	return l
}

// at pushes the address of base's value at column jb: x and float64
// rows at jb, float32 rows at jb/2.
func (l *laneDots) at(base uint32) {
	l.f.Get(base)
	l.f.Get(l.jb)
	if l.f32 && base != l.x {
		l.f.I32Const(1)
		l.f.I32ShrU()
	}
	l.f.I32Add()
}

// pair pushes the f64x2 of base's two values at column jb + off/8.
func (l *laneDots) pair(base, off uint32) {
	l.at(base)
	if l.f32 && base != l.x {
		l.f.V128Load64Zero(off / 2)
		l.f.F64x2PromoteLow()
		return
	}
	l.f.V128Load(off)
}

// one pushes (base's value at column jb, +0).
func (l *laneDots) one(base uint32) {
	l.at(base)
	if l.f32 && base != l.x {
		l.f.V128Load32Zero(0)
		l.f.F64x2PromoteLow()
		return
	}
	l.f.V128Load64Zero(0)
}

// rows sets the trees' first levels of one or two rows (their addresses
// in the locals rows) into l.tree.
func (l *laneDots) rows(rows ...uint32) {
	f := l.f
	for r := range rows {
		for _, ln := range l.lanes[r] {
			f.V128Const(0, 0)
			f.Set(ln)
		}
	}
	// acc adds row·x at the column to lane pair k of each row, x's
	// values loaded once into xv.
	acc := func(k int, load func(base uint32)) {
		load(l.x)
		f.Set(l.xv)
		for r, row := range rows {
			f.Get(l.lanes[r][k])
			load(row)
			f.Get(l.xv)
			f.F64x2Mul()
			f.F64x2Add()
			f.Set(l.lanes[r][k])
		}
	}
	f.I32Const(0)
	f.Set(l.jb)
	f.LoopUntil(func() { f.Get(l.jb); f.I32Const(64); f.I32Add(); f.Get(l.d8); f.I32GtU() })
	{
		for k := range 4 {
			acc(k, func(b uint32) { l.pair(b, uint32(16*k)) })
		}
		f.Inc(l.jb, 64)
	}
	f.EndLoop()
	// The tail: jb + 16 ≤ d8 for each whole pair, then jb < d8 for an
	// odd one; lane pairs k = 0, 1, 2, 3 in turn.
	f.Block()
	for k := range 4 {
		f.Get(l.jb)
		f.I32Const(16)
		f.I32Add()
		f.Get(l.d8)
		f.I32GtU()
		f.If()
		{
			f.Get(l.jb)
			f.Get(l.d8)
			f.I32LtU()
			f.If()
			acc(k, l.one)
			f.End()
			f.Br(1)
		}
		f.End()
		if k < 3 {
			acc(k, func(b uint32) { l.pair(b, 0) })
			f.Inc(l.jb, 16)
		}
	}
	f.End()
	// Each row's first levels of the tree, into tree[r].
	for r := range rows {
		laneTree(f, l.lanes[r], l.tree[r])
	}
}

// laneTree emits the first levels of num.Combine's tree over one row's
// four f64x2 lanes into tree: (lanes 0 + 2) + (lanes 1 + 3).
func laneTree(f *fn, ls [4]uint32, tree uint32) {
	f.Get(ls[0])
	f.Get(ls[2])
	f.F64x2Add()
	f.Get(ls[1])
	f.Get(ls[3])
	f.F64x2Add()
	f.F64x2Add()
	f.Set(tree)
}

// sums2 pushes the two rows' sums as one f64x2.
func (l *laneDots) sums2() { pairSums(l.f, l.tree) }

// pairSums pushes the last level of num.Combine's tree for two rows whose
// first levels are in tree[0] and tree[1]: their sums as one f64x2.
func pairSums(f *fn, tree [2]uint32) {
	f.Get(tree[0])
	f.Get(tree[1])
	f.Shuffle64(0, 2)
	f.Get(tree[0])
	f.Get(tree[1])
	f.Shuffle64(1, 3)
	f.F64x2Add()
}

// sum1 pushes the one row's sum in both lanes (the two halves added
// either way round: the same bits).
func (l *laneDots) sum1() {
	f := l.f
	f.Get(l.tree[0])
	f.Get(l.tree[0])
	f.Get(l.tree[0])
	f.Shuffle64(1, 0)
	f.F64x2Add()
}

// store2 stores the two rows' sums at the address addr pushes.
func (l *laneDots) store2(addr func()) {
	addr()
	l.sums2()
	l.f.V128Store(0)
}

// store1 stores the one row's sum at the address addr pushes.
func (l *laneDots) store1(addr func()) {
	f := l.f
	addr()
	f.Get(l.tree[0])
	f.F64x2ExtractLane(0)
	f.Get(l.tree[0])
	f.F64x2ExtractLane(1)
	f.F64Add()
	f.F64Store(0)
}
