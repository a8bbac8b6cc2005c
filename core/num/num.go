// Package num holds portable elementary functions.
//
// On amd64 the standard library computes Exp and Log (and so Pow and
// Log10) in assembly, while js/wasm uses the pure-Go versions; the two can
// differ in the last bit. dpsim promises the same trace natively and in
// the browser, so everything that feeds a trace (noise sampling,
// schedules, losses, calibrated noise scales) uses the functions here,
// which are the standard library's pure-Go algorithms and give
// bit-identical results on every architecture (internal/portablemath's
// test keeps math's versions out of the code that computes exports).
//
// Go lets a compiler fuse x*y + z into one multiply-add with a single
// rounding, and it does so on arm64, ppc64le, s390x, riscv64 and on amd64
// built with GOAMD64=v3. Every product here that feeds an addition is
// therefore wrapped in an explicit float64(…) conversion, which the
// language defines as a rounding and so forbids the fusion; every dpsim
// package does the same (internal/nofma's test fails on a fused site).
//
// ExpTo, Exp over a block, runs on amd64 in assembly four lanes at a time
// (AVX2, by CPUID) or two (SSE2): each lane does Exp's operations in
// Exp's order with separate multiplies and adds, which IEEE arithmetic
// rounds exactly as the scalar code does, so the bits are Exp's; values
// off Exp's common path go to Exp itself (exp_amd64.s, TestExpToBitsWide).
// Under js/wasm it is WebAssembly assembly, four values interleaved per
// step (exp_wasm.s): WebAssembly rounds every operation as IEEE says and
// has no fused multiply-add, so the same operations give the same bits.
//
// Expm1, Log1p and Sincos are the standard library's too, which are pure
// Go on amd64 and js/wasm and so give the same bits there; but arm64
// compiles math's with fused multiply-adds, and these, with every product
// rounded, keep arm64 on the same bits.
//
// The algorithms are those of Go's math package (FreeBSD msun; Cephes for
// Sincos), BSD licence, copyright The Go Authors; each file names its
// source and notice.
package num

import "math"

// Log returns the natural logarithm of x, bit-identical on every
// architecture. Special cases are those of math.Log.
func Log(x float64) float64 {
	const (
		ln2Hi = 6.93147180369123816490e-01 /* 3fe62e42 fee00000 */
		ln2Lo = 1.90821492927058770002e-10 /* 3dea39ef 35793c76 */
		l1    = 6.666666666666735130e-01   /* 3FE55555 55555593 */
		l2    = 3.999999999940941908e-01   /* 3FD99999 9997FA04 */
		l3    = 2.857142874366239149e-01   /* 3FD24924 94229359 */
		l4    = 2.222219843214978396e-01   /* 3FCC71C5 1D8E78AF */
		l5    = 1.818357216161805012e-01   /* 3FC74664 96CB03DE */
		l6    = 1.531383769920937332e-01   /* 3FC39A09 D078C69F */
		l7    = 1.479819860511658591e-01   /* 3FC2F112 DF3E5244 */
	)
	switch {
	case math.IsNaN(x) || math.IsInf(x, 1):
		return x
	case x < 0:
		return math.NaN()
	case x == 0:
		return math.Inf(-1)
	}
	f1, ki := math.Frexp(x)
	if f1 < math.Sqrt2/2 {
		f1 *= 2
		ki--
	}
	f := f1 - 1
	k := float64(ki)
	s := f / (2 + f)
	s2 := s * s
	s4 := s2 * s2
	// Every product that meets an addition is wrapped in float64(…): an
	// explicit conversion rounds, so the compiler may not fuse the pair
	// into one multiply-add (it does on arm64 and with GOAMD64=v3, which
	// would change the last bit).
	t1 := float64(s2 * (l1 + float64(s4*(l3+float64(s4*(l5+float64(s4*l7)))))))
	t2 := float64(s4 * (l2 + float64(s4*(l4+float64(s4*l6)))))
	r := t1 + t2
	hfsq := float64(0.5 * f * f)
	return float64(k*ln2Hi) - ((hfsq - (float64(s*(hfsq+r)) + float64(k*ln2Lo))) - f)
}

// Log10 returns the decimal logarithm of x, bit-identical on every
// architecture. It is math.Log10's definition, Log(x)·(1/ln 10), so its
// bits are math.Log10's wherever math.Log is pure Go and unfused
// (js/wasm; amd64 computes math.Log in assembly, which differs in the
// last bit for about one argument in forty). The product is rounded
// explicitly so that a caller's subtraction, once this is inlined, is not
// fused with it. Special cases are those of math.Log10.
func Log10(x float64) float64 {
	return float64(Log(x) * (1 / math.Ln10))
}

