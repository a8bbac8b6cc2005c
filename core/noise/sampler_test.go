package noise

import (
	"fmt"
	"hash/fnv"
	"math"
	"slices"
	"testing"

	"dpsim/core/rng"
)

// A law is a standard (scale 1) noise distribution with what the
// statistical checks need to know about it exactly.
type law struct {
	dist string
	// eval returns the standard distribution's CDF F(x) and the logs of
	// F(x) and of 1 − F(x), each accurate in its tail.
	eval func(x float64) (f, lnF, lnS float64)
	// even holds the raw moments E X², E X⁴, E X⁶, E X⁸.
	even [4]float64
	// tails lists thresholds t at which P(|X| > t) is checked; the last
	// lies beyond the ziggurat's r, so only the tail algorithm reaches it.
	tails []float64
	// twoSided returns P(|X| > t).
	twoSided func(t float64) float64
	// r is where the ziggurat's tail algorithm takes over.
	r float64
}

var laplaceLaw = law{
	dist: Laplace,
	eval: laplaceEval,
	even: [4]float64{2, 24, 720, 40320}, // (2k)!
	// P(|X| > t) = e^(−t): 0.37, 6.7e-3 and 4.5e-5.
	tails:    []float64{1, 5, 10},
	twoSided: func(t float64) float64 { return math.Exp(-t) },
	r:        expR,
}

func laplaceEval(x float64) (f, lnF, lnS float64) {
	h := float64(0.5 * math.Exp(-math.Abs(x))) // the smaller tail
	lh, lo := -math.Abs(x)-math.Ln2, math.Log1p(-h)
	if x < 0 {
		return h, lh, lo
	}
	return 1 - h, lo, lh
}

var normalLaw = law{
	dist: Gaussian,
	eval: normalEval,
	even: [4]float64{1, 3, 15, 105}, // (2k−1)!!
	// P(|Z| > t) = erfc(t/√2): 0.046, 2.7e-3 and 4.1e-5.
	tails:    []float64{2, 3, 4.1},
	twoSided: func(t float64) float64 { return math.Erfc(t / math.Sqrt2) },
	r:        normR,
}

func normalEval(x float64) (f, lnF, lnS float64) {
	f, sf := 0.5*math.Erfc(-x/math.Sqrt2), 0.5*math.Erfc(x/math.Sqrt2)
	return f, math.Log(f), math.Log(sf)
}

// Thresholds of the checks. A correct sampler fails any one of them with
// probability about 10⁻⁶ or less, so a failure means a broken sampler, not
// bad luck; the tests of the tests below show that a 5 % scale error and a
// missing tail are caught with margins of many standard errors.
const (
	statN = 1_000_000
	// ksMax bounds √n·D, the Kolmogorov–Smirnov statistic: P(√n·D > 2.7) ≈
	// 2e^(−2·2.7²) ≈ 9·10⁻⁷ (Kolmogorov's limit law).
	ksMax = 2.7
	// adMax bounds the Anderson–Darling A² against the exact CDF, which
	// weights the tails: P(A² > 10) ≈ 7·10⁻⁶ (Marsaglia and Marsaglia 2004).
	adMax = 10
	// zMax bounds |estimate − exact| in standard errors (two-sided
	// P ≈ 6·10⁻⁷ for a normal estimate) for the moments, tail frequencies
	// and the lag-1 autocorrelation.
	zMax = 5
)

// A finding is one check's statistic against its limit.
type finding struct {
	check       string
	stat, limit float64
}

func (f finding) failed() bool { return !(math.Abs(f.stat) <= f.limit) }

