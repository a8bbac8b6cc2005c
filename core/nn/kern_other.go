//go:build (!amd64 && !wasm) || purego

package nn

// useKernel is false where no micro-kernel is written: the Go kernels
// of gemm.go run.
var useKernel = false

const kernRows, kernCols = 1, 1

func kernel(a *float32, sai, sap int, b *float32, ldb int, c *float32, ldc, m, n, k int) {
	panic("nn: no micro-kernel on this platform")
}

// im2col is im2colGo.
func im2col(x []float32, c, h, w int, cols []float32) { im2colGo(x, c, h, w, cols) }

// col2im is col2imGo.
func col2im(dcols []float32, c, h, w int, dx []float32) { col2imGo(dcols, c, h, w, dx) }

// poolReLU is poolReLUGo.
func poolReLU(a []float32, c, h, w int, out []float32, arg []uint8) { poolReLUGo(a, c, h, w, out, arg) }
