package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"dpsim/core/privacy"
)

// TestRunCarriesTheTightBound: dpsim run's export holds every agent's
// tight bound beside its paper's (privacy.tight: ε at δ = 10⁻⁶ for a pure
// ε-DP paper, its error, the releases composed, never above the paper's),
// its CSV's header the same values in agent order, and its summary the
// most exposed agent's; a run whose accountant states no releases (DDGT)
// says why in all three.
func TestRunCarriesTheTightBound(t *testing.T) {
	type amount struct {
		Value *float64
		Log10 *float64
		Text  string
	}
	var ex struct {
		Privacy struct {
			Iterations int
			Agents     []struct{ Epsilon amount }
			Tight      *struct {
				Iterations int
				Adjacency  string
				Reason     string
				Max        amount `json:"max_epsilon"`
				Agents     []struct {
					Epsilon      amount
					Delta, Error float64
					Releases     int64
					Method       string
					DeltaAtPaper *float64 `json:"delta_at_paper_epsilon"`
				}
			}
		}
	}
	dir := t.TempDir()
	for _, c := range []struct {
		preset, summary string
	}{
		{"gtdp-fig1", "(paper's bound); tight bound "},
		{"ddgt-ieee14", "; no tight bound: no privacy analysis"},
	} {
		out, csvPath := filepath.Join(dir, c.preset+".json"), filepath.Join(dir, c.preset+".csv")
		code, _, errs := dpsim(t, "", "run", "--out", out, "--csv", csvPath, "preset:"+c.preset)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", c.preset, code, errs)
		}
		if !strings.Contains(errs, c.summary) {
			t.Errorf("%s: the summary does not say %q:\n%s", c.preset, c.summary, errs)
		}
		js, _ := os.ReadFile(out)
		ex.Privacy.Tight = nil
		if err := json.Unmarshal(js, &ex); err != nil {
			t.Fatal(err)
		}
		tl := ex.Privacy.Tight
		if tl == nil {
			t.Fatalf("%s: the export has no privacy.tight", c.preset)
		}
		csv, _ := os.ReadFile(csvPath)
		meta := map[string]string{}
		for _, line := range strings.Split(string(csv), "\n") {
			if k, v, ok := strings.Cut(strings.TrimPrefix(line, "# "), ": "); ok && strings.HasPrefix(line, "# epsilon_tight") {
				meta[k] = v
			}
		}
		if c.preset == "ddgt-ieee14" {
			if !strings.Contains(tl.Reason, "no privacy analysis") || tl.Agents != nil {
				t.Errorf("%s: tight %+v, want a reason and no agents", c.preset, tl)
			}
			if n := meta["epsilon_tight_note"]; !strings.Contains(n, ": none, no privacy analysis") || len(meta) != 1 {
				t.Errorf("%s: the CSV's header says %q", c.preset, meta)
			}
			continue
		}
		if tl.Reason != "" || tl.Iterations != ex.Privacy.Iterations || tl.Adjacency == "" || len(tl.Agents) != len(ex.Privacy.Agents) {
			t.Fatalf("%s: tight %+v against a ledger of %d agents after %d iterations", c.preset, tl, len(ex.Privacy.Agents), ex.Privacy.Iterations)
		}
		eps, errs2, deltas := strings.Split(meta["epsilon_tight"], ","), strings.Split(meta["epsilon_tight_error"], ","), strings.Split(meta["epsilon_tight_delta"], ",")
		if len(eps) != len(tl.Agents) || len(errs2) != len(tl.Agents) || len(deltas) != len(tl.Agents) {
			t.Fatalf("%s: the CSV's header %q has not one value per agent", c.preset, meta)
		}
		for i, a := range tl.Agents {
			paper := ex.Privacy.Agents[i].Epsilon
			if a.Epsilon.Value == nil || paper.Value == nil || !(*a.Epsilon.Value > 0 && *a.Epsilon.Value <= *paper.Value) {
				t.Errorf("%s, agent %d: tight %+v against the paper's %+v", c.preset, i, a.Epsilon, paper)
				continue
			}
			if a.Delta != 1e-6 || !(a.Error > 0 && a.Error < 0.02**a.Epsilon.Value) || a.Releases <= 0 || a.Method == "" || a.DeltaAtPaper == nil {
				t.Errorf("%s, agent %d: δ %g, error %g, %d releases, method %q, δ at the paper's ε %v", c.preset, i, a.Delta, a.Error, a.Releases, a.Method, a.DeltaAtPaper)
			}
			for _, f := range []struct {
				name, text string
				want       float64
			}{{"epsilon_tight", eps[i], *a.Epsilon.Value}, {"epsilon_tight_error", errs2[i], a.Error}, {"epsilon_tight_delta", deltas[i], a.Delta}} {
				if v, err := strconv.ParseFloat(f.text, 64); err != nil || v != f.want {
					t.Errorf("%s, agent %d: the CSV's %s is %q, the export's %v", c.preset, i, f.name, f.text, f.want)
				}
			}
		}
		if !strings.Contains(errs, "tight bound "+tl.Max.Text+" at δ = 1e-06") {
			t.Errorf("%s: the summary does not give the tight bound %s at δ = 1e-06:\n%s", c.preset, tl.Max.Text, errs)
		}
	}
}

// TestTightSummaryNote: the run summary says when the tight bound's δ is
// below what its discretization resolves (privacy.TightEntry.Note), as the
// exports and the page do, and says nothing more when it is not.
func TestTightSummaryNote(t *testing.T) {
	const note = "δ = 1e-12 is below what the discretization resolves (2e-11)"
	for _, c := range []struct {
		note string
		want string
	}{
		{note, "; tight bound 3 at δ = 1e-12 (within 0.1) (" + note + ")"},
		{"", "; tight bound 3 at δ = 1e-12 (within 0.1)"},
	} {
		l := privacy.Ledger{Tight: &privacy.TightLedger{Agents: []privacy.TightEntry{
			{Epsilon: privacy.Of(3), Delta: 1e-12, Error: 0.1, Note: c.note},
		}}}
		if got := tightSummary(l); got != c.want {
			t.Errorf("note %q: summary %q, want %q", c.note, got, c.want)
		}
	}
}
