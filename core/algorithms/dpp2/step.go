//go:build !wasm

package dpp2

import "dpsim/core/weights"

// The iteration's loops over the agents' entries (Advance), in Go here
// and in WebAssembly assembly under js/wasm (step_wasm.s), where Go's
// backend sends every jump of a compiled loop through the function's
// block dispatcher and these short loops (d = 10 values an agent) ran
// three times slower than natively. Both do the same arithmetic in the
// same order with every product rounded before it is added (no fused
// multiply-add), so traces stay bit-identical (TestStepKernels, the
// goldens, the native/wasm export comparison). The caller guarantees the
// lengths (n·d for every state, n+1 for start).

// mixAll sets out_i = p_ii·v_i + Σ_j p_ij·v_j for every agent i: one
// P-mixing, each row in weights.MixRow's order (four neighbours per pass).
func mixAll(n, d int, start, col []int, val, diag, v, out []float64) {
	for i := range n {
		lo, hi := i*d, (i+1)*d
		o, vi := out[lo:hi], v[lo:hi]
		vi = vi[:len(o)]
		pii := diag[i]
		for c := range o {
			o[c] = float64(pii * vi[c])
		}
		a, b := start[i], start[i+1]
		weights.MixRow(o, v, col[a:b], val[a:b])
	}
}

// round0 sets y = x + (1 − η)·d + w, the released y^k (16); om is 1 − η.
func round0(x, dv, w, y []float64, om float64) {
	dv, w, y = dv[:len(x)], w[:len(x)], y[:len(x)]
	for t, v := range x {
		y[t] = float64(v+float64(om*dv[t])) + w[t]
	}
}

// round1 sets zc = ∇f + η·q + ρ·a (z^k without its noise e, (17)) and z
// = zc + e, then the duals' updates (19): q = η·q + ρ·a, d = η·d + y.
func round1(g, q, dv, y, e, a, zc, z []float64, eta, rho float64) {
	q, dv, y, e, a, zc, z = q[:len(g)], dv[:len(g)], y[:len(g)], e[:len(g)], a[:len(g)], zc[:len(g)], z[:len(g)]
	for t, gt := range g {
		qt := float64(eta * q[t])
		ra := float64(rho * a[t])
		v := float64(gt+qt) + ra
		zc[t] = v
		z[t] = v + e[t]
		q[t] = qt + ra
		dv[t] = float64(eta*dv[t]) + y[t]
	}
}

// update sets x = x + w − α·zc + β·b (18), b = (P ⊗ I)z.
func update(x, w, zc, b []float64, alpha, beta float64) {
	w, zc, b = w[:len(x)], zc[:len(x)], b[:len(x)]
	for t, v := range x {
		x[t] = float64(float64(v+w[t])-float64(alpha*zc[t])) + float64(beta*b[t])
	}
}
