package pld

import (
	"flag"
	"fmt"
	"math"
	"strings"
	"testing"

	"dpsim/core/internal/golden"
	"dpsim/core/num"
)

var update = flag.Bool("update", false, "rewrite testdata/bits.golden")

// TestBits holds the accountant's results to the bits in
// testdata/bits.golden, natively and under js/wasm alike (test.sh runs
// both): the same releases give the same ε in the CLI and the page. Run
// with -update to rewrite the file after a deliberate change.
func TestBits(t *testing.T) {
	lap := func(b float64, n int64) Release {
		return Release{Mechanism: Laplace, Scale: b, Sensitivity: 1, Count: n}
	}
	decaying := func(k int) []Release {
		var rs []Release
		for j := range k {
			// core/num: math.Exp differs in its last bit natively.
			rs = append(rs, lap(30*num.Exp(-float64(j)/float64(k)), 1))
		}
		return rs
	}
	cases := []struct {
		name string
		rs   []Release
		opt  Options
	}{
		{"laplace ×1", []Release{lap(2, 1)}, Options{}},
		{"laplace ×10000", []Release{lap(100, 10000)}, Options{}},
		{"laplace decaying ×300", decaying(300), Options{}},
		// Buckets, and the lower companion (Composition.down).
		{"laplace decaying ×3000, tolerance 1e-2", decaying(3000), Options{Tolerance: 1e-2}},
		{"laplace deep ×1000", []Release{lap(0.01, 1000)}, Options{}},
		{"laplace + gaussian", []Release{lap(20, 1000), {Mechanism: Gaussian, Scale: 2, Sensitivity: 1}}, Options{}},
		{"gaussian", []Release{{Mechanism: Gaussian, Scale: 3, Sensitivity: 1, Count: 7}}, Options{}},
	}
	var b strings.Builder
	for _, c := range cases {
		comp, err := Compose(c.rs, c.opt)
		if err != nil {
			t.Fatal(err)
		}
		for _, delta := range []float64{1e-5, 1e-9} {
			e, _ := comp.Epsilon(delta)
			d, de, _ := comp.Delta(e.Epsilon / 2)
			fmt.Fprintf(&b, "%s δ=%g: ε %016x error %016x grid %016x δ(ε/2) %016x error %016x\n", c.name, delta,
				math.Float64bits(e.Epsilon), math.Float64bits(e.Error), math.Float64bits(e.Grid), math.Float64bits(d), math.Float64bits(de))
		}
	}
	golden.Check(t, "testdata/bits.golden", b.String(), *update)
}
