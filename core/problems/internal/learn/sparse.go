package learn

import (
	"math"

	"dpsim/core/data"
	"dpsim/core/num"
)

// SparseDensity is the largest fraction of nonzero features at which a
// float32 set gets a sparse row form (sparseRows): above it the sparse
// kernels' index loads and scattered adds cost more than the zero terms
// they skip (ijcnn1, 59 % nonzero, runs twice as fast dense), and the
// form (6 bytes a nonzero) would outgrow three quarters of the dense
// features (4 bytes an entry) that every other problem still reads.
const SparseDensity = 0.5

// PixelSparseDensity is SparseDensity for byte (pixel) sets: a nonzero
// costs 3 bytes in the form against 1 an entry dense, so the form stays
// no larger than the pixels it sits beside (MNIST, 17–19 % nonzero:
// about half their size; Fashion-MNIST's T-shirts and trousers, 47 %,
// stay dense, where the sparse loops were only 1.4 times as fast).
const PixelSparseDensity = 1.0 / 3

// sparseRows is a data.Set's nonzero features in compressed-row form:
// row i's nonzeros are at positions start[i] … start[i+1]−1 of col (their
// columns, increasing) and of f32 or pix (their values, as the set stores
// them: float32 features or bytes). It is built once per set, from the
// set, and read-only after.
//
// A row's dot product over this form sums its stored terms by position
// (core/num's lane order for a sparse row, num.GatherDot), which is not
// the dense row's order: Rows.Dot and Rows.Dots both use the form
// wherever the set has one, so that every caller gets one sum per row.
//
// The axpys add a row's terms to each entry in row order; skipping a
// zero term leaves those sums' bits unchanged, because adding ±0 to a
// value other than −0 returns it, and a sum that starts at anything but
// −0 is never −0 (+0 + −0 = +0, and x + (−x) = +0 in round-to-nearest).
// An accumulator may be handed in as −0, and a non-finite coefficient
// makes 0·c NaN: the axpy kernels check for both (finite, noNegZero) and
// then run the dense loops.
type sparseRows struct {
	start []int
	col   []uint16
	f32   []float32
	pix   []uint8
}

// sparseSlack is the zero entries of col and pix kept past their ends
// (in their capacity): amd64's sparse dot kernel loads a row's last
// columns and bytes eight at a time and masks off what it does not use.
const sparseSlack = 8

// maxSparseCols bounds the columns a uint16 index can name.
const maxSparseCols = 1 << 16

// newSparseRows returns s's compressed-row form, or nil when more than
// maxDensity of its features are nonzero (or it has too many columns
// for a uint16 index). A feature stored as −0 counts as zero: its
// products are ±0 like +0's.
func newSparseRows(s *data.Set, maxDensity float64) *sparseRows {
	total := s.Rows * s.Cols
	if total == 0 || s.Cols > maxSparseCols {
		return nil
	}
	nnz := 0
	if s.Pixels != nil {
		for _, p := range s.Pixels[:total] {
			if p != 0 {
				nnz++
			}
		}
	} else {
		for _, v := range s.Features[:total] {
			if v != 0 {
				nnz++
			}
		}
	}
	if float64(nnz) > maxDensity*float64(total) {
		return nil
	}
	sp := &sparseRows{start: make([]int, s.Rows+1), col: make([]uint16, 0, nnz+sparseSlack)}
	if s.Pixels != nil {
		sp.pix = make([]uint8, 0, nnz+sparseSlack)
	} else {
		sp.f32 = make([]float32, 0, nnz)
	}
	d := s.Cols
	for i := range s.Rows {
		if s.Pixels != nil {
			for j, p := range s.Pixels[i*d : (i+1)*d] {
				if p != 0 {
					sp.col = append(sp.col, uint16(j))
					sp.pix = append(sp.pix, p)
				}
			}
		} else {
			for j, v := range s.Features[i*d : (i+1)*d] {
				if v != 0 {
					sp.col = append(sp.col, uint16(j))
					sp.f32 = append(sp.f32, v)
				}
			}
		}
		sp.start[i+1] = len(sp.col)
	}
	return sp
}

