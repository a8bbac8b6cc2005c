//go:build wasm

package learn

// Under js/wasm the float32 rows' four-row kernels are WebAssembly
// assembly (rows_wasm.s) with structured loops, as nonconvex's and
// weights.MixRow: Go's wasm backend sends every jump of a compiled loop
// through the function's block dispatcher, which made these loops (22
// values a row on ijcnn1) most of the logistic gradient's wasm time. The
// arithmetic and its order are the Go versions' (rows_float32_go.go), no
// fused multiply-add, so the bits are too (TestBlockedKernels, run under
// js/wasm). The callers pass rows of len(x) (len(out)) values.

// dot4Float32 returns Σ_j float64(a_j)·x_j for the four rows, each left
// to right from 0.
//
//go:noescape
func dot4Float32(a, b, c, e []float32, x []float64) (sa, sb, sc, se float64)

// axpy4Float32 adds ca·a_j, then cb·b_j, cc·c_j, ce·e_j to out_j.
//
//go:noescape
func axpy4Float32(ca, cb, cc, ce float64, a, b, c, e []float32, out []float64)
