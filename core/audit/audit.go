// Package audit measures privacy from the outside: from the outcomes of a
// distinguishing experiment — a test statistic computed on many runs of a
// mechanism on a data set D and on a neighbour D′ — it gives the test's
// false-positive and false-negative rates with exact confidence bounds,
// the empirical lower bound on ε they imply at a given δ, and the test's
// ROC curve.
//
// If a mechanism is (ε, δ)-DP, every test that tells D′ from D has
// FPR + e^ε·FNR ≥ 1 − δ and FNR + e^ε·FPR ≥ 1 − δ (Kairouz, Oh &
// Viswanath 2015), so
//
//	ε ≥ ln((1 − δ − FNR)/FPR) and ε ≥ ln((1 − δ − FPR)/FNR).
//
// With the rates replaced by their Clopper–Pearson upper bounds this is a
// lower bound on ε that holds with the stated confidence (Jagielski,
// Ullman & Oprea 2020; Nasr, Song, Thakurta, Papernot & Carlini 2021).
// The threshold of the test is chosen on one half of the runs and the
// rates are counted on the other, so choosing the best of many
// thresholds does not void the confidence.
//
// A lower bound says that the mechanism as run leaks at least that much
// to this test; it says nothing of what a better test would find, so it
// can sit far below the true ε (see docs/privacy-truth.md).
package audit

import (
	"fmt"
	"math"
	"slices"

	"dpsim/core/num"
)

// Experiment holds a distinguishing experiment's outcomes: the test
// statistic of each run on D (Null) and on its neighbour D′ (Alt). The
// test says D′ when the statistic is above its threshold (LowerBound also
// tries the opposite orientation).
type Experiment struct {
	Null, Alt []float64
}

// Options of LowerBound; the zero value asks for 95 % confidence at δ = 0.
type Options struct {
	// Delta is the δ at which ε is bounded.
	Delta float64
	// Confidence is the probability (over the runs) that the bound holds;
	// 0 means 0.95.
	Confidence float64
}

// Method describes LowerBound's procedure, as Result.Method says it.
const Method = "threshold chosen on the first half of each set of runs, rates counted on the second; " +
	"Clopper–Pearson upper bounds on both rates at (1+confidence)/2 each, so that they hold together"

// Result is an empirical lower bound on ε.
type Result struct {
	// Epsilon is the lower bound (0 when the runs show nothing).
	Epsilon float64
	// Estimate is the same formula with the observed rates in place of
	// their confidence bounds: what the test saw, without the margin.
	Estimate   float64
	Delta      float64
	Confidence float64
	// Threshold and Above are the test: say D′ when the statistic is above
	// the threshold (Above) or at most it (!Above).
	Threshold float64
	Above     bool
	// FPR and FNR are the test's rates on the evaluation runs, with
	// one-sided bounds at (1 + Confidence)/2.
	FPR, FNR Rate
	// Runs is the number of runs in all; Selection of them chose the
	// threshold.
	Runs, Selection int
	Method          string
}

// LowerBound returns the empirical lower bound on ε at opt.Delta from the
// experiment's outcomes (each set needs at least 4 runs; with fewer than a
// few thousand the bound is weak).
func LowerBound(e Experiment, opt Options) (Result, error) {
	conf := opt.Confidence
	if conf == 0 {
		conf = 0.95
	}
	if !(conf > 0 && conf < 1) {
		return Result{}, fmt.Errorf("confidence: must be in (0, 1), got %v", opt.Confidence)
	}
	if !(opt.Delta >= 0 && opt.Delta < 1) {
		return Result{}, fmt.Errorf("delta: must be in [0, 1), got %v", opt.Delta)
	}
	if len(e.Null) < 4 || len(e.Alt) < 4 {
		return Result{}, fmt.Errorf("runs: need at least 4 on each data set, got %d and %d", len(e.Null), len(e.Alt))
	}
	for _, v := range [][]float64{e.Null, e.Alt} {
		for i, x := range v {
			if math.IsNaN(x) {
				return Result{}, fmt.Errorf("statistic: run %d is NaN", i)
			}
		}
	}
	n0, n1 := len(e.Null)/2, len(e.Alt)/2
	selNull, evalNull := e.Null[:n0], e.Null[n0:]
	selAlt, evalAlt := e.Alt[:n1], e.Alt[n1:]
	level := 1 - float64((1-conf)/2)
	t, above := choose(selNull, selAlt, opt.Delta, level)
	fp, fn := count(evalNull, evalAlt, t, above)
	r := Result{
		Delta: opt.Delta, Confidence: conf, Threshold: t, Above: above,
		Runs: len(e.Null) + len(e.Alt), Selection: n0 + n1, Method: Method,
	}
	var err error
	if r.FPR, err = ClopperPearson(fp, len(evalNull), level); err != nil {
		return Result{}, err
	}
	if r.FNR, err = ClopperPearson(fn, len(evalAlt), level); err != nil {
		return Result{}, err
	}
	r.Epsilon = bound(r.FPR.Upper, r.FNR.Upper, opt.Delta)
	r.Estimate = bound(r.FPR.Estimate, r.FNR.Estimate, opt.Delta)
	return r, nil
}

