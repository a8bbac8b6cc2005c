// The algorithm and constants below are those of Go's src/math/expm1.go
// (Go 1.26), which ports FreeBSD's /usr/src/lib/msun/src/s_expm1.c:
//
//	Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
//	Developed at SunPro, a Sun Microsystems, Inc. business.
//	Permission to use, copy, modify, and distribute this
//	software is freely granted, provided that this notice
//	is preserved.
//
// and Go's port is Copyright 2010 The Go Authors, BSD licence (Go's
// LICENSE file). The one change: every product that meets a sum is
// rounded by an explicit float64(…) conversion, so no compiler fuses the
// pair into one multiply-add.

package num

import "math"

// Expm1 returns e**x - 1, accurate also when x is near zero, bit-identical
// on every architecture. It is math.Expm1's algorithm with every product
// rounded before its sum: math.Expm1 is pure Go, so on amd64 (GOAMD64=v1)
// and js/wasm, which never fuse, the two give the same bits, while on
// arm64 the standard library's is compiled with fused multiply-adds.
// Special cases are those of math.Expm1:
//
//	Expm1(+Inf) = +Inf
//	Expm1(-Inf) = -1
//	Expm1(NaN) = NaN
//
// Very large values overflow to -1 or +Inf.
func Expm1(x float64) float64 {
	const (
		othreshold = 7.09782712893383973096e+02 // 0x40862E42FEFA39EF
		ln2X56     = 3.88162421113569373274e+01 // 0x4043687a9f1af2b1
		ln2HalfX3  = 1.03972077083991796413e+00 // 0x3ff0a2b23f3bab73
		ln2Half    = 3.46573590279972654709e-01 // 0x3fd62e42fefa39ef
		ln2Hi      = 6.93147180369123816490e-01 // 0x3fe62e42fee00000
		ln2Lo      = 1.90821492927058770002e-10 // 0x3dea39ef35793c76
		invLn2     = 1.44269504088896338700e+00 // 0x3ff71547652b82fe
		tiny       = 1.0 / (1 << 54)            // 2**-54 = 0x3c90000000000000
		// scaled coefficients related to expm1
		q1 = -3.33333333333331316428e-02 // 0xBFA11111111110F4
		q2 = 1.58730158725481460165e-03  // 0x3F5A01A019FE5585
		q3 = -7.93650757867487942473e-05 // 0xBF14CE199EAADBB7
		q4 = 4.00821782732936239552e-06  // 0x3ED0CFCA86E65239
		q5 = -2.01099218183624371326e-07 // 0xBE8AFDB76E09C32D
	)

	switch {
	case math.IsInf(x, 1) || math.IsNaN(x):
		return x
	case math.IsInf(x, -1):
		return -1
	}

	absx := x
	sign := false
	if x < 0 {
		absx = -absx
		sign = true
	}

	// filter out huge argument
	if absx >= ln2X56 { // |x| >= 56 * ln2
		if sign {
			return -1 // x < -56*ln2
		}
		if absx >= othreshold { // |x| >= 709.78...
			return math.Inf(1)
		}
	}

	// argument reduction
	var c float64
	var k int
	if absx > ln2Half { // |x| > 0.5 * ln2
		var hi, lo float64
		if absx < ln2HalfX3 { // and |x| < 1.5 * ln2
			if !sign {
				hi = x - ln2Hi
				lo = ln2Lo
				k = 1
			} else {
				hi = x + ln2Hi
				lo = -ln2Lo
				k = -1
			}
		} else {
			if !sign {
				k = int(float64(invLn2*x) + 0.5)
			} else {
				k = int(float64(invLn2*x) - 0.5)
			}
			t := float64(k)
			hi = x - float64(t*ln2Hi) // t * ln2Hi is exact here
			lo = float64(t * ln2Lo)
		}
		x = hi - lo
		c = (hi - x) - lo
	} else if absx < tiny { // |x| < 2**-54
		return x
	} else {
		k = 0
	}

	// x is now in primary range
	hfx := 0.5 * x
	hxs := float64(x * hfx) // a product through a variable fuses too
	r1 := 1 + float64(hxs*(q1+float64(hxs*(q2+float64(hxs*(q3+float64(hxs*(q4+float64(hxs*q5)))))))))
	t := 3 - float64(r1*hfx)
	e := float64(hxs * ((r1 - t) / (6.0 - float64(x*t))))
	if k == 0 {
		return x - (float64(x*e) - hxs) // c is 0
	}
	e = float64(x*(e-c)) - c
	e -= hxs
	switch {
	case k == -1:
		return float64(0.5*(x-e)) - 0.5
	case k == 1:
		if x < -0.25 {
			return -2 * (e - (x + 0.5))
		}
		return 1 + float64(2*(x-e))
	case k <= -2 || k > 56: // suffice to return exp(x)-1
		y := 1 - (e - x)
		y = math.Float64frombits(math.Float64bits(y) + uint64(k)<<52) // add k to y's exponent
		return y - 1
	}
	if k < 20 {
		t := math.Float64frombits(0x3ff0000000000000 - (0x20000000000000 >> uint(k))) // t=1-2**-k
		y := t - (e - x)
		y = math.Float64frombits(math.Float64bits(y) + uint64(k)<<52) // add k to y's exponent
		return y
	}
	t = math.Float64frombits(uint64(0x3ff-k) << 52) // 2**-k
	y := x - (e + t)
	y++
	y = math.Float64frombits(math.Float64bits(y) + uint64(k)<<52) // add k to y's exponent
	return y
}
