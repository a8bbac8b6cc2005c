//go:build amd64 && !purego

package num

// expPairs writes Exp(src[i]) to dst[i] for i < n (n even), two values
// at a time in SSE2, until the first pair holding a value off Exp's
// common path (NaN, |x| < 2⁻²⁸, |x| > 700); it returns how many it wrote.
//
//go:noescape
func expPairs(dst, src *float64, n int) int

// ExpTo sets dst[i] = Exp(src[i]) for every i (len(dst) ≥ len(src); dst
// may be src), with Exp's bits. On amd64 it computes two values at once
// (expPairs, exp_amd64.s: Exp's operations lane by lane, so the same
// roundings) and hands every pair with a special value, and an odd last
// value, to Exp; elsewhere it is Exp's body in a loop (expToGeneric).
// TestExpToBits holds it to Exp's bits.
func ExpTo(dst, src []float64) {
	dst = dst[:len(src)]
	n := len(src) &^ 1
	for i := 0; i < n; {
		i += expPairs(&dst[i], &src[i], n-i)
		if i < n {
			// A pair with a value off the common path.
			dst[i], dst[i+1] = Exp(src[i]), Exp(src[i+1])
			i += 2
		}
	}
	if n < len(src) {
		dst[n] = Exp(src[n])
	}
}
