package audit

import (
	"flag"
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

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
	const path = "testdata/bits.golden"
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := b.String(); got != string(want) {
		t.Errorf("bits differ from %s (run with -update after a deliberate change):\n%s", path, got)
	}
}
