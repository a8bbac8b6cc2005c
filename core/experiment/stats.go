package experiment

import (
	"bytes"
	"encoding/json"
	"math"
	"sort"
	"strconv"

	"dpsim/core/num"
)

// FI is a float64 written like F, except that ±Inf are written as the JSON
// strings "Inf" and "-Inf" (which R, NumPy and pandas read as numbers) and
// read back. Derived quantities use it: a privacy budget without a
// guarantee is ε = ∞, a value and not a missing one, and writing it as
// null once made a sweep's mean ε read as if the infinite runs were not
// there.
type FI float64

// MarshalJSON implements json.Marshaler.
func (f FI) MarshalJSON() ([]byte, error) {
	switch {
	case math.IsInf(float64(f), 1):
		return []byte(`"Inf"`), nil
	case math.IsInf(float64(f), -1):
		return []byte(`"-Inf"`), nil
	}
	return appendF(nil, float64(f)), nil
}

// UnmarshalJSON implements json.Unmarshaler.
func (f *FI) UnmarshalJSON(b []byte) error {
	switch {
	case bytes.Equal(b, []byte(`"Inf"`)):
		*f = FI(math.Inf(1))
		return nil
	case bytes.Equal(b, []byte(`"-Inf"`)):
		*f = FI(math.Inf(-1))
		return nil
	}
	var v F
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*f = FI(v)
	return nil
}

