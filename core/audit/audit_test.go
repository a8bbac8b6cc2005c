package audit

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"dpsim/core/noise"
	"dpsim/core/pld"
	"dpsim/core/rng"
)

// binomCDF is P(Bin(n, p) ≤ k) by summing the terms in log space: a
// reference that shares nothing with the incomplete beta function.
func binomCDF(k, n int, p float64) float64 {
	s := 0.0
	for j := 0; j <= k; j++ {
		lg := func(x int) float64 { v, _ := math.Lgamma(float64(x) + 1); return v }
		s += math.Exp(lg(n) - lg(j) - lg(n-j) + float64(float64(j)*math.Log(p)) + float64(float64(n-j)*math.Log1p(-p)))
	}
	return s
}

// TestClopperPearson: published values (R's binom.test, two-sided 95 %,
// so one-sided 97.5 % each), the k = 0 closed form, and the definition:
// at the upper bound, P(Bin(n, p) ≤ k) = 1 − level.
func TestClopperPearson(t *testing.T) {
	for _, c := range []struct {
		k, n   int
		level  float64
		lo, hi float64
		tol    float64
	}{
		{5, 10, 0.975, 0.1870860, 0.8129140, 1e-7},
		{1, 100, 0.975, 0.0002531460, 0.0544593854, 1e-9},
		{0, 10, 0.95, 0, 1 - math.Pow(0.05, 0.1), 1e-14},
		{10, 10, 0.95, math.Pow(0.05, 0.1), 1, 1e-14},
	} {
		r, err := ClopperPearson(c.k, c.n, c.level)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(r.Lower-c.lo) > c.tol || math.Abs(r.Upper-c.hi) > c.tol {
			t.Errorf("%d of %d at %g: [%.10g, %.10g], want [%.10g, %.10g]", c.k, c.n, c.level, r.Lower, r.Upper, c.lo, c.hi)
		}
	}
	for _, n := range []int{7, 100, 5000, 100000} {
		for _, k := range []int{1, max(n/10, 1), n / 2, n - 1} {
			r, _ := ClopperPearson(k, n, 0.975)
			if got := binomCDF(k, n, r.Upper); math.Abs(got-0.025) > 1e-9 {
				t.Errorf("%d of %d: P(Bin ≤ k) at the upper bound %.12g is %.12g, want 0.025", k, n, r.Upper, got)
			}
			if got := 1 - binomCDF(k-1, n, r.Lower); math.Abs(got-0.025) > 1e-9 {
				t.Errorf("%d of %d: P(Bin ≥ k) at the lower bound %.12g is %.12g, want 0.025", k, n, r.Lower, got)
			}
		}
	}
}

// TestCoverage: for every true rate on a grid, the probability that the
// upper bound is at least it is at least the level (computed exactly).
func TestCoverage(t *testing.T) {
	for _, n := range []int{20, 200} {
		ups := make([]float64, n+1)
		for k := range ups {
			r, _ := ClopperPearson(k, n, 0.95)
			ups[k] = r.Upper
		}
		for p := 0.001; p < 1; p += 0.0137 {
			cover := 0.0
			for k := 0; k <= n; k++ {
				if p <= ups[k] {
					cover += binomCDF(k, n, p) - binomCDF(k-1, n, p)
				}
			}
			if cover < 0.95-1e-9 {
				t.Errorf("n = %d, p = %g: coverage %g below 0.95", n, p, cover)
			}
		}
	}
}

// trueEpsilon is the exact ε of one release at δ (pld: the Laplace
// profile's top, the Gaussian closed form).
func trueEpsilon(t *testing.T, dist string, b, sens, delta float64) float64 {
	c, err := pld.Compose([]pld.Release{{Mechanism: pld.Mechanism(dist), Scale: b, Sensitivity: sens}}, pld.Options{})
	if err != nil {
		t.Fatal(err)
	}
	e, err := c.Epsilon(delta)
	if err != nil {
		t.Fatal(err)
	}
	return e.Epsilon
}

