//go:build (!amd64 || purego) && !(js && wasm && dpsimsimd && !purego)

package learn

// packKernels reports whether Pack builds the packed layouts: only for
// the AVX2 kernels of amd64 (kernels_amd64.go) and the WebAssembly SIMD
// module of js/wasm built with the dpsimsimd tag (packed_simd.go);
// elsewhere the full passes read the rows in place and save the memory.
func packKernels() bool { return false }

// packedDots runs packedDotsGo: there are no packed kernels here.
func packedDots(rm []float32, stride, d, n int, x, out []float64) {
	packedDotsGo(rm, stride, d, n, x, out)
}

// packedAxpys runs packedAxpysGo: there are no packed kernels here.
func packedAxpys(rm []float32, stride, n int, c []float64, nv int, acc *[packTile]float64) {
	packedAxpysGo(rm, stride, n, c, nv, acc)
}

// packFeatureMajor reports whether Pack builds the feature-major copy:
// only for amd64's AVX2 kernel.
func packFeatureMajor() bool { return false }

// packedTrDots runs packedTrDotsGo: there are no packed kernels here.
func packedTrDots(tr []float32, groups, d int, x, out []float64) {
	packedTrDotsGo(tr, groups, d, x, out)
}

// packedSquares reports false: the caller runs packedDots, the
// subtraction and packedAxpys (there is no fused kernel here).
func packedSquares(rm []float32, stride, n int, x []float64, signs []int8, d, nv int, pre prefix, acc *[packTile]float64) bool {
	return false
}
