//go:build !(js && wasm && dpsimsimd && !purego)

package learn

// squaresWide is the SIMD module's entry of SquaresGrad on a pixel set's
// sparse form under js/wasm with the dpsimsimd tag (sparse_simd.go);
// elsewhere SquaresGrad runs its blocks itself.
func (r Rows) squaresWide(sp *sparseRows, x []float64, signs []int8, out []float64) int { return 0 }

// sparseDotsSIMD reports false: the SIMD module runs under js/wasm with
// the dpsimsimd tag only (sparse_simd.go).
func sparseDotsSIMD(sp *sparseRows, idx *int, first, n int, x, out []float64) bool { return false }

// sparseAxpysSIMD reports false, as sparseDotsSIMD.
func sparseAxpysSIMD(sp *sparseRows, idx *int, first, n int, c, out []float64) bool { return false }