// TestSingleMechanism: with 10⁵ runs (half on each data set), the lower
// bound on a Laplace and a Gaussian release is at most the true ε and at
// least half of it, with either statistic.
func TestSingleMechanism(t *testing.T) {
	const delta = 1e-5
	for _, c := range []struct {
		dist    string
		b, sens float64
	}{
		{noise.Laplace, 1, 1},
		{noise.Laplace, 2, 1},
		{noise.Gaussian, 1, 1},
		{noise.Gaussian, 2, 1},
	} {
		truth := trueEpsilon(t, c.dist, c.b, c.sens, delta)
		for _, stat := range []string{LikelihoodRatio, Threshold} {
			e, err := Release(c.dist, c.b, c.sens, 50000, 7, stat)
			if err != nil {
				t.Fatal(err)
			}
			r, err := LowerBound(e, Options{Delta: delta})
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("%s b = %g, %s: lower bound %.4f (estimate %.4f), true ε %.4f, FPR %.5f ≤ %.5f, FNR %.5f ≤ %.5f",
				c.dist, c.b, stat, r.Epsilon, r.Estimate, truth, r.FPR.Estimate, r.FPR.Upper, r.FNR.Estimate, r.FNR.Upper)
			if r.Epsilon > truth || r.Epsilon < truth/2 {
				t.Errorf("%s b = %g, %s: lower bound %.4f not in [ε/2, ε] = [%.4f, %.4f]", c.dist, c.b, stat, r.Epsilon, truth/2, truth)
			}
			if r.Runs != 100000 || r.Selection != 50000 {
				t.Errorf("runs %d, selection %d", r.Runs, r.Selection)
			}
		}
	}
}

// TestPlantedLeak: a mechanism that claims the scale b but adds noise of
// scale b/2 is caught: the lower bound exceeds the claimed ε at 95 %.
func TestPlantedLeak(t *testing.T) {
	const delta = 1e-5
	for _, c := range []struct {
		dist    string
		b, sens float64
	}{
		{noise.Laplace, 1, 1},
		{noise.Gaussian, 2, 1},
	} {
		claimed := trueEpsilon(t, c.dist, c.b, c.sens, delta)
		e, err := Release(c.dist, c.b/2, c.sens, 50000, 11, LikelihoodRatio)
		if err != nil {
			t.Fatal(err)
		}
		r, _ := LowerBound(e, Options{Delta: delta})
		t.Logf("%s claimed b = %g (ε = %.4f), noise b/2: lower bound %.4f", c.dist, c.b, claimed, r.Epsilon)
		if r.Epsilon <= claimed {
			t.Errorf("%s: the halved noise was not caught: lower bound %.4f ≤ claimed %.4f", c.dist, r.Epsilon, claimed)
		}
	}
}

// TestRounding: the literal Laplace likelihood ratio |y−a| − |y−c|, on
// messages y = a + z and y = c + z computed in float64, is told apart far
// beyond the mechanism's ε = 1 by a threshold just off its atom (its
// rounding carries the low bits of y); LogLikelihoodRatio is not.
func TestRounding(t *testing.T) {
	e, _ := Release(noise.Laplace, 1, 1, 50000, 7, LikelihoodRatio)
	// Rebuild the messages from the same streams and apply the literal form.
	naive := Experiment{}
	for _, side := range []struct {
		label string
		mean  float64
		out   *[]float64
	}{{"audit/null", 0, &naive.Null}, {"audit/alt", 1, &naive.Alt}} {
		s := noise.NewSampler(noise.Laplace, rng.NewStream(7, side.label))
		nz := make([]float64, 50000)
		s.Fill(nz, 1)
		for _, z := range nz {
			*side.out = append(*side.out, naiveLLR(1, []float64{side.mean + z}, []float64{0}, []float64{1}))
		}
	}
	bad, _ := LowerBound(naive, Options{Delta: 1e-5})
	good, _ := LowerBound(e, Options{Delta: 1e-5})
	t.Logf("literal form: ε ≥ %.3f; monotone form: ε ≥ %.3f; true ε = 1", bad.Epsilon, good.Epsilon)
	if bad.Epsilon < 2 {
		t.Errorf("the literal form's rounding leak was not seen (ε ≥ %.3f): has the sampler changed?", bad.Epsilon)
	}
	if good.Epsilon > 1 {
		t.Errorf("the monotone form gives ε ≥ %.3f above the true 1", good.Epsilon)
	}
}

// TestNoLeak: identical data sets (sensitivity 0 in effect: the same
// noise law on both) show nothing beyond the confidence's chance.
func TestNoLeak(t *testing.T) {
	e, _ := Release(noise.Laplace, 1, 1, 20000, 3, Threshold)
	e.Alt = e.Null[10000:]
	e.Null = e.Null[:10000]
	r, _ := LowerBound(e, Options{Delta: 1e-5})
	if r.Epsilon > 0.1 {
		t.Errorf("no leak: lower bound %v", r.Epsilon)
	}
}

