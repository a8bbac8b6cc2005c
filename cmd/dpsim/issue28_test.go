package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// comparisonFile writes the committed GT-DP/DPOP/DiaDSP comparison to
// dir/name, edited by edit (nil: as committed), and returns its path.
func comparisonFile(t *testing.T, dir, name string, edit func(c map[string]any)) string {
	t.Helper()
	var c map[string]any
	if err := json.Unmarshal(read(t, "../../core/scenario/testdata/compare-gtdp-fig2.json"), &c); err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(c)
	}
	b, _ := json.Marshal(c)
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// names lists the files of dir.
func names(dir string) []string {
	ents, _ := os.ReadDir(dir)
	var ns []string
	for _, e := range ents {
		ns = append(ns, e.Name())
	}
	return ns
}

// Issue 28, class 4: dpsim compare checks every entry's export before
// anything is built or run: a comparison file with an entry export's name
// is its own input (it was replaced by that entry's export), and a folder
// in the third entry's place was found only after two entries ran.
func TestCompareChecksEveryOutputFirst(t *testing.T) {
	dir := t.TempDir()
	own := comparisonFile(t, dir, "gtdp-fig2-1-gt-dp.json", nil)
	before := read(t, own)
	code, _, errs := dpsim(t, "", "compare", "--dir", dir, own)
	if code != 1 {
		t.Errorf("a comparison named like its first export: exit %d", code)
	}
	oneLineErr(t, "own name", errs, "the export of compare[0] (--dir) "+own+": is the same file as the input "+own)
	if !bytes.Equal(read(t, own), before) {
		t.Error("the comparison file was replaced")
	}
	out := t.TempDir()
	os.Mkdir(filepath.Join(out, "gtdp-fig2-3-diadsp.json"), 0o755)
	start := time.Now()
	code, _, errs = dpsim(t, "", "compare", "--dir", out, own)
	if code != 1 {
		t.Errorf("a folder in the third export's place: exit %d", code)
	}
	oneLineErr(t, "folder", errs, "the export of compare[2] (--dir) "+filepath.Join(out, "gtdp-fig2-3-diadsp.json")+": is a folder")
	if ns := names(out); len(ns) != 1 {
		t.Errorf("after the refusal the folder holds %v: entries ran before the check", ns)
	}
	t.Logf("refused in %v", time.Since(start))
}

// Issue 28, class 4: dpsim attack checks its outputs before the attack:
// a missing folder, and --out named like one of --pgm's images (which
// silently replaced the JSON).
func TestAttackChecksOutputsFirst(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--out", filepath.Join(dir, "missing", "a.json")}, "--out " + filepath.Join(dir, "missing", "a.json") + ": the folder " + filepath.Join(dir, "missing") + " does not exist"},
		{[]string{"--out", filepath.Join(dir, "x-true.pgm"), "--pgm", filepath.Join(dir, "x")}, "--pgm " + filepath.Join(dir, "x-true.pgm") + ": is the same file as --out " + filepath.Join(dir, "x-true.pgm")},
		{[]string{"--out", "-"}, `--out -: give a file name: "-" is not standard output here`},
		{[]string{"--pgm", filepath.Join(dir, "y"), "--dataset", "ijcnn1"}, "--pgm: needs square grey images; ijcnn1 has 22 features"},
	} {
		code, out, errs := dpsim(t, "", append([]string{"attack", "--steps", "10"}, c.args...)...)
		if code == 0 || out != "" {
			t.Errorf("%v: exit %d, stdout %q: the attack ran", c.args, code, out)
		}
		oneLineErr(t, strings.Join(c.args, " "), errs, c.want)
	}
	if ns := names(dir); len(ns) != 0 {
		t.Errorf("refused attacks wrote %v", ns)
	}
}

