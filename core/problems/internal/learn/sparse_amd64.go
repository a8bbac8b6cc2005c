//go:build !purego

package learn

// The sparse dot products of pixel sets in AVX2 on amd64 (sparse_amd64.s):
// each row's stored terms in core/num's lane order for a sparse row (term
// t to lane t mod 8, num.GatherDot), x gathered at the columns, products
// rounded apart from the sums — GatherDot's bits (TestSparseKernels and
// TestSparseAVX2 hold them); and their axpys, saxpy's operations in
// its order (each entry's terms in row order), four products in one
// register.

//go:noescape
func saxpysPixAVX2(start *int, col *uint16, pix *uint8, idx *int, first, n int, c *float64, out *float64)

//go:noescape
func sdotsPixAVX2(start *int, col *uint16, pix *uint8, idx *int, first, n int, x *float64, out *float64)

// sparseDotsWide is sparseDots's AVX2 kernel over all of out's rows of a
// pixel set's sparse form (len(x) ≥ the set's columns, which bound every
// col entry); it returns how many rows it did: 0 without AVX2 or on
// float32 sets.
func (r Rows) sparseDotsWide(sp *sparseRows, lo int, x []float64, out []float64) int {
	m := len(out)
	if !useAVX2 || sp.pix == nil || len(sp.pix) == 0 || len(x) < r.Set.Cols || m == 0 {
		return 0
	}
	// The kernel loads eight columns and bytes from a row's last step on:
	// the form's slack (newSparseRows) must hold them.
	if cap(sp.col) < len(sp.col)+sparseSlack || cap(sp.pix) < len(sp.pix)+sparseSlack {
		panic("learn: a sparse form without its slack")
	}
	if k := r.winDots(lo, x, out); k > 0 {
		return k
	}
	idx, first := r.checkedRows(lo, m)
	sdotsPixAVX2(&sp.start[0], &sp.col[0], &sp.pix[0], idx, first, m, &x[0], &out[0])
	return m
}

// sparseAxpysWide is sparseAxpys's AVX2 kernel over all of c's rows of a
// pixel set's sparse form (c finite, out free of −0, len(out) ≥ the set's
// columns); it returns how many rows it did: 0 without AVX2 or on float32
// sets.
func (r Rows) sparseAxpysWide(sp *sparseRows, lo int, c []float64, out []float64) int {
	m := len(c)
	if !useAVX2 || sp.pix == nil || len(sp.pix) == 0 || len(out) < r.Set.Cols || m == 0 {
		return 0
	}
	idx, first := r.checkedRows(lo, m)
	if ph := r.hot(); ph != nil {
		hotAxpys(ph, idx, first, c, out)
		return m
	}
	saxpysPixAVX2(&sp.start[0], &sp.col[0], &sp.pix[0], idx, first, m, &c[0], &out[0])
	return m
}

// checkedRows returns the kernels' idx and first for view rows lo …
// lo+n−1 (n ≥ 1: view row k is the set's row idx[k], or first + k when
// idx is nil), having checked that every one is a row of the set (the
// assembly loads rows unchecked).
func (r Rows) checkedRows(lo, n int) (idx *int, first int) {
	if r.Idx == nil {
		if lo < 0 || lo+n > r.Set.Rows {
			panic("learn: view rows outside the set")
		}
		return nil, lo
	}
	v := r.Idx[lo : lo+n]
	for _, i := range v {
		if uint(i) >= uint(r.Set.Rows) {
			panic("learn: a view row outside its set")
		}
	}
	return &v[0], 0
}
