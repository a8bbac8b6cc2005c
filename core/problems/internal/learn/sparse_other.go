//go:build !(amd64 || wasm) || purego

package learn

// sparseDotsWide is the assembly entry of sparseDots under js/wasm
// (kernels_wasm.go); elsewhere sparseDots runs its Go loops for every row.
func (r Rows) sparseDotsWide(sp *sparseRows, lo int, x []float64, out []float64) int { return 0 }

// sparseAxpysWide is the assembly entry of sparseAxpys under js/wasm
// (kernels_wasm.go); elsewhere sparseAxpys runs its Go loops.
func (r Rows) sparseAxpysWide(sp *sparseRows, lo int, c []float64, out []float64) int { return 0 }
