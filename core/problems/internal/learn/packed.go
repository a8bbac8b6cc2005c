package learn

import "dpsim/core/num"

// Packed is a view's dense float32 rows copied, in view order, row-major
// with each row padded to a multiple of four columns, so that a full
// gradient reads contiguous memory with no row index: the dot products
// read each row's features in SIMD lanes (core/num's lane order, the bits
// of Rows.Dots), the axpys the features of a row in SIMD lanes with up
// to packTile entries held in registers through a block of rows (each
// entry's terms still added in row order, the bits of Rows.Axpys).
//
// It costs about the view's features again (ijcnn1's 49,990 × 22 train
// split over any number of shards: 4.8 MB), so Pack builds it only where
// the AVX2 kernels or the WebAssembly SIMD module (packed_simd.go) read
// it. A Packed is read-only after Pack and safe for concurrent use.
type Packed struct {
	rows  Rows
	d, d4 int
	rm    []float32 // view row k, feature j at k·d4 + j; padding columns 0
}

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
	return pack(r)
}

// pack builds the row-major copy of r's float32 rows.
func pack(r Rows) *Packed {
	s, m := r.Set, r.Len()
	d := s.Cols
	p := &Packed{rows: r, d: d, d4: (d + 3) &^ 3}
	p.rm = make([]float32, m*p.d4)
	for k := range m {
		i := r.Row(k)
		copy(p.rm[k*p.d4:], s.Features[i*d:(i+1)*d])
	}
	return p
}

// Bytes returns the memory the copy holds.
func (p *Packed) Bytes() int { return 4 * len(p.rm) }

// Dots writes a_kᵀx for view rows k = lo, …, lo+len(out)−1 into out, as
// Rows.Dots does (the same bits).
func (p *Packed) Dots(lo int, x []float64, out []float64) {
	n := len(out)
	if lo < 0 || lo+n > p.rows.Len() {
		panic("learn: Packed.Dots rows outside the view")
	}
	if n == 0 {
		return
	}
	packedDots(p.rm[lo*p.d4:(lo+n)*p.d4], p.d4, p.d, n, x[:p.d], out)
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

// packedDotsGo is packedDots in Go: out[k] = num.DotOf(row k's d
// features at rm[k·stride:], x), k < n.
func packedDotsGo(rm []float32, stride, d, n int, x, out []float64) {
	for k := range out[:n] {
		out[k] = num.DotOf(rm[k*stride:k*stride+d], x)
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

// PackBytes is the memory Pack takes for rows dense float32 rows of cols
// features, however they are split into views: 0 where Pack builds
// nothing (packKernels), else the row-major copy — for a problem's
// memory estimate, before any data is loaded.
func PackBytes(rows int64, cols int) int64 {
	if !packKernels() || rows <= 0 || cols <= 0 {
		return 0
	}
	return 4 * rows * int64((cols+3)&^3)
}
