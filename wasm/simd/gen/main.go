// Command gen writes the WebAssembly SIMD module that runs the nonconvex
// classifier's gradient loop (grad: core/problems/nonconvex,
// kernels_simd.go) and the packed dense float32 dots and axpys of the
// logistic and DP-RECAL models' full gradients (pdots, paxpys:
// core/problems/internal/learn, packed_simd.go), and the logistic
// model's slopes with their exps (pslopes: core/problems/logistic,
// slopes_simd.go), and the CNN's matrix products and patch matrices
// (pnn, pnt, pim2col, pcol2im: core/nn, kern_simd.go; in cnn.go), and
// paxpysd (psqgrad's weighted sums over float64 rows), and
// the sparse pixel rows' dots, axpys and squared-loss gradient sum
// (sdots, saxpys, ssqgrad: learn, sparse_simd.go; in sparse.go)
// in the browser (and in
// node) for the Go wasm built with the dpsimsimd tag: hand-written f64x2
// code, imported by Go through //go:wasmimport dpsimsimd, working in Go's
// own linear memory.
//
//	go run ./wasm/simd/gen -o public/simd.wasm
//
// The module is built from the instruction lists in grad.go, packed.go
// and exp.go by the
// encoder in asm.go, with no tool beyond Go; the same source gives the
// same bytes. build.sh writes it into public/; public/simd.js links it.
package main

import (
	"flag"
	"fmt"
	"os"
)

func main() {
	out := flag.String("o", "simd.wasm", "the module's path")
	flag.Parse()
	if err := os.WriteFile(*out, module(kernels()), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

// kernels are the module's functions, each exported under its name.
func kernels() []*fn {
	return []*fn{grad(), pdots(), paxpys(), pslopes(), pnn(), pnt(), pim2col(), pcol2im(), psqgrad(), sdots(), saxpys(), ssqgrad(), paxpysd()}
}
