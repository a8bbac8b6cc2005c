package dpp2

// The iteration's loops over the agents' entries (Advance) in
// WebAssembly assembly (step_wasm.s): Go's wasm backend sends every jump
// of a compiled loop through the function's block dispatcher, which made
// these short loops (d = 10 values an agent) three times slower than
// natively; the assembly's structured loops do the Go versions'
// arithmetic (step.go) in the same order, no fused multiply-add, so
// traces stay bit-identical. The caller guarantees the lengths (n·d for
// every state, n+1 for start); a column outside 0…n−1 traps.

// mixAll sets out_i = p_ii·v_i + Σ_j p_ij·v_j for every agent i, each row
// in weights.MixRow's order (four neighbours per pass).
//
//go:noescape
func mixAll(n, d int, start, col []int, val, diag, v, out []float64)

// round0 sets y = x + (1 − η)·d + w (16); om is 1 − η.
//
//go:noescape
func round0(x, dv, w, y []float64, om float64)

// round1 sets zc = ∇f + η·q + ρ·a (17), z = zc + e, q = η·q + ρ·a and
// d = η·d + y (19).
//
//go:noescape
func round1(g, q, dv, y, e, a, zc, z []float64, eta, rho float64)

// update sets x = x + w − α·zc + β·b (18).
//
//go:noescape
func update(x, w, zc, b []float64, alpha, beta float64)
