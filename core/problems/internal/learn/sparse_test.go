package learn

import (
	"math"
	"runtime"
	"testing"
	"weak"

	"dpsim/core/data"
	"dpsim/core/num"
	"dpsim/core/rng"
)

// sparseSets returns a float32 set and a pixel set of rows×cols with
// about zeros of the features zero (some stored as −0 in the float32
// set) and rows 0 and 5 all zero.
func sparseSets(rows, cols int, zeros float64) (f, px *data.Set) {
	s := rng.New(7, "learn/sparse-test")
	f = &data.Set{Name: "sf", Split: "train", Rows: rows, Cols: cols, Features: make([]float32, rows*cols),
		Y: make([]uint8, rows), Classes: []string{"a", "b"}}
	px = &data.Set{Name: "sp", Split: "train", Rows: rows, Cols: cols, Pixels: make([]uint8, rows*cols),
		Y: f.Y, Classes: f.Classes}
	for i := range rows {
		f.Y[i] = uint8(i % 2)
		for j := range cols {
			k := i*cols + j
			if i == 0 || i == 5 || s.Float64() < zeros {
				if s.Float64() < 0.3 {
					f.Features[k] = float32(math.Copysign(0, -1))
				}
				continue
			}
			f.Features[k] = float32(s.Float64())
			px.Pixels[k] = uint8(1 + s.IntN(255))
		}
	}
	return f, px
}

// TestSparseKernels checks that the sparse Dots give exactly the bits of
// a sparse row's lane order (core/num: stored term t to lane t mod 8;
// sparseRef) and of Dot, and the sparse Axpys those of the dense ones —
// through a permutation, for block lengths that are and are not
// multiples of four, on all-zero rows, at points x with −0 and negative
// entries (products ±0), with accumulators that cancel to 0 — and that
// the axpys fall back to the dense loops where skipping would change a
// bit: an infinite coefficient (0·Inf is NaN) or an out holding −0. The
// dot products skip zero features whatever x holds (an infinite or NaN
// x among the points).
func TestSparseKernels(t *testing.T) {
	for _, cols := range []int{1, 5, 22, 61} {
		f, px := sparseSets(41, cols, 0.75)
		for _, s := range []*data.Set{f, px} {
			if newSparseRows(s, SparseDensity) == nil {
				t.Fatalf("cols %d, pixels %v: no sparse form at 75 %% zeros", cols, s.Pixels != nil)
			}
			idx := make([]int, s.Rows)
			for k := range idx {
				idx[k] = (k * 13) % s.Rows // 13 is prime to 41: a permutation
			}
			for _, r := range []Rows{{Set: s}, {Set: s, Idx: idx}} {
				if !r.Sparse() {
					t.Fatal("a set at 75 % zeros runs dense")
				}
				// Dense: the Go loops (and AVX2), sparse: the sparse form.
				dense := denseRows{r}
				sparse := r
				points := map[string][]float64{}
				x := make([]float64, cols)
				for c := range x {
					x[c] = math.Sin(float64(3*c+1)) / 3
				}
				points["sin"] = x
				negz := make([]float64, cols)
				for c := range negz {
					negz[c] = math.Copysign(0, -1)
				}
				points["all −0"] = negz
				mixed := append([]float64(nil), x...)
				for c := 0; c < cols; c += 2 {
					mixed[c] = math.Copysign(0, -1)
				}
				points["half −0"] = mixed
				points["+Inf"] = append(append([]float64(nil), x...)[:cols-1], math.Inf(1))
				points["NaN"] = append([]float64{math.NaN()}, x[1:]...)
				for name, x := range points {
					for _, n := range []int{0, 1, 4, 6, 9, 41} {
						want, got := make([]float64, n), make([]float64, n)
						dense.Dots(0, x, want)
						sparse.Dots(0, x, got)
						for k := range n {
							// The sparse row's lane order, by its
							// definition, whatever x holds.
							w := sparseRef(s, r.Row(k), x)
							if math.Float64bits(w) != math.Float64bits(got[k]) && !(math.IsNaN(w) && math.IsNaN(got[k])) {
								t.Fatalf("cols %d, pixels %v, idx %v, x %s, n %d: sparse Dots[%d] = %v, want %v",
									cols, s.Pixels != nil, dense.Idx != nil, name, n, k, got[k], w)
							}
							if d := r.Dot(k, x); math.Float64bits(d) != math.Float64bits(got[k]) && !(math.IsNaN(d) && math.IsNaN(got[k])) {
								t.Fatalf("cols %d, pixels %v, idx %v, x %s, n %d: sparse Dots[%d] = %v, Dot %v",
									cols, s.Pixels != nil, dense.Idx != nil, name, n, k, got[k], d)
							}
						}
						for _, coef := range []string{"slopes", "±0", "cancel", "Inf"} {
							c := make([]float64, n)
							for k := range c {
								switch coef {
								case "slopes":
									c[k] = float64(want[k]*1.5) - 0.25
								case "±0":
									c[k] = math.Copysign(0, float64(k%2)-0.5)
								case "cancel": // rows k and k+1 cancel where they share a feature
									c[k] = float64(1 - 2*(k%2))
								case "Inf":
									c[k] = math.Inf(1 - 2*(k%2))
								}
							}
							for _, start := range []string{"+0", "−0 entries"} {
								wout, gout := make([]float64, cols), make([]float64, cols)
								if start != "+0" {
									for j := 0; j < cols; j += 3 {
										wout[j], gout[j] = math.Copysign(0, -1), math.Copysign(0, -1)
									}
								}
								dense.Axpys(0, c, wout)
								sparse.Axpys(0, c, gout)
								for j := range wout {
									if math.Float64bits(wout[j]) != math.Float64bits(gout[j]) {
										t.Fatalf("cols %d, pixels %v, idx %v, x %s, n %d, c %s, out %s: sparse Axpys[%d] = %v, dense %v",
											cols, s.Pixels != nil, dense.Idx != nil, name, n, coef, start, j, gout[j], wout[j])
									}
								}
							}
						}
					}
				}
			}
		}
	}
}

