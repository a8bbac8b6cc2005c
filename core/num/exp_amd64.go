//go:build amd64 && !purego

package num

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

func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
func xgetbv() (eax, edx uint32)

// hasAVX2 reports whether the CPU has AVX2 and the OS saves the YMM
// registers (CPUID.1:ECX.OSXSAVE and AVX, XCR0's SSE and AVX bits,
// CPUID.7:EBX.AVX2), as internal/cpu decides it. A variable, so that the
// tests can run the SSE2 path on an AVX2 machine too.
var hasAVX2 = func() bool {
	maxID, _, _, _ := cpuid(0, 0)
	if maxID < 7 {
		return false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	const osxsave, avx = 1 << 27, 1 << 28
	if ecx1&osxsave == 0 || ecx1&avx == 0 {
		return false
	}
	if xcr0, _ := xgetbv(); xcr0&6 != 6 {
		return false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	return ebx7&(1<<5) != 0
}()

// ExpTo sets dst[i] = Exp(src[i]) for every i (len(dst) ≥ len(src); dst
// may be src), with Exp's bits. On amd64 it computes four values at once
// with AVX2 where the CPU has it, then two at once with SSE2
// (exp_amd64.s: Exp's operations lane by lane in the same order, no fused
// multiply-add, so the same roundings), and hands every group holding a
// special value, and an odd last value, to Exp; elsewhere it is Exp's
// body in a loop (expToGeneric). TestExpToBitsWide holds it to Exp's bits.
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
