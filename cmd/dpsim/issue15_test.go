package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"dpsim/core/experiment"
	"dpsim/core/metrics"
)

// oneLineErr fails unless s is exactly one line containing want.
func oneLineErr(t *testing.T, what, s, want string) {
	t.Helper()
	if strings.Count(s, "\n") != 1 || !strings.HasSuffix(s, "\n") || !strings.Contains(s, want) {
		t.Errorf("%s: stderr %q; want one line containing %q", what, s, want)
	}
}

// Issue 15, class 2: every flag value is parsed and range-checked before
// use, in one line naming the flag, the rule and the value. --shard 0/huge
// overflowed the task arithmetic, --epsilon NaN was spliced into raw JSON,
// --print-task -2 was taken for "not given".
func TestFlagValuesAreChecked(t *testing.T) {
	quickExp := []string{"--runs", "2", "preset:gtdp-error-bands"}
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"sweep", "--shard", "0/9223372036854775807", "preset:gtdp-error-bands"}, 1, "--shard 0/9223372036854775807: the shard count n must be between 1 and 10000000 (got 9223372036854775807)"},
		{[]string{"sweep", "--shard", "0/99999999999999999999", "preset:gtdp-error-bands"}, 1, `--shard: write i/n with 0 ≤ i < n, e.g. 0/3 (got "0/99999999999999999999")`},
		{[]string{"sweep", "--shard", "-1/3", "preset:gtdp-error-bands"}, 1, "the shard index i must satisfy 0 ≤ i < n = 3 (got -1)"},
		{[]string{"sweep", "--shard", "1/", "preset:gtdp-error-bands"}, 1, `--shard: write i/n`},
		{[]string{"sweep", "--shard", "0/100", "--runs", "2", "preset:gtdp-error-bands"}, 1, "the experiment has 6 runs, so the shard count must be at most 6"},
		{[]string{"sweep", "--epsilon", "NaN", "preset:gtdp-fig2"}, 1, "--epsilon: must be a finite number greater than 0 (got NaN)"},
		{[]string{"sweep", "--epsilon", "Inf", "preset:gtdp-fig2"}, 1, "--epsilon: must be a finite number greater than 0 (got +Inf)"},
		{[]string{"sweep", "--epsilon", "-Inf", "preset:gtdp-fig2"}, 1, "(got -Inf)"},
		{[]string{"sweep", "--epsilon", "0", "preset:gtdp-fig2"}, 1, "(got 0)"},
		{[]string{"run", "--epsilon", "NaN", "preset:gtdp-fig1"}, 1, "--epsilon: must be a finite number greater than 0 (got NaN)"},
		{[]string{"validate", "--epsilon", "+Inf", "preset:gtdp-fig1"}, 1, "(got +Inf)"},
		{[]string{"run", "--epsilon", "1", "--horizon", "-5", "preset:gtdp-fig1"}, 1, "--horizon: must be between 1 and"},
		{[]string{"run", "--horizon", "5", "preset:gtdp-fig1"}, 2, "dpsim run: --horizon needs --epsilon; see dpsim run --help"},
		{append([]string{"sweep", "--print-task", "-2"}, quickExp...), 1, "--print-task: must be between 0 and 9999999 (got -2)"},
		{append([]string{"sweep", "--print-task", "6"}, quickExp...), 1, "--print-task: task 6 does not exist: the plan has tasks 0 to 5"},
		{append([]string{"sweep", "--print-task", "1", "--shard", "0/2"}, quickExp...), 2, "--print-task names a run of the whole experiment"},
		{append([]string{"sweep", "--workers", "100000000"}, quickExp...), 1, "--workers: must be between 1 and 1024 (got 100000000)"},
		{[]string{"sweep", "--runs", "0", "preset:gtdp-error-bands"}, 1, "--runs: must be between 1 and 100000 (got 0)"},
		{[]string{"sweep", "--runs", "1000000", "preset:gtdp-error-bands"}, 1, "(got 1000000)"},
		{[]string{"sweep", "--workers", "many", "preset:gtdp-error-bands"}, 2, `dpsim sweep: --workers: must be a whole number (got "many"); see dpsim sweep --help`},
		{[]string{"run", "--resume", "x.json", "--from", "-4"}, 1, "--from: must be between 0 and 10000000 (got -4)"},
	} {
		code, out, errs := dpsim(t, "", c.args...)
		if code != c.code || out != "" {
			t.Errorf("%v: exit %d (want %d), stdout %q, stderr %q", c.args, code, c.code, out, errs)
		}
		oneLineErr(t, strings.Join(c.args, " "), errs, c.want)
	}
	// A shard count from the environment without its index, or out of range.
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"DPSIM_SHARDS": "4"}, "DPSIM_SHARDS=4 is set but JOB_COMPLETION_INDEX is not: a shard count needs its index"},
		{map[string]string{"SLURM_ARRAY_TASK_COUNT": "4"}, "SLURM_ARRAY_TASK_COUNT=4 is set but SLURM_ARRAY_TASK_ID is not"},
		{map[string]string{"JOB_COMPLETION_INDEX": "0", "DPSIM_SHARDS": "9223372036854775807"}, "the shard count n must be between 1 and 10000000"},
	} {
		if code, errs := sweepT(t, c.env, quickExp...); code == 0 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, %q; want %q", c.env, code, errs, c.want)
		}
	}
}

