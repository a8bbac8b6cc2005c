package nonconvex

import (
	"math"
	"testing"

	"dpsim/core/num"
	"dpsim/core/rng"
)

// TestKernelBits holds num.Dots (the gradient's dot products) to num.Dot
// row after row, and axpys, on every path (AVX2 and Go on amd64), to the
// bits of one row after another — each entry's terms in row order — for every width 0–27 (every
// pass split of the AVX2 axpys: fours, a pair, a single, several passes)
// and row counts that fill groups of four or not, with values of every
// magnitude, exact zeros and −0 among them.
func TestKernelBits(t *testing.T) {
	r := rng.New(3, "kernels")
	val := func() float64 {
		switch r.Uint64() % 8 {
		case 0:
			return 0
		case 1:
			return math.Copysign(0, -1)
		case 2:
			return r.NormFloat64() * 1e-300
		case 3:
			return r.NormFloat64() * 1e200
		default:
			return r.NormFloat64()
		}
	}
	for _, p := range kernelPaths {
		restore := p.use()
		for d := 0; d <= 27; d++ {
			for _, rows := range []int{0, 1, 4, 7, 8, 12, 64, 67} {
				z, x, w := make([]float64, rows*d), make([]float64, d), make([]float64, rows)
				for k := range z {
					z[k] = val()
				}
				for k := range x {
					x[k] = val()
				}
				for k := range w {
					w[k] = val()
				}
				got := make([]float64, rows)
				num.Dots(z, x, got)
				for s := range rows {
					want := num.Dot(z[s*d:(s+1)*d], x)
					if math.Float64bits(got[s]) != math.Float64bits(want) {
						t.Fatalf("%s: d = %d, rows = %d: dots[%d] = %v, row by row %v", p.name, d, rows, s, got[s], want)
					}
				}
				out, want := make([]float64, d+1), make([]float64, d)
				for j := range d {
					out[j] = val()
					want[j] = out[j]
				}
				out[d] = 42
				axpys(z, w, out[:d])
				for s := range rows {
					for j := range d {
						want[j] += float64(w[s] * z[s*d+j])
					}
				}
				for j := range d {
					if math.Float64bits(out[j]) != math.Float64bits(want[j]) {
						t.Fatalf("%s: d = %d, rows = %d: axpys[%d] = %v, row by row %v", p.name, d, rows, j, out[j], want[j])
					}
				}
				if out[d] != 42 {
					t.Fatalf("%s: d = %d, rows = %d: axpys wrote past out", p.name, d, rows)
				}
			}
		}
		restore()
	}
}

// TestSigmoidKernelBits holds margins and sigmoids, on every path, to the
// scalar formulas of one sample after another (softplus's and sigmoid's
// branches) for every length 0–13 (the four-wide steps and their tails)
// with NaN, ±Inf, ±0 and ordinary values in the sums and in e.
func TestSigmoidKernelBits(t *testing.T) {
	vals := []float64{0, math.Copysign(0, -1), 1, -1, 2.5, -3.75, 1e-310, -1e300, math.Inf(1), math.Inf(-1), math.NaN()}
	r := rng.New(4, "sigmoids")
	pick := func() float64 { return vals[r.Uint64()%uint64(len(vals))] }
	for _, p := range kernelPaths {
		restore := p.use()
		for n := 0; n <= 13; n++ {
			for range 50 {
				y, s, e := make([]float64, n), make([]float64, n), make([]float64, n)
				for k := range n {
					y[k] = 1
					if r.Uint64()&1 == 0 {
						y[k] = -1
					}
					s[k], e[k] = pick(), pick()
				}
				s0, e0 := append([]float64(nil), s...), append([]float64(nil), e...)
				margins(y, s, e)
				for k := range n {
					v := -y[k] * s0[k]
					if !sameFloat(s[k], v) || !sameFloat(e[k], -math.Abs(v)) {
						t.Fatalf("%s: n = %d: margins(%v, %v) = %v, %v, want %v, %v", p.name, n, y[k], s0[k], s[k], e[k], v, -math.Abs(v))
					}
				}
				copy(s, s0)
				copy(e, e0)
				sigmoids(y, s, e)
				for k := range n {
					num := e0[k]
					if s0[k] >= 0 {
						num = 1
					}
					if w := -y[k] * (num / (1 + e0[k])); !sameFloat(s[k], w) {
						t.Fatalf("%s: n = %d: sigmoids(%v, %v, %v) = %v, want %v", p.name, n, y[k], s0[k], e0[k], s[k], w)
					}
				}
			}
		}
		restore()
	}
}

// sameFloat reports whether a and b have the same bits, any NaN matching
// any NaN with the same sign.
func sameFloat(a, b float64) bool {
	if math.IsNaN(a) && math.IsNaN(b) {
		return math.Signbit(a) == math.Signbit(b)
	}
	return math.Float64bits(a) == math.Float64bits(b)
}