// bound is max(0, ln((1−δ−fnr)/fpr), ln((1−δ−fpr)/fnr)) (core/num's
// logarithm, so that the bound has the same bits natively and in the
// browser).
func bound(fpr, fnr, delta float64) float64 {
	b := 0.0
	if fpr > 0 && 1-delta-fnr > 0 {
		b = max(b, num.Log((1-delta-fnr)/fpr))
	}
	if fnr > 0 && 1-delta-fpr > 0 {
		b = max(b, num.Log((1-delta-fpr)/fnr))
	}
	if fpr == 0 && fnr < 1-delta || fnr == 0 && fpr < 1-delta {
		return math.Inf(1) // only on the estimate: the bounds are never 0
	}
	return b
}

// count returns the false positives (null runs the test calls D′) and
// false negatives (alternative runs it calls D) of the test (t, above).
func count(null, alt []float64, t float64, above bool) (fp, fn int) {
	for _, x := range null {
		if (x > t) == above {
			fp++
		}
	}
	for _, x := range alt {
		if (x > t) != above {
			fn++
		}
	}
	return fp, fn
}

// choose returns the test that maximizes the selection runs' lower bound,
// with the rates' upper bounds approximated by Wilson's score bound (any
// rule is valid here, since the evaluation runs are apart; this one is
// cheap and close to Clopper–Pearson's). Every observed value is a
// candidate threshold, in both orientations.
func choose(null, alt []float64, delta, level float64) (t float64, above bool) {
	type obs struct {
		x   float64
		alt bool
	}
	all := make([]obs, 0, len(null)+len(alt))
	for _, x := range null {
		all = append(all, obs{x, false})
	}
	for _, x := range alt {
		all = append(all, obs{x, true})
	}
	slices.SortFunc(all, func(a, b obs) int {
		switch {
		case a.x < b.x:
			return -1
		case a.x > b.x:
			return 1
		}
		return 0
	})
	z := normQuantile(level)
	n0, n1 := float64(len(null)), float64(len(alt))
	best := math.Inf(-1)
	t, above = all[0].x, true
	// Below every value: the test calls everything D′ (or D).
	nullAbove, altAbove := len(null), len(alt)
	try := func(x float64) {
		// Above: false positives are null runs above, false negatives alt runs not above.
		for _, up := range []bool{true, false} {
			fp, fn := float64(nullAbove), float64(len(alt)-altAbove)
			if !up {
				fp, fn = n0-fp, n1-fn
			}
			if v := bound(wilsonUpper(fp, n0, z), wilsonUpper(fn, n1, z), delta); v > best {
				best, t, above = v, x, up
			}
		}
	}
	for i := 0; i < len(all); {
		x := all[i].x
		for ; i < len(all) && all[i].x == x; i++ {
			if all[i].alt {
				altAbove--
			} else {
				nullAbove--
			}
		}
		try(x)
	}
	return t, above
}

// wilsonUpper is Wilson's score upper bound on a rate from k of n.
func wilsonUpper(k, n, z float64) float64 {
	p := k / n
	z2 := z * z
	c := (p + z2/(2*n) + float64(z*math.Sqrt(p*(1-p)/n+z2/(4*n*n)))) / (1 + z2/n)
	return min(c, 1)
}

