package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"dpsim/core/scenario"
	"dpsim/core/version"
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
	// The metadata lines, then the header with ε per agent (docs/exports.md).
	if !strings.HasPrefix(string(csv), "# scenario: gtdp-rendezvous\n# scenario_sha256: ") {
		t.Errorf("csv starts %q", string(csv[:min(60, len(csv))]))
	}
	eps := ""
	for i := range 8 {
		eps += fmt.Sprintf(",eps_agent_%d", i)
	}
	if h := "\niteration,optimality,consensus,objective,messages,releases,activations" + eps + "\n0,"; !strings.Contains(string(csv), h) {
		t.Errorf("csv has no header %q", h)
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
	// A privacy loss that underflows float64 is refused, not reported as
	// ε = 0: a rendezvous domain of radius 5e-324 under noise 1e12, and
	// DP-EXTRA's μ = 4e-200/1e12, whose ρ = μ²/2 read 0.
	for _, c := range []struct{ scenario, want string }{
		{`{"name":"x","seed":1,"graph":{"kind":"ring","n":4},"weights":{"kind":"metropolis"},
		  "problem":{"kind":"rendezvous","params":{"dim":2,"box":1,"domain_radius":5e-324}},"algorithm":{"kind":"gt-dp","params":{"alpha":0.1,"clip_gradients":true}},
		  "noise":{"eta":{"dist":"laplace","scale":1e12},"xi":{"dist":"laplace","scale":1e12}},"iterations":10}`,
			"problem.params.domain_radius: must be 0 or at least 1e-100 in magnitude (got 5e-324)"},
		{`{"name":"x","seed":1,"graph":{"kind":"ring","n":4},"weights":{"kind":"metropolis"},
		  "problem":{"kind":"logistic","params":{"dataset":"synthetic","rows":40,"features":3,"loss":"squares","regularizer":"elastic-net","r_l1":0.05,"r_l2":1}},
		  "algorithm":{"kind":"dp-extra","params":{"alpha":1e-100,"gradient_bound":1e-100}},
		  "noise":{"x":{"dist":"gaussian","scale":1e12}},"iterations":10}`,
			"noise.x.scale: agent 0's privacy loss per release, μ = Δ/σ ="},
	} {
		code, _, errs := dpsim(t, c.scenario, "validate", "-")
		if code != 1 || strings.Count(errs, "\n") != 1 || !strings.Contains(errs, c.want) {
			t.Errorf("exit %d, stderr %q, want %q", code, errs, c.want)
		}
	}
}

