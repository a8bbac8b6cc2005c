//go:build !wasm

package nn

// wasm selects the kernels measured fastest under js/wasm (gemm.go).
const wasm = false