// Issue 28, class 8: "-" as an output is standard output for run's --out
// (as without --out) and refused for every other output, never a file
// named "-".
func TestDashIsNeverAFileName(t *testing.T) {
	dir := t.TempDir()
	wd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chdir(wd) })
	code, out, errs := dpsim(t, "", "run", "--quiet", "--out", "-", "preset:gtdp-rendezvous")
	if code != 0 || !strings.HasPrefix(out, "{\n \"format\": \"dpsim-run/1\"") {
		t.Errorf("run --out -: exit %d, stdout %.40q, stderr %q", code, out, errs)
	}
	for _, args := range [][]string{
		{"run", "--csv", "-", "preset:gtdp-rendezvous"},
		{"run", "--eavesdrop", "-", "preset:dpp2-classifier"},
		{"sweep", "--out", "-", "preset:gtdp-error-bands"},
	} {
		code, _, errs := dpsim(t, "", args...)
		if code == 0 || !strings.Contains(errs, " -") {
			t.Errorf("%v: exit %d, %q", args, code, errs)
		}
	}
	if ns := names(dir); len(ns) != 0 {
		t.Errorf("wrote %v", ns)
	}
}

// Issue 28, class 8: dpsim compare refuses a broken calibrate section
// (it ran every entry uncalibrated, silently with --quiet) and a base name
// too long for its entries' names (they became compare-1-gt-dp, … and two
// comparisons overwrote each other), and prints each entry's warnings as
// dpsim run does.
func TestCompareSaysWhatItWouldIgnore(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct {
		edit func(c map[string]any)
		want string
	}{
		{func(c map[string]any) { c["calibrate"] = map[string]any{"epsilon": 1e4, "iterations": -1} }, "calibrate.iterations: must be from 1 to 10000000, or 0 (left out) for the scenario's iterations (got -1)"},
		{func(c map[string]any) {
			delete(c, "calibrate")
			c["base"].(map[string]any)["calibrate"] = map[string]any{"epsilon": 1e4, "iterations": 20000000}
		}, "base.calibrate.iterations: must be from 1 to 10000000"},
		{func(c map[string]any) { c["base"].(map[string]any)["name"] = strings.Repeat("a", 58) }, "base.name: is 58 characters, so entry 1's name " + strings.Repeat("a", 58) + "-1-gt-dp (the base's name, the entry's number and its algorithm) is 66, over the 64 a scenario name may have: shorten base.name to at most 56 characters"},
	} {
		p := comparisonFile(t, dir, "c.json", c.edit)
		for _, quiet := range []string{"--quiet", "--dir=" + dir} {
			code, _, errs := dpsim(t, "", "compare", quiet, "--dir", dir, p)
			if code != 1 {
				t.Errorf("%s %s: exit %d", c.want, quiet, code)
			}
			oneLineErr(t, quiet, errs, c.want)
		}
	}
	if ns := names(dir); len(ns) != 1 {
		t.Errorf("refused comparisons wrote %v", ns)
	}
	// GT-DP with a step above its theorem's bound warns, in compare as in run.
	p := comparisonFile(t, dir, "warn.json", func(c map[string]any) {
		c["compare"].([]any)[0].(map[string]any)["params"].(map[string]any)["alpha"] = 1.5
	})
	out := t.TempDir()
	code, _, errs := dpsim(t, "", "compare", "--dir", out, p)
	if code != 0 || !strings.Contains(errs, "warning: GT-DP: algorithm.params.alpha") {
		t.Errorf("exit %d, stderr %q; want GT-DP's warning", code, errs)
	}
	code, _, errs = dpsim(t, "", "compare", "--quiet", "--dir", out, p)
	if code != 0 || errs != "" {
		t.Errorf("--quiet: exit %d, stderr %q", code, errs)
	}
}

