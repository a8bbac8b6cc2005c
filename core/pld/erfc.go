package pld

import (
	"math"

	"dpsim/core/num"
)

// erfc is the complementary error function, bit-identical on every
// architecture: Go's math.Erfc calls math.Exp, which amd64 computes in
// assembly, so the same Gaussian bound could differ in its last bit
// natively and in the browser. This is math.Erfc's algorithm (FreeBSD
// msun s_erf.c: rational approximations on [0, 0.84375), [0.84375, 1.25),
// [1.25, 1/0.35), [1/0.35, 28)), with core/num's Exp and every product
// that meets an addition rounded on its own (see core/num), BSD licence,
// copyright The Go Authors and Sun Microsystems.
func erfc(x float64) float64 {
	switch {
	case math.IsNaN(x):
		return math.NaN()
	case math.IsInf(x, 1):
		return 0
	case math.IsInf(x, -1):
		return 2
	}
	sign := x < 0
	if sign {
		x = -x
	}
	if x < 0.84375 {
		var t float64
		if x < 0x1p-56 {
			t = x
		} else {
			z := x * x
			r := horner(z, erfPP[:])
			s := horner(z, erfQQ[:])
			y := r / s
			if x < 0.25 {
				t = x + float64(x*y)
			} else {
				t = 0.5 + (float64(x*y) + (x - 0.5))
			}
		}
		if sign {
			return 1 + t
		}
		return 1 - t
	}
	if x < 1.25 {
		s := x - 1
		p := horner(s, erfPA[:])
		q := horner(s, erfQA[:])
		if sign {
			return 1 + erx + p/q
		}
		return 1 - erx - p/q
	}
	if x >= 28 {
		if sign {
			return 2
		}
		return 0
	}
	if sign && x > 6 {
		return 2
	}
	// erfc(x) = exp(−x²)·erfcx(x), with −x² split as −z² + (z−x)(z+x) and
	// z = x with its low 32 bits cleared, so that z² is exact.
	z := math.Float64frombits(math.Float64bits(x) & 0xffffffff00000000)
	r := num.Exp(-float64(z*z)-0.5625) * num.Exp(float64((z-x)*(z+x))+erfcRS(x))
	if sign {
		return 2 - r/x
	}
	return r / x
}

// erfcx is the scaled complementary error function e^{x²}·erfc(x) for
// x ≥ 0, which neither underflows nor loses digits in the far tail: the
// Mills ratio of the normal law is √(π/2)·erfcx(v/√2).
func erfcx(x float64) float64 {
	switch {
	case x < 1.25:
		return erfc(x) * num.Exp(float64(x*x))
	case x < 28:
		// msun's form exp(−x² − 0.5625 + R/S)/x, times e^{x²}.
		return num.Exp(erfcRS(x)-0.5625) / x
	}
	// Laplace's continued fraction, erfcx(x) = (1/√π)/(x + ½/(x + 1/(x +
	// 3/2/(x + …)))), evaluated from the tail: 40 levels are exact to the
	// last bit from x = 28 on.
	f := x
	for k := 40; k >= 1; k-- {
		f = x + float64(k)/2/f
	}
	return 1 / (math.SqrtPi * f)
}

// erfcRS is msun's R/S in exp(−x² − 0.5625 + R/S)/x for x ≥ 1.25.
func erfcRS(x float64) float64 {
	s := 1 / float64(x*x)
	if x < 1/0.35 {
		return horner(s, erfRA[:]) / horner(s, erfSA[:])
	}
	return horner(s, erfRB[:]) / horner(s, erfSB[:])
}

// horner evaluates c[0] + x·(c[1] + x·(…)), each product rounded before
// its addition.
func horner(x float64, c []float64) float64 {
	r := c[len(c)-1]
	for i := len(c) - 2; i >= 0; i-- {
		r = c[i] + float64(x*r)
	}
	return r
}

// msun's coefficients (s_erf.c), as in Go's math/erf.go.
const erx = 8.45062911510467529297e-01

var (
	erfPP = [...]float64{1.28379167095512558561e-01, -3.25042107247001499370e-01, -2.84817495755985104766e-02, -5.77027029648944159157e-03, -2.37630166566501626084e-05}
	erfQQ = [...]float64{1, 3.97917223959155352819e-01, 6.50222499887672944485e-02, 5.08130628187576562776e-03, 1.32494738004321644526e-04, -3.96022827877536812320e-06}
	erfPA = [...]float64{-2.36211856075265944077e-03, 4.14856118683748331666e-01, -3.72207876035701323847e-01, 3.18346619901161753674e-01, -1.10894694282396677476e-01, 3.54783043256182359371e-02, -2.16637559486879084300e-03}
	erfQA = [...]float64{1, 1.06420880400844228286e-01, 5.40397917702171048937e-01, 7.18286544141962662868e-02, 1.26171219808761642112e-01, 1.36370839120290507362e-02, 1.19844998467991074170e-02}
	erfRA = [...]float64{-9.86494403484714822705e-03, -6.93858572707181764372e-01, -1.05586262253232909814e+01, -6.23753324503260060396e+01, -1.62396669462573470355e+02, -1.84605092906711035994e+02, -8.12874355063065934246e+01, -9.81432934416914548592e+00}
	erfSA = [...]float64{1, 1.96512716674392571292e+01, 1.37657754143519042600e+02, 4.34565877475229228821e+02, 6.45387271733267880336e+02, 4.29008140027567833386e+02, 1.08635005541779435134e+02, 6.57024977031928170135e+00, -6.04244152148580987438e-02}
	erfRB = [...]float64{-9.86494292470009928597e-03, -7.99283237680523006574e-01, -1.77579549177547519889e+01, -1.60636384855821916062e+02, -6.37566443368389627722e+02, -1.02509513161107724954e+03, -4.83519191608651397019e+02}
	erfSB = [...]float64{1, 3.03380607434824582924e+01, 3.25792512996573918826e+02, 1.53672958608443695994e+03, 3.19985821950859553908e+03, 2.55305040643316442583e+03, 4.74528541206955367215e+02, -2.24409524465858183362e+01}
)

// normTail is Φc(u) = P(Z > u) for a standard normal Z.
func normTail(u float64) float64 { return float64(0.5 * erfc(u/math.Sqrt2)) }

// mills is the normal Mills ratio Φc(v)/φ(v), finite for every finite v
// (it tends to 1/v as v grows).
func mills(v float64) float64 {
	if v >= 0 {
		return math.Sqrt(math.Pi/2) * erfcx(v/math.Sqrt2)
	}
	return normTail(v) / normDensity(v)
}

// normDensity is the standard normal density φ(u).
func normDensity(u float64) float64 {
	return num.Exp(-0.5*float64(u*u)) / math.Sqrt(2*math.Pi)
}

// expm1 is e^x − 1, accurate near 0, with the same bits natively, under
// js/wasm and on arm64 (num.Expm1; the standard library's fuses there).
func expm1(x float64) float64 { return num.Expm1(x) }