// Issue 15, class 8: a usage error is one line and a pointer to the help,
// not the help's 9–31 lines; --help prints the help on standard output.
func TestUsageErrorsAreOneLine(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{nil, "dpsim: give a command: run, validate, presets, plugins, sweep, merge, audit, attack, compare, privacy-table or version; see dpsim --help"},
		{[]string{"run"}, "dpsim run: give exactly one SCENARIO (a file, - or preset:NAME); got 0 arguments; see dpsim run --help"},
		{[]string{"run", "--bogus", "x"}, "dpsim run: unknown flag --bogus; see dpsim run --help"},
		{[]string{"validate", "a", "b"}, "dpsim validate: give exactly one SCENARIO"},
		{[]string{"sweep"}, "dpsim sweep: give exactly one EXPERIMENT"},
		{[]string{"sweep", "--shard"}, "dpsim sweep: --shard needs a value; see dpsim sweep --help"},
		{[]string{"merge", "a.json"}, "dpsim merge: give --out NAME.json and at least one PART.json; see dpsim merge --help"},
		{[]string{"presets", "x"}, "dpsim presets: takes no arguments"},
		{[]string{"run", "--from", "3", "preset:gtdp-fig1"}, "dpsim run: --from needs --resume EXPORT.json"},
	} {
		code, out, errs := dpsim(t, "", c.args...)
		if code != 2 || out != "" {
			t.Errorf("%v: exit %d, stdout %q", c.args, code, out)
		}
		oneLineErr(t, strings.Join(c.args, " "), errs, c.want)
	}
	for _, cmd := range []string{"run", "validate", "presets", "plugins", "sweep", "merge", "version"} {
		code, out, errs := dpsim(t, "", cmd, "--help")
		if code != 0 || errs != "" || !strings.HasPrefix(out, "Usage: dpsim "+cmd) || !strings.Contains(out, "\n  -") && cmd != "presets" && cmd != "plugins" && cmd != "version" {
			t.Errorf("%s --help: exit %d, stderr %q, stdout %q", cmd, code, errs, out)
		}
	}
}

// Issue 15, class 3: Ctrl-C while a large sweep's plan is built stops
// the building; nothing is run or written.
func TestSweepPlanningStopsOnCtrlC(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var out, errb bytes.Buffer
	out1 := filepath.Join(dir, "cut.json")
	err := sweep(sweepEnv{getenv: func(string) string { return "" }, ctx: ctx}, []string{"--out", out1, "preset:gtdp-noise-sweep"}, nil, &out, &errb)
	if err == nil || !strings.Contains(err.Error(), "interrupted while planning preset:gtdp-noise-sweep: no run started, nothing written") {
		t.Fatalf("error %v", err)
	}
	if _, err := os.Stat(out1); err == nil {
		t.Error("an interrupted plan wrote a result")
	}
	// So does merge while it reads its parts.
	part := filepath.Join(dir, "p.json")
	os.WriteFile(part, []byte("{}"), 0o644)
	err = merge(sweepEnv{ctx: ctx}, []string{"--out", out1, part}, &out, &errb)
	if err == nil || err.Error() != "interrupted while reading the parts: nothing written" {
		t.Errorf("merge: error %v", err)
	}
}

