package experiment

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func near(a, b, tol float64) bool { return math.Abs(a-b) <= tol }

func TestSummarizeKnownValues(t *testing.T) {
	// 1…10: mean 5.5, sd √(82.5/9), type-7 quantiles 1.9, 5.5, 9.1.
	xs := []float64{10, 9, 8, 7, 6, 5, 4, 3, 2, 1, math.NaN(), math.NaN()}
	s := Summarize(xs)
	sd := math.Sqrt(82.5 / 9)
	se := sd / math.Sqrt(10)
	for _, c := range []struct {
		name      string
		got, want float64
		tol       float64
	}{
		{"n", float64(s.N), 10, 0},
		{"missing", float64(s.Missing), 2, 0},
		{"mean", float64(s.Mean), 5.5, 1e-15},
		{"sd", float64(s.SD), sd, 1e-15},
		{"se", float64(s.SE), se, 1e-15},
		{"ci lo", float64(s.CI95[0]), 5.5 - 2.262157163*se, 1e-9},
		{"ci hi", float64(s.CI95[1]), 5.5 + 2.262157163*se, 1e-9},
		{"median", float64(s.Median), 5.5, 1e-15},
		{"p10", float64(s.P10), 1.9, 1e-15},
		{"p90", float64(s.P90), 9.1, 1e-15},
		{"min", float64(s.Min), 1, 0},
		{"max", float64(s.Max), 10, 0},
	} {
		if !near(c.got, c.want, c.tol) {
			t.Errorf("%s = %v, want %v (±%g)", c.name, c.got, c.want, c.tol)
		}
	}
	if xs[0] != 10 {
		t.Error("Summarize sorted its input")
	}
}

// A sample holding ε = ∞ (a run without a guarantee) has an infinite
// mean and maximum: once the infinite values were dropped as missing, and
// a sweep's mean ε read as the mean of the finite runs (or 0).
func TestSummarizeInfinite(t *testing.T) {
	inf := math.Inf(1)
	s := Summarize([]float64{1, 2, inf, math.NaN(), 3})
	if s.N != 3 || s.Infinite != 1 || s.Missing != 1 {
		t.Errorf("counts n %d, infinite %d, missing %d; want 3, 1, 1", s.N, s.Infinite, s.Missing)
	}
	if !math.IsInf(float64(s.Mean), 1) || !math.IsInf(float64(s.Max), 1) || s.Min != 1 || s.Median != 2.5 {
		t.Errorf("mean %v, max %v, min %v, median %v; want +Inf, +Inf, 1, 2.5", s.Mean, s.Max, s.Min, s.Median)
	}
	if s := Summarize([]float64{inf, inf}); !math.IsInf(float64(s.Mean), 1) || !math.IsInf(float64(s.Median), 1) || s.N != 0 {
		t.Errorf("all infinite: %+v", s)
	}
	for _, c := range []struct {
		v    FI
		want string
	}{{FI(inf), `"Inf"`}, {FI(-inf), `"-Inf"`}, {FI(math.NaN()), `null`}, {FI(0.1), `0.1`}} {
		b, _ := c.v.MarshalJSON()
		var back FI
		if string(b) != c.want || back.UnmarshalJSON(b) != nil || !(back == c.v || math.IsNaN(float64(back))) {
			t.Errorf("%v: wrote %s, read back %v; want %s", c.v, b, back, c.want)
		}
	}
}

func TestSummarizeDegenerate(t *testing.T) {
	if s := Summarize(nil); s.N != 0 || !math.IsNaN(float64(s.Mean)) {
		t.Errorf("empty: %+v", s)
	}
	s := Summarize([]float64{3})
	if s.N != 1 || s.Mean != 3 || s.Median != 3 || !math.IsNaN(float64(s.SD)) || !math.IsNaN(float64(s.CI95[0])) {
		t.Errorf("one value: %+v", s)
	}
}

func TestTQuantile975(t *testing.T) {
	// Reference values: standard tables (R's qt(0.975, df)).
	for _, c := range []struct {
		df   int
		want float64
	}{
		{1, 12.706204736}, {2, 4.302652730}, {10, 2.228138852}, {30, 2.042272456},
		{31, 2.039513446}, {40, 2.021075390}, {60, 2.000297822}, {120, 1.979930405},
		{199, 1.971956544}, {1000, 1.962339081}, {1 << 30, 1.959963985},
	} {
		if got := TQuantile975(c.df); !near(got, c.want, 1e-7) {
			t.Errorf("t(0.975, %d) = %.10f, want %.10f (±1e-7)", c.df, got, c.want)
		}
	}
	if !math.IsNaN(TQuantile975(0)) {
		t.Error("df 0 must be NaN")
	}
}

