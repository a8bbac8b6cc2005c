package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"dpsim/core/scenario"
)

// auditT runs "dpsim audit" in-process with the given standard input.
func auditT(t *testing.T, stdin string, args ...string) (int, string) {
	t.Helper()
	var out, errb bytes.Buffer
	se := sweepEnv{getenv: func(string) string { return "" }, ctx: context.Background()}
	if err := auditCommand(se, args, strings.NewReader(stdin), &out, &errb); err != nil {
		return 1, errb.String() + err.Error()
	}
	return 0, errb.String()
}

// TestAuditCommand: dpsim audit on a preset writes the result and its
// files, the same bytes on one worker or two and from a scenario on
// standard input, and shards that dpsim merge puts back together.
func TestAuditCommand(t *testing.T) {
	dir := t.TempDir()
	args := []string{"--quiet", "--runs", "40", "--iterations", "12"}
	outs := map[string][]byte{}
	for _, w := range []string{"1", "2"} {
		out := filepath.Join(dir, "w"+w+".json")
		if code, errs := auditT(t, "", append(args, "--workers", w, "--out", out, "preset:gtdp-rendezvous")...); code != 0 {
			t.Fatalf("--workers %s: %s", w, errs)
		}
		outs[w] = read(t, out)
		for _, ext := range []string{".csv", ".svg", ".png", ".pdf"} {
			if fi, err := os.Stat(strings.TrimSuffix(out, ".json") + ext); err != nil || fi.Size() == 0 {
				t.Errorf("%s not written: %v", ext, err)
			}
		}
	}
	if !bytes.Equal(outs["1"], outs["2"]) {
		t.Fatal("one worker and two give different bytes")
	}
	var r struct {
		Runs  []json.RawMessage
		Audit struct {
			Agent   int
			Epsilon float64
			Claim   float64
			Verdict string
			Runs    struct{ D, Neighbour int }
			Tests   []struct{ Test string }
		}
	}
	if err := json.Unmarshal(outs["1"], &r); err != nil {
		t.Fatal(err)
	}
	a := r.Audit
	if a.Runs.D != 20 || a.Runs.Neighbour != 20 || len(r.Runs) != 40 || len(a.Tests) != 2 || a.Claim <= 0 || a.Epsilon > a.Claim || a.Verdict != "consistent" {
		t.Errorf("40 runs of gtdp-rendezvous: %+v, %d runs recorded", a, len(r.Runs))
	}

	// The preset's scenario on standard input is another experiment (its
	// base is the scenario, not the preset's name) with the same runs.
	sc, err := scenario.PresetJSON("gtdp-rendezvous")
	if err != nil {
		t.Fatal(err)
	}
	in := filepath.Join(dir, "in.json")
	if code, errs := auditT(t, string(sc), append(args, "--out", in, "-")...); code != 0 {
		t.Fatal(errs)
	}
	var r2 struct {
		Audit struct{ Epsilon, Claim float64 }
	}
	if err := json.Unmarshal(read(t, in), &r2); err != nil {
		t.Fatal(err)
	}
	if r2.Audit.Epsilon != a.Epsilon || r2.Audit.Claim != a.Claim {
		t.Errorf("from standard input: ε ≥ %v ≤ %v; from the preset: ε ≥ %v ≤ %v", r2.Audit.Epsilon, r2.Audit.Claim, a.Epsilon, a.Claim)
	}

	var parts []string
	for _, sh := range []string{"0/2", "1/2"} {
		out := filepath.Join(dir, "part"+sh[:1]+".json")
		if code, errs := auditT(t, "", append(args, "--shard", sh, "--out", out, "preset:gtdp-rendezvous")...); code != 0 {
			t.Fatalf("--shard %s: %s", sh, errs)
		}
		parts = append(parts, out)
	}
	merged := filepath.Join(dir, "merged.json")
	if code, _, errs := dpsim(t, "", append([]string{"merge", "--out", merged}, parts...)...); code != 0 {
		t.Fatal(errs)
	}
	if !bytes.Equal(read(t, merged), outs["1"]) {
		t.Error("the merged shards differ from the whole audit")
	}
}

