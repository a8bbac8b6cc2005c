package num

import (
	"math"
	"testing"
)

// sameBits reports whether a and b are the same float64, any NaN
// matching any NaN.
func sameBits(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || (math.IsNaN(a) && math.IsNaN(b))
}

// expEdges are the values where Exp changes branch, each with its
// neighbours a few ulps either side: the overflow and underflow
// thresholds, the near-zero cut, the vector path's ±700 bound, the
// subnormal results' start (k = −1021) and the signed zeros, infinities
// and NaN.
func expEdges() []float64 {
	centres := []float64{0, expOverflow, -expOverflow, expUnderflow, -expUnderflow, expNearZero, -expNearZero,
		700, -700, -708.3964185322641, -708.5, 709.0895657128241, -1020 * math.Ln2, 1020 * math.Ln2,
		math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64, -math.SmallestNonzeroFloat64, 1, -1, 0.5, -0.5}
	xs := []float64{math.NaN(), math.Float64frombits(0xfff8000000000001), math.Inf(1), math.Inf(-1), math.Copysign(0, -1)}
	for _, c := range centres {
		lo, hi := c, c
		xs = append(xs, c)
		for range 4 {
			lo, hi = math.Nextafter(lo, math.Inf(-1)), math.Nextafter(hi, math.Inf(1))
			xs = append(xs, lo, hi)
		}
	}
	return xs
}

// expSample is n values over the whole float64 line and Exp's whole range:
// random bit patterns (every exponent, NaNs and infinities included), uniform
// over [−750, 750] (underflow to overflow, subnormal results among them),
// and uniform over [−25, 25] (the sigmoid's arguments).
func expSample(n int, seed uint64) []float64 {
	xs := make([]float64, n)
	state := seed
	for i := range xs {
		switch i % 3 {
		case 0:
			state = state*6364136223846793005 + 1442695040888963407
			xs[i] = math.Float64frombits(state ^ state>>29)
		case 1:
			xs[i] = -750 + float64(1500*unit(&state))
		default:
			xs[i] = -25 + float64(50*unit(&state))
		}
	}
	return xs
}

// TestExpToBitsWide holds ExpTo (the vector path on amd64) and
// expToGeneric to Exp's bits on 3 million values over the whole range,
// out of place and in place, and at every edge.
func TestExpToBitsWide(t *testing.T) {
	xs := append(expEdges(), expSample(3_000_000, 17)...)
	paths := append(expToPaths, expToPaths[0])
	paths[len(paths)-1].name, paths[len(paths)-1].f = "generic", expToGeneric
	for _, tc := range paths {
		got := make([]float64, len(xs))
		tc.f(got, xs)
		bad := 0
		for i, x := range xs {
			if w := Exp(x); !sameBits(got[i], w) {
				if bad++; bad <= 5 {
					t.Errorf("%s(%v) = %v (%#x), Exp = %v (%#x)", tc.name, x, got[i], math.Float64bits(got[i]), w, math.Float64bits(w))
				}
			}
		}
		if bad > 0 {
			t.Errorf("%s: %d of %d values differ from Exp", tc.name, bad, len(xs))
		}
		in := append([]float64(nil), xs...)
		tc.f(in, in)
		for i := range xs {
			if !sameBits(in[i], got[i]) {
				t.Fatalf("%s in place: (%v) = %v, want %v", tc.name, xs[i], in[i], got[i])
			}
		}
	}
}

// TestExpToTails runs ExpTo over every block length 0–67 at both
// alignments, with a special value (NaN, +Inf, an overflow, a subnormal
// result, a near-zero argument) planted at every position in turn, so that
// the pair loop's exit, the scalar pair and the odd tail are all crossed;
// it checks dst past the block is left alone.
func TestExpToTails(t *testing.T) {
	base := expSample(80, 5)
	for i := range base {
		base[i] = -30 + float64(float64(i)*0.77) // ordinary values: the vector path
	}
	specials := []float64{math.NaN(), math.Inf(1), 710, -740, 1e-9, 0, 700.0000000000001}
	for _, p := range expToPaths {
		for n := 0; n <= 67; n++ {
			for off := 0; off < 2; off++ {
				for pos := -1; pos < n; pos++ {
					for si, s := range specials {
						if pos < 0 && si > 0 {
							break
						}
						src := append([]float64(nil), base[off:off+n]...)
						if pos >= 0 {
							src[pos] = s
						}
						dst := make([]float64, n+1)
						dst[n] = 42
						p.f(dst, src)
						for i, x := range src {
							if w := Exp(x); !sameBits(dst[i], w) {
								t.Fatalf("%s: n=%d off=%d special %v at %d: [%d](%v) = %v, Exp = %v", p.name, n, off, s, pos, i, x, dst[i], w)
							}
						}
						if dst[n] != 42 {
							t.Fatalf("%s: n=%d: wrote past the block", p.name, n)
						}
					}
				}
			}
		}
	}
}