// formatFI writes v for people and for CSV: shortest 'g', Inf or -Inf,
// and "" for NaN.
func formatFI(v float64) string {
	switch {
	case math.IsNaN(v):
		return ""
	case math.IsInf(v, 1):
		return "Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

// Stats summarises one sample: the values of one metric (or derived
// quantity) over the runs at one point of one series. NaN values are
// missing: they are counted in Missing and left out of every statistic.
// Metrics never hold ±Inf (a diverged run's metric is missing); a
// derived quantity may (ε = ∞), and then the sample's mean, extremes and
// quantiles are infinite as they should be, never the statistics of the
// finite values alone.
type Stats struct {
	// N is the number of finite values; Missing the number of NaN values
	// left out; Infinite the number of ±Inf values (quantities only).
	N        int `json:"n"`
	Missing  int `json:"missing"`
	Infinite int `json:"infinite,omitempty"`
	Mean     FI  `json:"mean"`
	// SD is the sample standard deviation (divisor N−1), SE = SD/√N.
	SD F `json:"sd"`
	SE F `json:"se"`
	// CI95 is the 95 % confidence interval of the mean: mean ± t·SE with
	// t the 0.975 quantile of Student's t with N−1 degrees of freedom.
	CI95 [2]F `json:"ci95"`
	// Median, P10 and P90 are sample quantiles by linear interpolation
	// between order statistics (Hyndman & Fan type 7, the default of R
	// and NumPy).
	Median FI `json:"median"`
	P10    FI `json:"p10"`
	P90    FI `json:"p90"`
	Min    FI `json:"min"`
	Max    FI `json:"max"`
}

// Summarize returns the statistics of xs (in any order; xs is not
// modified). With no value but NaN every statistic is NaN; with one finite
// value, SD, SE and the interval are NaN; with any ±Inf, the mean,
// extremes and quantiles are those of the whole sample (∞ where it
// reaches them) and SD, SE and the interval NaN.
func Summarize(xs []float64) Stats {
	v := finite(xs)
	s := Stats{N: len(v)}
	var inf []float64
	for _, x := range xs {
		if math.IsInf(x, 0) {
			inf = append(inf, x)
		}
	}
	s.Infinite, s.Missing = len(inf), len(xs)-len(v)-len(inf)
	nan := F(math.NaN())
	s.Mean, s.SD, s.SE, s.CI95 = FI(nan), nan, nan, [2]F{nan, nan}
	s.Median, s.P10, s.P90, s.Min, s.Max = FI(nan), FI(nan), FI(nan), FI(nan), FI(nan)
	if len(inf) > 0 {
		// The mean of a sample holding ∞ is ∞ (NaN with both signs); the
		// spread is undefined; order statistics keep their meaning.
		all := append(v, inf...)
		sort.Float64s(all)
		sum := 0.0
		for _, x := range inf {
			sum += x
		}
		s.Mean = FI(sum)
		s.Median, s.P10, s.P90 = FI(quantileInf(all, 0.5)), FI(quantileInf(all, 0.1)), FI(quantileInf(all, 0.9))
		s.Min, s.Max = FI(all[0]), FI(all[len(all)-1])
		return s
	}
	if len(v) == 0 {
		return s
	}
	m, sd := meanSD(v)
	s.Mean = FI(m)
	sort.Float64s(v)
	s.Median, s.P10, s.P90 = FI(Quantile(v, 0.5)), FI(Quantile(v, 0.1)), FI(Quantile(v, 0.9))
	s.Min, s.Max = FI(v[0]), FI(v[len(v)-1])
	if len(v) > 1 {
		se := sd / math.Sqrt(float64(len(v)))
		t := TQuantile975(len(v) - 1)
		s.SD, s.SE = F(sd), F(se)
		s.CI95 = [2]F{F(m - float64(t*se)), F(m + float64(t*se))}
	}
	return s
}

// finite returns a new slice of the finite values of xs, in order.
func finite(xs []float64) []float64 {
	v := make([]float64, 0, len(xs))
	for _, x := range xs {
		if !math.IsNaN(x) && !math.IsInf(x, 0) {
			v = append(v, x)
		}
	}
	return v
}

// present returns the values of xs that are not NaN (missing): ±Inf
// stays, since a rank or sign test orders it like any value.
func present(xs []float64) []float64 {
	v := make([]float64, 0, len(xs))
	for _, x := range xs {
		if !math.IsNaN(x) {
			v = append(v, x)
		}
	}
	return v
}

// infinities counts the ±Inf values of xs.
func infinities(xs ...[]float64) int {
	n := 0
	for _, v := range xs {
		for _, x := range v {
			if math.IsInf(x, 0) {
				n++
			}
		}
	}
	return n
}

// meanSD returns the mean and the sample standard deviation (NaN for one
// value) by two passes in the given order, so the result depends only on
// the values and their order. Values so large that their sum or squares
// would overflow (beyond 1e150) are scaled down first, so finite values
// always give a finite mean and deviation.
func meanSD(v []float64) (float64, float64) {
	big := 0.0
	for _, x := range v {
		big = max(big, math.Abs(x))
	}
	if big > 1e150 {
		w := make([]float64, len(v))
		for i, x := range v {
			w[i] = x / big
		}
		m, sd := meanSD(w)
		return m * big, sd * big
	}
	sum := 0.0
	for _, x := range v {
		sum += x
	}
	m := sum / float64(len(v))
	if len(v) < 2 {
		return m, math.NaN()
	}
	ss := 0.0
	for _, x := range v {
		d := x - m
		ss += float64(d * d)
	}
	return m, math.Sqrt(ss / float64(len(v)-1))
}

// Quantile returns the p-quantile of sorted (ascending, finite, non-empty)
// by linear interpolation between order statistics: with h = (n−1)·p,
// sorted[⌊h⌋] + (h − ⌊h⌋)·(sorted[⌊h⌋+1] − sorted[⌊h⌋]).
func Quantile(sorted []float64, p float64) float64 {
	n := len(sorted)
	h := float64(float64(n-1) * p)
	lo := int(math.Floor(h))
	if lo >= n-1 {
		return sorted[n-1]
	}
	return sorted[lo] + float64((h-float64(lo))*(sorted[lo+1]-sorted[lo]))
}

// quantileInf is Quantile on a sorted sample that may hold ±Inf: where the
// interpolation weight is 0 or the neighbours are equal it returns the
// order statistic itself (Quantile would compute ∞ − ∞ or 0·∞ there).
func quantileInf(sorted []float64, p float64) float64 {
	n := len(sorted)
	h := float64(float64(n-1) * p)
	lo := int(math.Floor(h))
	if lo >= n-1 {
		return sorted[n-1]
	}
	a, b := sorted[lo], sorted[lo+1]
	if h == float64(lo) || a == b {
		return a
	}
	if math.IsInf(a, 0) || math.IsInf(b, 0) {
		return a + (b - a) // the infinite neighbour wins (NaN for −∞ … +∞)
	}
	return a + float64((h-float64(lo))*(b-a))
}

// t975 holds the 0.975 quantile of Student's t for 1…30 degrees of
// freedom (standard tables, 9 decimals).
var t975 = [...]float64{
	12.706204736, 4.302652730, 3.182446305, 2.776445105, 2.570581836,
	2.446911851, 2.364624252, 2.306004135, 2.262157163, 2.228138852,
	2.200985160, 2.178812830, 2.160368656, 2.144786688, 2.131449546,
	2.119905299, 2.109815578, 2.100922040, 2.093024054, 2.085963447,
	2.079613845, 2.073873068, 2.068657610, 2.063898562, 2.059538553,
	2.055529439, 2.051830516, 2.048407142, 2.045229642, 2.042272456,
}

// z975 is the 0.975 quantile of the standard normal distribution.
const z975 = 1.959963984540054

// TQuantile975 returns the 0.975 quantile of Student's t with df degrees
// of freedom: the table for df ≤ 30, and beyond it the Cornish–Fisher
// expansion in 1/df to the fourth order (error below 1e-7 for df > 30).
// Only polynomial arithmetic is used, so the value is the same natively
// and in the browser.
func TQuantile975(df int) float64 {
	if df < 1 {
		return math.NaN()
	}
	if df <= len(t975) {
		return t975[df-1]
	}
	z := z975
	z2 := z * z
	g1 := (z2 + 1) * z / 4
	g2 := ((5*z2+16)*z2 + 3) * z / 96
	g3 := (((3*z2+19)*z2+17)*z2 - 15) * z / 384
	g4 := ((((79*z2+776)*z2+1482)*z2-1920)*z2 - 945) * z / 92160
	v := float64(df)
	return z + g1/v + g2/(v*v) + g3/(v*v*v) + g4/(v*v*v*v)
}

// Comparison is the outcome of one one-sided test of "b is greater than
// a" (or, for a threshold, "the sample is below the value").
type Comparison struct {
	// What names the two groups compared, for people.
	What string `json:"what"`
	// Test is "paired-mean", "rank" or "sign" (see docs/experiments.md).
	Test string `json:"test"`
	// N is the number of pairs (paired-mean), or of values in each group
	// (rank: Na and Nb), or of values (sign).
	N  int `json:"n"`
	Na int `json:"na,omitempty"`
	Nb int `json:"nb,omitempty"`
	// Diff is the estimated difference in the claimed direction: the mean
	// paired difference, the rank-biserial U/(na·nb) − ½, or the mean
	// distance below the threshold.
	Diff F `json:"diff"`
	// Z is the test statistic in standard errors: positive supports the
	// claim. For the mean tests it is Student's t with DF degrees of
	// freedom (DF = N − 1), for the rank and sign tests a normal z (DF 0).
	Z  F   `json:"z"`
	DF int `json:"df,omitempty"`
	// P is the one-sided p-value of the claim's direction: the chance of
	// a statistic at least Z if there were no effect.
	P F `json:"p"`
	// Infinite counts the compared values that are ±Inf (an overflowed
	// metric, an ε without a finite bound). A mean of them is no number,
	// so a mean test with any is inconclusive and says so; the rank and
	// sign tests order them like any value.
	Infinite int `json:"infinite,omitempty"`
	// Verdict is Holds, Fails or Inconclusive at the expectation's error
	// rate (see Alpha); Fails is decided over all the expectation's
	// comparisons together (Holm).
	Verdict string `json:"verdict"`
}

// Verdicts of a comparison and of an expectation.
const (
	Holds        = "holds"
	Fails        = "does not hold"
	Inconclusive = "inconclusive"
)

// Alpha returns the one-sided error rate that a margin of m standard
// errors stands for: the normal tail Φ(−m) (0.00135 for the default 3).
// A comparison holds when its p-value is below it; an expectation does not
// hold when Holm's procedure over its comparisons rejects one at it, so a
// true claim is called "does not hold" with probability at most Alpha
// whatever the number of comparisons and runs.
func Alpha(margin float64) float64 { return normUpper(margin) }

// tail returns the one-sided upper-tail probability of the comparison's
// statistic at x under no effect: Student's t with c.DF degrees of
// freedom, or the normal distribution when DF is 0.
func (c Comparison) tail(x float64) float64 {
	if c.DF > 0 {
		return TUpper(x, c.DF)
	}
	return normUpper(x)
}

// judge sets c.P and the verdict of c alone (a family of one) at the
// margin's error rate; overall revisits Fails for the whole family.
func (c *Comparison) judge(margin float64) {
	z := float64(c.Z)
	c.P = F(math.NaN())
	if math.IsNaN(z) {
		c.Verdict = Inconclusive
		return
	}
	c.P = F(c.tail(z))
	a := Alpha(margin)
	switch {
	case float64(c.P) < a:
		c.Verdict = Holds
	case c.tail(-z) < a:
		c.Verdict = Fails
	default:
		c.Verdict = Inconclusive
	}
}

// normUpper returns Φ(−x), the standard normal upper tail, as ½·erfc(x/√2)
// by the Chebyshev fit of Numerical Recipes' erfcc (relative error below
// 1.2e−7 everywhere), with core/num's exp so that it is the same natively
// and in the browser.
func normUpper(x float64) float64 {
	switch {
	case math.IsNaN(x):
		return math.NaN()
	case x == 0:
		return 0.5
	}
	z := math.Abs(x) / math.Sqrt2
	t := 1 / (1 + float64(0.5*z))
	e := t * num.Exp(float64(-z*z)-1.26551223+float64(t*(1.00002368+float64(t*(0.37409196+float64(t*(0.09678418+
		float64(t*(-0.18628806+float64(t*(0.27886807+float64(t*(-1.13520398+float64(t*(1.48851587+
			float64(t*(-0.82215223+float64(t*0.17087277))))))))))))))))))
	if x >= 0 {
		return e / 2
	}
	return 1 - float64(e/2)
}

// TUpper returns P(T > t) for Student's t with df ≥ 1 degrees of freedom:
// ½·I_x(df/2, ½) with x = df/(df + t²), the regularized incomplete beta
// function by its continued fraction (accurate to a few ulps in the far
// tail, where the verdicts are decided). B(df/2, ½) comes from the exact
// recurrence B(a+1, ½) = B(a, ½)·a/(a + ½) from B(½, ½) = π and B(1, ½) =
// 2, and the powers by multiplication, so only IEEE arithmetic is used
// and the value is the same natively and in the browser.
func TUpper(t float64, df int) float64 {
	switch {
	case math.IsNaN(t) || df < 1:
		return math.NaN()
	case t < 0:
		return 1 - TUpper(-t, df)
	case t == 0:
		return 0.5
	case math.IsInf(t, 1):
		return 0
	}
	v := float64(df)
	d := v + float64(t*t)
	x, y := v/d, t*t/d // x + y = 1, each without cancellation
	a, b := float64(v/2), 0.5
	beta := math.Pi
	if df%2 == 0 {
		beta = 2
	}
	for aa := 2 - float64(float64(df%2)/2); aa <= a; aa++ {
		beta *= (aa - 1) / (aa - 0.5) // B(aa, ½) from B(aa−1, ½)
	}
	// x^a·y^b with a = df/2: (√x)^df·√y.
	front := math.Sqrt(y) / beta
	sx := math.Sqrt(x)
	for range df {
		front *= sx
	}
	var ix float64
	if x < (a+1)/(a+b+2) {
		ix = front * betaCF(a, b, x) / a
	} else {
		ix = 1 - float64(float64(front*betaCF(b, a, y))/b)
	}
	return ix / 2
}

// betaCF evaluates the continued fraction of the incomplete beta function
// by the modified Lentz method (Numerical Recipes' betacf).
func betaCF(a, b, x float64) float64 {
	const eps, tiny = 1e-16, 1e-300
	qab, qap, qam := a+b, a+1, a-1
	c, d := 1.0, 1-qab*x/qap
	if math.Abs(d) < tiny {
		d = tiny
	}
	d = 1 / d
	h := d
	for m := 1.0; m <= 10000; m++ {
		m2 := 2 * m
		aa := m * (b - m) * x / ((qam + m2) * (a + m2))
		d = 1 + float64(aa*d)
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = 1 + aa/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		h *= d * c
		aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
		d = 1 + float64(aa*d)
		if math.Abs(d) < tiny {
			d = tiny
		}
		c = 1 + aa/c
		if math.Abs(c) < tiny {
			c = tiny
		}
		d = 1 / d
		del := float64(d * c)
		h *= del
		if math.Abs(del-1) < eps {
			break
		}
	}
	return h
}

// PairedMean tests "b > a" on paired samples (a[r], b[r] from the same run
// r, which shares its problem data and graph across series and points):
// with d_r = b_r − a_r over the pairs where both are finite, Z = d̄/SE(d),
// judged as Student's t with n − 1 degrees of freedom (with 4 runs a
// t of 3 is not a z of 3: its one-sided tail is 0.029, not 0.00135).
// A zero spread gives Z = ±Inf when d̄ ≠ 0 (a deterministic difference).
func PairedMean(a, b []float64, margin float64) Comparison {
	var d []float64
	for r := range min(len(a), len(b)) {
		if isFinite(a[r]) && isFinite(b[r]) {
			d = append(d, b[r]-a[r])
		}
	}
	c := Comparison{Test: "paired-mean", N: len(d), Diff: F(math.NaN()), Z: F(math.NaN()), P: F(math.NaN()),
		Infinite: infinities(a[:min(len(a), len(b))], b[:min(len(a), len(b))])}
	if len(d) < 2 || c.Infinite > 0 {
		c.Verdict = Inconclusive
		if len(d) == 1 && c.Infinite == 0 {
			c.Diff = F(d[0])
		}
		return c
	}
	m, sd := meanSD(d)
	c.Diff, c.DF = F(m), len(d)-1
	se := sd / math.Sqrt(float64(len(d)))
	switch {
	case se > 0:
		c.Z = F(m / se)
	case m > 0:
		c.Z = F(math.Inf(1))
	case m < 0:
		c.Z = F(math.Inf(-1))
	}
	c.judge(margin)
	return c
}

// RankTest tests "b > a" with the one-sided Mann–Whitney U test on the
// finite values (unpaired): U counts the pairs (a_i, b_j) with b_j > a_i
// (ties count ½); Z = (U − na·nb/2 − ½·sign)/σ_U with the tie-corrected
// σ_U² = na·nb/12·((n+1) − Σ(t³−t)/(n(n−1))) and a continuity correction
// of ½ towards zero. Diff is U/(na·nb) − ½.
func RankTest(a, b []float64, margin float64) Comparison {
	fa, fb := present(a), present(b)
	na, nb := len(fa), len(fb)
	c := Comparison{Test: "rank", Na: na, Nb: nb, N: na + nb, Diff: F(math.NaN()), Z: F(math.NaN()), P: F(math.NaN()), Infinite: infinities(fa, fb)}
	if na < 2 || nb < 2 {
		c.Verdict = Inconclusive
		return c
	}
	type obs struct {
		v float64
		b bool
	}
	all := make([]obs, 0, na+nb)
	for _, v := range fa {
		all = append(all, obs{v, false})
	}
	for _, v := range fb {
		all = append(all, obs{v, true})
	}
	sort.SliceStable(all, func(i, j int) bool { return all[i].v < all[j].v })
	n := len(all)
	rb, ties := 0.0, 0.0
	for i := 0; i < n; {
		j := i
		for j < n && all[j].v == all[i].v {
			j++
		}
		rank := float64(float64(i+j+1) / 2) // average of ranks i+1 … j
		for k := i; k < j; k++ {
			if all[k].b {
				rb += rank
			}
		}
		t := float64(j - i)
		ties += float64(t*t*t) - t
		i = j
	}
	u := rb - float64(float64(nb)*float64(nb+1)/2)
	nab := float64(na) * float64(nb)
	c.Diff = F(u/nab - 0.5)
	mu := float64(nab / 2)
	v := nab / 12 * (float64(n+1) - ties/(float64(n)*float64(n-1)))
	if v <= 0 {
		c.Verdict = Inconclusive
		return c
	}
	d := u - mu
	switch {
	case d > 0.5:
		d -= 0.5
	case d < -0.5:
		d += 0.5
	default:
		d = 0
	}
	c.Z = F(d / math.Sqrt(v))
	c.judge(margin)
	return c
}

// BelowMean tests "the mean of xs is below value": Z = (value − x̄)/SE,
// judged as Student's t with n − 1 degrees of freedom.
func BelowMean(xs []float64, value, margin float64) Comparison {
	v := finite(xs)
	c := Comparison{Test: "paired-mean", N: len(v), Diff: F(math.NaN()), Z: F(math.NaN()), P: F(math.NaN()), Infinite: infinities(xs)}
	if len(v) < 2 || c.Infinite > 0 {
		c.Verdict = Inconclusive
		return c
	}
	m, sd := meanSD(v)
	c.Diff, c.DF = F(value-m), len(v)-1
	se := sd / math.Sqrt(float64(len(v)))
	switch {
	case se > 0:
		c.Z = F((value - m) / se)
	case m < value:
		c.Z = F(math.Inf(1))
	case m > value:
		c.Z = F(math.Inf(-1))
	}
	c.judge(margin)
	return c
}

// SignTest tests "the median of xs is below value": with k of the n
// finite values not equal to value lying below it, Z = (k − n/2)/(√n/2).
// Diff is k/n − ½.
func SignTest(xs []float64, value, margin float64) Comparison {
	k, n := 0, 0
	for _, x := range xs {
		if math.IsNaN(x) || x == value {
			continue
		}
		n++
		if x < value {
			k++
		}
	}
	c := Comparison{Test: "sign", N: n, Diff: F(math.NaN()), Z: F(math.NaN()), P: F(math.NaN()), Infinite: infinities(xs)}
	if n < 2 {
		c.Verdict = Inconclusive
		return c
	}
	c.Diff = F(float64(k)/float64(n) - 0.5)
	c.Z = F((float64(k) - float64(float64(n)/2)) / (math.Sqrt(float64(n)) / 2))
	c.judge(margin)
	return c
}

func isFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