// battery runs every check on xs, draws at scale b from l (xs is sorted in
// the process), and returns the findings.
func battery(xs []float64, b float64, l law) []finding {
	n := float64(len(xs))
	y := make([]float64, len(xs))
	for i, x := range xs {
		y[i] = x / b
	}
	var out []finding
	z := func(name string, got, want, se float64) {
		out = append(out, finding{name, (got - want) / se, zMax})
	}

	// Moments about 0 (the exact mean is 0). The standard errors are
	// those of the sample means of Y, Y², and (delta method) of the
	// kurtosis m₄/m₂², all from the exact even moments.
	var m1, m2, m4, lag float64
	for i, v := range y {
		v2 := float64(v * v)
		m1 += v
		m2 += v2
		m4 += float64(v2 * v2)
		if i > 0 {
			lag += float64(y[i-1] * v)
		}
	}
	m1, m2, m4 = m1/n, m2/n, m4/n
	mu2, mu4, mu6, mu8 := l.even[0], l.even[1], l.even[2], l.even[3]
	z("mean", m1, 0, math.Sqrt(mu2/n))
	z("variance", m2, mu2, math.Sqrt((mu4-float64(mu2*mu2))/n))
	g4, g2 := 1/(mu2*mu2), -2*mu4/(mu2*mu2*mu2) // ∂k/∂m₄, ∂k/∂m₂
	vk := float64(g4*g4*(mu8-float64(mu4*mu4))) + float64(2*g4*g2*(mu6-float64(mu2*mu4))) + float64(g2*g2*(mu4-float64(mu2*mu2)))
	z("kurtosis", m4/(m2*m2), mu4/(mu2*mu2), math.Sqrt(vk/n))
	// Lag-1 autocorrelation: about N(0, 1/n) for independent draws.
	z("lag-1 correlation", lag/(m2*n), 0, 1/math.Sqrt(n))

	// Tail frequencies, binomial standard error.
	for _, t := range l.tails {
		c := 0
		for _, v := range y {
			if math.Abs(v) > t {
				c++
			}
		}
		p := l.twoSided(t)
		z(fmt.Sprintf("P(|X| > %gb)", t), float64(c)/n, p, math.Sqrt(p*(1-p)/n))
	}

	// Kolmogorov–Smirnov and Anderson–Darling against the exact CDF, with
	// A² = −n − (1/n)·Σᵢ (2i−1)·(ln F(y₍ᵢ₎) + ln(1 − F(y₍ₙ₊₁₋ᵢ₎))) rearranged
	// so that each point is evaluated once.
	sortFloats(y)
	d, a2 := 0.0, 0.0
	for i, v := range y {
		f, lnF, lnS := l.eval(v)
		d = max(d, float64(i+1)/n-f, f-float64(i)/n)
		a2 += float64(float64(2*i+1)*lnF) + float64(float64(2*len(y)-2*i-1)*lnS)
	}
	out = append(out,
		finding{"Kolmogorov–Smirnov √n·D", math.Sqrt(n) * d, ksMax},
		finding{"Anderson–Darling A²", -n - a2/n, adMax})
	return out
}

// sortFloats sorts xs (no NaNs) in linear time, so that the checks stay
// fast under wasm: a least-significant-digit radix sort, 16 bits a pass, on
// bit patterns that order like the floats (flip all bits of negatives, the
// sign bit of the rest).
func sortFloats(xs []float64) {
	a, b := make([]uint64, len(xs)), make([]uint64, len(xs))
	for i, x := range xs {
		u := math.Float64bits(x)
		if u>>63 == 1 {
			u = ^u
		} else {
			u |= 1 << 63
		}
		a[i] = u
	}
	count := make([]int, 1<<16+1)
	for shift := 0; shift < 64; shift += 16 {
		clear(count)
		for _, u := range a {
			count[u>>shift&0xffff+1]++
		}
		for i := 1; i < len(count); i++ {
			count[i] += count[i-1]
		}
		for _, u := range a {
			d := u >> shift & 0xffff
			b[count[d]] = u
			count[d]++
		}
		a, b = b, a
	}
	for i, u := range a {
		if u>>63 == 1 {
			u &^= 1 << 63
		} else {
			u = ^u
		}
		xs[i] = math.Float64frombits(u)
	}
}

func TestSortFloats(t *testing.T) {
	xs := []float64{3, -1, 0, math.Inf(-1), 2.5, -7e-300, 1e300, -2.5, 0.5, math.Inf(1), -1}
	want := slices.Clone(xs)
	slices.Sort(want)
	if sortFloats(xs); !slices.Equal(xs, want) {
		t.Errorf("sortFloats gave %v, want %v", xs, want)
	}
}

