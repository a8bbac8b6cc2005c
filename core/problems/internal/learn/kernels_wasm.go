//go:build !purego

package learn

// Under js/wasm the full passes (Dots, Axpys) run whole blocks of rows
// in WebAssembly assembly (kernels_wasm.s): the row loop as well as the
// column loop, so that Go's per-row work — Row, the slices and their
// bounds checks, a call through the Go stack each row, every jump
// through the function's block dispatcher — is paid once a block. On
// ijcnn1 (22 values a row) that work cost as much as the arithmetic. The
// arithmetic and its order are the Go code's (rows.go, sparse.go): each
// dot product in core/num's lane order in eight scalar lanes (Go's wasm
// assembler has no SIMD; the SIMD module takes the packed rows:
// packed_simd.go), each axpy entry its rows' terms in row order,
// products rounded apart from sums (WebAssembly has no fused
// multiply-add), so the bits are the same (TestBlockedKernels and
// TestSparseKernels, run under js/wasm).

// The kernels take a view's rows as idx and first: view row k is the
// set's row idx[k], or first + k when idx is nil (viewRows).

// dotsF32 writes num.DotOf(row, x) for the n view rows' features (d
// each) into out, one row at a time in eight lanes.
//
//go:noescape
func dotsF32(f *float32, idx *int, first, n int, x *float64, d int, out *float64)

// axpysF32 adds c[k]·f[row_k·d+j] to out_j for the 4·groups view rows k
// in row order, four rows per pass over out's d entries.
//
//go:noescape
func axpysF32(f *float32, idx *int, first, groups int, c *float64, d int, out *float64)

// sdotsPix writes num.GatherDot(col[a:b], pix[a:b], x)/255, a = start[i],
// b = start[i+1], for the n view rows' set rows i into out, one row at a
// time in eight lanes (sparseRows.dot).
//
//go:noescape
func sdotsPix(start *int, col *uint16, pix *uint8, idx *int, first, n int, x *float64, out *float64)

// saxpysPix adds (c[k]/255)·float64(pix[t]) to out[col[t]] for each
// nonzero t of each of the n view rows k, row after row (saxpy's
// order).
//
//go:noescape
func saxpysPix(start *int, col *uint16, pix *uint8, idx *int, first, n int, c *float64, out *float64)

// maxRow returns the largest of idx[0 … n−1] as unsigned (n ≥ 1).
//
//go:noescape
func maxRow(idx *int, n int) uint

// viewRows returns the kernels' idx and first for view rows lo …
// lo+n−1 (n ≥ 1), having checked that every one is a row of the set
// (the assembly loads rows unchecked).
func (r Rows) viewRows(lo, n int) (idx *int, first int) {
	if r.Idx == nil {
		if lo < 0 || lo+n > r.Set.Rows {
			panic("learn: view rows outside the set")
		}
		return nil, lo
	}
	v := r.Idx[lo : lo+n]
	if maxRow(&v[0], n) >= uint(r.Set.Rows) {
		panic("learn: a view row outside its set")
	}
	return &v[0], 0
}

// dotsWide writes a_kᵀx for the view rows lo, lo+1, …, lo+len(out)−1
// into out in assembly and returns how many rows it did: all, or 0 on
// pixel rows.
func (r Rows) dotsWide(lo int, x []float64, out []float64) int {
	s, d, m := r.Set, r.Set.Cols, len(out)
	if s.Pixels != nil || d == 0 || m == 0 {
		return 0
	}
	if len(s.Features) < s.Rows*d {
		panic("learn: a set's features are shorter than its rows")
	}
	x = x[:d]
	idx, first := r.viewRows(lo, m)
	dotsF32(&s.Features[0], idx, first, m, &x[0], d, &out[0])
	return m
}

// axpysWide adds Σ_t c[t]·a_{lo+t} to out over the first multiple of four
// of len(c) rows in assembly, each entry's terms in row order, and
// returns how many rows it did: 0 on pixel rows.
func (r Rows) axpysWide(lo int, c []float64, out []float64) int {
	s, d, m := r.Set, r.Set.Cols, len(c)&^3
	if s.Pixels != nil || d == 0 || m == 0 {
		return 0
	}
	if len(s.Features) < s.Rows*d {
		panic("learn: a set's features are shorter than its rows")
	}
	out = out[:d]
	idx, first := r.viewRows(lo, m)
	axpysF32(&s.Features[0], idx, first, m/4, &c[0], d, &out[0])
	return m
}

// sparseDotsWide is sparseDots's assembly over all of out's rows of a
// pixel set's sparse form (len(x) = the set's columns, which
// bound every col entry); it returns how many rows it did: 0 on float32
// sets.
func (r Rows) sparseDotsWide(sp *sparseRows, lo int, x []float64, out []float64) int {
	m := len(out)
	if sp.pix == nil || len(sp.pix) == 0 || len(x) < r.Set.Cols || m == 0 {
		return 0
	}
	idx, first := r.viewRows(lo, m)
	if !sparseDotsSIMD(sp, idx, first, m, x, out) { // the SIMD module where linked
		sdotsPix(&sp.start[0], &sp.col[0], &sp.pix[0], idx, first, m, &x[0], &out[0])
	}
	return m
}

// sparseAxpysWide is sparseAxpys's assembly over all of c's rows of a
// pixel set's sparse form (c finite, out free of −0, len(out) = the set's
// columns); it returns how many rows it did: 0 on float32 sets.
func (r Rows) sparseAxpysWide(sp *sparseRows, lo int, c []float64, out []float64) int {
	if sp.pix == nil || len(sp.pix) == 0 || len(out) < r.Set.Cols || len(c) == 0 {
		return 0
	}
	idx, first := r.viewRows(lo, len(c))
	if !sparseAxpysSIMD(sp, idx, first, len(c), c, out) { // the SIMD module where linked
		saxpysPix(&sp.start[0], &sp.col[0], &sp.pix[0], idx, first, len(c), &c[0], &out[0])
	}
	return len(c)
}

// LabelRows returns what an assembly kernel elsewhere (the logistic
// model's slopes under js/wasm) needs to read the classes of view rows lo
// … lo+n−1 (n ≥ 1) unchecked: the set's class bytes y and the rows as idx
// and first (view row k is the set's row idx[k], or first + k when idx is
// nil), every one checked to be a row of the set and of y.
func (r Rows) LabelRows(lo, n int) (y *uint8, idx *int, first int) {
	if len(r.Set.Y) < r.Set.Rows {
		panic("learn: a set's classes are shorter than its rows")
	}
	idx, first = r.viewRows(lo, n)
	return &r.Set.Y[0], idx, first
}
