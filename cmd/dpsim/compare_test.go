package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"dpsim/core/scenario"
)

// dpsim compare writes each entry's export, byte for byte what dpsim run
// writes for that entry's scenario, and its summary reads the equal ε
// from every ledger; an incompatible entry is refused in one line.
func TestCompareWritesEachEntrysRunExport(t *testing.T) {
	const file = "../../core/scenario/testdata/compare-gtdp-fig2.json"
	dir := t.TempDir()
	code, _, stderr := dpsim(t, "", "compare", "--dir", dir, "--epsilon", "5000", file)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if n := strings.Count(stderr, "max ε 5000 (ledger)"); n != 3 {
		t.Errorf("summary names ε = 5000 from the ledger %d times, want 3:\n%s", n, stderr)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	c, err := scenario.ParseComparison(data)
	if err != nil {
		t.Fatal(err)
	}
	c = c.WithBase(c.BaseScenario(), &scenario.Calibrate{Epsilon: 5000})
	for i := range c.Compare {
		s, err := c.EntryScenario(i)
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(dir, s.Name+".json"))
		if err != nil {
			t.Fatal(err)
		}
		code, want, stderr := dpsim(t, string(s.JSON()), "run", "--quiet", "-")
		if code != 0 {
			t.Fatalf("dpsim run of entry %d: %s", i, stderr)
		}
		if string(got) != want {
			t.Errorf("entry %d: the comparison's export differs from dpsim run's", i)
		}
	}

	bad := strings.Replace(string(data), `"kind": "dpop"`, `"kind": "dp-dgt"`, 1)
	code, _, stderr = dpsim(t, bad, "compare", "--dir", dir, "-")
	if code == 0 || !strings.Contains(stderr, "compare[1]: DP-DGT cannot run") || strings.Count(strings.TrimSpace(stderr), "\n") != 0 {
		t.Errorf("dp-dgt on a rendezvous: exit %d, %q; want one line naming compare[1] and DP-DGT", code, stderr)
	}
}
