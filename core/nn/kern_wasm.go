//go:build wasm && !purego

package nn

var useKernel = false

const kernRows, kernCols = 1, 1

func kernel(a *float32, sai, sap int, b *float32, ldb int, c *float32, ldc, m, n, k int) {
	panic("nn: no micro-kernel on this platform")
}