// Bytes returns the memory the form holds (docs/performance.md counts
// it beside the dense features).
func (sp *sparseRows) Bytes() int {
	return 8*len(sp.start) + 2*len(sp.col) + 4*len(sp.f32) + len(sp.pix)
}

// sparseForms holds each set's sparse form (nil: the set is dense), built
// on the first full pass over any view of the set.
var sparseForms = newPerSet(func(s *data.Set) *sparseRows {
	limit := SparseDensity
	if s.Pixels != nil {
		limit = PixelSparseDensity
	}
	return newSparseRows(s, limit)
})

// useSparse selects the sparse kernels; tests turn it off to compare.
var useSparse = true

// sparse returns the sparse form of r's set, or nil when the set is
// dense: built on the first full pass over any view of the set, shared
// by all of them.
func (r Rows) sparse() *sparseRows {
	if !useSparse {
		return nil
	}
	return sparseForms.get(r.Set)
}

// Sparse reports whether r's full-pass kernels (Dots, Axpys) run over a
// sparse form of its set.
func (r Rows) Sparse() bool { return r.sparse() != nil }

// negZero is the bit pattern of −0.
const negZero = 1 << 63

// finite reports whether every entry of x is finite (no ±Inf, no NaN),
// the precondition of the sparse axpy: 0·c is then ±0.
func finite(x []float64) bool {
	bad := uint64(0)
	for _, v := range x {
		// The exponent field is all ones exactly for ±Inf and NaN.
		bad |= (math.Float64bits(v)>>52&0x7ff + 1) >> 11
	}
	return bad == 0
}

// noNegZero reports whether no entry of out is −0, the precondition of
// the sparse axpy: adding a skipped +0 would turn −0 into +0.
func noNegZero(out []float64) bool {
	for _, v := range out {
		if math.Float64bits(v) == negZero {
			return false
		}
	}
	return true
}

// value is what a sparse row holds: float32 features, or pixel bytes (not
// yet divided by 255). The kernels below are written once for both; each
// instantiation does the same float64 operations in the same order.
type value interface{ float32 | uint8 }

// dot returns row i's sum Σ_t float64(v_t)·x[c_t] over its stored
// nonzeros, term t to lane t mod 8 (num.GatherDot: core/num's lane order
// for a sparse row), divided by 255 on pixels.
func (sp *sparseRows) dot(i int, x []float64) float64 {
	a, b := sp.start[i], sp.start[i+1]
	if sp.pix != nil {
		return num.GatherDot(sp.col[a:b], sp.pix[a:b], x) / 255
	}
	return num.GatherDot(sp.col[a:b], sp.f32[a:b], x)
}

// saxpy adds k·float64(v_t) to out[c_t] for each nonzero (for pixels, k
// already divided by 255).
func saxpy[V value](k float64, c []uint16, v []V, out []float64) {
	v = v[:len(c)]
	for t, j := range c {
		out[j] += float64(k * float64(v[t]))
	}
}

// sparseDots is Dots over the sparse form sp.
func (r Rows) sparseDots(sp *sparseRows, lo int, x []float64, out []float64) {
	for t := r.sparseDotsWide(sp, lo, x, out); t < len(out); t++ { // js/wasm: assembly, pixel rows
		out[t] = sp.dot(r.Row(lo+t), x)
	}
}

// sparseAxpys is Axpys over the sparse form sp (c finite, out free of
// −0): row after row, so each entry's terms still add in row order.
func (r Rows) sparseAxpys(sp *sparseRows, lo int, c []float64, out []float64) {
	st := sp.start
	done := r.sparseAxpysWide(sp, lo, c, out) // js/wasm: assembly, pixel rows
	for t := done; t < len(c); t++ {
		k := c[t]
		i := r.Row(lo + t)
		a, b := st[i], st[i+1]
		if sp.pix != nil {
			saxpy(k/255, sp.col[a:b], sp.pix[a:b], out)
		} else {
			saxpy(k, sp.col[a:b], sp.f32[a:b], out)
		}
	}
}