// TestSparseForm checks the density rule (a set above SparseDensity
// nonzero keeps the dense loops), that −0 features count as zeros, that
// the form holds exactly the nonzero features, and that views of one set
// share one form.
func TestSparseForm(t *testing.T) {
	dense, _ := sparseSets(20, 10, 0.3)
	if sp := newSparseRows(dense, SparseDensity); sp != nil {
		t.Fatalf("a set with 70 %% nonzeros got a sparse form of %d entries", len(sp.col))
	}
	// 40 % nonzero: sparse as float32, dense as pixels (the form would
	// outgrow the bytes).
	f40, px40 := sparseSets(40, 10, 0.6)
	if !(Rows{Set: f40}).Sparse() || (Rows{Set: px40}).Sparse() {
		t.Fatalf("at 40 %% nonzeros: float32 sparse %v (want true), pixels sparse %v (want false)",
			Rows{Set: f40}.Sparse(), Rows{Set: px40}.Sparse())
	}
	f, px := sparseSets(20, 10, 0.8)
	for _, s := range []*data.Set{f, px} {
		sp := newSparseRows(s, SparseDensity)
		if sp == nil {
			t.Fatal("no sparse form at 80 % zeros")
		}
		per := 6 // uint16 column + float32 value
		if s.Pixels != nil {
			per = 3
		}
		if got, want := sp.Bytes(), 8*(s.Rows+1)+per*len(sp.col); got != want {
			t.Fatalf("pixels %v: the form reports %d bytes, holds %d", s.Pixels != nil, got, want)
		}
		for i := range s.Rows {
			k := sp.start[i]
			for j := range s.Cols {
				if s.At(i, j) == 0 {
					continue
				}
				if k >= sp.start[i+1] || int(sp.col[k]) != j {
					t.Fatalf("pixels %v: row %d: nonzero feature %d missing from the sparse form", s.Pixels != nil, i, j)
				}
				k++
			}
			if k != sp.start[i+1] {
				t.Fatalf("pixels %v: row %d: %d entries in the sparse form, %d nonzero features", s.Pixels != nil, i, sp.start[i+1]-sp.start[i], k-sp.start[i])
			}
		}
	}
	a := (Rows{Set: f}).sparse()
	views, err := Split(f, 3, Shuffled, 1)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range append(views, Rows{Set: f}.Sub(2, 7)) {
		if (Rows{Set: px}).sparse() == a || v.sparse() != a {
			t.Fatalf("view %d of a set does not share its sparse form", i)
		}
	}
}

