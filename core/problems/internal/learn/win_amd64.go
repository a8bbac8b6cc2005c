//go:build !purego

package learn

import (
	"dpsim/core/data"
	"dpsim/core/internal/cpufeat"
)

// The sparse dot products of pixel sets by windows (amd64, AVX-512 and
// BMI2). A row's stored term t goes to lane t mod 8 (num.GatherDot), and
// its terms are in column order, so the terms in any eight consecutive
// columns are consecutive terms: they fall in distinct lanes. Each row's
// nonzeros are covered by windows of eight columns (greedily: a window
// starts at the first nonzero not yet covered, or at d − 8 near the end),
// and a window adds, in one vector add, x at its eight columns permuted
// so that each of its terms lands in its own lane, times its bytes in the
// same lane order, with 0 in the lanes it has no term for. Every lane
// thus gets the same products in the same order as from the term-by-term
// kernel, with some ±0 between them: the lanes start at +0, a sum that
// starts at +0 is never −0, and adding ±0 to any other value returns it —
// the same bits, as long as x is finite (0·±Inf is NaN), which the caller
// checks. One vector operation a window instead of one a lane: MNIST 0 vs
// 1 has 135.5 nonzeros a row in 28.3 windows. The term-by-term kernel
// loads each term's column and x at it apart (about 4.6 micro-ops a
// term); a window loads x's eight columns in one load and permutes them
// (VPERMPD) by offsets computed once, with the window's first column
// packed into the offsets' spare bits (PEXT).

// pixWin is a pixel set's windows: row i's are rec[2·start[i]] …
// rec[2·start[i+1]−1], two words a window: its bytes in lane order (0 in
// a lane without a term), then each lane's column within the window in
// bits 0–2 of its byte, the window's first column c split over bits 3–7
// of the first two bytes (c mod 32, then c/32).
type pixWin struct {
	start []int
	rec   []uint64
}

// winMaxCols bounds the columns a window's first column can name (ten
// bits in the offsets' spare bits).
const winMaxCols = 1 << 10

// newPixWin returns s's windows, or nil when s is not a pixel set, has
// fewer than eight or more than winMaxCols columns.
func newPixWin(s *data.Set) *pixWin {
	d := s.Cols
	if s.Pixels == nil || d < 8 || d > winMaxCols {
		return nil
	}
	pw := &pixWin{start: make([]int, s.Rows+1)}
	for i := range s.Rows {
		row := s.Pixels[i*d : (i+1)*d]
		t := 0 // the row's terms so far
		for j := 0; j < d; j++ {
			if row[j] == 0 {
				continue
			}
			c := min(j, d-8)
			var pix, off uint64
			// The window's terms: its nonzeros from j on (those before j
			// belong to earlier windows).
			for ; j < c+8; j++ {
				if row[j] == 0 {
					continue
				}
				l := uint(t%8) * 8
				pix |= uint64(row[j]) << l
				off |= uint64(j-c) << l
				t++
			}
			j-- // the loop's j++ moves past the window
			off |= uint64(c%32)<<3 | uint64(c/32)<<11
			pw.rec = append(pw.rec, pix, off)
		}
		pw.start[i+1] = len(pw.rec) / 2
	}
	return pw
}

// useWin selects the window kernel; tests and benchmarks turn it off to
// compare.
var useWin = true

// winForms holds each pixel set's windows, built on the first AVX-512
// sparse dot product over a view of the set.
var winForms = newPerSet(newPixWin)

//go:noescape
func wdotsPixAVX512(start *int, rec *uint64, idx *int, first, n int, x *float64, out *float64)

// winDots is sparseDotsWide's window kernel over all of out's rows (x
// with at least the set's columns); it returns how many rows it did: 0
// without AVX-512 and BMI2, on a set without windows, or when x has an
// entry that is not finite (a zero lane's 0·x would be NaN).
func (r Rows) winDots(lo int, x []float64, out []float64) int {
	m := len(out)
	if !useWin || !useAVX512 || !cpufeat.BMI2 || r.Set.Pixels == nil || m == 0 || !finite(x[:r.Set.Cols]) {
		return 0
	}
	pw := winForms.get(r.Set)
	if pw == nil || len(pw.rec) == 0 {
		return 0
	}
	idx, first := r.checkedRows(lo, m)
	wdotsPixAVX512(&pw.start[0], &pw.rec[0], idx, first, m, &x[0], &out[0])
	return m
}
