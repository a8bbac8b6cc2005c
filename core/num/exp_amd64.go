//go:build amd64 && !purego

package num

import "dpsim/core/internal/cpufeat"

// expPairs writes Exp(src[i]) to dst[i] for i < n (n even), two values
// at a time in SSE2 (every amd64 has it), until the first pair holding a
// value off Exp's common path (NaN, |x| < 2⁻²⁸, |x| > 700); it returns
// how many it wrote.
//
//go:noescape
func expPairs(dst, src *float64, n int) int

// expQuads is expPairs four values at a time in AVX2 (n a multiple of 4);
// only where hasAVX2.
//
//go:noescape
func expQuads(dst, src *float64, n int) int

// hasAVX2 is cpufeat.AVX2, a variable so that the tests can run the
// SSE2 path on an AVX2 machine too.
var hasAVX2 = cpufeat.AVX2

// ExpTo sets dst[i] = Exp(src[i]) for every i (len(dst) ≥ len(src); dst
// may be src), with Exp's bits. On amd64 it computes four values at once
// with AVX2 where the CPU has it, then two at once with SSE2
// (exp_amd64.s: Exp's operations lane by lane in the same order, no fused
// multiply-add, so the same roundings), and hands every group holding a
// special value, and an odd last value, to Exp; elsewhere it is Exp
// in a loop (expToGeneric). TestExpToBitsWide holds it to Exp's bits.
func ExpTo(dst, src []float64) {
	dst = dst[:len(src)]
	i := 0
	if hasAVX2 {
		n := len(src) &^ 3
		for i < n {
			i += expQuads(&dst[i], &src[i], n-i)
			if i < n {
				// A quad with a value off the common path.
				for j := i; j < i+4; j++ {
					dst[j] = Exp(src[j])
				}
				i += 4
			}
		}
	}
	n := i + (len(src)-i)&^1
	for i < n {
		i += expPairs(&dst[i], &src[i], n-i)
		if i < n {
			dst[i], dst[i+1] = Exp(src[i]), Exp(src[i+1])
			i += 2
		}
	}
	if n < len(src) {
		dst[n] = Exp(src[n])
	}
}
