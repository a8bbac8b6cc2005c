// Package nofma holds the test that keeps dpsim's Go free of fused
// multiply–adds.
//
// The Go specification lets a compiler compute x*y + z with one rounding
// (a fused multiply–add), and gc does so on arm64, ppc64le, s390x, riscv64
// and on amd64 built with GOAMD64=v3; amd64 at its default level (v1) and
// js/wasm never fuse. A fused sum differs from the rounded product added in
// the last bit, so one fused site would make a run's trajectory, its
// export and its golden files differ between an Apple Silicon Mac and the
// browser. An explicit conversion, float64(x*y) + z, rounds the product
// and so forbids the fusion (the specification's words); every such site
// in dpsim is written that way.
//
// TestNoFusedMultiplyAdd compiles every package of the module for each of
// those targets with the compiler's assembly listing (-S) and fails naming
// file:line, the function and the instruction for every fused
// multiply–add in dpsim's own code. arm64 and amd64 v3 are checked on
// every run; ppc64le, s390x and riscv64 with DPSIM_NOFMA_ALL=1.
package nofma
