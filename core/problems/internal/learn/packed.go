package learn

import "dpsim/core/num"

// Packed is a view's dense float32 rows copied, in view order, so that a
// full gradient reads contiguous memory with no row index: row-major
// with each row padded to a multiple of four columns (the axpys: the
// features of a row in SIMD lanes, up to packTile entries held in
// registers through a block of rows, each entry's terms still added in
// row order — the bits of Rows.Axpys; and the dot products where there
// is no other copy), and, where amd64's AVX2 kernel reads it, also
// feature-major in groups of packGroup rows (the dot products: the rows
// in SIMD lanes, one of core/num's eight lanes at a time). Either way
// Dots gives the bits of Rows.Dots.
//
// It costs about the view's features again, twice on amd64 (ijcnn1's
// 49,990 × 22 train split over any number of shards: 4.8 MB row-major
// plus 4.4 MB feature-major), so Pack builds it only where the AVX2
// kernels or the WebAssembly SIMD module (packed_simd.go) read it. A
// Packed is read-only after Pack and safe for concurrent use.
type Packed struct {
	rows   Rows
	d, d4  int
	groups int
	rm     []float32 // view row k, feature j at k·d4 + j; padding columns 0
	tr     []float32 // nil, or group g, feature j, row l at (g·d + j)·packGroup + l; padding rows 0
	pre    prefix    // the SIMD module's sparse first columns (packed_simd.go), or none
}

// prefix is the nonzeros of each row's first s columns, k a row (rows
// with fewer padded with zeros): row t's at ents[2kt:2k(t+1)] as pairs
// (8·column, the float32's bits). Built under js/wasm with the SIMD
// module, whose weighted sums add them one by one and run the dense
// kernel over the other columns only (psqgrad); k = 0: none.
//
// Where k = 1 and s ≥ 8 it also holds dense, the rows' columns s8 … w−1
// (s8 = s rounded down to a multiple of 8, w the width rounded up to
// even) as float64, w − s8 a row, and a mask table just before ents in
// the same array (s rows of 16 uint32): psqgrad's float64 mode, whose
// dot products start from each row's prefix term and whose two passes
// widen no float32 (ijcnn1: columns 8 … 21, 5.6 MB beside the 4.8 MB of
// float32 rows).
type prefix struct {
	ents  []uint32
	k, s  int
	dense []float64
}

// packPrefix, where set (packed_simd.go), builds p.pre in pack.
var packPrefix func(p *Packed)

// prefixBound bounds the bytes of the sparse prefixes of rows rows of
// cols features split into shards views: at most w/3 pairs of two uint32
// a row, w = cols rounded up to even (buildPrefix takes k < (s − 4)/3),
// and, for k = 1, at most w − 8 float64 a row and a mask table of 64
// bytes a prefix column a view; 0 where none is built.
func prefixBound(rows int64, cols, shards int) int64 {
	if packPrefix == nil {
		return 0
	}
	w := int64((cols + 1) &^ 1)
	return 8*rows*(w/3) + 8*rows*max(w-8, 0) + 64*w*int64(max(shards, 1))
}

// packGroup is the rows of one feature-major group: eight registers of
// four float64, eight independent sums hiding the adder's latency.
const packGroup = 32

// packTile is the most columns one axpy pass keeps in registers.
const packTile = 32

// Pack returns r's rows packed for the full-pass kernels, or nil where
// they would not read it: without the AVX2 kernels or the SIMD module
// (other processors, js/wasm without the dpsimsimd tag or the module
// linked, purego), on byte (pixel) sets, on sets with a sparse form
// (their sparse kernels skip the zeros), and on empty views.
func Pack(r Rows) *Packed {
	if !packKernels() || r.Set.Pixels != nil || r.Set.Cols == 0 || r.Len() == 0 || r.sparse() != nil {
		return nil
	}
	return pack(r, packFeatureMajor())
}