func TestRankTestKnownValue(t *testing.T) {
	// a = 1,2,3,4 ; b = 3,5,6,7,8. Ranks of the pooled sample (ties at 3
	// share 3.5): b's ranks 3.5, 6, 7, 8, 9 sum to 33.5, so
	// U_b = 33.5 − 15 = 18.5 of 20 pairs. σ² = 20/12·(10 − 6/72).
	a := []float64{1, 2, 3, 4, math.NaN()}
	b := []float64{3, 5, 6, 7, 8}
	c := RankTest(a, b, 3)
	sigma := math.Sqrt(20.0 / 12 * (10 - 6.0/72))
	wantZ := (18.5 - 10 - 0.5) / sigma
	if c.Na != 4 || c.Nb != 5 || !near(float64(c.Z), wantZ, 1e-12) || !near(float64(c.Diff), 18.5/20-0.5, 1e-15) {
		t.Errorf("RankTest = %+v, want z %v", c, wantZ)
	}
	if c.Verdict != Inconclusive { // z ≈ 1.97 < 3
		t.Errorf("verdict %q, want inconclusive", c.Verdict)
	}
	if r := RankTest(b, a, 1.5); float64(r.Z) != -wantZ || r.Verdict != Fails {
		t.Errorf("reversed: %+v", r)
	}
}

func TestPairedMean(t *testing.T) {
	for _, c := range []struct {
		name    string
		a, b    []float64
		z       float64
		verdict string
	}{
		// d = 1, 2, 3, 4 (NaN pair dropped): mean 2.5, sd √(5/3), se sd/2,
		// t = 3.87 with 3 degrees of freedom: one-sided p = 0.0153, above
		// the 0.00135 of a 3-σ margin (as a normal z it passed).
		{"differences", []float64{0, 0, 0, 0, math.NaN()}, []float64{1, 2, 3, 4, 9}, 2.5 / (math.Sqrt(5.0/3) / 2), Inconclusive},
		{"deterministic up", []float64{1, 2}, []float64{2, 3}, math.Inf(1), Holds},
		{"deterministic down", []float64{2, 3}, []float64{1, 2}, math.Inf(-1), Fails},
		{"equal", []float64{1, 2}, []float64{1, 2}, math.NaN(), Inconclusive},
		{"too few", []float64{1}, []float64{2}, math.NaN(), Inconclusive},
	} {
		got := PairedMean(c.a, c.b, 3)
		z := float64(got.Z)
		if !(z == c.z || near(z, c.z, 1e-12) || math.IsNaN(z) && math.IsNaN(c.z)) || got.Verdict != c.verdict {
			t.Errorf("%s: z = %v (%s), want %v (%s)", c.name, z, got.Verdict, c.z, c.verdict)
		}
	}
}

func TestThresholdTests(t *testing.T) {
	xs := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	if c := BelowMean(xs, 20, 3); c.Verdict != Holds {
		t.Errorf("mean 5.5 below 20: %+v", c)
	}
	if c := BelowMean(xs, 1, 3); c.Verdict != Fails {
		t.Errorf("mean 5.5 below 1: %+v", c)
	}
	// Sign test: 10 of 10 below 11 gives z = (10 − 5)/(√10/2) ≈ 3.16.
	if c := SignTest(xs, 11, 3); c.Verdict != Holds || !near(float64(c.Z), 5/(math.Sqrt(10)/2), 1e-12) {
		t.Errorf("sign test: %+v", c)
	}
}

