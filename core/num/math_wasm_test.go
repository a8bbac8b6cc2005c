//go:build wasm

package num

import (
	"math"
	"testing"
)

// Under js/wasm the standard library's Exp, Log, Log10 and Pow are pure Go
// (math has assembly for Exp on amd64, arm64, loong64 and s390x, for Log
// on amd64 and s390x) and WebAssembly never fuses, so the ports, which only
// add roundings such a build already does, give math's bits: the browser's
// numbers are math's, and every native build's are the browser's.
func TestLogExpBitsMatchMath(t *testing.T) {
	bad := 0
	check := func(name string, x, got, want float64) {
		if !sameBits(got, want) {
			t.Errorf("%s(%g) = %#x, math's %#x", name, x, math.Float64bits(got), math.Float64bits(want))
			bad++
		}
		if bad > 20 {
			t.Fatal("too many differences")
		}
	}
	xs := append(msunArgs(), expEdges()...)
	for p := -330; p <= 310; p++ {
		v := math.Pow(10, float64(p))
		xs = append(xs, v, math.Nextafter(v, 0), math.Nextafter(v, math.Inf(1)))
	}
	for _, x := range xs {
		check("Log", x, Log(x), math.Log(x))
		check("Log10", x, Log10(x), math.Log10(x))
		check("Exp", x, Exp(x), math.Exp(x))
	}
	state := uint64(11)
	for range 50000 {
		x, y := 100*unit(&state), float64(100*unit(&state))-50
		check("Pow", x, Pow(x, y), math.Pow(x, y))
		check("Pow(10, k)", y, Pow(10, math.Floor(y)), math.Pow(10, math.Floor(y)))
	}
}
