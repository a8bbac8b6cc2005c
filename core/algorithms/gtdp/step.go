//go:build !wasm

package gtdp

import "dpsim/core/weights"

// update is step b) of Algorithm 1 (eq. 4) for every agent i:
//
//	acc = (w_ii·s_i, w_ii·x_i) + Σ_{j≠i} w_ij·out_j   (out_j: j's released s and x, side by side)
//	sn_i = acc_s + γ_k·g_i                            (s_{i,k+1})
//	xn_i = acc_x − α·(sn_i − s_i)                     (x_{i,k+1})
//
// A node mixes its own clean state and the neighbours' released copies.
// Under WebAssembly it is assembly (step_wasm.s) with the same arithmetic
// in the same order, so traces stay bit-identical.
func update(n, d int, out []float64, start, col []int, val, diag, s, x, g, sn, xn, acc []float64, gk, alpha float64) {
	acc = acc[:2*d]
	for i := range n {
		lo, hi := i*d, (i+1)*d
		si, xi, gi := s[lo:hi], x[lo:hi], g[lo:hi]
		si, gi = si[:len(xi)], gi[:len(xi)]
		wii := diag[i]
		as, ax := acc[:len(xi)], acc[d:d+len(xi)]
		for c := range xi {
			as[c] = wii * si[c]
			ax[c] = wii * xi[c]
		}
		lo2, hi2 := start[i], start[i+1]
		weights.MixRow(acc, out, col[lo2:hi2], val[lo2:hi2])
		sni, xni := sn[lo:hi], xn[lo:hi]
		sni, xni = sni[:len(xi)], xni[:len(xi)]
		for c := range xi {
			v := as[c] + float64(gk*gi[c])
			sni[c] = v
			xni[c] = ax[c] - float64(alpha*(v-si[c]))
		}
	}
}
