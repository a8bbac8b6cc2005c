//go:build !purego

package learn

import "dpsim/core/data"

// The sparse axpys of a pixel set split by column density (amd64 only):
// MNIST's digits sit in the middle of the frame, where half the pixels
// of a column are ink, and the rim is nearly blank. The AVX2 sparse axpy
// costs about five micro-ops a nonzero (its column taken apart, a load,
// an add and a store each); a dense pass over four rows at a time costs
// about 1.5 an entry in AVX2 and half that in AVX-512 (the four rows'
// bytes widened, multiplied and added to entries held in a register,
// loaded and stored once): columns whose chunk of four is more than
// hotDensity ink are added densely (hot), the others' nonzeros sparsely
// (rest). The bits are saxpy's: each entry still adds its rows' terms in
// row order (the hot and the rest columns are disjoint, so the two
// passes never share an entry), and a hot column's zero pixels add
// k·0 = ±0, which leaves an entry that is not −0 unchanged — the sparse
// axpys' own conditions (finite k, no −0 in out) cover it. On MNIST 0 vs
// 1 at 0.2, 304 hot columns hold 92 % of the nonzeros; about 10 a row
// are left to the sparse pass. MNIST 0 vs 1's shard axpys, min of 300
// interleaved runs: 64 µs sparse, 53 µs split in AVX2 (at 0.3), 37 µs
// in AVX-512 (at 0.2).

// hotDensity returns the fraction of nonzero pixels above which a chunk
// of hotChunk columns is added densely, for the kernel that will run:
// against about five micro-ops a sparse nonzero, AVX2's 1.5 an entry
// broke even near 0.3 on MNIST 0 vs 1, AVX-512's 0.75 near 0.2 (below,
// the rest's per-row costs take back what the dense pass saves).
func hotDensity() float64 {
	if useAVX512 {
		return 0.2
	}
	return 0.3
}

// hotChunk is the columns of a hot chunk: one ymm of float64.
const hotChunk = 4

// pixHot is a pixel set's columns split for the axpys: the bytes of
// each row at the hot columns (h of them, a multiple of 2·hotChunk — the
// AVX-512 kernel takes two chunks a register — row i's at
// bytes[i·h:(i+1)·h]), the byte offset in out (8·column) of each hot
// chunk's first column, and the nonzeros of the other columns as a
// sparse form of their own.
type pixHot struct {
	h     int
	bytes []uint8
	offs  []uint32
	rest  *sparseRows
}

// newPixHot returns s's split, or nil when no chunk of columns is more
// than minDensity nonzero (s a pixel set).
func newPixHot(s *data.Set, minDensity float64) *pixHot {
	d := s.Cols
	if s.Pixels == nil || s.Rows == 0 || d > maxSparseCols {
		return nil
	}
	cnt := make([]int, d)
	for i := range s.Rows {
		for j, p := range s.Pixels[i*d : (i+1)*d] {
			if p != 0 {
				cnt[j]++
			}
		}
	}
	hot := make([]bool, d)
	var offs []uint32
	for j := 0; j+hotChunk <= d; j += hotChunk {
		n := 0
		for _, c := range cnt[j : j+hotChunk] {
			n += c
		}
		if float64(n) > minDensity*float64(hotChunk*s.Rows) {
			offs = append(offs, uint32(8*j))
			for q := range hotChunk {
				hot[j+q] = true
			}
		}
	}
	if len(offs)%2 == 1 {
		// An even count of chunks: the least dense (the last such)
		// goes back to the rest.
		dens := func(o uint32) int {
			n := 0
			for _, c := range cnt[o/8 : o/8+hotChunk] {
				n += c
			}
			return n
		}
		drop := 0
		for k, o := range offs {
			if dens(o) <= dens(offs[drop]) {
				drop = k
			}
		}
		for q := range hotChunk {
			hot[int(offs[drop]/8)+q] = false
		}
		offs = append(offs[:drop], offs[drop+1:]...)
	}
	if len(offs) == 0 {
		return nil
	}
	h := hotChunk * len(offs)
	ph := &pixHot{h: h, bytes: make([]uint8, 0, s.Rows*h), offs: offs,
		rest: &sparseRows{start: make([]int, s.Rows+1), pix: make([]uint8, 0, sparseSlack)}}
	rest := ph.rest
	for i := range s.Rows {
		row := s.Pixels[i*d : (i+1)*d]
		for _, o := range offs {
			j := int(o / 8)
			ph.bytes = append(ph.bytes, row[j:j+hotChunk]...)
		}
		for j, p := range row {
			if p != 0 && !hot[j] {
				rest.col = append(rest.col, uint16(j))
				rest.pix = append(rest.pix, p)
			}
		}
		rest.start[i+1] = len(rest.col)
	}
	return ph
}

// useHot selects the split axpys; tests and benchmarks turn it off to
// compare.
var useHot = true

// hotSplits holds each pixel set's split (nil: no hot chunk), built on
// the first AVX2 sparse axpy over a view of the set.
var hotSplits = newPerSet(func(s *data.Set) *pixHot { return newPixHot(s, hotDensity()) })

// hot returns the split of r's set (a pixel set), or nil when it has no
// hot chunk.
func (r Rows) hot() *pixHot {
	if !useHot {
		return nil
	}
	return hotSplits.get(r.Set)
}

//go:noescape
func hotAxpysAVX2(hot *uint8, h int, idx *int, first, n int, c *float64, offs *uint32, out *float64)

// hotAxpys adds Σ_t c[t]·a_{lo+t} to out over the split ph, c finite
// and out free of −0 (sparseAxpys's conditions), view rows checked by
// the caller (idx, first: checkedRows): the hot columns four rows a
// pass, then the rest's nonzeros row after row.
func hotAxpys(ph *pixHot, idx *int, first int, c, out []float64) {
	m := len(c)
	if useAVX512 {
		hotAxpysAVX512(&ph.bytes[0], ph.h, idx, first, m, &c[0], &ph.offs[0], &out[0])
	} else {
		hotAxpysAVX2(&ph.bytes[0], ph.h, idx, first, m, &c[0], &ph.offs[0], &out[0])
	}
	if rest := ph.rest; len(rest.pix) > 0 {
		saxpysPixAVX2(&rest.start[0], &rest.col[0], &rest.pix[0], idx, first, m, &c[0], &out[0])
	}
}

//go:noescape
func hotAxpysAVX512(hot *uint8, h int, idx *int, first, n int, c *float64, offs *uint32, out *float64)
