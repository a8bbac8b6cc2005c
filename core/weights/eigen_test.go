package weights

import (
	"cmp"
	"math"
	"math/cmplx"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// randomDense returns an n×n matrix with standard normal entries,
// symmetric when sym is set.
func randomDense(src *rand.Rand, n int, sym bool) []float64 {
	a := make([]float64, n*n)
	for i := range n {
		for j := range n {
			if sym && j < i {
				a[i*n+j] = a[j*n+i]
				continue
			}
			a[i*n+j] = src.NormFloat64()
		}
	}
	return a
}

// The portable symmetric solver agrees with gonum's LAPACK, an
// independent implementation, to within a few ulps of the norm.
func TestSymEigenvaluesAgainstGonum(t *testing.T) {
	src := rand.New(rand.NewPCG(11, 12))
	for _, n := range []int{1, 2, 3, 4, 10, 57, 200} {
		a := randomDense(src, n, true)
		var es mat.EigenSym
		if !es.Factorize(mat.NewSymDense(n, slices.Clone(a)), false) {
			t.Fatal("gonum did not converge")
		}
		want := es.Values(nil)
		got, ok := symEigenvalues(slices.Clone(a), n)
		if !ok {
			t.Fatalf("n = %d: no convergence", n)
		}
		tol := 1e-13 * float64(n) * maxAbs(want)
		for k := range want {
			if math.Abs(got[k]-want[k]) > tol {
				t.Errorf("n = %d: eigenvalue %d = %.17g, gonum %.17g", n, k, got[k], want[k])
				break
			}
		}
	}
}

// The portable general solver agrees with gonum's, eigenvalue by
// eigenvalue, on random matrices (whose eigenvalues are well separated)
// and on the hard cases of the Francis iteration.
func TestGenEigenvaluesAgainstGonum(t *testing.T) {
	src := rand.New(rand.NewPCG(13, 14))
	shift := func(n int) []float64 { // the cyclic shift: n eigenvalues on the unit circle
		a := make([]float64, n*n)
		for i := range n {
			a[i*n+(i+1)%n] = 1
		}
		return a
	}
	jordan := func(n int) []float64 { // one defective eigenvalue 2
		a := make([]float64, n*n)
		for i := range n {
			a[i*n+i] = 2
			if i+1 < n {
				a[i*n+i+1] = 1
			}
		}
		return a
	}
	for _, tc := range []struct {
		name string
		n    int
		a    []float64
		tol  float64
	}{
		{"1×1", 1, []float64{-3}, 0},
		{"2×2 rotation", 2, []float64{0, -1, 1, 0}, 1e-15},
		{"zero", 5, make([]float64, 25), 0},
		{"random 3", 3, randomDense(src, 3, false), 1e-13},
		{"random 40", 40, randomDense(src, 40, false), 1e-11},
		{"random 150", 150, randomDense(src, 150, false), 1e-10},
		{"cyclic shift 7", 7, shift(7), 1e-13},
		{"cyclic shift 100", 100, shift(100), 1e-12},
		// A Jordan block of size n moves its eigenvalue by ε^(1/n).
		{"jordan 4", 4, jordan(4), 1e-3},
	} {
		var e mat.Eigen
		if !e.Factorize(mat.NewDense(tc.n, tc.n, slices.Clone(tc.a)), mat.EigenNone) {
			t.Fatal("gonum did not converge")
		}
		want := e.Values(nil)
		re, im, ok := genEigenvalues(slices.Clone(tc.a), tc.n)
		if !ok {
			t.Errorf("%s: no convergence", tc.name)
			continue
		}
		got := make([]complex128, tc.n)
		for k := range got {
			got[k] = complex(re[k], im[k])
		}
		scale := max(1, cmplx.Abs(slices.MaxFunc(want, func(a, b complex128) int { return cmp.Compare(cmplx.Abs(a), cmplx.Abs(b)) })))
		for _, pair := range [][2][]complex128{{got, want}, {want, got}} {
			for _, v := range pair[0] {
				near := slices.MinFunc(pair[1], func(a, b complex128) int { return cmp.Compare(cmplx.Abs(a-v), cmplx.Abs(b-v)) })
				if d := cmplx.Abs(near - v); d > tc.tol*scale {
					t.Errorf("%s: eigenvalue %v is %.3g from the nearest of the other solver (%v)", tc.name, v, d, near)
				}
			}
		}
	}
}

// LU solves a random system to round-off and flags singular ones through
// the condition number.
func TestLU(t *testing.T) {
	const n = 60
	src := rand.New(rand.NewPCG(15, 16))
	a := randomDense(src, n, false)
	b := make([]float64, n)
	for i := range b {
		b[i] = src.NormFloat64()
	}
	f := factorLU(slices.Clone(a), n)
	for _, trans := range []bool{false, true} {
		x := f.solve(b, trans)
		for i := range n {
			r := -b[i]
			for j := range n {
				if trans {
					r += float64(a[j*n+i] * x[j])
				} else {
					r += float64(a[i*n+j] * x[j])
				}
			}
			if math.Abs(r) > 1e-11 {
				t.Errorf("transposed %v: residual %d = %g", trans, i, r)
				break
			}
		}
	}
	var ref mat.LU
	ref.Factorize(mat.NewDense(n, n, slices.Clone(a)))
	if got, want := f.cond(), ref.Cond(); got < want/3 || got > want*3 {
		t.Errorf("condition estimate %g, gonum %g", got, want)
	}
	// Rank 2: the third row is the sum of the first two.
	sing := []float64{1, 2, 3, 4, 5, 6, 5, 7, 9}
	if c := factorLU(sing, 3).cond(); c < 1e15 {
		t.Errorf("singular matrix: condition %g", c)
	}
}

// Portability: the spectral findings are the same bits on every platform.
// The constants were computed natively on amd64; ./test.sh runs this test
// under js/wasm too, and the export comparison step checks whole exports.
// If an algorithm in eigen.go changes on purpose, print the new bits with
// -v and update them.
func TestSpectralBits(t *testing.T) {
	rgg := mustRGG(t, 40, 0.3, 21)
	mh, _ := Metropolis(rgg)
	ldp, _ := LDPLaplacian(rgg, 0.07)
	rw, _ := RandomWalk(rgg)
	dg := digraph(t, 14, ieee14Links()...)
	row, _ := RowStochastic(dg)
	col, _ := ColumnStochastic(dg)
	sigmaR, err := SigmaR(row, 0.7)
	if err != nil {
		t.Fatal(err)
	}
	sigmaC, err := SigmaC(col, 0.8)
	if err != nil {
		t.Fatal(err)
	}
	var got []uint64
	for _, m := range []*Matrix{mh, ldp, rw, row, col} {
		r := Analyze(m, nil)
		for _, f := range r.Findings[firstMeasurement:] {
			got = append(got, math.Float64bits(f.Value))
		}
		for _, v := range append(r.PerronLeft, r.PerronRight...) {
			got = append(got, math.Float64bits(v))
		}
	}
	got = append(got, math.Float64bits(sigmaR), math.Float64bits(sigmaC))
	h := uint64(14695981039346656037) // FNV-1a over the bits
	for _, v := range got {
		for range 8 {
			h ^= v & 0xff
			h *= 1099511628211
			v >>= 8
		}
	}
	const want = 0x471dd7d1539a73d3
	if h != want {
		t.Errorf("the spectral findings hash to %#x, want %#x: they are not the bits computed on amd64 (%d values; σ_R = %v, σ_C = %v)",
			h, uint64(want), len(got), sigmaR, sigmaC)
	}
}
