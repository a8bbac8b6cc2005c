//go:build amd64

package nonconvex

import "dpsim/core/internal/cpufeat"

// On amd64 with AVX2 the gradient's loops over a block are assembly
// (kernels_amd64.s; its dot products are num.Dots, assembly of core/num)
// that computes four entries or four samples at once, each
// lane doing the Go version's operations in the Go version's order with
// separate multiplies and adds (no fused multiply-add), so the bits are
// the same (TestBlockedGrad, TestBlockedValue, TestGramMaxBits run both
// paths). Without AVX2 they are the Go versions (kernels_go.go).

// axpys4AVX2 is axpys4 with four (two, one) consecutive entries of out in
// a register's lanes, up to eleven entries held in registers across all
// the rows: each entry's terms still in row order.
//
//go:noescape
func axpys4AVX2(z, w, out []float64)

// margins4AVX2 is marginsGo on the first len(s)&^3 samples, four at a
// time (the sign flips and |·| as bit operations, exact as Go's).
//
//go:noescape
func margins4AVX2(y, s, e []float64)

// sigmoids4AVX2 is sigmoidsGo on the first len(s)&^3 samples, four at a
// time (the numerator by a blend, the same division).
//
//go:noescape
func sigmoids4AVX2(y, s, e []float64)

// hasAVX2 is cpufeat.AVX2, a variable so that the tests run the Go path
// on an AVX2 machine too.
var hasAVX2 = cpufeat.AVX2

// axpys4 adds w[s]·z_s to out for the rows z_s of z, four rows per pass
// (kernels_go.go's axpys4Go, or its AVX2 form).
func axpys4(z, w, out []float64) {
	if hasAVX2 {
		axpys4AVX2(z, w, out)
		return
	}
	axpys4Go(z, w, out)
}

// margins sets s[t] = −y[t]·s[t] and e[t] = −|s[t]| (kernels_go.go's
// marginsGo, four samples at a time with AVX2).
func margins(y, s, e []float64) {
	y, e = y[:len(s)], e[:len(s)]
	n := 0
	if hasAVX2 {
		n = len(s) &^ 3
		margins4AVX2(y, s, e)
	}
	marginsGo(y[n:], s[n:], e[n:])
}

// sigmoids sets s[t] = −y[t]·σ(s[t]) from e[t] = e^(−|s[t]|)
// (kernels_go.go's sigmoidsGo, four samples at a time with AVX2).
func sigmoids(y, s, e []float64) {
	y, e = y[:len(s)], e[:len(s)]
	n := 0
	if hasAVX2 {
		n = len(s) &^ 3
		sigmoids4AVX2(y, s, e)
	}
	sigmoidsGo(y[n:], s[n:], e[n:])
}
