package dpp2

import (
	"math"
	"testing"

	"dpsim/core/rng"
)

// TestStepKernels holds the iteration's loops (step.go natively,
// step_wasm.s under js/wasm) to the formulas of Advance written out one
// value at a time, bit for bit, for widths 1–11 (odd ones included) and
// rows of 0–11 neighbours (every split into passes of four and the
// rest), with values of every magnitude, ±0, ±Inf and NaN among them.
// Every product is rounded before its sum (float64(…)), here as in the
// kernels, so that GOAMD64=v3 does not fuse them.
func TestStepKernels(t *testing.T) {
	r := rng.New(11, "dpp2/step")
	vals := []float64{0, math.Copysign(0, -1), 1, -2.5, 1e-310, -3e300, math.Inf(1), math.Inf(-1), math.NaN()}
	val := func() float64 {
		if r.Uint64()%8 == 0 {
			return vals[r.Uint64()%uint64(len(vals))]
		}
		return r.NormFloat64() * math.Exp(4*r.NormFloat64())
	}
	vec := func(k int) []float64 {
		v := make([]float64, k)
		for i := range v {
			v[i] = val()
		}
		return v
	}
	const n = 13
	for d := 1; d <= 11; d++ {
		nd := n * d
		// Row i has i mod 12 neighbours, drawn from the other agents.
		start, col := make([]int, n+1), []int(nil)
		for i := range n {
			for k := range i % 12 {
				col = append(col, (i+1+k*int(1+r.Uint64()%3))%n)
			}
			start[i+1] = len(col)
		}
		pv, diag, v := vec(len(col)), vec(n), vec(nd)
		got := vec(nd)
		mixAll(n, d, start, col, pv, diag, v, got)
		for i := range n {
			for c := range d {
				want := float64(diag[i] * v[i*d+c])
				e := start[i]
				for ; e+4 <= start[i+1]; e += 4 {
					o := func(k int) float64 { return float64(pv[e+k] * v[col[e+k]*d+c]) }
					want += float64(o(0)+o(1)) + float64(o(2)+o(3))
				}
				for ; e < start[i+1]; e++ {
					want += float64(pv[e] * v[col[e]*d+c])
				}
				if !same(got[i*d+c], want) {
					t.Fatalf("mixAll, d = %d, agent %d, entry %d: %v, want %v", d, i, c, got[i*d+c], want)
				}
			}
		}

		x, dv, w, eta := vec(nd), vec(nd), vec(nd), val()
		y := vec(nd)
		round0(x, dv, w, y, 1-eta)
		for k := range y {
			if want := float64(x[k]+float64((1-eta)*dv[k])) + w[k]; !same(y[k], want) {
				t.Fatalf("round0, d = %d, [%d]: %v, want %v", d, k, y[k], want)
			}
		}

		g, q, e, a, rho := vec(nd), vec(nd), vec(nd), vec(nd), val()
		q0, dv0 := append([]float64(nil), q...), append([]float64(nil), dv...)
		zc, z := vec(nd), vec(nd)
		round1(g, q, dv, y, e, a, zc, z, eta, rho)
		for k := range zc {
			qt, ra := float64(eta*q0[k]), float64(rho*a[k])
			wzc, wq, wd := float64(g[k]+qt)+ra, qt+ra, float64(eta*dv0[k])+y[k]
			if !same(zc[k], wzc) || !same(z[k], wzc+e[k]) || !same(q[k], wq) || !same(dv[k], wd) {
				t.Fatalf("round1, d = %d, [%d]: zc, z, q, d = %v, %v, %v, %v, want %v, %v, %v, %v", d, k,
					zc[k], z[k], q[k], dv[k], wzc, wzc+e[k], wq, wd)
			}
		}

		b, alpha, beta := vec(nd), val(), val()
		x0 := append([]float64(nil), x...)
		update(x, w, zc, b, alpha, beta)
		for k := range x {
			if want := float64(float64(x0[k]+w[k])-float64(alpha*zc[k])) + float64(beta*b[k]); !same(x[k], want) {
				t.Fatalf("update, d = %d, [%d]: %v, want %v", d, k, x[k], want)
			}
		}
	}
}

// same reports whether a and b have the same bits, any NaN matching any
// NaN (WebAssembly does not promise a NaN's payload or sign).
func same(a, b float64) bool {
	if math.IsNaN(a) && math.IsNaN(b) {
		return true
	}
	return math.Float64bits(a) == math.Float64bits(b)
}