// Exp's constants: those of math.Exp (FreeBSD's e_exp.c).
const (
	expLn2Hi     = 6.93147180369123816490e-01
	expLn2Lo     = 1.90821492927058770002e-10
	expLog2e     = 1.44269504088896338700e+00
	expOverflow  = 7.09782712893383973096e+02
	expUnderflow = -7.45133219101941108420e+02
	expNearZero  = 1.0 / (1 << 28)
	expP1        = 1.66666666666666657415e-01
	expP2        = -2.77777777770155933842e-03
	expP3        = 6.61375632143793436117e-05
	expP4        = -1.65339022054652515390e-06
	expP5        = 4.13813679705723846039e-08
)

// Exp returns e**x, bit-identical on every architecture. Special cases are
// those of math.Exp.
func Exp(x float64) float64 {
	switch {
	case math.IsNaN(x):
		return x
	case x > expOverflow:
		return math.Inf(1)
	case x < expUnderflow:
		return 0
	case -expNearZero < x && x < expNearZero:
		return 1 + x
	}
	var k int
	switch {
	case x < 0:
		k = int(float64(expLog2e*x) - 0.5)
	case x > 0:
		k = int(float64(expLog2e*x) + 0.5)
	}
	// Products are wrapped in float64(…) so that no multiply-add is fused
	// (see Log).
	hi := x - float64(float64(k)*expLn2Hi)
	lo := float64(float64(k) * expLn2Lo)
	r := hi - lo
	t := float64(r * r)
	c := r - float64(t*(expP1+float64(t*(expP2+float64(t*(expP3+float64(t*(expP4+float64(t*expP5)))))))))
	y := 1 - ((lo - float64(r*c)/(2-c)) - hi)
	if -1020 <= k && k <= 1020 {
		// y is within [½, 2] and y·2^k a normal number: multiplying by
		// the exact power of two is exact, so this is math.Ldexp's
		// result without its decomposition (a third of Exp's time).
		return y * math.Float64frombits(uint64(k+1023)<<52)
	}
	return math.Ldexp(y, k)
}

// Pow returns x**y, bit-identical on every architecture. Special cases are
// those of math.Pow; in particular Pow(0, 0) = 1.
func Pow(x, y float64) float64 {
	switch {
	case y == 0 || x == 1:
		return 1
	case y == 1:
		return x
	case math.IsNaN(x) || math.IsNaN(y):
		return math.NaN()
	case x == 0:
		switch {
		case y < 0:
			if math.Signbit(x) && isOddInt(y) {
				return math.Inf(-1)
			}
			return math.Inf(1)
		case y > 0:
			if math.Signbit(x) && isOddInt(y) {
				return x
			}
			return 0
		}
	case math.IsInf(y, 0):
		switch {
		case x == -1:
			return 1
		case (math.Abs(x) < 1) == math.IsInf(y, 1):
			return 0
		default:
			return math.Inf(1)
		}
	case math.IsInf(x, 0):
		if math.IsInf(x, -1) {
			return Pow(1/x, -y)
		}
		switch {
		case y < 0:
			return 0
		case y > 0:
			return math.Inf(1)
		}
	case y == 0.5:
		return math.Sqrt(x)
	case y == -0.5:
		return 1 / math.Sqrt(x)
	}
	yi, yf := math.Modf(math.Abs(y))
	if yf != 0 && x < 0 {
		return math.NaN()
	}
	if yi >= 1<<63 {
		switch {
		case x == -1:
			return 1
		case (math.Abs(x) < 1) == (y > 0):
			return 0
		default:
			return math.Inf(1)
		}
	}
	a1 := 1.0
	ae := 0
	if yf != 0 {
		if yf > 0.5 {
			yf--
			yi++
		}
		a1 = Exp(yf * Log(x))
	}
	x1, xe := math.Frexp(x)
	for i := int64(yi); i != 0; i >>= 1 {
		if xe < -1<<12 || 1<<12 < xe {
			ae += xe
			break
		}
		if i&1 == 1 {
			a1 *= x1
			ae += xe
		}
		x1 = float64(x1 * x1) // not fused with the doubling below
		xe <<= 1
		if x1 < .5 {
			x1 += x1
			xe--
		}
	}
	if y < 0 {
		a1 = 1 / a1
		ae = -ae
	}
	return math.Ldexp(a1, ae)
}

func isOddInt(x float64) bool {
	if math.Abs(x) >= (1 << 53) {
		return false
	}
	xi, xf := math.Modf(x)
	return xf == 0 && int64(xi)&1 == 1
}
