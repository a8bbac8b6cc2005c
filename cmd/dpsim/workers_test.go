package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"dpsim/core/scenario"
)

// --workers and DPSIM_WORKERS choose how many goroutines run a run's
// agents; the export is the same bytes for every choice (a dataset-backed
// CNN run here), and a bad value is one line naming the flag or the
// variable, the rule and the value, before anything is built.
func TestWorkersFlagAndSetting(t *testing.T) {
	dir := t.TempDir()
	run := func(env string, args ...string) (int, string, string) {
		t.Helper()
		t.Setenv(WorkersEnv, env)
		return dpsim(t, "", args...)
	}
	var exports []string
	for i, c := range []struct {
		env  string
		args []string
	}{
		{"1", nil},
		{"", []string{"--workers", "3"}},
		{"", nil},                            // Auto
		{"2", nil},                           // the setting alone
		{"lots", []string{"--workers", "1"}}, // the flag wins over a broken setting
	} {
		out := filepath.Join(dir, "x"+string(rune('a'+i))+".json")
		args := append(append([]string{"run", "--quiet", "--out", out}, c.args...), "preset:gtdp-cnn-mnist")
		if code, _, errs := run(c.env, args...); code != 0 {
			t.Fatalf("%s=%q %v: exit %d: %s", WorkersEnv, c.env, c.args, code, errs)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		exports = append(exports, string(data))
	}
	for i, e := range exports[1:] {
		if e != exports[0] {
			t.Errorf("run %d: another export than on one worker: %s", i+1, firstDiff(exports[0], e))
		}
	}

	for _, c := range []struct {
		env  string
		args []string
		want string
	}{
		{"", []string{"run", "--workers", "-1", "preset:gtdp-rendezvous"}, "--workers: must be a whole number from 0 (every core, once an iteration is long enough to gain) to 1024 (got -1)"},
		{"", []string{"run", "--workers", "1025", "preset:gtdp-rendezvous"}, "--workers: must be a whole number from 0"},
		{"many", []string{"run", "preset:gtdp-rendezvous"}, `DPSIM_WORKERS: must be a whole number from 0 (every core, once an iteration is long enough to gain) to 1024 (got "many")`},
		{"-3", []string{"run", "--resume", "x.json"}, `DPSIM_WORKERS: must be a whole number from 0`},
		{"", []string{"compare", "--workers", "-2", "x.json"}, "--workers: must be a whole number from 0"},
		{"9999", []string{"compare", "x.json"}, `DPSIM_WORKERS: must be a whole number from 0`},
	} {
		code, out, errs := run(c.env, c.args...)
		if code == 0 || out != "" || !strings.Contains(errs, c.want) || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("%s=%q %v: exit %d, stdout %q, stderr %q; want one line saying %q", WorkersEnv, c.env, c.args, code, out, errs, c.want)
		}
	}
}

// TestWorkersRefusedPastTheBudget: when --workers is what takes a run
// (each gradient running at once holds the CNN's scratch) or a sweep
// (each run in progress holds its state) past the CLI's memory budget,
// the one-line refusal names --workers, its value and how many fit.
// It named the largest part's fields (record.checkpoints, graph.n),
// which lowering would not have been the user's simplest fix.
func TestWorkersRefusedPastTheBudget(t *testing.T) {
	dir := t.TempDir()
	// The CNN on CIFAR-10 cat/dog on a ring of 300, with as many
	// checkpoints as fit one gradient at a time but not 300 at once.
	cnn := func(checkpoints int) *scenario.Scenario {
		s, err := scenario.PresetScenario("gtdp-cnn-mnist")
		if err != nil {
			t.Fatal(err)
		}
		s.Graph = scenario.Graph{Kind: "ring", N: 300}
		s.Problem.Params = []byte(`{"dataset": "cifar10-catdog", "train_rows": 1024, "eval_rows": 16, "shards": "shuffled", "l2": 0}`)
		s.Iterations = 200
		s.Record.Checkpoints = nil
		for k := range checkpoints {
			s.Record.Checkpoints = append(s.Record.Checkpoints, k)
		}
		return s
	}
	total := func(c, gradients int) int64 {
		b, err := scenario.Build(cnn(c))
		if err != nil {
			return math.MaxInt64 // over the budget as Build estimates it
		}
		return b.Estimate(scenario.CLI).WithGradients(gradients).Total
	}
	// The most checkpoints one gradient at a time fits.
	cps := sort.Search(201, func(c int) bool { return total(c+1, 1) > scenario.CLIBudget })
	if total(cps, 300) <= scenario.CLIBudget {
		t.Fatalf("%d checkpoints fit with 300 gradients at once: no case", cps)
	}
	run := filepath.Join(dir, "cnn.json")
	os.WriteFile(run, cnn(cps).JSON(), 0o644)

	// GT-DP in dimension 5000 on a ring of 100 (about 30 MiB a run), 200
	// runs of one point.
	var sweep map[string]any
	json.Unmarshal(read(t, "../../core/experiment/presets/communication-gtdp-ring-vs-complete.json"), &sweep)
	delete(sweep, "expectations")
	sweep["set"] = map[string]any{"iterations": 3, "record.every": 1, "graph": map[string]any{"kind": "ring", "n": 100}, "problem.params": map[string]any{"dim": 5000, "box": 10}}
	sweep["series"] = []map[string]any{{"name": "ring", "label": "ring"}}
	sweep["runs"] = 200
	delete(sweep["x"].(map[string]any), "values")
	js, _ := json.Marshal(sweep)
	exp := filepath.Join(dir, "sweep.json")
	os.WriteFile(exp, js, 0o644)

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--workers", "300", run}, `^--workers: each gradient running at once holds about [0-9.]+ KiB, and 300 at once would take the run to about 4\.[0-9] GiB of memory, more than the 4\.0 GiB it may use: at most [0-9]+ fit \(got 300\)$`},
		{[]string{"sweep", "--workers", "200", exp}, `^--workers: each run in progress holds about [0-9.]+ MiB, and 200 at once would take the sweep to about [0-9.]+ GiB of memory, more than the 4\.0 GiB it may use: at most [0-9]+ fit \(got 200\)$`},
	} {
		args := append([]string{c.args[0], "--quiet", "--out", filepath.Join(dir, "out.json")}, c.args[1:]...)
		code, _, errs := dpsim(t, "", args...)
		line := strings.TrimPrefix(strings.TrimSpace(errs), "dpsim: ")
		if code == 0 || !regexp.MustCompile(c.want).MatchString(line) {
			t.Errorf("%v: exit %d, %q; want one line matching %s", c.args, code, line, c.want)
		}
		// At the most that fit, the estimate passes.
		m := regexp.MustCompile(`at most ([0-9]+) fit`).FindStringSubmatch(line)
		if m == nil {
			continue
		}
		most, _ := strconv.Atoi(m[1])
		if c.args[0] == "run" && (total(cps, most) > scenario.CLIBudget || total(cps, most+1) <= scenario.CLIBudget) {
			t.Errorf("%v: %d gradients at once is not the most that fit", c.args, most)
		}
	}
}