// Issue 28, class 6: dpsim compare's calibration looks at the signal
// (it ran without it, 6–20 s after Ctrl-C): interrupted, it stops at once
// and writes nothing.
func TestCompareCalibrationStopsOnSignal(t *testing.T) {
	dir := t.TempDir()
	p := comparisonFile(t, dir, "c.json", func(c map[string]any) {
		base := c["base"].(map[string]any)
		base["iterations"] = 10_000_000
		base["record"] = map[string]any{"every": 100000}
		c["calibrate"] = map[string]any{"epsilon": 1e6}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	var out, errb bytes.Buffer
	err := compare(sweepEnv{getenv: os.Getenv, ctx: ctx}, []string{"--dir", dir, p}, nil, &out, &errb)
	took := time.Since(start)
	if err == nil || !strings.Contains(err.Error(), "interrupted while building compare[0] (GT-DP); nothing written") {
		t.Errorf("error %v", err)
	}
	if took > 2*time.Second {
		t.Errorf("stopped %v after the start, the signal at 200 ms", took)
	}
	if ns := names(dir); len(ns) != 1 {
		t.Errorf("wrote %v", ns)
	}
}

// Issue 28, class 9: a message names the flag or field at fault and the
// rule it breaks: attack --plf 10⁸ blamed algorithm.params.target_epsilon,
// a divergence from an all-zero start read "more than 1e+20 times … (0)".
func TestMessagesNameTheFlagAndTheRule(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"attack", "--plf", "100000000"}, "dpsim: --plf: must be at most 46454 activations for ε = 12 (R = 1.01): over more, the calibrated noise σ_1 leaves DP-RECAL's range (0, 1e100]; lower the PLF or raise ε (got 100000000)"},
		{[]string{"attack", "--target", "9"}, "dpsim: --target: must be an agent of 0..7 (got 9)"},
		{[]string{"attack", "--steps", "0"}, "dpsim: --steps: must be in [1, 10⁶] (got 0)"},
	} {
		code, out, errs := dpsim(t, "", c.args...)
		if code != 1 || out != "" {
			t.Errorf("%v: exit %d, stdout %q", c.args, code, out)
		}
		oneLineErr(t, strings.Join(c.args, " "), errs, c.want)
	}
	var s map[string]any
	json.Unmarshal(read(t, "../../core/scenario/presets/gtdp-rendezvous.json"), &s)
	s["problem"].(map[string]any)["params"] = map[string]any{"dim": 2, "box": 1e-9}
	s["algorithm"].(map[string]any)["params"].(map[string]any)["alpha"] = 100
	s["noise"] = map[string]any{"eta": map[string]any{"dist": "laplace", "scale": 0}, "xi": map[string]any{"dist": "laplace", "scale": 0}}
	b, _ := json.Marshal(s)
	_, _, errs := dpsim(t, string(b), "run", "--quiet", "--out", filepath.Join(t.TempDir(), "x.json"), "-")
	oneLineErr(t, "divergence from 0", errs, "more than 1e+20 times 1 (the largest estimate at iteration 0 was 0; growth is measured from at least 1)")
	// In a cluster job's environment, --print-task was refused with
	// "give no shard with it", a shard no flag had given: a task is
	// numbered in the whole experiment, so the job's shard does not apply.
	job := map[string]string{"DPSIM_SHARDS": "2", "JOB_COMPLETION_INDEX": "0"}
	var out, errb bytes.Buffer
	err := sweep(sweepEnv{getenv: func(k string) string { return job[k] }, ctx: context.Background()},
		[]string{"--print-task", "1", "--runs", "2", "preset:gtdp-error-bands"}, nil, &out, &errb)
	if err != nil || !strings.HasPrefix(out.String(), "{") {
		t.Errorf("--print-task in a sharded job's environment: %v, %.40q", err, out.String())
	}
}

// Issue 28, class 7: validate prints the memory estimate dpsim run
// checks, with its parts, and what the export pins.
func TestValidatePrintsTheEstimate(t *testing.T) {
	code, out, errs := dpsim(t, "", "validate", "preset:gtdp-logistic-mushrooms")
	if code != 0 || !strings.Contains(out, "\n  memory: about ") || !strings.Contains(out, "datasets (problem.params.dataset)") ||
		!strings.Contains(out, "the collector's room (a quarter of the rest, and 64 MiB for the runtime)); its export pins about ") {
		t.Errorf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
}
