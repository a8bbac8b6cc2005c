package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// sweepT runs "dpsim sweep" in-process with the given environment.
func sweepT(t *testing.T, env map[string]string, args ...string) (int, string) {
	t.Helper()
	var out, errb bytes.Buffer
	se := sweepEnv{getenv: func(k string) string { return env[k] }, ctx: context.Background()}
	err := sweep(se, args, strings.NewReader(""), &out, &errb)
	if err != nil {
		return 1, errb.String() + err.Error()
	}
	return 0, errb.String()
}

func read(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// quick is a preset cut to 4 runs per point (3 series × 4 runs × 500
// iterations), enough to exercise everything in a fraction of a second.
var quick = []string{"--runs", "4", "preset:gtdp-error-bands"}

func TestSweepSameBytesAnyWorkers(t *testing.T) {
	dir := t.TempDir()
	var outs [][]byte
	for _, w := range []string{"1", "2", "3"} {
		out := filepath.Join(dir, "w"+w+".json")
		if code, errs := sweepT(t, nil, append([]string{"--quiet", "--workers", w, "--out", out}, quick...)...); code != 0 {
			t.Fatalf("--workers %s: %s", w, errs)
		}
		outs = append(outs, read(t, out))
		for _, ext := range []string{".csv", ".svg", ".png", ".pdf"} {
			if fi, err := os.Stat(strings.TrimSuffix(out, ".json") + ext); err != nil || fi.Size() == 0 {
				t.Errorf("%s not written: %v", ext, err)
			}
		}
	}
	for i := range outs[1:] {
		if !bytes.Equal(outs[0], outs[i+1]) {
			t.Fatal("the JSON differs between worker counts")
		}
	}
	// The figures are the same files too.
	for _, ext := range []string{".svg", ".png", ".pdf"} {
		if !bytes.Equal(read(t, filepath.Join(dir, "w1"+ext)), read(t, filepath.Join(dir, "w2"+ext))) {
			t.Errorf("%s differs between two sweeps of the same experiment", ext)
		}
	}
}

// TestClusterDryRun: the shard environment variables of a Kubernetes
// Indexed Job and of a Slurm array drive "dpsim sweep" in a loop, and
// "dpsim merge" reproduces the single run byte for byte.
func TestClusterDryRun(t *testing.T) {
	dir := t.TempDir()
	single := filepath.Join(dir, "single.json")
	if code, errs := sweepT(t, nil, append([]string{"--quiet", "--out", single}, quick...)...); code != 0 {
		t.Fatal(errs)
	}
	for _, c := range []struct {
		name string
		env  func(i int) map[string]string
	}{
		{"kubernetes", func(i int) map[string]string {
			return map[string]string{"JOB_COMPLETION_INDEX": string(rune('0' + i)), "DPSIM_SHARDS": "3"}
		}},
		{"slurm", func(i int) map[string]string { // sbatch --array=1-3
			return map[string]string{"SLURM_ARRAY_TASK_ID": string(rune('1' + i)), "SLURM_ARRAY_TASK_COUNT": "3", "SLURM_ARRAY_TASK_MIN": "1"}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			wd := filepath.Join(dir, c.name)
			if err := os.Mkdir(wd, 0o755); err != nil {
				t.Fatal(err)
			}
			var parts []string
			for i := range 3 {
				// Default output name: NAME.part-i-of-n.json in the
				// working directory; here given explicitly to stay in wd.
				part := filepath.Join(wd, "gtdp-error-bands.part-"+string(rune('0'+i))+"-of-3.json")
				if code, errs := sweepT(t, c.env(i), append([]string{"--quiet", "--out", part}, quick...)...); code != 0 {
					t.Fatalf("shard %d: %s", i, errs)
				}
				if _, err := os.Stat(strings.TrimSuffix(part, ".json") + ".svg"); err == nil {
					t.Error("a shard wrote a figure of its partial data")
				}
				parts = append(parts, part)
			}
			merged := filepath.Join(wd, "merged.json")
			if code, _, errs := dpsim(t, "", append([]string{"merge", "--quiet", "--out", merged}, parts...)...); code != 0 {
				t.Fatal(errs)
			}
			if !bytes.Equal(read(t, merged), read(t, single)) {
				t.Fatal("merged shards differ from the single run")
			}
			if !bytes.Equal(read(t, filepath.Join(wd, "merged.svg")), read(t, filepath.Join(dir, "single.svg"))) {
				t.Error("the merged figure differs from the single run's")
			}
		})
	}
}

func TestSweepShardFlag(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "p.json")
	if code, errs := sweepT(t, nil, append([]string{"--quiet", "--shard", "1/4", "--out", out}, quick...)...); code != 0 {
		t.Fatal(errs)
	}
	var r struct {
		Partial  bool
		Shard    struct{ Index, Count int }
		Finished int
		Tasks    int
		Runs     []struct{ Task int }
	}
	if err := json.Unmarshal(read(t, out), &r); err != nil {
		t.Fatal(err)
	}
	if !r.Partial || r.Shard.Index != 1 || r.Shard.Count != 4 || r.Finished != 3 || r.Tasks != 12 {
		t.Fatalf("shard 1/4 of 12 runs: %+v", r)
	}
	for _, run := range r.Runs {
		if run.Task%4 != 1 {
			t.Errorf("shard 1/4 ran task %d", run.Task)
		}
	}
}

func TestSweepErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(`{"format":"dpsim-experiment/1","name":"x","title":"t","base":{"preset":"gtdp-rendezvous"},
	 "series":[{"name":"a","set":{"algorithm.params.alpha":-1}}],"x":{"kind":"iteration","label":"k"},"runs":2,"seed":1,
	 "metrics":[{"name":"optimality"}],"statistic":"mean","figure":{"title":"t","y":{"metric":"optimality","label":"e"}}}`), 0o644)
	for _, c := range []struct {
		env  map[string]string
		args []string
		want string
	}{
		{nil, []string{bad}, "bad.json: series[0] (a): scenario field algorithm.params.alpha: must be in (0, 1e6]"},
		{nil, []string{"preset:gtdp-rendezvous"}, `no experiment preset named "gtdp-rendezvous"`},
		{nil, []string{"--out", "x.csv", "preset:gtdp-error-bands"}, `--out: name a .json file (the CSV and figures go beside it) (got "x.csv")`},
		{nil, []string{"--shard", "3/3", "preset:gtdp-error-bands"}, "--shard 3/3: the shard index i must satisfy 0 ≤ i < n = 3 (got 3)"},
		{nil, []string{"--workers", "0", "preset:gtdp-error-bands"}, "--workers: must be between 1 and 1024 (got 0)"},
		{nil, []string{"--runs", "-2", "preset:gtdp-error-bands"}, "--runs: must be between 1 and 100000 (got -2)"},
		{map[string]string{"JOB_COMPLETION_INDEX": "1"}, []string{"preset:gtdp-error-bands"}, "DPSIM_SHARDS is not"},
	} {
		code, errs := sweepT(t, c.env, c.args...)
		if code == 0 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, %q; want an error containing %q", c.args, code, errs, c.want)
		}
	}
	a := filepath.Join(dir, "a.json")
	b := filepath.Join(dir, "b.json")
	sweepT(t, nil, "--quiet", "--runs", "2", "--out", a, "preset:gtdp-error-bands")
	sweepT(t, nil, "--quiet", "--runs", "3", "--out", b, "preset:gtdp-error-bands")
	if code, _, errs := dpsim(t, "", "merge", "--out", filepath.Join(dir, "m.json"), a, b); code == 0 || !strings.Contains(errs, "part 2 is a different experiment") {
		t.Errorf("merging two experiments: exit %d, %s", code, errs)
	}
}

func TestPrintTaskReplays(t *testing.T) {
	var out, errb bytes.Buffer
	se := sweepEnv{getenv: func(string) string { return "" }, ctx: context.Background()}
	if err := sweep(se, append([]string{"--print-task", "5"}, quick...), nil, &out, &errb); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), `"seeds": {`) {
		t.Fatalf("no seeds in %s", out.String())
	}
	if code, _, errs := dpsim(t, out.String(), "run", "--quiet", "-"); code != 0 {
		t.Fatalf("dpsim run of the printed task: %s", errs)
	}
}

func TestPresetsListsBothKinds(t *testing.T) {
	_, out, _ := dpsim(t, "", "presets")
	for _, want := range []string{"gtdp-rendezvous                scenario", "gtdp-noise-sweep               experiment", "privacy-utility                experiment"} {
		if !strings.Contains(out, want) {
			t.Errorf("presets lacks %q:\n%s", want, out)
		}
	}
}

// TestCtrlC sends SIGINT to a running "dpsim sweep": it must stop, write
// what finished marked partial, and say so with a non-zero status.
func TestCtrlC(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "dpsim")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	out := filepath.Join(dir, "cut.json")
	cmd := exec.Command(bin, "sweep", "--workers", "2", "--out", out, "preset:gtdp-noise-sweep")
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stderr)
	var log []string
	for sc.Scan() {
		log = append(log, sc.Text())
		if strings.Contains(sc.Text(), "runs  10.0 %") {
			cmd.Process.Signal(syscall.SIGINT)
			break
		}
	}
	go func() {
		for sc.Scan() {
			log = append(log, sc.Text())
		}
	}()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err == nil {
			t.Fatal("an interrupted sweep exited 0")
		}
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatalf("the sweep did not stop within 60 s of Ctrl-C; stderr:\n%s", strings.Join(log, "\n"))
	}
	var r struct {
		Partial         bool
		Finished, Tasks int
	}
	if err := json.Unmarshal(read(t, out), &r); err != nil {
		t.Fatal(err)
	}
	if !r.Partial || r.Finished < r.Tasks/10 || r.Finished >= r.Tasks {
		t.Fatalf("after Ctrl-C at 10 %%: partial=%v, %d of %d runs", r.Partial, r.Finished, r.Tasks)
	}
	if _, err := os.Stat(filepath.Join(dir, "cut.svg")); err != nil {
		t.Errorf("no figure of the partial sweep: %v", err)
	}
}
