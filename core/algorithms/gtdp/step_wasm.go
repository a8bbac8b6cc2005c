package gtdp

// update is step b) of Algorithm 1 (eq. 4) for every agent i:
//
//	acc = (w_ii·s_i, w_ii·x_i) + Σ_{j≠i} w_ij·out_j   (out_j: j's released s and x, side by side)
//	sn_i = acc_s + γ_k·g_i                            (s_{i,k+1})
//	xn_i = acc_x − α·(sn_i − s_i)                     (x_{i,k+1})
//
// Under WebAssembly it is assembly (step_wasm.s): Go's wasm backend sends
// every jump of a compiled loop through the function's block dispatcher,
// which made this loop about three times slower than native; the
// assembly's structured loops do the same arithmetic in the same order
// as the Go version (step.go), so traces stay bit-identical. The caller
// guarantees the lengths (n·d for the states, 2n·d for out, 2d for acc,
// n+1 for start); a column outside 0..n−1 traps.
//
//go:noescape
func update(n, d int, out []float64, start, col []int, val, diag, s, x, g, sn, xn, acc []float64, gk, alpha float64)
