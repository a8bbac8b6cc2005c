package nonconvex

// axpys4 is the gradient's loop adding the samples' rows (its dot
// products are num.Dots, assembly of core/num), margins and sigmoids its
// two loops over a block's samples. Under
// WebAssembly they are assembly (kernels_wasm.s), as core/weights'
// MixRow: Go's wasm backend sends every jump of a compiled loop through
// the function's block dispatcher, which made these short loops (d = 10
// values a row) cost three times their native time; structured loops do
// not. The arithmetic and its order are those of the Go versions
// (kernels_go.go), no fused multiply-add, so the gradients' bits match
// (TestBlockedGrad, TestKernelBits, TestSigmoidKernelBits, run under
// js/wasm too). The callers (axpys, Grad, Value) have checked the
// lengths.

// axpys4 adds w[s]·z_s to out for the rows z_s of z, four rows per pass.
//
//go:noescape
func axpys4(z, w, out []float64)

// margins sets s[t] = −y[t]·s[t] and e[t] = −|s[t]| (kernels_go.go);
// len(y), len(e) ≥ len(s) (the callers' blocks).
//
//go:noescape
func margins(y, s, e []float64)

// sigmoids sets s[t] = −y[t]·σ(s[t]) from e[t] = e^(−|s[t]|)
// (kernels_go.go); len(y), len(e) ≥ len(s).
//
//go:noescape
func sigmoids(y, s, e []float64)
