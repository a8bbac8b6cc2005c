// The algorithm and constants below are those of Go's src/math/sin.go,
// sincos.go and trig_reduce.go (Go 1.26), Copyright 2009–2018 The Go
// Authors, BSD licence (Go's LICENSE file). sin.go's polynomials and
// reduction come from the Cephes Math Library (sin.c, cos.c):
//
//	Cephes Math Library Release 2.8:  June, 2000
//	Copyright 1984, 1987, 1989, 1992, 2000 by Stephen L. Moshier
//
// whose readme says its software may be used freely but comes with no
// support or guarantee. The reduction of huge arguments is Payne–Hanek's
// after K. C. Ng et al., "Argument reduction for huge arguments: good to
// the last bit" (1992). The one change: every product that meets a sum is
// rounded by an explicit float64(…) conversion, so no compiler fuses the
// pair into one multiply-add.

package num

import (
	"math"
	"math/bits"
)

// sin and cos coefficients (math's _sin and _cos).
var (
	sinCoef = [...]float64{
		1.58962301576546568060e-10, // 0x3de5d8fd1fd19ccd
		-2.50507477628578072866e-8, // 0xbe5ae5e5a9291f5d
		2.75573136213857245213e-6,  // 0x3ec71de3567d48a1
		-1.98412698295895385996e-4, // 0xbf2a01a019bfdf03
		8.33333333332211858878e-3,  // 0x3f8111111110f7d0
		-1.66666666666666307295e-1, // 0xbfc5555555555548
	}
	cosCoef = [...]float64{
		-1.13585365213876817300e-11, // 0xbda8fa49a0861a9b
		2.08757008419747316778e-9,   // 0x3e21ee9d7b4e3f05
		-2.75573141792967388112e-7,  // 0xbe927e4f7eac4bc6
		2.48015872888517045348e-5,   // 0x3efa01a019c844f5
		-1.38888888888730564116e-3,  // 0xbf56c16c16c14f91
		4.16666666666665929218e-2,   // 0x3fa555555555554b
	}
)

// Sincos returns Sin(x), Cos(x), bit-identical on every architecture. It
// is math.Sincos's algorithm with every product rounded before its sum:
// math.Sincos is pure Go, so on amd64 (GOAMD64=v1) and js/wasm, which
// never fuse, the two give the same bits, while on arm64 the standard
// library's is compiled with fused multiply-adds. Special cases are those
// of math.Sincos:
//
//	Sincos(±0) = ±0, 1
//	Sincos(±Inf) = NaN, NaN
//	Sincos(NaN) = NaN, NaN
func Sincos(x float64) (sin, cos float64) {
	const (
		pi4A = 7.85398125648498535156e-1  // 0x3fe921fb40000000, Pi/4 split into three parts
		pi4B = 3.77489470793079817668e-8  // 0x3e64442d00000000,
		pi4C = 2.69515142907905952645e-15 // 0x3ce8469898cc5170,
	)
	switch {
	case x == 0:
		return x, 1 // ±0.0, 1.0
	case math.IsNaN(x) || math.IsInf(x, 0):
		return math.NaN(), math.NaN()
	}

	// make argument positive
	sinSign, cosSign := false, false
	if x < 0 {
		x = -x
		sinSign = true
	}

	var j uint64
	var y, z float64
	if x >= reduceThreshold {
		j, z = trigReduce(x)
	} else {
		// integer part of x/(Pi/4), as integer for tests on the phase angle;
		// the product is rounded first, or ppc64le fuses it into the
		// conversion's subtraction of 2^63
		j = uint64(float64(x * (4 / math.Pi)))
		y = float64(j) // integer part of x/(Pi/4), as float

		if j&1 == 1 { // map zeros to origin
			j++
			y++
		}
		j &= 7                                                          // octant modulo 2Pi radians (360 degrees)
		z = ((x - float64(y*pi4A)) - float64(y*pi4B)) - float64(y*pi4C) // extended precision modular arithmetic
	}
	if j > 3 { // reflect in x axis
		j -= 4
		sinSign, cosSign = !sinSign, !cosSign
	}
	if j > 1 {
		cosSign = !cosSign
	}

	zz := z * z
	cos = 1.0 - float64(0.5*zz) + float64(zz*zz*poly(&cosCoef, zz))
	sin = z + float64(z*zz*poly(&sinCoef, zz))
	if j == 1 || j == 2 {
		sin, cos = cos, sin
	}
	if cosSign {
		cos = -cos
	}
	if sinSign {
		sin = -sin
	}
	return
}