// TestSparseCacheForgets checks that the process-wide cache of sparse
// forms lets a set go: its entry is removed once the set is collected
// (synthetic sets are drawn per run).
func TestSparseCacheForgets(t *testing.T) {
	k := func() weak.Pointer[data.Set] {
		f, _ := sparseSets(10, 4, 0.8)
		(Rows{Set: f}).sparse()
		return weak.Make(f)
	}()
	other, _ := sparseSets(10, 4, 0.8)
	(Rows{Set: other}).sparse() // the last lookup no longer holds f
	for range 100 {
		runtime.GC()
		runtime.Gosched()
		if !sparseForms.cached(k) {
			return
		}
	}
	t.Fatal("the sparse form of a collected set is still cached after 100 collections")
}

// sparseRef is a sparse row's dot product by the definition of core/num's
// lane order (lanes.go): the row's nonzero features, in column order,
// and x at their columns, as two dense vectors summed by num.Dot (term t
// to lane t mod 8), divided by 255 on pixels.
func sparseRef(s *data.Set, i int, x []float64) float64 {
	var v, g []float64
	for j := range s.Cols {
		a := float64(0)
		if s.Pixels != nil {
			a = float64(s.Pixels[i*s.Cols+j])
		} else {
			a = float64(s.Features[i*s.Cols+j])
		}
		if a != 0 {
			v, g = append(v, a), append(g, x[j])
		}
	}
	if s.Pixels != nil {
		return num.Dot(v, g) / 255
	}
	return num.Dot(v, g)
}

// denseRows runs a view's Dots and Axpys with the sparse kernels off.
type denseRows struct{ Rows }

func (d denseRows) Dots(lo int, x, out []float64) {
	useSparse = false
	defer func() { useSparse = true }()
	d.Rows.Dots(lo, x, out)
}

func (d denseRows) Axpys(lo int, c, out []float64) {
	useSparse = false
	defer func() { useSparse = true }()
	d.Rows.Axpys(lo, c, out)
}

// TestSquaresGradSparse checks that Rows.SquaresGrad on a sparse form
// (three blocks of rows, the −0 scan skipped after the first) gives
// exactly the bits of Dot, the subtraction and Axpy row after row into
// a zeroed sum (the dense loops), at points whose products are ±0, whose
// residuals are exactly 0 (every product +0: the sum then cancels to
// the signs alone) and whose residuals are infinite (the sparse axpys
// must then not run: 0·Inf is NaN).
func TestSquaresGradSparse(t *testing.T) {
	const rows, cols = 2*squaresBlock + 37, 23
	f, px := sparseSets(rows, cols, 0.75)
	for _, s := range []*data.Set{f, px} {
		idx := make([]int, rows-3)
		for k := range idx {
			idx[k] = (k*101 + 2) % rows // 101 is prime to 549: distinct rows
		}
		for _, r := range []Rows{{Set: s}, {Set: s, Idx: idx}} {
			if !r.Sparse() {
				t.Fatal("a set at 75 % zeros runs dense")
			}
			m := r.Len()
			signs := make([]int8, m)
			for k := range signs {
				signs[k] = int8(1 - 2*(k%3%2))
			}
			x := make([]float64, cols)
			for c := range x {
				x[c] = math.Sin(float64(3*c+1)) / 3
			}
			negz := make([]float64, cols)
			for c := range negz {
				negz[c] = math.Copysign(0, float64(c%2)-0.5)
			}
			inf := append([]float64(nil), x...)
			inf[cols/2] = math.Inf(1)
			for name, x := range map[string][]float64{"sin": x, "±0": negz, "+Inf": inf} {
				want := make([]float64, cols)
				for k := range m {
					r.Axpy(k, r.Dot(k, x)-float64(signs[k]), want)
				}
				got := make([]float64, cols)
				for j := range got {
					got[j] = 1.5 // overwritten, not added to
				}
				r.SquaresGrad(x, signs, got)
				for j := range want {
					if math.Float64bits(want[j]) != math.Float64bits(got[j]) && !(math.IsNaN(want[j]) && math.IsNaN(got[j])) {
						t.Fatalf("pixels %v, idx %v, x %s: Rows.SquaresGrad[%d] = %v, Dot and Axpy row by row %v", s.Pixels != nil, r.Idx != nil, name, j, got[j], want[j])
					}
				}
			}
		}
	}
}
