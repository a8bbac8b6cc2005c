package learn

// Packed is a view's dense float32 rows copied, in view order, into the
// two layouts of the full-pass kernels, so that a full gradient reads
// contiguous memory with no row index: the dot products read the rows
// feature-major in groups of packGroup rows (one row a SIMD lane, each
// row's sum still left to right over its features), the axpys read them
// row-major with each row padded to a multiple of four columns (the
// features of a row in SIMD lanes, each entry's terms still added in row
// order). Dots and Axpys give the bits of Rows.Dots and Rows.Axpys.
//
// It costs about twice the view's features (ijcnn1's 49,990 × 22 train
// split over any number of shards: 4.4 MB feature-major plus 4.8 MB
// row-major), so Pack builds it only where the AVX2 kernels or the
// WebAssembly SIMD module (packed_simd.go) read it. A Packed is
// read-only after Pack and safe for concurrent use.
type Packed struct {
	rows   Rows
	d, d4  int
	groups int
	tr     []float32 // group g, feature j, lane l at (g·d + j)·packGroup + l; padding rows 0
	rm     []float32 // view row k, feature j at k·d4 + j; padding columns 0
}

// packGroup is the rows of one feature-major group: eight lanes of four
// float64, eight independent sums hiding the adder's latency.
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
	return pack(r)
}

// pack builds the two layouts of r's float32 rows.
func pack(r Rows) *Packed {
	s, m := r.Set, r.Len()
	d := s.Cols
	p := &Packed{rows: r, d: d, d4: (d + 3) &^ 3, groups: (m + packGroup - 1) / packGroup}
	p.tr = make([]float32, p.groups*packGroup*d)
	p.rm = make([]float32, m*p.d4)
	for k := range m {
		i := r.Row(k)
		row := s.Features[i*d : (i+1)*d : (i+1)*d]
		copy(p.rm[k*p.d4:], row)
		g, l := k/packGroup, k%packGroup
		t := p.tr[g*d*packGroup+l:]
		for j, v := range row {
			t[j*packGroup] = v
		}
	}
	return p
}

// Bytes returns the memory the two layouts hold.
func (p *Packed) Bytes() int { return 4 * (len(p.tr) + len(p.rm)) }

// Dots writes a_kᵀx for view rows k = lo, …, lo+len(out)−1 into out, as
// Rows.Dots does (the same bits). lo a multiple of packGroup (as the
// full passes' blocks are) reads the feature-major groups; any other lo
// falls back to Rows.Dots.
func (p *Packed) Dots(lo int, x []float64, out []float64) {
	n := len(out)
	if lo < 0 || lo+n > p.rows.Len() {
		panic("learn: Packed.Dots rows outside the view")
	}
	if lo%packGroup != 0 {
		p.rows.Dots(lo, x, out)
		return
	}
	x = x[:p.d]
	g0, full := lo/packGroup, n/packGroup
	if full > 0 {
		packedDots(p.tr[g0*p.d*packGroup:(g0+full)*p.d*packGroup], full, p.d, x, out[:full*packGroup])
	}
	if rest := n - full*packGroup; rest > 0 {
		// The last group's padding rows are zeros: score the whole group
		// and keep the view's rows.
		var buf [packGroup]float64
		g := g0 + full
		packedDots(p.tr[g*p.d*packGroup:(g+1)*p.d*packGroup], 1, p.d, x, buf[:])
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

// packedDotsGo is packedDots in Go: out[g·packGroup + l] = Σ_j
// float64(tr[(g·d + j)·packGroup + l])·x_j, left to right from +0.
func packedDotsGo(tr []float32, groups, d int, x, out []float64) {
	for g := range groups {
		var acc [packGroup]float64
		for j, v := range x[:d] {
			col := tr[(g*d+j)*packGroup : (g*d+j+1)*packGroup : (g*d+j+1)*packGroup]
			for l, a := range col {
				acc[l] += float64(float64(a) * v)
			}
		}
		copy(out[g*packGroup:(g+1)*packGroup], acc[:])
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
// (packKernels), else both layouts with each shard's last group padded
// to packGroup rows — for a problem's memory estimate, before any data
// is loaded.
func PackBytes(rows int64, cols, shards int) int64 {
	if !packKernels() || rows <= 0 || cols <= 0 {
		return 0
	}
	c, c4 := int64(cols), int64((cols+3)&^3)
	return 4 * ((rows+int64(max(shards, 1))*(packGroup-1))*c + rows*c4)
}