// TUpper against closed forms (df 1: ½ − atan(t)/π; df 2:
// ½(1 − t/√(2 + t²))) and R's pt(): the far tail keeps its relative
// precision, where verdicts are decided.
func TestTUpper(t *testing.T) {
	for _, c := range []struct {
		t    float64
		df   int
		want float64
	}{
		{1, 1, 0.25},
		{3, 1, 0.5 - math.Atan(3)/math.Pi},
		{2, 2, 0.5 * (1 - 2/math.Sqrt(6))},
		{-2, 2, 1 - 0.5*(1-2/math.Sqrt(6))},
		{0, 7, 0.5},
		// mpmath, 30 digits: betainc(df/2, ½, 0, df/(df+t²))/2.
		{2, 3, 0.0696629842794216},
		{3, 10, 0.00667182751128479},
		{10.21453, 3, 0.00100000053186633}, // qt(0.999, 3) = 10.21453
		{3.872983346207417, 3, 0.0152331458310855},
		{40, 5, 9.20598108588648e-8},
		{2, 2000, 0.022817636655846}, // near Φ(−2) = 0.02275
		{1000, 3, 1.1026538212883e-9},
		{25, 50, 3.21333270694355e-30},
	} {
		got := TUpper(c.t, c.df)
		if !near(got, c.want, 1e-9*c.want) {
			t.Errorf("TUpper(%v, %d) = %.10g, want %.10g", c.t, c.df, got, c.want)
		}
	}
	if p := normUpper(3); !near(p, 0.0013498980316301, 1e-9) {
		t.Errorf("Φ(−3) = %v", p)
	}
}

// A true claim is called "does not hold" at most at the stated error
// rate, whatever the number of runs and of comparisons: families of 10
// paired comparisons with no effect at all (the hardest true claim: every
// difference is 0) or a mix of zero and real effects, with 4 and with 30
// runs, over seeded draws. With a normal z and no correction for the
// number of comparisons, 4 runs and a 2-σ margin (α = 0.023), about half
// of the families were called "does not hold".
func TestTrueClaimFailsAtMostAlpha(t *testing.T) {
	const trials, m, margin = 4000, 10, 2.0
	alpha := Alpha(margin)
	tol := float64(4 * math.Sqrt(alpha*(1-alpha)/trials))
	rnd := rand.New(rand.NewPCG(15, 9))
	for _, c := range []struct {
		name   string
		n      int
		effect func(j int) float64 // in standard deviations
	}{
		{"no effect, 4 runs", 4, func(int) float64 { return 0 }},
		{"no effect, 30 runs", 30, func(int) float64 { return 0 }},
		{"half real effects, 4 runs", 4, func(j int) float64 { return float64(j%2) * 1.5 }},
	} {
		fails := 0
		for range trials {
			cs := make([]Comparison, m)
			for j := range m {
				a, b := make([]float64, c.n), make([]float64, c.n)
				for r := range c.n {
					a[r] = rnd.NormFloat64()
					b[r] = a[r] + c.effect(j) + rnd.NormFloat64()
				}
				cs[j] = PairedMean(a, b, margin)
			}
			if v, _ := overall(cs, margin); v == Fails {
				fails++
			}
		}
		if rate := float64(fails) / trials; rate > alpha+tol {
			t.Errorf("%s: a true claim was called %q in %.3g of the families, above α = %.3g (+%.2g)", c.name, Fails, rate, alpha, tol)
		}
	}
	// The other side: a real effect of 1 sd with 30 runs holds.
	held := 0
	for range 200 {
		cs := make([]Comparison, m)
		for j := range m {
			a, b := make([]float64, 30), make([]float64, 30)
			for r := range 30 {
				a[r] = rnd.NormFloat64()
				b[r] = a[r] + 1 + rnd.NormFloat64()
			}
			cs[j] = PairedMean(a, b, 3)
		}
		if v, _ := overall(cs, 3); v == Holds {
			held++
		}
	}
	if held < 150 {
		t.Errorf("an effect of 1 sd over 30 runs held in only %d of 200 families", held)
	}
}