// draw returns statN draws of fill at scale b.
func draw(fill func([]float64, float64), b float64) []float64 {
	xs := make([]float64, statN)
	fill(xs, b)
	return xs
}

func TestDistributions(t *testing.T) {
	for _, tc := range []struct {
		l law
		b float64
	}{
		{laplaceLaw, 0.5},
		{laplaceLaw, 3},
		{normalLaw, 1},
		{normalLaw, 2.5},
	} {
		if last := tc.l.tails[len(tc.l.tails)-1]; last <= tc.l.r {
			t.Fatalf("%s: the last tail threshold %g must lie beyond r = %g", tc.l.dist, last, tc.l.r)
		}
		s := NewSampler(tc.l.dist, rng.NewStream(11, fmt.Sprint("stat/", tc.l.dist, tc.b)))
		for _, f := range battery(draw(s.Fill, tc.b), tc.b, tc.l) {
			if f.failed() {
				t.Errorf("%s(%g): %s = %.4g, beyond ±%g", tc.l.dist, tc.b, f.check, f.stat, f.limit)
			} else {
				t.Logf("%s(%g): %s = %.4g (limit %g)", tc.l.dist, tc.b, f.check, f.stat, f.limit)
			}
		}
	}
}

// The test of the tests: samplers broken in the two ways that matter for
// privacy — noise 5 % too small or too large, and a missing tail (a
// ziggurat without its tail algorithm, which stops at r) — must fail the
// checks named.
func TestBrokenSamplersFail(t *testing.T) {
	for _, l := range []law{laplaceLaw, normalLaw} {
		for _, tc := range []struct {
			name string
			// broken wraps a correct fill.
			broken   func(fill func([]float64, float64)) func([]float64, float64)
			mustFail []string
		}{
			{
				"scale ×1.05",
				func(fill func([]float64, float64)) func([]float64, float64) {
					return func(dst []float64, b float64) { fill(dst, 1.05*b) }
				},
				[]string{"variance", "Kolmogorov–Smirnov √n·D", "Anderson–Darling A²"},
			},
			{
				"scale ×0.95",
				func(fill func([]float64, float64)) func([]float64, float64) {
					return func(dst []float64, b float64) { fill(dst, 0.95*b) }
				},
				[]string{"variance", "Kolmogorov–Smirnov √n·D", "Anderson–Darling A²"},
			},
			{
				"tail cut at r",
				func(fill func([]float64, float64)) func([]float64, float64) {
					return func(dst []float64, b float64) {
						fill(dst, b)
						for i, x := range dst {
							dst[i] = math.Copysign(min(math.Abs(x), l.r*b), x)
						}
					}
				},
				[]string{fmt.Sprintf("P(|X| > %gb)", l.tails[len(l.tails)-1])},
			},
		} {
			const b = 2
			s := NewSampler(l.dist, rng.NewStream(12, "broken/"+l.dist+"/"+tc.name))
			failed := map[string]bool{}
			for _, f := range battery(draw(tc.broken(s.Fill), b), b, l) {
				failed[f.check] = f.failed()
				t.Logf("%s, %s: %s = %.4g (limit %g)", l.dist, tc.name, f.check, f.stat, f.limit)
			}
			for _, c := range tc.mustFail {
				if !failed[c] {
					t.Errorf("%s, %s: the %s check passed a broken sampler", l.dist, tc.name, c)
				}
			}
		}
	}
}

// goldenHashes pins the first 10⁵ draws of fixed streams for each
// StreamVersion: FNV-64a of the draws' IEEE bits, little-endian, for
// Laplace(0.7) and Gaussian(1.3). The same bytes are checked natively and
// under js/wasm. A change to the draws must come with a new StreamVersion
// (exports name it) and a new entry here.
var goldenHashes = map[string][2]uint64{
	"splitmix64+ziggurat1024/1": {0x374bc3cfad534e16, 0xfb158ac7f137af69},
	// Earlier versions, for the record (the code no longer draws them):
	// 256 layers, sign in bit 8.
	"splitmix64+ziggurat256/1": {0xb751adc9aeed10c3, 0x44a88f68ce458f63},
}

