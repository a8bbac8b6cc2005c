//go:build wasm

package rng

import (
	"math"
	"testing"
)

// Under js/wasm math.Exp and math.Log are pure Go and nothing is fused,
// so NormFloat64 returns math/rand/v2's draws bit for bit, consuming the
// same words: the draws a problem made with (*rand.Rand).NormFloat64 are
// unchanged in the browser.
func TestNormFloat64MatchesRand(t *testing.T) {
	a, b := New(8, "test/normal"), New(8, "test/normal")
	for i := range 3_000_000 {
		if x, y := NormFloat64(a), b.NormFloat64(); math.Float64bits(x) != math.Float64bits(y) {
			t.Fatalf("draw %d: %v, math/rand/v2's %v", i, x, y)
		}
	}
}