func TestErrorsAndHelp(t *testing.T) {
	cases := []struct {
		args []string
		code int
		out  string
	}{
		{nil, 2, "dpsim: give a command: run, validate, presets, plugins, sweep, merge, audit, attack, compare, privacy-table or version; see dpsim --help"},
		{[]string{"--help"}, 0, "Usage"},
		{[]string{"run", "--help"}, 0, "Usage: dpsim run"},
		{[]string{"validate", "-h"}, 0, "Usage: dpsim validate"},
		{[]string{"presets", "--help"}, 0, "Usage: dpsim presets"},
		{[]string{"frobnicate"}, 2, "dpsim: unknown command \"frobnicate\"; the commands are run, validate, presets, plugins, sweep, merge, audit, attack, compare, privacy-table and version; see dpsim --help"},
		{[]string{"run"}, 2, "exactly one SCENARIO"},
		{[]string{"run", "preset:nope"}, 1, "no preset named"},
		{[]string{"run", "/does/not/exist.json"}, 1, "no such file"},
		{[]string{"run", "--bogus", "x"}, 2, "unknown flag --bogus"},
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

// Rows 1, 2 and 15 of the robustness issue: every bad input or output is
// refused at once with a message naming it.
func TestBadInputsAndOutputs(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	deep := write("deep.json", strings.Repeat("[", 100_000)+strings.Repeat("]", 100_000))
	deepParams := write("deep-params.json", `{"algorithm": {"kind": "gt-dp", "params": `+strings.Repeat("[", 100_000))
	sparse := filepath.Join(dir, "sparse.json")
	if f, err := os.Create(sparse); err != nil {
		t.Fatal(err)
	} else {
		f.Truncate(1 << 30) // 1 GiB that reads as zeros
		f.Close()
	}
	cases := []struct {
		name  string
		stdin string
		args  []string
		want  string
	}{
		{"deep lists", "", []string{"validate", deep}, "deep.json: the document must be an object {…}, not a list (line 1, column 1)"},
		{"deep parameters", "", []string{"validate", deepParams}, "algorithm.params" + strings.Repeat("[0]", 62) + ": the JSON is nested more than 64 levels deep"},
		{"a huge file", "", []string{"validate", sparse}, "sparse.json: is 1024 MiB (1073741824 bytes); the limit is 64 MiB"},
		{"a folder", "", []string{"validate", dir}, "is a folder, not a JSON file"},
		{"huge standard input", strings.Repeat(" ", 64<<20+1), []string{"validate", "-"}, "standard input: holds more than 64 MiB (67108864 bytes)"},
		{"out in a missing folder", "", []string{"run", "--out", filepath.Join(dir, "missing/x.json"), "preset:gtdp-rendezvous"}, "--out " + filepath.Join(dir, "missing/x.json") + ": the folder " + filepath.Join(dir, "missing") + " does not exist"},
		{"out is a folder", "", []string{"run", "--out", dir, "preset:gtdp-rendezvous"}, "is a folder; give a file name"},
		{"out and csv the same", "", []string{"run", "--out", filepath.Join(dir, "a"), "--csv", filepath.Join(dir, "a"), "preset:gtdp-rendezvous"}, "is the same file as --out"},
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		cases = append(cases, struct {
			name  string
			stdin string
			args  []string
			want  string
		}{"/dev/zero", "", []string{"validate", "/dev/zero"}, "dpsim: /dev/zero: is a device, not a regular file\n"})
	}
	for _, c := range cases {
		code, out, errs := dpsim(t, c.stdin, c.args...)
		if code != 1 || !strings.Contains(errs, c.want) || out != "" {
			t.Errorf("%s: exit %d, stdout %q, stderr %q; want it to say %q", c.name, code, out, errs, c.want)
		}
	}
}

// Row 15: a failed run leaves no file behind, not even a first one.
func TestOutputsAreCheckedBeforeTheRun(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "x.json")
	code, _, errs := dpsim(t, "", "run", "--out", out, "--csv", filepath.Join(dir, "no/x.csv"), "preset:gtdp-rendezvous")
	if code != 1 || !strings.Contains(errs, "--csv") || strings.Contains(errs, "iterations;") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 0 {
		t.Errorf("the failed run left %v", entries)
	}
	// A good run leaves exactly its two files, readable by others.
	csv := filepath.Join(dir, "x.csv")
	if code, _, errs := dpsim(t, "", "run", "--quiet", "--out", out, "--csv", csv, "preset:gtdp-rendezvous"); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	entries, _ = os.ReadDir(dir)
	if len(entries) != 2 {
		t.Errorf("the run left %v", entries)
	}
	if fi, err := os.Stat(out); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("export: %v %v", fi, err)
	}
	// /dev/null takes an export directly.
	if _, err := os.Stat("/dev/null"); err == nil {
		if code, _, errs := dpsim(t, "", "run", "--quiet", "--out", "/dev/null", "preset:gtdp-rendezvous"); code != 0 {
			t.Errorf("--out /dev/null: exit %d: %s", code, errs)
		}
	}
}

// Row 15: the README's own run example must not leave files in the
// repository, so every file it writes is outside it.
func TestReadmeExamplesWriteOutsideTheRepository(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	found := 0
	for _, line := range strings.Split(string(readme), "\n") {
		fields := strings.Fields(line)
		for i, f := range fields {
			if (f == "--out" || f == "--csv") && i+1 < len(fields) {
				found++
				if p := fields[i+1]; !filepath.IsAbs(p) {
					t.Errorf("README: %s %s writes into the current folder (the repository): %q", f, p, line)
				}
			}
		}
	}
	if found == 0 {
		t.Error("README has no run example with --out")
	}
}

// ringScenario is GT-DP on a ring of n agents for one iteration.
func ringScenario(n int) string {
	return fmt.Sprintf(`{"name":"ring%d","seed":1,"graph":{"kind":"ring","n":%d},"weights":{"kind":"metropolis"},
	  "problem":{"kind":"rendezvous","params":{"dim":2}},"algorithm":{"kind":"gt-dp","params":{"alpha":0.1,"gradient_bound":10}},
	  "noise":{"eta":{"dist":"laplace","scale":1},"xi":{"dist":"laplace","scale":1}},"iterations":1}`, n, n)
}