// poly returns ((((c0·z + c1)·z + c2)·z + c3)·z + c4)·z + c5, each product
// rounded before its sum, in math's order.
func poly(c *[6]float64, z float64) float64 {
	p := float64(c[0]*z) + c[1]
	p = float64(p*z) + c[2]
	p = float64(p*z) + c[3]
	p = float64(p*z) + c[4]
	return float64(p*z) + c[5]
}

// reduceThreshold is the largest x for which the reduction by Pi/4 in
// three float64 parts is exact (math's; y·pi4A must be exact, so y < 2^29
// conservatively); above it trigReduce's Payne–Hanek reduction is used.
const reduceThreshold = 1 << 29

// trigReduce implements Payne–Hanek range reduction by Pi/4 for x > 0
// (math's trigReduce): it returns the integer part mod 8 (j) and the
// fractional part (z) of x / (Pi/4). It is integer arithmetic but for its
// last product, so nothing in it can fuse.
func trigReduce(x float64) (j uint64, z float64) {
	const (
		pi4   = math.Pi / 4
		mask  = 0x7FF
		shift = 64 - 11 - 1
		bias  = 1023
	)
	if x < pi4 {
		return 0, x
	}
	// Extract out the integer and exponent such that x = ix * 2 ** exp.
	ix := math.Float64bits(x)
	exp := int(ix>>shift&mask) - bias - shift
	ix &^= mask << shift
	ix |= 1 << shift
	// Use the exponent to extract the 3 appropriate uint64 digits from
	// mPi4, B ~ (z0, z1, z2), such that the product leading digit has the
	// exponent -61. Note, exp >= -53 since x >= pi4 and exp < 971 for the
	// maximum float64.
	digit, bitshift := uint(exp+61)/64, uint(exp+61)%64
	z0 := (mPi4[digit] << bitshift) | (mPi4[digit+1] >> (64 - bitshift))
	z1 := (mPi4[digit+1] << bitshift) | (mPi4[digit+2] >> (64 - bitshift))
	z2 := (mPi4[digit+2] << bitshift) | (mPi4[digit+3] >> (64 - bitshift))
	// Multiply mantissa by the digits and extract the upper two digits (hi, lo).
	z2hi, _ := bits.Mul64(z2, ix)
	z1hi, z1lo := bits.Mul64(z1, ix)
	z0lo := z0 * ix
	lo, c := bits.Add64(z1lo, z2hi, 0)
	hi, _ := bits.Add64(z0lo, z1hi, c)
	// The top 3 bits are j.
	j = hi >> 61
	// Extract the fraction and find its magnitude.
	hi = hi<<3 | lo>>61
	lz := uint(bits.LeadingZeros64(hi))
	e := uint64(bias - (lz + 1))
	// Clear implicit mantissa bit and shift into place.
	hi = (hi << (lz + 1)) | (lo >> (64 - (lz + 1)))
	hi >>= 64 - shift
	// Include the exponent and convert to a float.
	hi |= e << shift
	z = math.Float64frombits(hi)
	// Map zeros to origin.
	if j&1 == 1 {
		j++
		j &= 7
		z--
	}
	// Multiply the fractional part by pi/4.
	return j, z * pi4
}

// mPi4 is the binary digits of 4/pi as a uint64 array, that is,
// 4/pi = Sum mPi4[i]*2^(-64*i): 19 64-bit digits and the leading one bit
// give 1217 bits of precision, enough for the largest float64 exponent.
var mPi4 = [...]uint64{
	0x0000000000000001,
	0x45f306dc9c882a53,
	0xf84eafa3ea69bb81,
	0xb6c52b3278872083,
	0xfca2c757bd778ac3,
	0x6e48dc74849ba5c0,
	0x0c925dd413a32439,
	0xfc3bd63962534e7d,
	0xd1046bea5d768909,
	0xd338e04d68befc82,
	0x7323ac7306a673e9,
	0x3908bf177bf25076,
	0x3ff12fffbc0b301f,
	0xde5e2316b414da3e,
	0xda6cfd9e4f96136e,
	0x9e8c7ecd3cbfd45a,
	0xea4f758fd7cbe2f6,
	0x7a0e73ef14a525d4,
	0xd7f6bf623f1aba10,
	0xac06608df8f6d757,
}