// TestROC: the curve runs from (1, 1) to (0, 0), never rising as the
// threshold grows, with at most the points asked for (plus its ends).
func TestROC(t *testing.T) {
	e, _ := Release(noise.Gaussian, 1, 1, 2000, 5, LikelihoodRatio)
	pts, err := ROC(e, 50)
	if err != nil {
		t.Fatal(err)
	}
	if len(pts) > 52 || pts[0].FPR != 1 || pts[0].TPR != 1 || pts[len(pts)-1].FPR != 0 || pts[len(pts)-1].TPR != 0 {
		t.Fatalf("%d points, ends %+v %+v", len(pts), pts[0], pts[len(pts)-1])
	}
	for i := 1; i < len(pts); i++ {
		if pts[i].FPR > pts[i-1].FPR || pts[i].TPR > pts[i-1].TPR {
			t.Errorf("point %d rises: %+v after %+v", i, pts[i], pts[i-1])
		}
	}
	// μ = 1: the area under the curve is Φ(1/√2) ≈ 0.760.
	auc := 0.0
	for i := 1; i < len(pts); i++ {
		auc += float64((pts[i-1].FPR - pts[i].FPR) * (pts[i-1].TPR + pts[i].TPR) / 2)
	}
	if math.Abs(auc-0.7602) > 0.02 {
		t.Errorf("AUC %.4f, want about 0.760", auc)
	}
}

// TestValidation: one-line errors naming the field.
func TestValidation(t *testing.T) {
	ok := Experiment{Null: []float64{1, 2, 3, 4}, Alt: []float64{1, 2, 3, 4}}
	for _, c := range []struct {
		err  error
		want string
	}{
		{func() error { _, err := LowerBound(ok, Options{Delta: -1}); return err }(), "delta:"},
		{func() error { _, err := LowerBound(ok, Options{Delta: 1}); return err }(), "delta:"},
		{func() error { _, err := LowerBound(ok, Options{Confidence: 1.5}); return err }(), "confidence:"},
		{func() error { _, err := LowerBound(Experiment{Null: []float64{1}}, Options{}); return err }(), "runs:"},
		{func() error {
			_, err := LowerBound(Experiment{Null: []float64{1, 2, math.NaN(), 4}, Alt: ok.Alt}, Options{})
			return err
		}(), "statistic:"},
		{func() error { _, err := ClopperPearson(3, 2, 0.95); return err }(), "runs:"},
		{func() error { _, err := ClopperPearson(1, 2, 0.2); return err }(), "confidence:"},
		{func() error { _, err := Release("cauchy", 1, 1, 10, 1, Threshold); return err }(), "dist:"},
		{func() error { _, err := Release(noise.Laplace, 0, 1, 10, 1, Threshold); return err }(), "scale:"},
		{func() error { _, err := Release(noise.Laplace, 1, math.Inf(1), 10, 1, Threshold); return err }(), "sensitivity:"},
		{func() error { _, err := Release(noise.Laplace, 1, 1, 0, 1, Threshold); return err }(), "runs:"},
		{func() error { _, err := Release(noise.Laplace, 1, 1, 10, 1, "t"); return err }(), "statistic:"},
		{func() error { _, err := ROC(ok, 1); return err }(), "points:"},
	} {
		if c.err == nil || !strings.HasPrefix(c.err.Error(), c.want) || strings.Contains(c.err.Error(), "\n") {
			t.Errorf("error %v, want one line starting %q", c.err, c.want)
		}
	}
}

// ExampleLowerBound audits a Laplace release of ε = 1 from 10⁵ runs.
func ExampleLowerBound() {
	e, err := Release(noise.Laplace, 1, 1, 50000, 1, LikelihoodRatio)
	if err != nil {
		panic(err)
	}
	r, err := LowerBound(e, Options{Delta: 1e-5})
	if err != nil {
		panic(err)
	}
	fmt.Printf("ε ≥ %.2f at δ = %g with %.0f %% confidence (%d runs; FPR ≤ %.4f, FNR ≤ %.4f)\n",
		r.Epsilon, r.Delta, 100*r.Confidence, r.Runs, r.FPR.Upper, r.FNR.Upper)
	// Output:
	// ε ≥ 0.94 at δ = 1e-05 with 95 % confidence (100000 runs; FPR ≤ 0.2012, FNR ≤ 0.4842)
}