// The export writes W as its nonzero entries, so a ring of the largest
// size allowed exports in a few megabytes (dense rows made 203 MB), and
// the export's scenario reads back (the ring of 2500 used to exceed
// scenario.MaxBytes) and replays to the same bytes.
func TestLargeExportsReload(t *testing.T) {
	for _, tc := range []struct {
		n        int
		maxBytes int
	}{{2500, 4 << 20}, {5000, 8 << 20}} {
		code, out, errs := dpsim(t, ringScenario(tc.n), "run", "--quiet", "-")
		if code != 0 {
			t.Fatalf("ring %d: exit %d: %s", tc.n, code, errs)
		}
		t.Logf("ring %d: the export is %d bytes", tc.n, len(out))
		if len(out) > tc.maxBytes {
			t.Errorf("ring %d: the export is %d bytes, want at most %d", tc.n, len(out), tc.maxBytes)
		}
		var ex struct {
			Scenario json.RawMessage
		}
		if err := json.Unmarshal([]byte(out), &ex); err != nil {
			t.Fatal(err)
		}
		var w struct {
			Weights struct {
				Kind    string
				Entries [][]float64
			}
		}
		if err := json.Unmarshal(ex.Scenario, &w); err != nil {
			t.Fatal(err)
		}
		if w.Weights.Kind != "entries" || len(w.Weights.Entries) != 3*tc.n {
			t.Errorf("ring %d: pinned weights of kind %q with %d entries, want \"entries\" with %d",
				tc.n, w.Weights.Kind, len(w.Weights.Entries), 3*tc.n)
		}
		if len(ex.Scenario) > scenario.MaxBytes {
			t.Errorf("ring %d: the pinned scenario is %d bytes, above the %d a scenario may have", tc.n, len(ex.Scenario), scenario.MaxBytes)
		}
		code, vout, errs := dpsim(t, string(ex.Scenario), "validate", "-")
		if code != 0 || !strings.Contains(vout, "valid") {
			t.Fatalf("ring %d: validating the export's scenario: exit %d: %s", tc.n, code, errs)
		}
		code, again, errs := dpsim(t, string(ex.Scenario), "run", "--quiet", "-")
		if code != 0 {
			t.Fatalf("ring %d: replaying the export's scenario: exit %d: %s", tc.n, code, errs)
		}
		if again != out {
			t.Errorf("ring %d: replaying the export's scenario gave another export", tc.n)
		}
	}
}

// portabilityScenarios are small runs of every graph kind, for
// TestExportsNativeAndWasm; with the presets they cover what the page
// and the CLI can export.
func portabilityScenarios() map[string]string {
	mk := func(name, graph, weights string) string {
		return fmt.Sprintf(`{"name":"%s","seed":7,"graph":%s,"weights":%s,
		  "problem":{"kind":"rendezvous","params":{"dim":3}},"algorithm":{"kind":"gt-dp","params":{"alpha":0.05,"gradient_bound":10}},
		  "noise":{"eta":{"dist":"laplace","scale":0.3},"xi":{"dist":"laplace","scale":0.3}},
		  "iterations":20,"record":{"checkpoints":[0,20]}}`, name, graph, weights)
	}
	mh := `{"kind":"metropolis"}`
	return map[string]string{
		"ring":             mk("ring", `{"kind":"ring","n":30}`, mh),
		"path":             mk("path", `{"kind":"path","n":25}`, mh),
		"star":             mk("star", `{"kind":"star","n":20}`, mh),
		"complete":         mk("complete", `{"kind":"complete","n":15}`, mh),
		"grid":             mk("grid", `{"kind":"grid","rows":5,"cols":7}`, mh),
		"random-geometric": mk("rgg", `{"kind":"random-geometric","n":50,"radius":0.3}`, mh),
		"erdos-renyi":      mk("er", `{"kind":"erdos-renyi","n":40,"p":0.15}`, mh),
		"edges":            mk("edges", `{"kind":"edges","n":6,"edges":[[0,1],[1,2],[2,3],[3,4],[4,5],[5,0],[0,3]]}`, mh),
		// GT-DP refuses digraphs, so this compares the error; the spectral
		// findings of nonsymmetric matrices are compared bit for bit by
		// core/weights' TestSpectralBits, which ./test.sh runs under
		// js/wasm too.
		"directed-edges": mk("digraph", `{"kind":"edges","n":4,"directed":true,"edges":[[0,1],[1,2],[2,3],[3,0],[0,2]]}`, `{"kind":"row-stochastic"}`),
		"entries": mk("entries", `{"kind":"ring","n":4}`,
			`{"kind":"entries","entries":[[0,0,0.7],[0,1,0.15],[0,3,0.15],[1,0,0.15],[1,1,0.7],[1,2,0.15],[2,1,0.15],[2,2,0.7],[2,3,0.15],[3,0,0.15],[3,2,0.15],[3,3,0.7]]}`),
		"matrix": mk("matrix", `{"kind":"ring","n":4}`,
			`{"kind":"matrix","matrix":[[0.5,0.25,0,0.25],[0.25,0.5,0.25,0],[0,0.25,0.5,0.25],[0.25,0,0.25,0.5]]}`),
	}
}

