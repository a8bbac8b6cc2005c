// Command gen writes the WebAssembly SIMD module that runs the nonconvex
// classifier's gradient loop in the browser (and in node) for the Go
// wasm built with the dpsimsimd tag (core/problems/nonconvex,
// kernels_simd.go): hand-written f64x2 code, imported by Go through
// //go:wasmimport dpsimsimd grad, working in Go's own linear memory.
//
//	go run ./wasm/simd/gen -o public/simd.wasm
//
// The module is built from the instruction lists in grad.go by the
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
	if err := os.WriteFile(*out, module([]*fn{grad()}), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
