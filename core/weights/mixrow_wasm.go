package weights

// MixRow adds Σ_e vals[e]·x_{cols[e]} to acc, where x holds a block of
// len(acc) values per agent (agent j's at x[j·len(acc) : (j+1)·len(acc)]):
// one row of (W ⊗ I)·x without its diagonal, the algorithms' hot loop.
//
// Under WebAssembly it is written in assembly (mixrow_wasm.s): Go's wasm
// backend sends every jump of a compiled loop through the function's
// block dispatcher, which made this loop three times slower than native;
// hand-written structured loops run it at native-like speed. The
// arithmetic and its order are those of the Go version (mixrow.go):
// (w1·x1 + w2·x2) + (w3·x3 + w4·x4) per pass of four neighbours, then one
// at a time, no fused multiply-add, so traces stay bit-identical. A
// column outside x or fewer vals than cols traps (the Go version panics).
//
//go:noescape
func MixRow(acc, x []float64, cols []int, vals []float64)