// The README promises byte-identical exports natively and in the browser.
// This builds the CLI for js/wasm, runs every preset and a scenario of
// every graph kind in node and natively (in this process), and compares
// the bytes written, standard error included. It needs node and takes
// some 30 s, so it runs only when DPSIM_WASM_EXPORTS=1, as ./test.sh sets.
func TestExportsNativeAndWasm(t *testing.T) {
	if os.Getenv("DPSIM_WASM_EXPORTS") != "1" {
		t.Skip("set DPSIM_WASM_EXPORTS=1 to compare exports with js/wasm in node (./test.sh does)")
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatalf("go env GOROOT: %v", err)
	}
	// The build the page runs: with the dpsimsimd tag and the SIMD module
	// linked (wasm/simd/go_js_wasm_exec), which scores the classifier's
	// gradients (DPP²'s presets) and the packed logistic rows and slopes
	// (the data presets) in f64x2 lanes with the same bits.
	execWasm, err := filepath.Abs(filepath.Join("..", "..", "wasm", "simd", "go_js_wasm_exec"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatal("node is not installed; it runs the js/wasm build")
	}
	dir := t.TempDir()
	wasm := filepath.Join(dir, "dpsim.wasm")
	build := exec.Command("go", "build", "-tags", "dpsimsimd", "-o", wasm, ".")
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building for js/wasm: %v\n%s", err, out)
	}
	simd := filepath.Join(dir, "simd.wasm")
	if out, err := exec.Command("go", "run", "../../wasm/simd/gen", "-o", simd).CombinedOutput(); err != nil {
		t.Fatalf("generating the SIMD module: %v\n%s", err, out)
	}
	wasmEnv := append(os.Environ(), "DPSIM_SIMD_WASM="+simd, "DPSIM_GOROOT="+strings.TrimSpace(string(goroot)))
	args := map[string]string{}
	for _, p := range scenario.Presets() {
		args["preset "+p.Name] = "preset:" + p.Name
	}
	for kind, js := range portabilityScenarios() {
		file := filepath.Join(dir, kind+".json")
		if err := os.WriteFile(file, []byte(js), 0o644); err != nil {
			t.Fatal(err)
		}
		args["graph "+kind] = file
	}
	// No preset runs a pixel set's sparse rows, which the SIMD module
	// takes under js/wasm (learn's sparse_simd.go): DP-RECAL's squared
	// loss on MNIST 0 vs 1 (one call a shard gradient) and the logistic
	// loss's passes (a call a block).
	for _, loss := range []string{"squares", "logistic"} {
		js := fmt.Sprintf(`{"name":"mnist-01-%s","seed":18,"graph":{"kind":"ring","n":8},"weights":{"kind":"random-walk"},
		  "problem":{"kind":"logistic","params":{"dataset":"mnist-01","loss":"%s","l2":0.001,"regularizer":"elastic-net","r_l1":0.01,"r_l2":1,"shards":"shuffled"}},
		  "algorithm":{"kind":"dp-recal","params":{"mode":"literal","attenuation":1.01,"gradient_bound":1,"delta":0.001,"target_epsilon":12,"plf":300}},
		  "noise":{"u":{"dist":"gaussian","scale":1}},"iterations":40,"record":{"every":10,"eval_every":20}}`, loss, loss)
		file := filepath.Join(dir, "mnist-01-"+loss+".json")
		if err := os.WriteFile(file, []byte(js), 0o644); err != nil {
			t.Fatal(err)
		}
		args["sparse pixel rows, "+loss] = file
	}
	// The node runs are most of the time, each on one core: two at once,
	// beside the native runs in this process (run keeps global state, so
	// those stay one after another here).
	type job struct{ name, arg, nOut, nErr string }
	jobs := make(chan job)
	var wg sync.WaitGroup
	for range min(2, runtime.GOMAXPROCS(0)) {
		wg.Go(func() {
			for j := range jobs {
				cmd := exec.Command(execWasm, wasm, "run", "--quiet", j.arg)
				cmd.Env = wasmEnv
				var wOut, wErr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &wOut, &wErr
				if err := cmd.Run(); err != nil && j.nErr == "" {
					t.Errorf("%s: js/wasm: %v\n%s", j.name, err, wErr.String())
					continue
				}
				if j.nOut != wOut.String() {
					t.Errorf("%s: the js/wasm export differs from the native one: %s", j.name, firstDiff(j.nOut, wOut.String()))
				}
				if j.nErr != wErr.String() {
					t.Errorf("%s: standard error differs: native %q, js/wasm %q", j.name, j.nErr, wErr.String())
				}
				if j.nOut == "" && j.nErr == "" {
					t.Errorf("%s: no output", j.name)
				}
			}
		})
	}
	for _, name := range slices.Sorted(maps.Keys(args)) {
		arg := args[name]
		_, nOut, nErr := dpsim(t, "", "run", "--quiet", arg)
		jobs <- job{name, arg, nOut, nErr}
	}
	close(jobs)
	wg.Wait()
}

