package num

import "math"

// expToGeneric sets dst[i] = Exp(src[i]) for every i (len(dst) ≥
// len(src); dst may be src), with Exp's bits. It is Exp's body in a loop:
// one call for a block of values, because under js/wasm a call costs
// about as much as Exp's arithmetic (the logistic loss's full gradient,
// one exp per row: docs/performance.md). It is ExpTo off amd64 (and with
// the purego tag); TestExpToBits holds it to Exp's bits everywhere.
func expToGeneric(dst, src []float64) {
	dst = dst[:len(src)]
	for i, x := range src {
		switch {
		case math.IsNaN(x):
			dst[i] = x
			continue
		case x > expOverflow:
			dst[i] = math.Inf(1)
			continue
		case x < expUnderflow:
			dst[i] = 0
			continue
		case -expNearZero < x && x < expNearZero:
			dst[i] = 1 + x
			continue
		}
		var k int
		switch {
		case x < 0:
			k = int(float64(expLog2e*x) - 0.5)
		case x > 0:
			k = int(float64(expLog2e*x) + 0.5)
		}
		hi := x - float64(float64(k)*expLn2Hi)
		lo := float64(float64(k) * expLn2Lo)
		r := hi - lo
		t := float64(r * r)
		c := r - float64(t*(expP1+float64(t*(expP2+float64(t*(expP3+float64(t*(expP4+float64(t*expP5)))))))))
		y := 1 - ((lo - float64(r*c)/(2-c)) - hi)
		if -1020 <= k && k <= 1020 {
			dst[i] = y * math.Float64frombits(uint64(k+1023)<<52)
		} else {
			dst[i] = math.Ldexp(y, k)
		}
	}
}
