package num

import (
	"hash/fnv"
	"math"
	"testing"
)

// The portable functions must give the same bits on every architecture and
// build. The hashes below were computed by the default amd64 build, where
// nothing is fused; a build that fuses a multiply and an add into one
// rounding (GOAMD64=v3, arm64, ppc64le, s390x, riscv64) gives different bits
// unless every such product is wrapped in an explicit float64 conversion.
// Verify by hand with, e.g.:
//
//	GOAMD64=v3 go test ./core/num
//	GOARCH=386 go test ./core/num
//	GOOS=js GOARCH=wasm go test ./core/num   (lib/wasm on PATH)
func TestBitsArePinned(t *testing.T) {
	const n = 100000
	for _, tc := range []struct {
		name string
		f    func(u, v float64) float64
		want uint64
	}{
		// Log over 2070 binades, from subnormals to 1e+300.
		{"Log", func(u, _ float64) float64 { return Log(math.Ldexp(1+u, int(binade(u)))) }, 0xe555956bfe06a976},
		// Log10 over the same binades, and at the powers of ten the
		// calibration's targets and the tour's roundings meet.
		{"Log10", func(u, v float64) float64 {
			if v < 0.1 {
				return Log10(Pow(10, math.Floor(float64(600*u)-300)))
			}
			return Log10(math.Ldexp(1+u, int(binade(v))))
		}, 0x92cb66146a4cafeb},
		// Exp over its whole finite range.
		{"Exp", func(u, _ float64) float64 { return Exp(-745 + float64(1454*u)) }, 0xe0eddc083eee158b},
		// Pow on the range schedules use: bases in (0, 100], exponents in (−50, 50).
		{"Pow", func(u, v float64) float64 { return Pow(100*(1-u), float64(100*v)-50) }, 0x75e9b22b70b90ded},
		// Expm1 from below its −1 plateau to overflow, and near zero.
		{"Expm1", func(u, v float64) float64 { return Expm1(math.Ldexp(float64(2*u)-1, int(10-float64(70*v)))) }, 0xb01ec94d409ab53e},
		// Log1p from just above −1 to 1e+300, subnormals included.
		{"Log1p", func(u, v float64) float64 {
			return Log1p(math.Max(-1+0x1p-52, math.Ldexp(float64(2*u)-0.5, int(binade(v)))))
		}, 0x87d13fa4a6fdb281},
		// Sincos over 2070 binades (Payne–Hanek beyond 2^29) and on the
		// FFT's and transform's (−2π, 2π).
		{"Sin", func(u, v float64) float64 { s, _ := Sincos(math.Ldexp(1+u, int(binade(v)))); return s }, 0xea330c22c679c2b},
		{"Cos", func(u, _ float64) float64 { _, c := Sincos(float64(4*math.Pi*u) - 2*math.Pi); return c }, 0xe5739c229d3df210},
	} {
		h := fnv.New64a()
		var buf [8]byte
		state := uint64(1)
		for range n {
			u, v := unit(&state), unit(&state)
			b := math.Float64bits(tc.f(u, v))
			for i := range buf {
				buf[i] = byte(b >> (8 * i))
			}
			h.Write(buf[:])
		}
		if got := h.Sum64(); got != tc.want {
			t.Errorf("%s: hash of %d values = %#x, want %#x", tc.name, n, got, tc.want)
		}
	}
}

// binade maps u in [0, 1) to a binary exponent in [−1070, 1000).
func binade(u float64) float64 { return math.Floor(-1070 + float64(2070*u)) }

// unit returns a uniform draw in [0, 1) from a SplitMix64 state, kept here
// so that this leaf package depends on nothing.
func unit(state *uint64) float64 {
	*state += 0x9e3779b97f4a7c15
	z := *state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return float64((z^(z>>31))>>11) * 0x1p-53
}
