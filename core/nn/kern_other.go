//go:build (!amd64 && !wasm) || purego

package nn

// useKernel is false where no micro-kernel is written: the Go kernels
// of gemm.go run.
var useKernel = false

const kernRows, kernCols = 1, 1

func kernel(a *float32, sai, sap int, b *float32, ldb int, c *float32, ldc, m, n, k int) {
	panic("nn: no micro-kernel on this platform")
}

// kernNT is gemmNTGo (never reached: useKernel is false).
func kernNT(m, n, k int, a, b, c []float32) { gemmNTGo(m, n, k, a, b, c) }

// im2col is im2colGo.
func im2col(x []float32, c, h, w int, cols []float32) { im2colGo(x, c, h, w, cols) }

// col2im is col2imGo.
func col2im(dcols []float32, c, h, w int, dx []float32) { col2imGo(dcols, c, h, w, dx) }

// poolReLU is poolReLUGo.
func poolReLU(a []float32, c, h, w int, out []float32, arg []uint8) { poolReLUGo(a, c, h, w, out, arg) }

// fillBias is fillBiasGo.
func fillBias(a, bias []float32, p int) { fillBiasGo(a, bias, p) }

// rowSums is rowSumsGo.
func rowSums(a []float32, rows, p int, out []float32) { rowSumsGo(a, rows, p, out) }

// unpool is unpoolGo.
func unpool(dq, q []float32, arg []uint8, c, h, w int, da []float32) {
	unpoolGo(dq, q, arg, c, h, w, da)
}