func TestGoldenDraws(t *testing.T) {
	want, ok := goldenHashes[StreamVersion]
	if !ok {
		t.Fatalf("no golden hashes for StreamVersion %q: add them", StreamVersion)
	}
	for k, tc := range []struct {
		dist string
		b    float64
	}{{Laplace, 0.7}, {Gaussian, 1.3}} {
		xs := make([]float64, 100_000)
		NewSampler(tc.dist, rng.NewStream(2024, "golden/"+tc.dist)).Fill(xs, tc.b)
		if got := hashFloats(xs); got != want[k] {
			t.Errorf("%s(%g): hash of the first %d draws = %#x, want %#x; first draws %v.\n"+
				"If the change is deliberate, name a new StreamVersion and add its hashes.",
				tc.dist, tc.b, len(xs), got, want[k], xs[:3])
		}
	}
}

func hashFloats(xs []float64) uint64 {
	h := fnv.New64a()
	buf := make([]byte, 8*len(xs))
	for i, x := range xs {
		b := math.Float64bits(x)
		for k := range 8 {
			buf[8*i+k] = byte(b >> (8 * k))
		}
	}
	h.Write(buf)
	return h.Sum64()
}

// Filling in pieces must give the draws of one Fill: GT-DP fills agent by
// agent.
func TestFillInPiecesIsFillAtOnce(t *testing.T) {
	for _, dist := range []string{Laplace, Gaussian} {
		whole := make([]float64, 5000)
		NewSampler(dist, rng.NewStream(5, "pieces")).Fill(whole, 1)
		s := NewSampler(dist, rng.NewStream(5, "pieces"))
		got := make([]float64, len(whole))
		for lo, n := 0, 1; lo < len(got); lo, n = lo+n, n%17+1 {
			s.Fill(got[lo:min(lo+n, len(got))], 1)
		}
		if !slices.Equal(got, whole) {
			t.Errorf("%s: filling in pieces changed the draws", dist)
		}
	}
}

// The layers must have equal areas v (else some layers are sampled too
// often), and the common path must accept over 99 % of words.
func TestZigguratTables(t *testing.T) {
	for _, tc := range []struct {
		name    string
		z       *ziggurat
		r, v    float64
		f       func(float64) float64
		tail    float64 // ∫_r^∞ f
		minFast float64
	}{
		{"exponential", &expZig, expR, expV, expDensity, math.Exp(-expR), 0.993},
		{"half-normal", &normZig, normR, normV, normDensity, math.Sqrt(math.Pi/2) * math.Erfc(normR/math.Sqrt2), 0.995},
	} {
		if base := float64(tc.r*tc.f(tc.r)) + tc.tail; math.Abs(base-tc.v) > 1e-15*tc.v {
			t.Errorf("%s: base strip area %.17g, want v = %.17g", tc.name, base, tc.v)
		}
		fast := 0.0
		for i := range zigLayers {
			x, xNext := tc.z.layer[i].w*0x1p53, 0.0
			if i+1 < zigLayers {
				xNext = tc.z.layer[i+1].w * 0x1p53
			}
			if i > 0 {
				area := float64(x * (tc.z.f[i+1] - tc.z.f[i]))
				if math.Abs(area-tc.v) > 1e-11*tc.v {
					t.Errorf("%s: layer %d has area %.17g, want v = %.17g", tc.name, i, area, tc.v)
				}
				if tc.z.f[i] != tc.f(x) {
					t.Errorf("%s: f[%d] = %v, want f(x_%d) = %v", tc.name, i, tc.z.f[i], i, tc.f(x))
				}
			}
			if k := uint64(xNext / x * 0x1p53); tc.z.layer[i].k != k {
				t.Errorf("%s: k[%d] = %d, want %d", tc.name, i, tc.z.layer[i].k, k)
			}
			fast += float64(float64(tc.z.layer[i].k) * 0x1p-53 / zigLayers)
		}
		if fast < tc.minFast {
			t.Errorf("%s: the common path accepts %.4f of words, want ≥ %g", tc.name, fast, tc.minFast)
		}
		t.Logf("%s: the common path accepts %.5f of words", tc.name, fast)
	}
}

