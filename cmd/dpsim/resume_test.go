package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// dpsim run --resume EXPORT --from K writes the export of the
// uninterrupted run, byte for byte, from any of its checkpoints; the CSV
// too. Bad requests are one line.
func TestRunResume(t *testing.T) {
	dir := t.TempDir()
	scen := filepath.Join(dir, "s.json")
	js := `{"name": "resume", "seed": 3, "graph": {"kind": "ring", "n": 6}, "weights": {"kind": "metropolis"},
 "problem": {"kind": "rendezvous", "params": {"dim": 2, "box": 10}},
 "algorithm": {"kind": "gt-dp", "params": {"alpha": 0.1, "gradient_bound": 60}},
 "noise": {"eta": {"dist": "laplace", "scale": 1, "decay": {"kind": "polynomial", "c": 1, "m": 1, "p": 0.8}},
           "xi": {"dist": "laplace", "scale": 1, "decay": {"kind": "geometric", "c": 1, "r": 0.99}}},
 "iterations": 200, "record": {"every": 3, "checkpoints": [0, 50, 121, 200]}}`
	if err := os.WriteFile(scen, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	whole, wholeCSV := filepath.Join(dir, "whole.json"), filepath.Join(dir, "whole.csv")
	if code, _, errs := dpsim(t, "", "run", "--quiet", "--out", whole, "--csv", wholeCSV, scen); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want, _ := os.ReadFile(whole)
	wantCSV, _ := os.ReadFile(wholeCSV)
	for _, from := range []string{"0", "50", "121", "200", ""} {
		out, csv := filepath.Join(dir, "r"+from+".json"), filepath.Join(dir, "r"+from+".csv")
		args := []string{"run", "--quiet", "--resume", whole, "--out", out, "--csv", csv}
		if from != "" {
			args = append(args, "--from", from)
		}
		if code, _, errs := dpsim(t, "", args...); code != 0 {
			t.Fatalf("--from %s: exit %d: %s", from, code, errs)
		}
		got, _ := os.ReadFile(out)
		gotCSV, _ := os.ReadFile(csv)
		k := 200 // the last checkpoint
		if from != "" {
			k, _ = strconv.Atoi(from)
		}
		// The CSVs differ in their date lines, and the resumed run has no ε
		// per agent before its checkpoint (docs/exports.md).
		if w, g := resumedCSV(t, wantCSV, k), resumedCSV(t, gotCSV, -1); !bytes.Equal(got, want) || w != g {
			t.Fatalf("--from %s: the resumed run's export (equal: %v) or CSV (equal: %v) differs", from, bytes.Equal(got, want), w == g)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--resume", whole, "--from", "7"}, "has no checkpoint at iteration 7; it has [0 50 121 200]"},
		{[]string{"run", "--from", "7", scen}, "--from needs --resume EXPORT.json"},
		{[]string{"run", "--resume", whole, scen}, "give no SCENARIO"},
		{[]string{"run", "--resume", whole, "--epsilon", "2"}, "--epsilon and --horizon do not apply"},
		{[]string{"run", "--resume", whole, "--from", "-4"}, "--from: must be between 0 and 10000000 (got -4)"},
		{[]string{"run", "--resume", scen}, "the export's format is \"\""},
		{[]string{"run", "--resume", filepath.Join(dir, "missing.json")}, "missing.json"},
	} {
		code, _, errs := dpsim(t, "", c.args...)
		if code == 0 || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%v: exit %d, %q; want one line containing %q", c.args, code, errs, c.want)
		}
	}
}

// resumedCSV returns csv without its date line and, when upTo ≥ 0, with the
// eps_agent_I cells of the rows up to iteration upTo emptied: what a run
// resumed at upTo writes of the same run.
func resumedCSV(t *testing.T, csv []byte, upTo int) string {
	t.Helper()
	var out []string
	first := -1
	for _, line := range strings.Split(string(csv), "\n") {
		switch {
		case strings.HasPrefix(line, "# date: "):
			continue
		case strings.HasPrefix(line, "iteration,"):
			for i, h := range strings.Split(line, ",") {
				if strings.HasPrefix(h, "eps_agent_") && first < 0 {
					first = i
				}
			}
			if first < 0 {
				t.Fatalf("no eps_agent columns in %q", line)
			}
		case first >= 0 && line != "":
			cells := strings.Split(line, ",")
			if it, err := strconv.Atoi(cells[0]); err == nil && it <= upTo {
				for i := first; i < len(cells); i++ {
					cells[i] = ""
				}
				line = strings.Join(cells, ",")
			}
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}
