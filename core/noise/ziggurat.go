package noise

import (
	"math"

	"dpsim/core/num"
	"dpsim/core/rng"
)

// The samplers are Marsaglia and Tsang's ziggurat ("The ziggurat method
// for generating random variables", J. Stat. Softw. 5(8), 2000), the method
// of Go's math/rand ExpFloat64 and NormFloat64 (BSD licence, copyright The
// Go Authors), rebuilt on 64-bit words and float64 tables:
//
//   - one 64-bit word per draw on the common path: bits 0–9 pick one of
//     1024 layers, bit 10 is the sign (Laplace and normal are symmetric, so
//     the ziggurat samples the magnitude), bits 11–63 are a 53-bit uniform
//     j, and the draw is j·x_i/2⁵³ — a full-precision grid where Go's
//     tables give 32 bits, and float64 tables where Go's are float32 (its
//     layers have equal areas only to about 10⁻⁷);
//   - 1024 layers rather than Go's 256 or 128: the common path then takes
//     99.4 % (exponential) and 99.6 % (normal) of words instead of 97.8 %
//     and 98.5 %, and the rare path with its exp and mispredicted branch
//     cost about 1 ns per draw on average at 256 layers (measured: 3.2 ns
//     against 2.4 ns per Laplace draw); the common path's tables are 16 KB
//     per distribution;
//   - no logarithm anywhere: the exponential's tail beyond r is r plus a
//     fresh exponential draw (the exponential is memoryless), and the
//     normal's tail uses Marsaglia's 1964 method with exponential draws in
//     place of −ln U. Only the rare wedge test (under 1 % of draws)
//     evaluates exp, with num.Exp so that it is the same everywhere.
//
// The method is exact: a draw is accepted with probability proportional to
// the density, with no approximation beyond the 2⁻⁵³ grid of the uniforms
// and the float64 rounding of the tables (the layers' areas agree to 10⁻¹¹).
//
// Bit-identity: the tables are computed at init from the constants below
// with num's portable Exp and Log and correctly rounded operations, and every
// product that meets an addition is wrapped in float64(…), which forbids the
// compiler to fuse a multiply-add (it does on arm64 and with GOAMD64=v3).

const (
	// zigBits is the number of a word's low bits that pick the layer; bit
	// zigBits is the sign and bits 11–63 the 53-bit uniform, so zigBits
	// can be at most 10 (the constant below overflows otherwise).
	zigBits   = 10
	_         = uint(10 - zigBits)
	zigLayers = 1 << zigBits
	zigMask   = zigLayers - 1

	// expR and expV define the exponential ziggurat: x_1 = r is the start
	// of the tail and v the area of every layer, v = r·e^(−r) + e^(−r),
	// solved (bisection, float64) so that the last layer closes at x = 0.
	expR = 9.2561645442655447
	expV = 0.00097967899066201997
	// normR and normV define the ziggurat of the half-normal density
	// exp(−x²/2), v = r·f(r) + √(π/2)·erfc(r/√2).
	normR = 4.0388498461095041
	normV = 0.0012263246463530893
)

// ziggurat holds one density's layers. With x_1 = r > x_2 > … > x_1023 >
// x_1024 = 0, layer i ≥ 1 is the rectangle [0, x_i] × [f(x_i), f(x_{i+1})],
// of area v; layer 0 is the base strip [0, r] × [0, f(r)] and the tail
// x > r, given the pseudo-width x_0 = v/f(r).
type ziggurat struct {
	// layer holds what the common path reads, side by side so that one
	// cache line serves a draw.
	layer [zigLayers]layer
	// f[i] = f(x_i) for i ≥ 1 and f[1024] = f(0) = 1, for the wedge test.
	f [zigLayers + 1]float64
}

// A layer is what the common path needs of one layer.
type layer struct {
	// k = ⌊2⁵³·x_{i+1}/x_i⌋: a uniform j < k lands where layer i lies
	// wholly under the density, and is accepted at once.
	k uint64
	// w = x_i/2⁵³, so that the candidate is j·w.
	w float64
}

var (
	expZig  = newZiggurat(expR, expV, expDensity, expInverse)
	normZig = newZiggurat(normR, normV, normDensity, normInverse)
)