// Issue 15, class 5: the outputs of a sweep are checked before any run:
// a missing folder is found at once, not after hours.
func TestSweepChecksOutputsFirst(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o644)
	for _, c := range []struct{ out, want string }{
		{filepath.Join(dir, "missing", "r.json"), "the folder " + filepath.Join(dir, "missing") + " does not exist"},
		{filepath.Join(file, "r.json"), "is not a folder"},
	} {
		// Not quiet: a progress line would show that runs started.
		var out, errb bytes.Buffer
		err := sweep(sweepEnv{getenv: func(string) string { return "" }, ctx: context.Background()}, []string{"--out", c.out, "preset:gtdp-noise-sweep"}, nil, &out, &errb)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.HasPrefix(err.Error(), "--out "+c.out) {
			t.Errorf("--out %s: error %v; want it to say %q", c.out, err, c.want)
		}
		if errb.Len() != 0 {
			t.Errorf("--out %s: runs started before the output was checked: %q", c.out, errb.String())
		}
	}
	// A figure name that is a folder is refused as well.
	os.Mkdir(filepath.Join(dir, "r.png"), 0o755)
	code, _, errs := dpsim(t, "", "sweep", "--out", filepath.Join(dir, "r.json"), "preset:gtdp-noise-sweep")
	if code != 1 {
		t.Errorf("r.png a folder: exit %d", code)
	}
	oneLineErr(t, "r.png a folder", errs, "r.png: is a folder")
	if os.Geteuid() != 0 {
		ro := filepath.Join(dir, "ro")
		os.Mkdir(ro, 0o555)
		code, _, errs := dpsim(t, "", "sweep", "--out", filepath.Join(ro, "r.json"), "preset:gtdp-noise-sweep")
		if code != 1 {
			t.Errorf("read-only folder: exit %d", code)
		}
		oneLineErr(t, "read-only folder", errs, "permission denied")
	}
}

// Issue 15, class 5: a write that fails half way (a full disk) leaves the
// previous file as it was and no temporary file behind.
func TestFailedWriteKeepsTheOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "result.json")
	os.WriteFile(path, []byte("OLD COMPLETE RESULT"), 0o644)
	err := writeFile("--out", path, func(w io.Writer) error {
		w.Write(bytes.Repeat([]byte("x"), 100_000))
		return syscall.ENOSPC
	})
	if err == nil || !strings.Contains(err.Error(), "--out "+path+": no space left on device") {
		t.Errorf("error %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "OLD COMPLETE RESULT" {
		t.Errorf("the old file now holds %d bytes", len(b))
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("left behind: %v", ents)
	}
}

// failingSpill is a spill file on a full disk.
type failingSpill struct{}

func (failingSpill) Write([]byte) (int, error)         { return 0, syscall.ENOSPC }
func (failingSpill) ReadAt([]byte, int64) (int, error) { return 0, io.EOF }

// Issue 15, class 5: a full temporary folder is reported as such, as soon
// as the metrics spill, and not blamed on --out, whose old file stays.
func TestFullTmpdirIsNotBlamedOnOut(t *testing.T) {
	old := newSpill
	t.Cleanup(func() { newSpill = old })
	newSpill = func() (metrics.SpillFile, func(), error) { return failingSpill{}, func() {}, nil }
	dir := t.TempDir()
	out := filepath.Join(dir, "x.json")
	os.WriteFile(out, []byte("OLD"), 0o644)
	long := `{"name":"long","seed":1,"graph":{"kind":"ring","n":3},"weights":{"kind":"metropolis"},
	  "problem":{"kind":"rendezvous","params":{"dim":1}},"algorithm":{"kind":"gt-dp","params":{"alpha":0.1}},
	  "noise":{"eta":{"dist":"laplace","scale":0},"xi":{"dist":"laplace","scale":0}},"iterations":200000}`
	code, _, errs := dpsim(t, long, "run", "--quiet", "--out", out, "-")
	if code != 1 {
		t.Errorf("exit %d", code)
	}
	oneLineErr(t, "full TMPDIR", errs, "the temporary folder "+os.TempDir()+" (TMPDIR), where a run's metrics wait: metrics: spilling to disk: no space left on device; free space there or set TMPDIR")
	if strings.Contains(errs, "--out") {
		t.Errorf("blamed on --out: %q", errs)
	}
	if b, _ := os.ReadFile(out); string(b) != "OLD" {
		t.Errorf("--out was replaced by %d bytes", len(b))
	}
}

// Issue 15, class 5: an interrupted run writes its export so far, marked
// partial, and says so; the metrics spill leaves no file behind.
func TestInterruptedRunWritesPausedExport(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	dir := t.TempDir()
	out := filepath.Join(dir, "x.json")
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var stdout, stderr bytes.Buffer
	err := runCommand(sweepEnv{getenv: os.Getenv, ctx: ctx}, []string{"--quiet", "--out", out, "preset:gtdp-rendezvous"}, nil, &stdout, &stderr)
	if err == nil || err.Error() != "interrupted at iteration 0 of 1000: "+out+` holds the run so far, marked "partial": true, with a checkpoint at iteration 0: dpsim run --resume `+out+` continues it` {
		t.Fatalf("error %v", err)
	}
	var ex struct {
		Status    string
		Partial   bool
		Iteration int
	}
	if b, err := os.ReadFile(out); err != nil || json.Unmarshal(b, &ex) != nil || ex.Status != "paused" || !ex.Partial {
		t.Errorf("export: %+v, %v", ex, err)
	}
	if ents, _ := os.ReadDir(os.TempDir()); len(ents) != 0 {
		t.Errorf("left in TMPDIR: %v", ents)
	}
}

