package nonconvex

// dots4 and axpys4 are the gradient's two loops over the samples' rows,
// margins and sigmoids its two loops over a block's samples. Under
// WebAssembly they are assembly (kernels_wasm.s), as core/weights'
// MixRow: Go's wasm backend sends every jump of a compiled loop through
// the function's block dispatcher, which made these short loops (d = 10
// values a row) cost three times their native time; structured loops do
// not. The arithmetic and its order are those of the Go versions
// (kernels_go.go), no fused multiply-add, so the gradients' bits match
// (TestBlockedGrad, TestKernelBits, TestSigmoidKernelBits, run under
// js/wasm too). The callers (dots, axpys, Grad, Value) have checked the
// lengths.

// dots4 sets out[s] = xᵀz_s for the rows z_s of z, four at a time.
//
//go:noescape
func dots4(z, x, out []float64)

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