// firstDiff describes the first line where a and b differ.
func firstDiff(a, b string) string {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(la), len(lb)) {
		if la[i] != lb[i] {
			return fmt.Sprintf("line %d: native %q, js/wasm %q", i+1, la[i], lb[i])
		}
	}
	return fmt.Sprintf("native has %d lines, js/wasm %d", len(la), len(lb))
}

// --epsilon calibrates every algorithm to the same ε: the export of each
// records the calibration, and its ledger reports the target; validate
// prints the calibrated scales and the theory.
func TestEpsilonFlagCalibrates(t *testing.T) {
	for _, preset := range []string{"gtdp-fig1", "dpop-fig1", "gtdp-fig2", "diadsp-fig2"} {
		code, out, errs := dpsim(t, "", "run", "--quiet", "--epsilon", "42", "preset:"+preset)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", preset, code, errs)
		}
		var ex struct {
			Privacy struct {
				MaxEpsilon struct{ Value float64 } `json:"max_epsilon"`
			}
			Calibration *struct {
				Factor float64
				Target float64 `json:"target_epsilon"`
			}
			Scenario map[string]any
		}
		if err := json.Unmarshal([]byte(out), &ex); err != nil {
			t.Fatal(err)
		}
		if ex.Calibration == nil || ex.Calibration.Target != 42 {
			t.Fatalf("%s: calibration %+v", preset, ex.Calibration)
		}
		if v := ex.Privacy.MaxEpsilon.Value; v < 42*(1-1e-9) || v > 42*(1+1e-9) {
			t.Errorf("%s: ledger ε = %v, want 42", preset, v)
		}
		if _, ok := ex.Scenario["calibrate"]; ok {
			t.Errorf("%s: the pinned scenario keeps its calibrate section; it should carry the calibrated scales", preset)
		}
	}
	code, out, _ := dpsim(t, "", "validate", "--epsilon", "42", "preset:gtdp-fig1")
	if code != 0 || !strings.Contains(out, "calibration: noise scales ×") || !strings.Contains(out, "infinite-horizon ε: unavailable") {
		t.Errorf("validate --epsilon: exit %d, output:\n%s", code, out)
	}
	if code, _, errs := dpsim(t, "", "run", "--epsilon", "-3", "preset:gtdp-fig1"); code != 1 || !strings.Contains(errs, "--epsilon: must be a finite number greater than 0 (got -3)") {
		t.Errorf("--epsilon -3: exit %d, %q", code, errs)
	}
}