// Holm's step-down: the smallest p against the claim is compared with
// α/m, the next with α/(m−1), and the verdict names the runs it rests on.
func TestOverallHolm(t *testing.T) {
	alpha := Alpha(3)
	mk := func(pAgainst float64) Comparison {
		// a normal z whose lower tail is pAgainst
		lo, hi := -40.0, 0.0
		for range 200 {
			mid := (lo + hi) / 2
			if normUpper(-mid) > pAgainst {
				hi = mid
			} else {
				lo = mid
			}
		}
		c := Comparison{Z: F(lo), N: 50}
		c.judge(3)
		return c
	}
	// One comparison at p = α/2 alone fails; among 10 it does not (α/10).
	if v, _ := overall([]Comparison{mk(alpha / 2)}, 3); v != Fails {
		t.Errorf("one comparison at p = α/2: %s, want %s", v, Fails)
	}
	cs := []Comparison{mk(alpha / 2)}
	for range 9 {
		cs = append(cs, mk(0.5))
	}
	v, sum := overall(cs, 3)
	if v != Inconclusive || cs[0].Verdict != Inconclusive {
		t.Errorf("p = α/2 among 10: %s (%s), want %s", v, cs[0].Verdict, Inconclusive)
	}
	if !strings.Contains(sum, "rests on 50 runs") {
		t.Errorf("summary %q does not say how many runs", sum)
	}
	cs[1] = mk(alpha / 20)
	if v, _ := overall(cs, 3); v != Fails || cs[1].Verdict != Fails || cs[0].Verdict != Inconclusive {
		t.Errorf("p = α/20 among 10: %s (%s, %s), want it alone to fail", v, cs[1].Verdict, cs[0].Verdict)
	}
}

// The p-values behind the verdicts are the same bits natively and in the
// browser (pure IEEE arithmetic and core/num): pinned here, and the test
// runs under GOOS=js GOARCH=wasm too (with go_js_wasm_exec).
func TestTUpperPortable(t *testing.T) {
	var h uint64 = 14695981039346656037
	for _, df := range []int{1, 2, 3, 4, 9, 49, 199, 1999} {
		for _, x := range []float64{-3.7, 0.4, 1.96, 3, 5.74, 16.8, 40} {
			h = (h ^ math.Float64bits(TUpper(x, df))) * 1099511628211
		}
	}
	for _, x := range []float64{-3, 0.5, 2, 3, 6} {
		h = (h ^ math.Float64bits(normUpper(x))) * 1099511628211
	}
	if h != pinnedTails {
		t.Errorf("tail probabilities hash to %#x, pinned %#x: they differ on this platform", h, uint64(pinnedTails))
	}
}

// pinnedTails is TestTUpperPortable's hash, computed natively (amd64).
const pinnedTails = 0x15e702db14485622

// Overflowed values never pass for a measurement: a mean test over an
// infinite value is inconclusive and counts it, huge finite values give a
// finite statistic (not an overflowed z of −0), and the rank and sign
// tests order infinities like any value.
func TestOverflowedValuesAreNotHidden(t *testing.T) {
	inf := math.Inf(1)
	c := BelowMean([]float64{1, 2, inf, 3}, 10, 3)
	if c.Verdict != Inconclusive || c.Infinite != 1 || !math.IsNaN(float64(c.Z)) {
		t.Errorf("BelowMean with an infinite value: %+v, want inconclusive, infinite 1, no z", c)
	}
	c = PairedMean([]float64{1, 2, 3, 4}, []float64{5, inf, 7, 8}, 3)
	if c.Verdict != Inconclusive || c.Infinite != 1 {
		t.Errorf("PairedMean with an infinite value: %+v, want inconclusive, infinite 1", c)
	}
	huge := []float64{1e300, 1.1e300, 0.9e300, 1.05e300, 0.95e300}
	c = BelowMean(huge, 1.7e308, 3)
	if z := float64(c.Z); math.IsNaN(z) || math.IsInf(z, 0) || z <= 3 || c.Verdict != Holds {
		t.Errorf("BelowMean of values near 1e300 below 1.7e308: %+v, want a finite t that holds", c)
	}
	m, sd := meanSD(huge)
	if math.Abs(m-1e300)/1e300 > 1e-12 || math.Abs(sd-math.Sqrt(0.025/4)*1e300)/1e300 > 1e-12 {
		t.Errorf("meanSD of values near 1e300: %g, %g", m, sd)
	}
	a := []float64{1, 2, 3, 4, 5, 6, 7, 8}
	b := []float64{inf, inf, inf, inf, inf, inf, inf, inf}
	c = RankTest(a, b, 3)
	if c.Verdict != Holds || c.Infinite != 8 || c.Na != 8 || c.Nb != 8 {
		t.Errorf("RankTest of finite values below infinite ones: %+v, want holds over 8 and 8", c)
	}
	verdict, summary := overall([]Comparison{BelowMean([]float64{1, inf, 2}, 10, 3)}, 3)
	if verdict != Inconclusive || !strings.Contains(summary, "infinite (overflow)") {
		t.Errorf("overall over an overflowed mean test: %s, %q; want inconclusive naming the overflow", verdict, summary)
	}
}