// The benchmarks report ns per draw, filling d = 10 coordinates at a time
// as GT-DP does per agent, and 1000 at a time.
func BenchmarkLaplace(b *testing.B)  { benchFill(b, Laplace) }
func BenchmarkGaussian(b *testing.B) { benchFill(b, Gaussian) }

func benchFill(b *testing.B, dist string) {
	for _, n := range []int{10, 1000} {
		b.Run(fmt.Sprint("fill", n), func(b *testing.B) {
			s, buf := NewSampler(dist, rng.NewStream(1, "bench")), make([]float64, 1000)
			for b.Loop() {
				for lo := 0; lo < len(buf); lo += n {
					s.Fill(buf[lo:lo+n], 0.5)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(buf)), "ns/draw")
		})
	}
}

// FillChannel draws what per-agent Fill calls draw, at scale base·decay(k)
// (0 stays 0), and Release lays v + noise into strided blocks.
func TestFillChannelAndRelease(t *testing.T) {
	spec := &Spec{Dist: Laplace, Scales: []float64{1, 0, 2}, Decay: Geom(1, 0.5)}
	a := NewSampler(Laplace, rng.NewStream(9, "c"))
	b := NewSampler(Laplace, rng.NewStream(9, "c"))
	got := make([]float64, 6)
	a.FillChannel(spec, spec.Decay.At(2), got, 2)
	want := make([]float64, 6)
	for i, s := range spec.Scales {
		b.Fill(want[2*i:2*i+2], s*0.25)
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("draw %d: %v, want %v", i, got[i], want[i])
		}
	}
	if got[2] != 0 || got[3] != 0 {
		t.Fatalf("a base of 0 drew %v", got[2:4])
	}
	out := make([]float64, 12)
	v := []float64{1, 2, 3, 4, 5, 6}
	Release(out, v, got, 2, 4, 2)
	for i := range 3 {
		for c := range 2 {
			if out[4*i+2+c] != v[2*i+c]+got[2*i+c] || out[4*i+c] != 0 {
				t.Fatalf("agent %d: block %v", i, out[4*i:4*i+4])
			}
		}
	}
}

// Release writes v + nz and nothing else, for flat and strided layouts of
// any size (under WebAssembly the loop is assembly), and refuses buffers
// that are too short.
func TestRelease(t *testing.T) {
	for _, c := range []struct{ rows, dim, stride, off int }{
		{1, 1, 1, 0}, {7, 3, 3, 0}, {5, 10, 20, 0}, {5, 10, 20, 10}, {4, 2, 7, 3},
	} {
		n := c.rows * c.dim
		v, nz := make([]float64, n), make([]float64, n)
		for i := range n {
			v[i], nz[i] = float64(i)+0.5, -float64(i*i)/7
		}
		out := make([]float64, c.rows*c.stride+1)
		for i := range out {
			out[i] = -99
		}
		Release(out, v, nz, c.dim, c.stride, c.off)
		for i := range out {
			r, k := i/c.stride, i%c.stride-c.off
			want := -99.0
			if r < c.rows && k >= 0 && k < c.dim {
				want = v[r*c.dim+k] + nz[r*c.dim+k]
			}
			if out[i] != want {
				t.Fatalf("%+v: out[%d] = %v, want %v", c, i, out[i], want)
			}
		}
	}
	for _, c := range []struct {
		out, v, nz       int
		dim, stride, off int
	}{
		{5, 6, 6, 2, 2, 0}, {6, 5, 6, 2, 2, 0}, {11, 6, 6, 2, 4, 2}, {6, 6, 6, 4, 4, 0}, {6, 6, 6, 2, 2, 1},
	} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%+v: no panic", c)
				}
			}()
			Release(make([]float64, c.out), make([]float64, c.v), make([]float64, c.nz), c.dim, c.stride, c.off)
		}()
	}
}