func expDensity(x float64) float64  { return num.Exp(-x) }
func expInverse(y float64) float64  { return -num.Log(y) }
func normDensity(x float64) float64 { return num.Exp(float64(-0.5 * x * x)) }
func normInverse(y float64) float64 { return math.Sqrt(-2 * num.Log(y)) }

// newZiggurat builds the layers of density f (decreasing on [0, ∞), f(0) =
// 1) from r and v, by Marsaglia and Tsang's recurrence
// f(x_{i+1}) = v/x_i + f(x_i).
func newZiggurat(r, v float64, f, finv func(float64) float64) ziggurat {
	var x [zigLayers + 1]float64
	x[0] = v / f(r)
	x[1] = r
	for i := 1; i < zigLayers-1; i++ {
		x[i+1] = finv(v/x[i] + f(x[i]))
	}
	x[zigLayers] = 0
	var z ziggurat
	for i := range zigLayers {
		z.layer[i] = layer{k: uint64(float64(x[i+1] / x[i] * 0x1p53)), w: x[i] * 0x1p-53}
		z.f[i] = f(x[i])
	}
	z.f[zigLayers] = 1
	return z
}

// fillLaplace sets dst to independent Laplace(b) draws: a random sign
// times b times an exponential draw. The common path is inlined here so
// that a draw costs one generator step, two table loads and a multiply.
func fillLaplace(dst []float64, b float64, s *rng.Stream) {
	// bs[bit zigBits of the draw's first word] is b with a random sign; IEEE
	// multiplication is symmetric, so x·(−b) is exactly −(x·b).
	bs := [2]float64{b, -b}
	for n := range dst {
		u := s.Uint64()
		l, j := &expZig.layer[u&zigMask], u>>11
		x := float64(j) * l.w
		if j >= l.k {
			x = expFrom(s, u)
		}
		dst[n] = x * bs[u>>zigBits&1]
	}
}

// fillGaussian sets dst to independent N(0, b²) draws, as fillLaplace.
func fillGaussian(dst []float64, b float64, s *rng.Stream) {
	bs := [2]float64{b, -b}
	for n := range dst {
		u := s.Uint64()
		l, j := &normZig.layer[u&zigMask], u>>11
		x := float64(j) * l.w
		if j >= l.k {
			x = halfNormalFrom(s, u)
		}
		dst[n] = x * bs[u>>zigBits&1]
	}
}

// exponential returns an Exp(1) draw.
func exponential(s *rng.Stream) float64 { return expFrom(s, s.Uint64()) }

// expFrom returns an Exp(1) draw whose first word is u, drawing more words
// from s while candidates are rejected.
func expFrom(s *rng.Stream, u uint64) float64 {
	z := &expZig
	tail := 0.0
	for {
		i, j := u&zigMask, u>>11
		x := float64(float64(j) * z.layer[i].w)
		if j < z.layer[i].k {
			return tail + x
		}
		if i == 0 {
			// Beyond r the density is e^(−r) times the density itself:
			// the draw is r plus a fresh draw.
			tail += expR
		} else if float64(s.Float64()*(z.f[i+1]-z.f[i]))+z.f[i] < num.Exp(-x) {
			return tail + x
		}
		u = s.Uint64()
	}
}

// halfNormalFrom returns |Z| for a standard normal Z, whose first word is
// u, drawing more words from s while candidates are rejected.
func halfNormalFrom(s *rng.Stream, u uint64) float64 {
	z := &normZig
	for {
		i, j := u&zigMask, u>>11
		x := float64(float64(j) * z.layer[i].w)
		if j < z.layer[i].k {
			return x
		}
		if i == 0 {
			// The tail beyond r (Marsaglia 1964): with a = E₁/r and E₂
			// exponential, r + a has the normal tail's density given
			// 2E₂ > a².
			for {
				a := exponential(s) / normR
				e := exponential(s)
				if e+e > float64(a*a) {
					return normR + a
				}
			}
		}
		if float64(s.Float64()*(z.f[i+1]-z.f[i]))+z.f[i] < num.Exp(float64(-0.5*x*x)) {
			return x
		}
		u = s.Uint64()
	}
}
