package experiment

import (
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"strings"
	"testing"

	"dpsim/core/version"
)

// TestCSVMetadata checks that the sweep CSV opens with the run CSV's
// metadata block (what it is, the hash of the canonical experiment, the
// seed, dpsim's version) and carries ε for every series, whether or not
// the experiment asked for it, in rows a CSV reader skipping "#" lines
// reads as before.
func TestCSVMetadata(t *testing.T) {
	p := plan(t, small["iteration"]) // asks for ε
	noEps := plan(t, strings.Replace(small["iteration"], `"quantities":["epsilon"],`, "", 1))
	for _, c := range []struct {
		name string
		p    *Plan
	}{{"asks for ε", p}, {"does not ask for ε", noEps}} {
		t.Run(c.name, func(t *testing.T) {
			recs, err := c.p.Execute(context.Background(), c.p.AllTasks(), 2, nil)
			if err != nil {
				t.Fatal(err)
			}
			r, err := Assemble(c.p, recs, nil)
			if err != nil {
				t.Fatal(err)
			}
			text := string(c.p.CSV(r))
			sum := sha256.Sum256(c.p.Exp.JSON())
			for _, want := range []string{
				"# experiment: small-iter\n",
				"# experiment_sha256: " + hex.EncodeToString(sum[:]) + "\n",
				"# seed: 8 (runs per point: 5)\n",
				"# dpsim_version: " + version.String() + "\n",
				"# epsilon: ",
			} {
				if !strings.Contains(text, want) {
					t.Errorf("the CSV lacks %q:\n%s", want, head(text, 12))
				}
			}
			var body []string
			for _, l := range strings.SplitAfter(text, "\n") {
				if !strings.HasPrefix(l, "# ") {
					body = append(body, l)
				}
			}
			rows, err := csv.NewReader(strings.NewReader(strings.Join(body, ""))).ReadAll()
			if err != nil {
				t.Fatalf("the CSV without its # lines does not parse: %v", err)
			}
			if rows[0][0] != "experiment" {
				t.Fatalf("the header comes after the metadata: %v", rows[0])
			}
			eps := map[string]bool{}
			for _, r := range rows[1:] {
				if r[6] == "epsilon" && r[7] == "quantity" && r[10] != "" {
					eps[r[1]] = true
				}
			}
			for _, s := range []string{"lo", "hi"} {
				if !eps[s] {
					t.Errorf("series %s has no ε row: %v", s, eps)
				}
			}
		})
	}
}

// TestPartialFigureCounts checks that a partial figure says how many runs
// each point has, never the experiment's full count, while a complete one
// keeps it.
func TestPartialFigureCounts(t *testing.T) {
	p := plan(t, small["field"]) // 6 runs per point, 2 series × 2 points
	all := p.AllTasks()
	recs, err := p.Execute(context.Background(), all, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	full, err := Assemble(p, recs, nil)
	if err != nil {
		t.Fatal(err)
	}
	if f := p.Figure(full); !strings.Contains(f.Subtitle, "mean of 6 runs per point") {
		t.Errorf("complete figure: %q", f.Subtitle)
	}
	// Keep runs 0 and 1 of every point, and run 2 of the first point.
	var some []RunRecord
	for _, r := range recs {
		if r.Run < 2 || (r.Run == 2 && r.Series == 0 && r.Point == 0) {
			some = append(some, r)
		}
	}
	part, err := Assemble(p, some, nil)
	if err != nil {
		t.Fatal(err)
	}
	f := p.Figure(part)
	if strings.Contains(f.Subtitle, "6 runs per point") {
		t.Errorf("a partial figure claims the full count: %q", f.Subtitle)
	}
	if !strings.Contains(f.Subtitle, "mean of 2–3 runs per point") || !strings.Contains(f.Subtitle, "9 of 24 runs") {
		t.Errorf("a partial figure does not say its runs per point (2–3) and how many finished: %q", f.Subtitle)
	}
}

func head(s string, lines int) string {
	parts := strings.SplitN(s, "\n", lines+1)
	return strings.Join(parts[:min(lines, len(parts))], "\n")
}