// normQuantile is Φ⁻¹(p) for p in (0.5, 1), by Acklam's rational
// approximation (relative error below 1.2·10⁻⁹; only the choice of the
// threshold uses it), with core/num's logarithm.
func normQuantile(p float64) float64 {
	q := 1 - p
	if q > 0.02425 {
		r := p - 0.5
		s := r * r
		a := float64((float64((float64((float64((float64(-3.969683028665376e+01*s)+2.209460984245205e+02)*s)-2.759285104469687e+02)*s)+1.383577518672690e+02)*s)-3.066479806614716e+01)*s) + 2.506628277459239e+00
		b := float64((float64((float64((float64((float64(-5.447609879822406e+01*s)+1.615858368580409e+02)*s)-1.556989798598866e+02)*s)+6.680131188771972e+01)*s)-1.328068155288572e+01)*s) + 1
		return r * a / b
	}
	u := math.Sqrt(-2 * num.Log(q))
	return -(float64((float64((float64((float64((float64(-7.784894002430293e-03*u)-3.223964580411365e-01)*u)-2.400758277161838e+00)*u)-2.549732539343734e+00)*u)+4.374664141464968e+00)*u) + 2.938163982698783e+00) /
		(float64((float64((float64((float64(7.784695709041462e-03*u)+3.224671290700398e-01)*u)+2.445134137142996e+00)*u)+3.754408661907416e+00)*u) + 1)
}

// Point is one point of a test's ROC curve: the threshold and the rates
// of the test that says D′ above it.
type Point struct {
	Threshold, FPR, TPR float64
}

// ROC returns the ROC curve of the statistic over all the runs, at most
// max points (max ≥ 2) taken evenly along the sorted thresholds, from
// (1, 1) down to (0, 0).
func ROC(e Experiment, max int) ([]Point, error) {
	if max < 2 {
		return nil, fmt.Errorf("points: must be ≥ 2, got %d", max)
	}
	if len(e.Null) == 0 || len(e.Alt) == 0 {
		return nil, fmt.Errorf("runs: need runs on both data sets, got %d and %d", len(e.Null), len(e.Alt))
	}
	null, alt := slices.Sorted(slices.Values(e.Null)), slices.Sorted(slices.Values(e.Alt))
	ts := slices.Compact(slices.Sorted(slices.Values(append(slices.Clone(null), alt...))))
	step := math.Max(1, float64(len(ts))/float64(max-1))
	pts := []Point{{Threshold: math.Inf(-1), FPR: 1, TPR: 1}}
	for f := step - 1; f < float64(len(ts)); f += step {
		t := ts[int(f)]
		fpr := float64(len(null)-upperIndex(null, t)) / float64(len(null))
		tpr := float64(len(alt)-upperIndex(alt, t)) / float64(len(alt))
		pts = append(pts, Point{t, fpr, tpr})
	}
	if last := pts[len(pts)-1]; last.FPR != 0 || last.TPR != 0 {
		pts = append(pts, Point{Threshold: ts[len(ts)-1], FPR: 0, TPR: 0})
	}
	return pts, nil
}

// upperIndex is the number of values of sorted v at most t.
func upperIndex(v []float64, t float64) int {
	i, _ := slices.BinarySearchFunc(v, t, func(a, b float64) int {
		if a <= b {
			return -1
		}
		return 1
	})
	return i
}

// Ceiling returns the largest bound LowerBound can give from nNull and
// nAlt runs at opt: that of a test that makes no error on the evaluation
// halves. No mechanism, however leaky, is shown to have a larger ε by so
// many runs (about ln(n/3.7) for n evaluation runs a side at 95 %).
func Ceiling(nNull, nAlt int, opt Options) (float64, error) {
	conf := opt.Confidence
	if conf == 0 {
		conf = 0.95
	}
	level := 1 - float64((1-conf)/2)
	if nNull < 4 || nAlt < 4 {
		return 0, fmt.Errorf("runs: need at least 4 on each data set, got %d and %d", nNull, nAlt)
	}
	fp, err := ClopperPearson(0, nNull-nNull/2, level)
	if err != nil {
		return 0, err
	}
	fn, err := ClopperPearson(0, nAlt-nAlt/2, level)
	if err != nil {
		return 0, err
	}
	return bound(fp.Upper, fn.Upper, opt.Delta), nil
}