// pack builds the row-major copy of r's float32 rows, and the
// feature-major one when tr is set.
func pack(r Rows, tr bool) *Packed {
	s, m := r.Set, r.Len()
	d := s.Cols
	p := &Packed{rows: r, d: d, d4: (d + 3) &^ 3, groups: (m + packGroup - 1) / packGroup}
	p.rm = make([]float32, m*p.d4)
	if tr {
		p.tr = make([]float32, p.groups*packGroup*d)
	}
	for k := range m {
		i := r.Row(k)
		row := s.Features[i*d : (i+1)*d : (i+1)*d]
		copy(p.rm[k*p.d4:], row)
		if tr {
			t := p.tr[(k/packGroup)*d*packGroup+k%packGroup:]
			for j, v := range row {
				t[j*packGroup] = v
			}
		}
	}
	if packPrefix != nil {
		packPrefix(p)
	}
	return p
}

// Bytes returns the memory the copies hold.
func (p *Packed) Bytes() int {
	b := 4 * (len(p.rm) + len(p.tr) + len(p.pre.ents))
	if p.pre.dense != nil {
		b += 8*len(p.pre.dense) + 64*p.pre.s // the rows and the mask table
	}
	return b
}

// Dots writes a_kᵀx for view rows k = lo, …, lo+len(out)−1 into out, as
// Rows.Dots does (the same bits): from the feature-major groups when
// there are some and lo is a multiple of packGroup (as the full passes'
// blocks are), else from the row-major copy.
func (p *Packed) Dots(lo int, x []float64, out []float64) {
	n := len(out)
	if lo < 0 || lo+n > p.rows.Len() {
		panic("learn: Packed.Dots rows outside the view")
	}
	if n == 0 {
		return
	}
	x = x[:p.d]
	if p.tr == nil || lo%packGroup != 0 {
		packedDots(p.rm[lo*p.d4:(lo+n)*p.d4], p.d4, p.d, n, x, out)
		return
	}
	g0, full := lo/packGroup, n/packGroup
	if full > 0 {
		packedTrDots(p.tr[g0*p.d*packGroup:(g0+full)*p.d*packGroup], full, p.d, x, out[:full*packGroup])
	}
	if rest := n - full*packGroup; rest > 0 {
		// The last group's padding rows are zeros: score the whole group
		// and keep the view's rows.
		var buf [packGroup]float64
		g := g0 + full
		packedTrDots(p.tr[g*p.d*packGroup:(g+1)*p.d*packGroup], 1, p.d, x, buf[:])
		copy(out[full*packGroup:], buf[:rest])
	}
}

// Axpys adds Σ_t c[t]·a_{lo+t} to out as Rows.Axpys does (the same bits:
// each entry's terms in row order), up to packTile columns per pass over
// the rows, the entries held in registers through the pass.
func (p *Packed) Axpys(lo int, c []float64, out []float64) {
	n := len(c)
	if lo < 0 || lo+n > p.rows.Len() {
		panic("learn: Packed.Axpys rows outside the view")
	}
	out = out[:p.d]
	if n == 0 {
		return
	}
	for c0 := 0; c0 < p.d; c0 += packTile {
		w := min(packTile, p.d-c0)
		var acc [packTile]float64
		copy(acc[:w], out[c0:c0+w])
		packedAxpys(p.rm[lo*p.d4+c0:(lo+n-1)*p.d4+c0+((w+3)&^3)], p.d4, n, c, (w+3)/4, &acc)
		copy(out[c0:c0+w], acc[:w])
	}
}

// squaresTile is the most columns (a multiple of four) amd64's fused
// squared-loss kernel takes: six ymm registers of the gradient and six
// of the widened row, beside the dot product's two lane registers and
// two temporaries, fill the sixteen.
const squaresTile = 24

// squaresBlock is the rows of one block of SquaresGrad's two passes
// where there is no fused kernel: a block's dot products, then its
// weighted sum.
const squaresBlock = 256

