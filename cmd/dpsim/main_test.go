package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func dpsim(t *testing.T, stdin string, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestRunWritesIdenticalExports(t *testing.T) {
	dir := t.TempDir()
	a, b, c := filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json"), filepath.Join(dir, "a.csv")
	for _, out := range []string{a, b} {
		if code, _, errs := dpsim(t, "", "run", "--quiet", "--out", out, "--csv", c, "preset:gtdp-rendezvous"); code != 0 {
			t.Fatalf("exit %d: %s", code, errs)
		}
	}
	ja, _ := os.ReadFile(a)
	jb, _ := os.ReadFile(b)
	if !bytes.Equal(ja, jb) {
		t.Fatal("the same scenario and seed gave different export files")
	}
	var ex struct {
		Status   string
		Scenario map[string]any
		Metrics  struct{ Iteration []int }
		Privacy  struct {
			Formula string
			Agents  []struct{ Inputs []any }
		}
		Checkpoints []struct{ Iteration int }
	}
	if err := json.Unmarshal(ja, &ex); err != nil {
		t.Fatal(err)
	}
	if ex.Status != "completed" || len(ex.Metrics.Iteration) != 1001 || len(ex.Privacy.Agents) != 8 ||
		!strings.Contains(ex.Privacy.Formula, "c_{k,t}") || len(ex.Checkpoints) != 2 {
		t.Errorf("export incomplete: status %q, %d metric rows, %d ledger entries, %d checkpoints",
			ex.Status, len(ex.Metrics.Iteration), len(ex.Privacy.Agents), len(ex.Checkpoints))
	}
	csv, _ := os.ReadFile(c)
	if !strings.HasPrefix(string(csv), "iteration,optimality,consensus,objective\n0,") {
		t.Errorf("csv starts %q", string(csv[:min(60, len(csv))]))
	}
	// The export's scenario is pinned and replays the same run.
	pinned, _ := json.Marshal(ex.Scenario)
	code, out, errs := dpsim(t, string(pinned), "run", "--quiet", "-")
	if code != 0 {
		t.Fatalf("replaying the pinned scenario: exit %d: %s", code, errs)
	}
	var again map[string]any
	var first map[string]any
	json.Unmarshal([]byte(out), &again)
	json.Unmarshal(ja, &first)
	m1, _ := json.Marshal(first["metrics"])
	m2, _ := json.Marshal(again["metrics"])
	if !bytes.Equal(m1, m2) {
		t.Error("the pinned scenario gave other metrics")
	}
}

func TestValidate(t *testing.T) {
	code, out, _ := dpsim(t, "", "validate", "preset:gtdp-rendezvous-rgg")
	if code != 0 || !strings.Contains(out, "valid") || !strings.Contains(out, "doubly-stochastic") {
		t.Errorf("exit %d, output %q", code, out)
	}
	bad := `{"name":"x","seed":1,"graph":{"kind":"ring","n":3},"weights":{"kind":"metropolis"},
	  "problem":{"kind":"rendezvous", "params": {"dim":2}},"algorithm":{"kind":"gt-dp","params":{"alpha":-1}},
	  "noise":{"eta":{"dist":"laplace","scale":0},"xi":{"dist":"laplace","scale":0}},"iterations":5}`
	code, _, errs := dpsim(t, bad, "validate", "-")
	if code != 1 || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, "algorithm.params.alpha: must be in (0, 1e6]") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}

func TestErrorsAndHelp(t *testing.T) {
	cases := []struct {
		args []string
		code int
		out  string
	}{
		{nil, 2, "Usage"},
		{[]string{"--help"}, 0, "Usage"},
		{[]string{"run", "--help"}, 0, "Usage: dpsim run"},
		{[]string{"validate", "-h"}, 0, "Usage: dpsim validate"},
		{[]string{"presets", "--help"}, 0, "Usage: dpsim presets"},
		{[]string{"frobnicate"}, 1, "unknown command"},
		{[]string{"run"}, 2, "exactly one SCENARIO"},
		{[]string{"run", "preset:nope"}, 1, "no preset named"},
		{[]string{"run", "/does/not/exist.json"}, 1, "no such file"},
		{[]string{"run", "--bogus", "x"}, 2, "flag provided but not defined"},
	}
	for _, c := range cases {
		code, out, errs := dpsim(t, "", c.args...)
		if code != c.code || !strings.Contains(out+errs, c.out) {
			t.Errorf("%v: exit %d (want %d), output %q", c.args, code, c.code, out+errs)
		}
	}
	code, out, _ := dpsim(t, "", "presets")
	if code != 0 || !strings.Contains(out, "gtdp-rendezvous-noisefree") {
		t.Errorf("presets: %d %q", code, out)
	}
}

func TestDivergingRunStopsAndSaysSo(t *testing.T) {
	js := `{"name":"boom","seed":1,"graph":{"kind":"ring","n":4},"weights":{"kind":"metropolis"},
	  "problem":{"kind":"rendezvous", "params": {"dim":2,"box":5}},"algorithm":{"kind":"gt-dp","params":{"alpha":3}},
	  "noise":{"eta":{"dist":"laplace","scale":0},"xi":{"dist":"laplace","scale":0}},"iterations":5000}`
	dir := t.TempDir()
	out := filepath.Join(dir, "x.json")
	code, _, errs := dpsim(t, js, "run", "--quiet", "--out", out, "-")
	if code != 1 || !strings.Contains(errs, "diverged at iteration") {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	data, _ := os.ReadFile(out)
	var ex struct{ Status, Error string }
	json.Unmarshal(data, &ex)
	if ex.Status != "diverged" || ex.Error == "" {
		t.Errorf("the export of a diverged run says %q / %q", ex.Status, ex.Error)
	}
}