// --out through a symlink replaces the file the link points to.
func TestOutputThroughASymlink(t *testing.T) {
	dir := t.TempDir()
	real, link := filepath.Join(dir, "real.json"), filepath.Join(dir, "link.json")
	if err := os.WriteFile(real, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("real.json", link); err != nil {
		t.Skip(err)
	}
	if code, _, errs := dpsim(t, "", "run", "--quiet", "--out", link, "preset:gtdp-rendezvous"); code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v %v", fi, err)
	}
	if data, _ := os.ReadFile(real); !strings.Contains(string(data), `"format"`) {
		t.Errorf("the linked file holds %.40q", data)
	}
}

// sweep --epsilon calibrates every series of an experiment to one ε: the
// result embeds the experiment with the calibrate section, and every
// run's ledger (the quantity "epsilon") reports it.
func TestSweepEpsilonCalibratesEverySeries(t *testing.T) {
	out := filepath.Join(t.TempDir(), "fig2.json")
	code, _, errs := dpsim(t, "", "sweep", "--quiet", "--workers", "1", "--runs", "2", "--epsilon", "500", "--out", out, "preset:gtdp-fig2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"calibrate":{"epsilon":500}`) {
		t.Errorf("the result's experiment does not carry calibrate ε = 500")
	}
	if code, _, errs := dpsim(t, "", "sweep", "--quiet", "--runs", "1", "--epsilon", "-2", "--out", out, "preset:gtdp-fig2"); code == 0 || !strings.Contains(errs, "--epsilon: must be a finite number greater than 0 (got -2)") {
		t.Errorf("--epsilon -2: exit %d, %q", code, errs)
	}
}

// dpsim plugins prints, as JSON, every registered algorithm, problem,
// graph kind and weight builder with its parameters: what the page draws
// its forms from.
func TestPluginsListsEveryRegisteredPlugin(t *testing.T) {
	code, out, errs := dpsim(t, "", "plugins")
	if code != 0 || errs != "" {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var c struct {
		Algorithms, Problems, Graphs, Weights []struct {
			Name, Title, Doc string
			Params           []struct {
				Name, Kind, Doc, Range string
				Default                any
				Options                []string
			}
			Required []string
		}
	}
	if err := json.Unmarshal([]byte(out), &c); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	var graphs, builders []string
	for _, k := range scenario.GraphKinds() {
		graphs = append(graphs, k.Name)
	}
	for _, b := range scenario.WeightKinds() {
		builders = append(builders, b.Name)
	}
	for _, sec := range []struct {
		what string
		got  int
		want []string
	}{
		{"algorithms", len(c.Algorithms), scenario.AlgorithmNames()},
		{"problems", len(c.Problems), scenario.ProblemKinds()},
		{"graphs", len(c.Graphs), graphs},
		{"weights", len(c.Weights), builders},
	} {
		if sec.got != len(sec.want) || len(sec.want) == 0 {
			t.Errorf("%s: %d described, %d registered", sec.what, sec.got, len(sec.want))
		}
	}
	for _, p := range append(append(c.Algorithms, c.Problems...), append(c.Graphs, c.Weights...)...) {
		if p.Name == "" || p.Doc == "" {
			t.Errorf("%+v: no name or doc line", p)
		}
	}
	ring := c.Graphs[0]
	if ring.Name != "ring" || len(ring.Params) != 1 || ring.Params[0].Name != "n" || ring.Params[0].Kind != "integer" ||
		ring.Params[0].Range != "[2, 5000]" || ring.Params[0].Default != 8.0 || !slices.Equal(ring.Required, []string{"n"}) {
		t.Errorf("ring: %+v", ring)
	}
	if code, _, errs := dpsim(t, "", "plugins", "extra"); code != 2 || errs != "dpsim plugins: takes no arguments (got \"extra\"); see dpsim plugins --help\n" {
		t.Errorf("an argument: exit %d, %q", code, errs)
	}
}

// TestVersionCommand: "dpsim version" prints the version the exports name
// (under go test Go stamps no VCS information, so it is version.Devel),
// and refuses an argument in one line.
func TestVersionCommand(t *testing.T) {
	for _, args := range [][]string{{"version"}, {"--version"}} {
		code, out, errs := dpsim(t, "", args...)
		if code != 0 || errs != "" || out != version.String()+"\n" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want %q", args, code, out, errs, version.String())
		}
	}
	if code, _, errs := dpsim(t, "", "version", "x"); code != 2 || errs != "dpsim version: takes no arguments (got \"x\"); see dpsim version --help\n" {
		t.Errorf("version x: exit %d, stderr %q", code, errs)
	}
}
