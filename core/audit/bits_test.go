package audit

import (
	"flag"
	"fmt"
	"math"
	"strings"
	"testing"

	"dpsim/core/internal/golden"
	"dpsim/core/noise"
)

var update = flag.Bool("update", false, "rewrite testdata/bits.golden")

// TestBits holds the audit's results to the bits in testdata/bits.golden,
// natively and under js/wasm alike (test.sh runs both). Run with -update
// to rewrite the file after a deliberate change.
func TestBits(t *testing.T) {
	var b strings.Builder
	for _, dist := range []string{noise.Laplace, noise.Gaussian} {
		for _, stat := range []string{LikelihoodRatio, Threshold} {
			e, err := Release(dist, 1, 1, 20000, 3, stat)
			if err != nil {
				t.Fatal(err)
			}
			r, err := LowerBound(e, Options{Delta: 1e-5})
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "%s %s: ε %016x estimate %016x threshold %016x above %v FPR %d/%d ≤ %016x FNR %d/%d ≤ %016x\n", dist, stat,
				math.Float64bits(r.Epsilon), math.Float64bits(r.Estimate), math.Float64bits(r.Threshold), r.Above,
				r.FPR.Count, r.FPR.Runs, math.Float64bits(r.FPR.Upper), r.FNR.Count, r.FNR.Runs, math.Float64bits(r.FNR.Upper))
		}
	}
	golden.Check(t, "testdata/bits.golden", b.String(), *update)
}
