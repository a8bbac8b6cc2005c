package learn

import (
	"math"
	"testing"
)

// TestGramMax checks the power iteration against the closed-form top
// eigenvalue of a 2×2 Gram matrix, for a few seeded sets.
func TestGramMax(t *testing.T) {
	for seed := range uint64(5) {
		s := Synthetic(seed+1, "train", 50+int(seed)*7, 2, 2, 0)
		var a, b, c float64 // AᵀA = [a b; b c]
		for i := range s.Rows {
			u, v := float64(s.Features[2*i]), float64(s.Features[2*i+1])
			a, b, c = a+float64(u*u), b+float64(u*v), c+float64(v*v)
		}
		want := (float64((a+c)/2) + math.Sqrt(float64((a-c)*(a-c)/4)+float64(b*b))) / float64(s.Rows)
		got := Rows{Set: s}.GramMax()
		if math.Abs(got-want) > 1e-9*want {
			t.Errorf("seed %d: GramMax %.15g, want %.15g", seed, got, want)
		}
	}
}

// TestCholesky checks CholeskySolve on a small SPD system against the
// residual of the solution.
func TestCholesky(t *testing.T) {
	h := []float64{4, 1, 0.5, 1, 3, 0.2, 0.5, 0.2, 2}
	orig := append([]float64(nil), h...)
	b := []float64{1, -2, 0.5}
	x := append([]float64(nil), b...)
	if err := CholeskySolve(h, x); err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		r := -b[i]
		for j := range 3 {
			r += float64(orig[i*3+j] * x[j])
		}
		if math.Abs(r) > 1e-14 {
			t.Errorf("row %d: residual %.3g", i, r)
		}
	}
	if CholeskySolve([]float64{1, 2, 2, 1}, []float64{1, 1}) == nil {
		t.Errorf("an indefinite matrix was factorised")
	}
}
