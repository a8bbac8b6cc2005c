//go:build (amd64 && !amd64.v3) || wasm

package num

import (
	"math"
	"testing"
)

// On amd64 v1 and js/wasm the standard library's Expm1, Log1p and Sincos
// are pure Go and never fused (math has no assembly for them there:
// math/*_amd64.s are Exp, Log, Hypot, Floor and Min/Max), so the ports,
// which only add roundings these builds already do, give math's bits on
// every argument.
func TestMsunBitsMatchMath(t *testing.T) {
	same := func(a, b float64) bool {
		return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
	}
	bad := 0
	for _, x := range msunArgs() {
		if got, want := Expm1(x), math.Expm1(x); !same(got, want) {
			t.Errorf("Expm1(%g) = %#x, math's %#x", x, math.Float64bits(got), math.Float64bits(want))
			bad++
		}
		if got, want := Log1p(x), math.Log1p(x); !same(got, want) {
			t.Errorf("Log1p(%g) = %#x, math's %#x", x, math.Float64bits(got), math.Float64bits(want))
			bad++
		}
		s, c := Sincos(x)
		ws, wc := math.Sincos(x)
		if !same(s, ws) || !same(c, wc) {
			t.Errorf("Sincos(%g) = %#x, %#x, math's %#x, %#x", x, math.Float64bits(s), math.Float64bits(c), math.Float64bits(ws), math.Float64bits(wc))
			bad++
		}
		if bad > 20 {
			t.Fatal("too many differences")
		}
	}
}
