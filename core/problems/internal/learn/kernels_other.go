//go:build !(amd64 || wasm) || purego

package learn

// dotsWide is the AVX2 kernel's entry on amd64; elsewhere Dots runs its
// Go loops for every row (on wasm: kernels_wasm.go).
func (r Rows) dotsWide(lo int, x []float64, out []float64) int { return 0 }

// axpysWide is the AVX2 kernel's entry on amd64; elsewhere Axpys runs its
// Go loops for every row (on wasm: kernels_wasm.go).
func (r Rows) axpysWide(lo int, c []float64, out []float64) int { return 0 }
