package rng

import (
	"hash/fnv"
	"math"
	"testing"
)

// TestNormFloat64 pins the bits of a million draws (a hash computed on
// amd64; the same on every platform, arm64 under qemu and js/wasm
// included) and checks their first four moments.
func TestNormFloat64(t *testing.T) {
	const n = 1_000_000
	r := New(5, "test/normal")
	h := fnv.New64a()
	var buf [8]byte
	var m1, m2, m3, m4 float64
	for range n {
		x := NormFloat64(r)
		b := math.Float64bits(x)
		for i := range buf {
			buf[i] = byte(b >> (8 * i))
		}
		h.Write(buf[:])
		x2 := float64(x * x)
		m1 += x
		m2 += x2
		m3 += float64(x2 * x)
		m4 += float64(x2 * x2)
	}
	if got, want := h.Sum64(), uint64(0x47d50f4794e5b74e); got != want {
		t.Errorf("hash of %d draws = %#x, want %#x", n, got, want)
	}
	// Standard errors of the moments of N(0, 1) over n draws: √(1/n),
	// √(2/n), √(15/n), √(96/n); five of them allowed.
	for _, c := range []struct {
		name      string
		got, want float64
		se        float64
	}{
		{"mean", m1 / n, 0, 1}, {"E x²", m2 / n, 1, math.Sqrt2}, {"E x³", m3 / n, 0, math.Sqrt(15)}, {"E x⁴", m4 / n, 3, math.Sqrt(96)},
	} {
		if tol := 5 * c.se / math.Sqrt(n); math.Abs(c.got-c.want) > tol {
			t.Errorf("%s = %.5f, want %g ± %.5f", c.name, c.got, c.want, tol)
		}
	}
}