// TestAuditErrors: every bad flag and input is one line naming it, before
// anything runs.
func TestAuditErrors(t *testing.T) {
	dir := t.TempDir()
	sweepFile := filepath.Join(dir, "sweep.json")
	os.WriteFile(sweepFile, []byte(`{"format":"dpsim-experiment/1","name":"x","title":"t","base":{"preset":"gtdp-rendezvous"},
	 "series":[{"name":"a","set":{}}],"x":{"kind":"iteration","label":"k"},"runs":2,"seed":1,
	 "metrics":[{"name":"optimality"}],"statistic":"mean","figure":{"title":"t","y":{"metric":"optimality","label":"e"}}}`), 0o644)
	for _, c := range []struct {
		stdin string
		args  []string
		want  string
	}{
		{"", []string{"--runs", "7", "preset:gtdp-rendezvous"}, "--runs: must be between 8 and"},
		{"", []string{"--runs", "11", "preset:gtdp-rendezvous"}, "--runs: must be even"},
		{"", []string{"--leak", "1", "preset:gtdp-rendezvous"}, "--leak: must be a number in (0, 1)"},
		{"", []string{"--confidence", "0.3", "preset:gtdp-rendezvous"}, "--confidence: must be a number in [0.5, 1)"},
		{"", []string{"--delta", "1", "preset:gtdp-rendezvous"}, "--delta: must be a number in [0, 1)"},
		{"", []string{"--agent", "8", "preset:gtdp-rendezvous"}, "audit.agent"},
		{"", []string{"--iterations", "0", "preset:gtdp-rendezvous"}, "--iterations: must be between 1"},
		{"", []string{"preset:gtdp-rendezvous-noisefree"}, "adds no noise"},
		{"", []string{"preset:ddgt-ieee14"}, "states no adjacency"},
		{"", []string{"preset:nope"}, `"nope"`},
		{"", []string{sweepFile}, "is a sweep: run it with dpsim sweep"},
		{"{", []string{"-"}, "-: the text ends too early"},
		{"", []string{"--out", "x.csv", "preset:gtdp-rendezvous"}, "--out: name a .json file"},
		{"", []string{"a", "b"}, "give exactly one SCENARIO"},
	} {
		code, errs := auditT(t, c.stdin, c.args...)
		if code == 0 || !strings.Contains(errs, c.want) || strings.Count(strings.TrimSpace(errs), "\n") > 0 {
			t.Errorf("%v: exit %d, %q; want one line containing %q", c.args, code, errs, c.want)
		}
	}
}

// TestUserDataAudit: dpsim audit reads a scenario's own data files beside
// it, and audits a learning problem on them (the nonconvex classifier
// deals a user's rows unevenly to its agents).
func TestUserDataAudit(t *testing.T) {
	for _, p := range []userProblem{userProblems[2], userProblems[3]} {
		dir := t.TempDir()
		x, y := userRows(p, 1, p.rows)
		sc := filepath.Join(dir, "scenario.json")
		os.WriteFile(sc, userScenario(t, p, map[string]any{"train": writeSource(t, dir, "csv", "train", x, y)}), 0o644)
		out := filepath.Join(dir, "audit.json")
		if code, errs := auditT(t, "", "--quiet", "--runs", "8", "--workers", "1", "--out", out, sc); code != 0 {
			t.Fatalf("%s: %s", p.name, errs)
		}
		var r struct{ Audit struct{ Neighbour string } }
		if err := json.Unmarshal(read(t, out), &r); err != nil || r.Audit.Neighbour == "" {
			t.Errorf("%s: no neighbour in the result (%v)", p.name, err)
		}
	}
}