// Issue 15, class 6: an output that is an input — by name, through a
// symlink or a hard link — or another output is refused before any work,
// and the input is untouched.
func TestOutputsNeverOverwriteInputs(t *testing.T) {
	dir := t.TempDir()
	p := func(n string) string { return filepath.Join(dir, n) }
	scen, _ := os.ReadFile("../../core/scenario/presets/gtdp-rendezvous.json")
	os.WriteFile(p("s.json"), scen, 0o644)
	os.Symlink(p("s.json"), p("link.json"))
	os.Link(p("s.json"), p("hard.json"))
	// An experiment file, named e.json and e.csv.
	eb, err := experiment.PresetJSON("gtdp-error-bands")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(p("e.json"), eb, 0o644)
	os.WriteFile(p("e.csv"), eb, 0o644)
	os.WriteFile(p("a.json"), []byte("A"), 0o644)
	os.Symlink(p("a.json"), p("a-link.csv"))
	os.WriteFile(p("part.json"), []byte("{}"), 0o644)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--out", p("s.json"), p("s.json")}, "--out " + p("s.json") + ": is the same file as the input " + p("s.json")},
		{[]string{"run", "--csv", p("s.json"), p("s.json")}, "--csv " + p("s.json") + ": is the same file as the input"},
		{[]string{"run", "--out", p("link.json"), p("s.json")}, "--out " + p("link.json") + ": is the same file as the input " + p("s.json")},
		{[]string{"run", "--out", p("hard.json"), p("s.json")}, "--out " + p("hard.json") + ": is the same file as the input"},
		{[]string{"run", "--out", p("s.json"), p("link.json")}, "is the same file as the input " + p("link.json")},
		{[]string{"run", "--out", p("a.json"), "--csv", p("a-link.csv"), "preset:gtdp-rendezvous"}, "--csv " + p("a-link.csv") + ": is the same file as --out " + p("a.json")},
		{[]string{"run", "--resume", p("s.json"), "--out", p("hard.json")}, "is the same file as the input " + p("s.json")},
		{[]string{"sweep", "--out", p("e.json"), p("e.json")}, "--out " + p("e.json") + ": is the same file as the input " + p("e.json")},
		{[]string{"sweep", "--out", p("e.json"), p("e.csv")}, "--out " + p("e.csv") + ": is the same file as the input " + p("e.csv")},
		{[]string{"merge", "--out", p("part.json"), p("part.json")}, "--out " + p("part.json") + ": is the same file as the input"},
	} {
		code, _, errs := dpsim(t, "", c.args...)
		if code != 1 {
			t.Errorf("%v: exit %d", c.args, code)
		}
		oneLineErr(t, strings.Join(c.args, " "), errs, c.want)
	}
	for _, f := range []string{"s.json", "e.json", "e.csv", "a.json", "part.json"} {
		b, _ := os.ReadFile(p(f))
		if f == "s.json" && !bytes.Equal(b, scen) || f == "a.json" && string(b) != "A" || f == "part.json" && string(b) != "{}" || strings.HasPrefix(f, "e.") && !bytes.Equal(b, eb) {
			t.Errorf("%s was changed", f)
		}
	}
}

// Issue 15, class 4: parts too large to assemble together are refused
// from their sizes, before a byte is read (sparse files: nothing is
// written to disk).
func TestMergeRefusesPartsTooLargeTogether(t *testing.T) {
	dir := t.TempDir()
	var parts []string
	for i := range 5 {
		p := filepath.Join(dir, fmt.Sprintf("part-%d.json", i))
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.Truncate(250 << 20); err != nil {
			t.Fatal(err)
		}
		f.Close()
		parts = append(parts, p)
	}
	var out, errb bytes.Buffer
	err := merge(sweepEnv{ctx: context.Background()}, append([]string{"--out", filepath.Join(dir, "m.json")}, parts...), &out, &errb)
	if err == nil || !strings.Contains(err.Error(), "dpsim merge reads at most 1.0 GiB") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("5 parts of 250 MiB: %v, want a one-line refusal naming the 1 GiB limit", err)
	}
}