// SquaresGrad writes Σ_k (a_kᵀx − s_k)·a_k over every row of the view
// into out — the squared loss's gradient sum with labels s_k =
// signs[k], each nonzero (the ±1 of a binary model) — with the bits of
// Dots, the subtraction and Axpys over blocks of rows into a zeroed out:
// each row's dot product in core/num's lane order, each entry's terms
// in row order. Where amd64's AVX2 kernel takes the width (d ≤
// squaresTile: ijcnn1's 22) this is one pass, each row read and widened
// once and its residual added at once (packedSquares); elsewhere the
// two passes, a block of rows at a time.
func (p *Packed) SquaresGrad(x []float64, signs []int8, out []float64) {
	m := p.rows.Len()
	x, out, signs = x[:p.d], out[:p.d], signs[:m]
	clear(out)
	if m == 0 {
		return
	}
	if p.d4 <= packTile {
		var xp, acc [packTile]float64
		copy(xp[:], x)
		if packedSquares(p.rm, p.d4, m, xp[:p.d4], signs, p.d, p.d4/4, p.pre, &acc) {
			copy(out, acc[:p.d])
			return
		}
	}
	var z [squaresBlock]float64
	for lo := 0; lo < m; lo += len(z) {
		blk := z[:min(len(z), m-lo)]
		p.Dots(lo, x, blk)
		for t, v := range blk {
			blk[t] = v - float64(signs[lo+t])
		}
		p.Axpys(lo, blk, out)
	}
}

// packedDotsGo is packedDots in Go: out[k] = num.DotOf(row k's d
// features at rm[k·stride:], x), k < n.
func packedDotsGo(rm []float32, stride, d, n int, x, out []float64) {
	for k := range out[:n] {
		out[k] = num.DotOf(rm[k*stride:k*stride+d], x)
	}
}

// packedTrDotsGo is packedTrDots in Go: out[g·packGroup + l] = the lane-
// ordered dot product of row l of group g (feature j at tr[(g·d + j)·
// packGroup + l]) with x, one lane at a time over the group's rows, as
// the AVX2 kernel runs it; num.Combine's tree.
func packedTrDotsGo(tr []float32, groups, d int, x, out []float64) {
	for g := range groups {
		var lanes [num.Lanes][packGroup]float64
		for k := range lanes {
			for j := k; j < d; j += num.Lanes {
				col := tr[(g*d+j)*packGroup : (g*d+j+1)*packGroup : (g*d+j+1)*packGroup]
				for l, a := range col {
					lanes[k][l] += float64(float64(a) * x[j])
				}
			}
		}
		for l := range packGroup {
			var v [num.Lanes]float64
			for k := range v {
				v[k] = lanes[k][l]
			}
			out[g*packGroup+l] = num.Combine(&v)
		}
	}
}

// packedAxpysGo is packedAxpys in Go: for each of n rows (stride floats
// apart from rm's start) and each of the tile's 4·nv columns, acc_j +=
// c_k·rm[k·stride + j], rows in order.
func packedAxpysGo(rm []float32, stride, n int, c []float64, nv int, acc *[packTile]float64) {
	w := 4 * nv
	for k, ck := range c[:n] {
		row := rm[k*stride : k*stride+w : k*stride+w]
		for j, a := range row {
			acc[j] += float64(ck * float64(a))
		}
	}
}

// PackBytes bounds the memory Pack takes for rows dense float32 rows of
// cols features split into shards views: 0 where Pack builds nothing
// (packKernels), else the row-major copy and, where it is built, the
// feature-major one with each shard's last group padded to packGroup
// rows — for a problem's memory estimate, before any data is loaded.
func PackBytes(rows int64, cols, shards int) int64 {
	if !packKernels() || rows <= 0 || cols <= 0 {
		return 0
	}
	c, c4 := int64(cols), int64((cols+3)&^3)
	b := rows * c4
	b += (prefixBound(rows, cols, shards) + 3) / 4
	if packFeatureMajor() {
		b += (rows + int64(max(shards, 1))*(packGroup-1)) * c
	}
	return 4 * b
}
