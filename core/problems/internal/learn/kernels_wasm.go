//go:build !purego

package learn

// Under js/wasm the full passes (Dots, Axpys) run whole blocks of rows
// in WebAssembly assembly (kernels_wasm.s): the row loop as well as the
// column loop, so that Go's per-row work — Row, the slices and their
// bounds checks, a call through the Go stack each four rows, every jump
// through the function's block dispatcher — is paid once a block. On
// ijcnn1 (22 values a row) that work cost as much as the arithmetic. The
// arithmetic and its order are the Go loops' (rows.go, sparse.go): each
// dot product left to right in its own accumulator, each axpy entry its
// rows' terms in row order, products rounded apart from sums
// (WebAssembly has no fused multiply-add), so the bits are the same
// (TestBlockedKernels and TestSparseKernels, run under js/wasm).

// dotsF32 writes Σ_j float64(f[o+j])·x_j for the 4·groups rows starting at
// the float32 offsets o = off[0], off[1], … into out, four rows per pass
// over x, d = len(x) columns.
//
//go:noescape
func dotsF32(f *float32, off *int, groups int, x *float64, d int, out *float64)

// axpysF32 adds c[k]·f[off[k]+j] to out_j for the 4·groups rows k in row
// order, four rows per pass over out's d entries.
//
//go:noescape
func axpysF32(f *float32, off *int, groups int, c *float64, d int, out *float64)

// sdotsPix writes Σ_t float64(pix[t])·x[col[t]] / 255 over t = start[i] …
// start[i+1]−1 for the 4·groups rows i = rows[0], rows[1], … into out,
// four rows' chains interleaved over their common length, then each row's
// rest (sdot4Pix's order).
//
//go:noescape
func sdotsPix(start *int, col *uint16, pix *uint8, rows *int, groups int, x *float64, out *float64)

// saxpysPix adds (c[k]/255)·float64(pix[t]) to out[col[t]] for each
// nonzero t of each of the n rows k = rows[0], rows[1], …, row after row
// (saxpyPix's order).
//
//go:noescape
func saxpysPix(start *int, col *uint16, pix *uint8, rows *int, n int, c *float64, out *float64)

// asmBlock is the most rows one call of the block kernels takes.
const asmBlock = 64

// offsets writes the start of view rows lo … lo+len(off)−1 in the set's
// features (row index · d) into off, checking that each row lies inside
// the features (the assembly loads them unchecked).
func (r Rows) offsets(lo int, off []int) {
	s := r.Set
	if len(s.Features) < s.Rows*s.Cols {
		panic("learn: a set's features are shorter than its rows")
	}
	r.rowsOf(lo, off)
	for k := range off {
		off[k] *= s.Cols
	}
}

// rowsOf writes the set's row indices of view rows lo … lo+len(dst)−1
// into dst, checking each against the set's row count.
func (r Rows) rowsOf(lo int, dst []int) {
	s := r.Set
	if r.Idx == nil {
		if lo < 0 || lo+len(dst) > s.Rows {
			panic("learn: view rows outside the set")
		}
		for k := range dst {
			dst[k] = lo + k
		}
		return
	}
	for k, i := range r.Idx[lo : lo+len(dst)] {
		if uint(i) >= uint(s.Rows) {
			panic("learn: a view row outside its set")
		}
		dst[k] = i
	}
}

// dotsWide writes a_kᵀx for the first multiple of four of the view rows
// lo, lo+1, … (at most len(out)) into out in assembly and returns how many
// rows it did: 0 on pixel rows.
func (r Rows) dotsWide(lo int, x []float64, out []float64) int {
	d := r.Set.Cols
	if r.Set.Pixels != nil || d == 0 {
		return 0
	}
	x = x[:d]
	done := 0
	var off [asmBlock]int
	for m := len(out) &^ 3; done < m; {
		b := min(asmBlock, m-done)
		r.offsets(lo+done, off[:b])
		dotsF32(&r.Set.Features[0], &off[0], b/4, &x[0], d, &out[done])
		done += b
	}
	return done
}

// axpysWide adds Σ_t c[t]·a_{lo+t} to out over the first multiple of four
// of len(c) rows in assembly, each entry's terms in row order, and
// returns how many rows it did: 0 on pixel rows.
func (r Rows) axpysWide(lo int, c []float64, out []float64) int {
	d := r.Set.Cols
	if r.Set.Pixels != nil || d == 0 {
		return 0
	}
	out = out[:d]
	done := 0
	var off [asmBlock]int
	for m := len(c) &^ 3; done < m; {
		b := min(asmBlock, m-done)
		r.offsets(lo+done, off[:b])
		axpysF32(&r.Set.Features[0], &off[0], b/4, &c[done], d, &out[0])
		done += b
	}
	return done
}

// sparseDotsWide is sparseDots's assembly over the first multiple of four
// of len(out) rows of a pixel set's sparse form (x finite, len(x) = the
// set's columns, which bound every col entry); it returns how many rows
// it did: 0 on float32 sets.
func (r Rows) sparseDotsWide(sp *sparseRows, lo int, x []float64, out []float64) int {
	if sp.pix == nil || len(sp.pix) == 0 || len(x) < r.Set.Cols {
		return 0
	}
	done := 0
	var rows [asmBlock]int
	for m := len(out) &^ 3; done < m; {
		b := min(asmBlock, m-done)
		r.rowsOf(lo+done, rows[:b])
		sdotsPix(&sp.start[0], &sp.col[0], &sp.pix[0], &rows[0], b/4, &x[0], &out[done])
		done += b
	}
	return done
}

// sparseAxpysWide is sparseAxpys's assembly over all of c's rows of a
// pixel set's sparse form (c finite, out free of −0, len(out) = the set's
// columns); it returns how many rows it did: 0 on float32 sets.
func (r Rows) sparseAxpysWide(sp *sparseRows, lo int, c []float64, out []float64) int {
	if sp.pix == nil || len(sp.pix) == 0 || len(out) < r.Set.Cols {
		return 0
	}
	done := 0
	var rows [asmBlock]int
	for done < len(c) {
		b := min(asmBlock, len(c)-done)
		r.rowsOf(lo+done, rows[:b])
		saxpysPix(&sp.start[0], &sp.col[0], &sp.pix[0], &rows[0], b, &c[done], &out[0])
		done += b
	}
	return done
}
