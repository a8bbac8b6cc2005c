package experiment

import (
	"os"
	"strings"
	"testing"

	"dpsim/core/scenario"
)

// The privacy–utility experiment of a comparison parses and plans: one
// series per entry that can be calibrated, ε a decade either side of the
// comparison's target; an entry that cannot be calibrated is left out
// and named in the description.
func TestFromComparison(t *testing.T) {
	data, err := os.ReadFile("../scenario/testdata/compare-gtdp-fig2.json")
	if err != nil {
		t.Fatal(err)
	}
	// A fourth entry without noise cannot be calibrated.
	text := strings.Replace(string(data), `"compare": [`, `"compare": [
  {"label": "GT-DP without noise", "kind": "gt-dp", "noise": {"eta": {"dist": "laplace"}, "xi": {"dist": "laplace"}}},`, 1)
	c, err := scenario.ParseComparison([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	e, err := FromComparison(c)
	if err != nil {
		t.Fatal(err)
	}
	if len(e.Series) != 3 {
		t.Fatalf("%d series, want 3 (GT-DP, DPOP, DiaDSP)", len(e.Series))
	}
	if !strings.Contains(e.Description, "Left out, not calibratable: GT-DP without noise (") {
		t.Errorf("description %q does not name the entry left out", e.Description)
	}
	p, err := NewPlan(e)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := p.Tasks(), 3*5*CompareRuns; got != want {
		t.Errorf("%d tasks, want %d", got, want)
	}
	if vs := e.X.Values; len(vs) != 5 || vs[0] != 1000 || vs[4] != 100000 {
		t.Errorf("ε values %v, want 10^3 … 10^5 around the target 10^4", vs)
	}
}
