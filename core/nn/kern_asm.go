//go:build (amd64 || wasm) && !purego

package nn

// The pooling, bias and row-sum kernels exist in AVX2 (pool_amd64.s,
// kernnt_amd64.s) and in WebAssembly (kern_wasm.s, kernnt_wasm.s) under
// one name each; these wrappers check lengths once for both.

// poolAsm is poolReLUGo's loops in assembly: max32 as Go compiles max,
// the window's position by compares (AVX2 blends, wasm selects); on
// checked lengths only.
//
//go:noescape
func poolAsm(a *float32, c, h, w int, out *float32, arg *uint8)

// fillAsm, rowSumsAsm and unpoolAsm are fillBiasGo's, rowSumsGo's and
// unpoolGo's loops in assembly, on checked lengths only.
//
//go:noescape
func fillAsm(a, bias *float32, rows, p int)

//go:noescape
func rowSumsAsm(a *float32, rows, p int, out *float32)

//go:noescape
func unpoolAsm(dq, q *float32, arg *uint8, c, h, w int, da *float32)

// poolReLU is poolReLUGo, in assembly where useKernel is set: the same
// maxima, ties and NaNs, bit for bit (TestPool).
func poolReLU(a []float32, c, h, w int, out []float32, arg []uint8) {
	if !useKernel || !poolShape(a, c, h, w, out, arg) {
		poolReLUGo(a, c, h, w, out, arg)
		return
	}
	poolAsm(&a[0], c, h, w, &out[0], &arg[0])
}

// fillBias is fillBiasGo, in assembly where useKernel is set.
func fillBias(a, bias []float32, p int) {
	if !useKernel || len(bias) == 0 || p <= 0 || len(a) < len(bias)*p {
		fillBiasGo(a, bias, p)
		return
	}
	fillAsm(&a[0], &bias[0], len(bias), p)
}

// rowSums is rowSumsGo (the same sums in the same order), in assembly
// where useKernel is set.
func rowSums(a []float32, rows, p int, out []float32) {
	if !useKernel || rows <= 0 || p <= 0 || len(a) < rows*p || len(out) < rows {
		rowSumsGo(a, rows, p, out)
		return
	}
	rowSumsAsm(&a[0], rows, p, &out[0])
}

// unpool is unpoolGo, its scatter in assembly where useKernel is set.
func unpool(dq, q []float32, arg []uint8, c, h, w int, da []float32) {
	n := c * (h / 2) * (w / 2)
	if !useKernel || n <= 0 || len(dq) < n || len(q) < n || len(arg) < n || len(da) < c*h*w {
		unpoolGo(dq, q, arg, c, h, w, da)
		return
	}
	if !unpoolFillsBlocks || h%2 == 1 || w%2 == 1 {
		clear(da[:c*h*w])
	}
	unpoolAsm(&dq[0], &q[0], &arg[0], c, h, w, &da[0])
}
