//go:build wasm && !purego

package num

// expRun writes Exp(src[i]) to dst[i] for i < n, in WebAssembly assembly
// (exp_wasm.s), until the first value off Exp's common path (NaN,
// |x| < 2⁻²⁸, |x| > 700); it returns how many it wrote.
//
//go:noescape
func expRun(dst, src *float64, n int) int

// ExpTo sets dst[i] = Exp(src[i]) for every i (len(dst) ≥ len(src); dst
// may be src), with Exp's bits. Under js/wasm its loop is WebAssembly
// assembly (exp_wasm.s: Exp's operations in Exp's order, four values
// interleaved; WebAssembly has no fused multiply-add), about twice as fast
// as Exp's body compiled by Go, whose loops jump through a dispatcher;
// values off the common path go to Exp itself. TestExpToBitsWide and
// TestExpToTails hold it to Exp's bits.
func ExpTo(dst, src []float64) {
	dst = dst[:len(src)]
	for i := 0; i < len(src); {
		i += expRun(&dst[i], &src[i], len(src)-i)
		if i < len(src) {
			dst[i] = Exp(src[i])
			i++
		}
	}
}
