package main

import (
	"bytes"
	"encoding/json"
	"fmt"
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
		{[]string{"run", "--resume", scen}, "is not a run export: its format is \"\"; this dpsim reads \"dpsim-run/1\""},
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

// Issue 28, class 2, as reported: --resume after removing or shortening
// a metrics column crashed (index out of range in runner.SetHistory);
// counters of another length restarted at 0, a negative message count
// was carried on, an export without metrics resumed into one starting at
// the checkpoint, and a NaN or 1e308 state was blamed on the step size.
// Each is refused in one line naming the field, and nothing is written.
func TestResumeRefusesTamperedExport(t *testing.T) {
	dir := t.TempDir()
	_, whole, _ := gtdpRun(t, dir, 6, 500, `{"every": 1, "checkpoints": [0, 250, 500]}`)
	good, _ := os.ReadFile(whole)
	// edit applies f to the export decoded as a tree and writes it back
	// with the scenario as it was and the metrics' columns in their order.
	var rawScenario struct{ Scenario json.RawMessage }
	json.Unmarshal(good, &rawScenario)
	edit := func(f func(e map[string]any)) []byte {
		var e map[string]any
		dec := json.NewDecoder(bytes.NewReader(good))
		dec.UseNumber() // the streams' 64-bit states stay exact
		if err := dec.Decode(&e); err != nil {
			t.Fatal(err)
		}
		f(e)
		e["scenario"] = rawScenario.Scenario // as written: pinned, in dpsim's order
		var b bytes.Buffer
		b.WriteString("{")
		first := true
		for _, k := range []string{"format", "noise_stream", "status", "iterations_run", "scenario", "checkpoints", "calibration"} {
			if v, ok := e[k]; ok {
				if !first {
					b.WriteString(",")
				}
				first = false
				js, _ := json.Marshal(v)
				b.WriteString(strconv.Quote(k) + ":" + string(js))
			}
		}
		if m, ok := e["metrics"].(map[string]any); ok {
			b.WriteString(`,"metrics":{`)
			n := 0
			for _, k := range []string{"iteration", "optimality", "consensus", "objective", "messages", "releases", "activations"} {
				if v, ok := m[k]; ok {
					if n > 0 {
						b.WriteString(",")
					}
					n++
					js, _ := json.Marshal(v)
					b.WriteString(strconv.Quote(k) + ":" + string(js))
				}
			}
			b.WriteString("}")
		}
		b.WriteString("}")
		return b.Bytes()
	}
	cp := func(e map[string]any) map[string]any { return e["checkpoints"].([]any)[1].(map[string]any) }
	for _, c := range []struct {
		name string
		data []byte
		want string
	}{
		{"untouched", edit(func(map[string]any) {}), ""},
		{"metrics column removed", edit(func(e map[string]any) { delete(e["metrics"].(map[string]any), "consensus") }),
			`reading the export: metrics.objective: comes where "consensus" belongs`},
		{"metrics column shortened", edit(func(e map[string]any) {
			m := e["metrics"].(map[string]any)
			m["optimality"] = m["optimality"].([]any)[:10]
		}), "reading the export: metrics.optimality: has 10 values; the iteration column has 501"},
		{"counters of another length", edit(func(e map[string]any) {
			cp(e)["communication"].(map[string]any)["activations"] = []int{1, 2}
		}), "checkpoints[1].communication.activations: has 2 entries; the run has 6 agents"},
		{"negative message count", edit(func(e map[string]any) { cp(e)["communication"].(map[string]any)["messages"] = -5 }),
			"checkpoints[1].communication.messages: is -5; a count is ≥ 0"},
		{"no metrics", edit(func(e map[string]any) { delete(e, "metrics") }), "metrics: is missing"},
		{"NaN state", edit(func(e map[string]any) {
			cp(e)["states"].([]any)[0].(map[string]any)["values"].([]any)[0].([]any)[0] = nil
		}), `checkpoints[1].states[0].values[0][0]: "x" is NaN; a checkpoint holds finite values`},
		{"1e308 state", edit(func(e map[string]any) {
			cp(e)["states"].([]any)[0].(map[string]any)["values"].([]any)[0].([]any)[0] = 1e308
		}), `checkpoints[1].states[0].values[0][0]: the estimate "x" is 1e+308, beyond 1e+150 (runner.Limit)`},
	} {
		in, out := filepath.Join(dir, "in.json"), filepath.Join(dir, "out.json")
		os.WriteFile(in, c.data, 0o644)
		os.Remove(out)
		code, _, errs := dpsim(t, "", "run", "--quiet", "--resume", in, "--from", "250", "--out", out)
		if c.want == "" {
			if got, _ := os.ReadFile(out); code != 0 || !bytes.Equal(got, good) {
				t.Fatalf("%s: exit %d, %s; the resumed export equals the run's: %v", c.name, code, errs, bytes.Equal(got, good))
			}
			continue
		}
		if code != 1 || !strings.HasPrefix(errs, "dpsim: "+in+": ") || !strings.Contains(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%s: exit %d, %q; want one line containing %q", c.name, code, errs, c.want)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: an export was written", c.name)
		}
	}
}

// Issue 28, class 2: a run recording more points before its checkpoint
// than the metrics keep in memory (scenario.SpillKeep, 65,536) resumes
// to the uninterrupted run's export; it used to run to its end and then
// fail with "reading the spilled points: EOF", writing nothing.
func TestResumeBeyondSpill(t *testing.T) {
	if testing.Short() {
		t.Skip("70,000 recorded points")
	}
	_, whole, _ := gtdpRun(t, t.TempDir(), 3, 70000, `{"every": 1, "checkpoints": [65535, 65536, 65537, 69999]}`)
	want, _ := os.ReadFile(whole)
	for _, from := range []string{"65535", "65536", "65537", "69999"} {
		out := filepath.Join(filepath.Dir(whole), "r"+from+".json")
		if code, _, errs := dpsim(t, "", "run", "--quiet", "--resume", whole, "--from", from, "--out", out); code != 0 {
			t.Fatalf("--from %s: exit %d: %s", from, code, errs)
		}
		if got, _ := os.ReadFile(out); !bytes.Equal(got, want) {
			t.Fatalf("--from %s: the resumed export differs", from)
		}
	}
}

// gtdpRun writes a GT-DP rendezvous scenario (a ring of n agents,
// dimension 2, Laplace noise of scale 1 on both channels) with the given
// iterations and record section to dir, runs it with --out and --csv, and
// returns the scenario's, the export's and the CSV's paths.
func gtdpRun(t *testing.T, dir string, n, iterations int, record string) (scen, export, csv string) {
	t.Helper()
	scen, export, csv = filepath.Join(dir, "s.json"), filepath.Join(dir, "whole.json"), filepath.Join(dir, "whole.csv")
	js := fmt.Sprintf(`{"name": "resume", "seed": 3, "graph": {"kind": "ring", "n": %d}, "weights": {"kind": "metropolis"},
 "problem": {"kind": "rendezvous", "params": {"dim": 2, "box": 10}},
 "algorithm": {"kind": "gt-dp", "params": {"alpha": 0.1, "gradient_bound": 60}},
 "noise": {"eta": {"dist": "laplace", "scale": 1}, "xi": {"dist": "laplace", "scale": 1}},
 "iterations": %d, "record": %s}`, n, iterations, record)
	if err := os.WriteFile(scen, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := dpsim(t, "", "run", "--quiet", "--out", export, "--csv", csv, scen); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	return scen, export, csv
}
