package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"dpsim/core/scenario"
)

// probeAll widens TestHostileProbe from a seeded sample of the mutations to
// every one (about 20,000 inputs; minutes): go test ./cmd/dpsim -run
// HostileProbe -probe -v prints the counts per class.
var probeAll = flag.Bool("probe", false, "TestHostileProbe: every mutation of every preset, not a sample")

// A mutation replaces (or removes) one leaf or section of a scenario.
type mutation struct {
	class string
	value any // nil with drop: the key is removed
	drop  bool
}

// mutationsOf lists the hostile values of a leaf of v's kind, by class.
func mutationsOf(v any) []mutation {
	common := []mutation{
		{class: "missing", drop: true},
		{class: "null", value: nil},
		{class: "wrong type", value: []any{"x"}},
	}
	switch x := v.(type) {
	case float64:
		return append(common,
			mutation{class: "negative", value: -1 - x},
			mutation{class: "zero", value: 0.0},
			mutation{class: "huge", value: 1e308},
			mutation{class: "tiny", value: 1e-308},
			mutation{class: "fraction", value: x + 0.5},
			mutation{class: "big count", value: 1e12},
			mutation{class: "string", value: "7"},
		)
	case string:
		return append(common,
			mutation{class: "empty", value: ""},
			mutation{class: "unknown name", value: "nosuch"},
			mutation{class: "long", value: strings.Repeat("é", 4000)},
			mutation{class: "path", value: "../../../../etc/passwd"},
			mutation{class: "number", value: 7.0},
		)
	case bool:
		return append(common, mutation{class: "string", value: "true"})
	case []any:
		m := append(common, mutation{class: "empty", value: []any{}})
		if len(x) > 0 {
			m = append(m, mutation{class: "huge element", value: append([]any{1e308}, x[1:]...)})
			m = append(m, mutation{class: "short", value: x[:len(x)-1]})
		}
		return m
	case map[string]any:
		return append(common,
			mutation{class: "empty", value: map[string]any{}},
			mutation{class: "unknown key", value: withKey(x, "nosuch", 1.0)},
		)
	}
	return common
}

func withKey(m map[string]any, k string, v any) map[string]any {
	c := make(map[string]any, len(m)+1)
	for a, b := range m {
		c[a] = b
	}
	c[k] = v
	return c
}

// leaves lists the paths of v's leaves and sections (objects), sorted.
func leaves(v any, prefix []string, out *[][]string) {
	if len(prefix) > 0 {
		*out = append(*out, append([]string(nil), prefix...))
	}
	if m, ok := v.(map[string]any); ok {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			leaves(m[k], append(prefix, k), out)
		}
	}
}

// mutate returns a deep copy of doc with mu applied at path.
func mutate(doc []byte, path []string, mu mutation) ([]byte, error) {
	var v map[string]any
	if err := json.Unmarshal(doc, &v); err != nil {
		return nil, err
	}
	m := v
	for _, k := range path[:len(path)-1] {
		m = m[k].(map[string]any)
	}
	last := path[len(path)-1]
	if mu.drop {
		delete(m, last)
	} else {
		m[last] = mu.value
	}
	return json.Marshal(v)
}

// probeTally counts what became of the inputs of one class.
type probeTally struct{ inputs, accepted, refused, ran, diverged int }

// TestHostileProbe is issue 28's hostile probe kept as a test: every leaf
// and section of every preset scenario is given each class of hostile
// value (missing, null, wrong type, negative, zero, 10³⁰⁸, 10⁻³⁰⁸, a
// fraction where a count is due, 10¹², a number as a string; for names:
// empty, unknown, 8 KB, a path out; for lists: empty, short, an element of
// 10³⁰⁸; for sections: empty, an unknown key) and handed to dpsim validate.
// Each must be accepted, or refused in one line that names a field or the
// input, without a panic and within seconds; a sample of the accepted ones
// on presets without datasets also runs, capped at 60 iterations, to a
// valid export (or diverges, says so, and keeps its export), or is refused
// in one line with nothing written. The
// counts per class are logged (-v); -probe takes every mutation.
func TestHostileProbe(t *testing.T) {
	rng := rand.New(rand.NewPCG(28, 2026))
	tally := map[string]*probeTally{}
	dir := t.TempDir()
	total := 0
	for _, p := range scenario.Presets() {
		doc, err := scenario.PresetJSON(p.Name)
		if err != nil {
			t.Fatal(err)
		}
		var v map[string]any
		if err := json.Unmarshal(doc, &v); err != nil {
			t.Fatal(err)
		}
		_, dataset := datasetOf(v)
		var paths [][]string
		leaves(v, nil, &paths)
		for _, path := range paths {
			leaf := v
			var at any = v
			for _, k := range path {
				leaf, _ = at.(map[string]any)
				at = leaf[k]
			}
			for _, mu := range mutationsOf(at) {
				if !*probeAll && rng.IntN(8) != 0 {
					continue
				}
				in, err := mutate(doc, path, mu)
				if err != nil {
					t.Fatal(err)
				}
				total++
				c := tally[mu.class]
				if c == nil {
					c = &probeTally{}
					tally[mu.class] = c
				}
				c.inputs++
				what := fmt.Sprintf("%s: %s = %s", p.Name, strings.Join(path, "."), mu.class)
				code, _, errs, took := probeRun(t, what, string(in), "validate", "-")
				if took > 10*time.Second {
					t.Errorf("%s: validate took %v", what, took)
				}
				if code == 0 {
					c.accepted++
					if dataset || rng.IntN(4) != 0 {
						continue
					}
					short, ok := capIterations(in, 60)
					if !ok {
						continue
					}
					out := filepath.Join(dir, "probe.json")
					os.Remove(out)
					code, _, errs, _ := probeRun(t, what, string(short), "run", "--quiet", "--out", out, "-")
					if code != 0 && strings.Contains(errs, "diverged at iteration") {
						// A run that diverges keeps what it computed: its
						// export, which says so (TestDivergingRunStopsAndSaysSo).
						c.diverged++
						var ex struct{ Status string }
						if b, err := os.ReadFile(out); err != nil || json.Unmarshal(b, &ex) != nil || ex.Status != "diverged" {
							t.Errorf("%s: diverged, and its export says %q (%v)", what, ex.Status, err)
						}
						continue
					}
					if code != 0 {
						probeRefusal(t, what+" (run)", errs)
						if _, err := os.Stat(out); err == nil {
							t.Errorf("%s: refused, yet %s was written", what, out)
						}
						continue
					}
					c.ran++
					b, err := os.ReadFile(out)
					if err != nil || !json.Valid(b) {
						t.Errorf("%s: the run's export is not valid JSON (%v)", what, err)
					}
					continue
				}
				c.refused++
				probeRefusal(t, what, errs)
			}
		}
	}
	classes := make([]string, 0, len(tally))
	for k := range tally {
		classes = append(classes, k)
	}
	sort.Strings(classes)
	t.Logf("hostile probe: %d inputs", total)
	for _, k := range classes {
		c := tally[k]
		t.Logf("  %-13s %5d inputs: %5d accepted (%d of them run to an export, %d diverged and said so), %5d refused in one line", k, c.inputs, c.accepted, c.ran, c.diverged, c.refused)
	}
}

// probeRun runs dpsim in-process on stdin, turning a panic into a test
// failure that names the input.
func probeRun(t *testing.T, what, stdin string, args ...string) (code int, stdout, stderr string, took time.Duration) {
	t.Helper()
	start := time.Now()
	// A hang would end the test only at its timeout, without the input's
	// name: say it as it happens.
	slow := time.AfterFunc(10*time.Second, func() { fmt.Fprintf(os.Stderr, "probe: still on %s (dpsim %s)\n", what, args[0]) })
	defer slow.Stop()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("%s: dpsim %s panicked: %v", what, args[0], r)
			code = -1
		}
	}()
	code, stdout, stderr = dpsim(t, stdin, args...)
	return code, stdout, stderr, time.Since(start)
}

// probeRefusal checks a refusal: one line, no Go internals, no NaN (but
// the one a divergence reports, or a given value the message quotes).
func probeRefusal(t *testing.T, what, errs string, given ...string) {
	t.Helper()
	msg := strings.TrimSpace(errs)
	switch {
	case msg == "":
		t.Errorf("%s: refused without a word", what)
	case strings.Contains(msg, "\n"):
		t.Errorf("%s: the refusal is more than one line:\n%s", what, msg)
	case strings.Contains(msg, "goroutine") || strings.Contains(msg, "runtime error") || strings.Contains(msg, "panic"):
		t.Errorf("%s: Go's internals in the refusal: %s", what, msg)
	case strings.Contains(msg, "NaN") && !strings.Contains(msg, "diverged") && !(len(given) > 0 && strings.Contains(given[0], "NaN")):
		t.Errorf("%s: a NaN in the refusal: %s", what, msg)
	}
}

// datasetOf says whether a scenario's problem reads a dataset (its runs
// are too slow for the probe's run step).
func datasetOf(v map[string]any) (string, bool) {
	pr, _ := v["problem"].(map[string]any)
	ps, _ := pr["params"].(map[string]any)
	d, ok := ps["dataset"].(string)
	return d, ok && d != "" && d != "synthetic"
}

// capIterations sets a scenario's iterations to at most n, unless they
// are not a plain number (the probe's mutation is there).
func capIterations(doc []byte, n float64) ([]byte, bool) {
	var v map[string]any
	if json.Unmarshal(doc, &v) != nil {
		return nil, false
	}
	it, ok := v["iterations"].(float64)
	if !ok || it > 1e6 {
		return nil, false
	}
	if it > n {
		v["iterations"] = n
		// Checkpoints past the new end would refuse the run for the cap.
		if rec, ok := v["record"].(map[string]any); ok {
			if cps, ok := rec["checkpoints"].([]any); ok {
				kept := []any{}
				for _, c := range cps {
					if f, ok := c.(float64); !ok || f <= n {
						kept = append(kept, c)
					}
				}
				rec["checkpoints"] = kept
			}
		}
	}
	b, err := json.Marshal(v)
	return b, err == nil
}

// TestHostileFlags is the probe's other half: each command's numeric and
// path flags given values no run can use. Every one is refused in one line
// that names the flag, before any work, and writes nothing.
func TestHostileFlags(t *testing.T) {
	dir := t.TempDir()
	exp := filepath.Join(dir, "sweep.json")
	if err := os.WriteFile(exp, read(t, "../../core/experiment/presets/gtdp-fig1-epsilon.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmp := comparisonFile(t, dir, "cmp.json", nil)
	bad := []string{"-1", "NaN", "Inf", "-Inf", "x", "", "1e400", "0x1p-2000"}
	counts := []string{"-1", "1.5", "NaN", "x", "", "99999999999999999999"}
	cases := []struct {
		cmd, flag string
		values    []string
		tail      []string
	}{
		{"run", "epsilon", append(bad, "0"), []string{"preset:gtdp-rendezvous"}},
		{"run", "horizon", append(counts, "0"), []string{"--epsilon", "5", "preset:gtdp-rendezvous"}},
		{"run", "eavesdrop-agent", append(counts, "8"), []string{"--eavesdrop", filepath.Join(dir, "e.json"), "preset:gtdp-rendezvous"}},
		{"run", "eavesdrop-every", append(counts, "0"), []string{"--eavesdrop", filepath.Join(dir, "e.json"), "preset:gtdp-rendezvous"}},
		{"run", "out", []string{dir, filepath.Join(dir, "missing", "x.json")}, []string{"preset:gtdp-rendezvous"}},
		{"run", "csv", []string{dir, filepath.Join(dir, "missing", "x.csv")}, []string{"preset:gtdp-rendezvous"}},
		{"sweep", "workers", append(counts, "0"), []string{exp}},
		{"sweep", "runs", append(counts, "0"), []string{exp}},
		{"sweep", "shard", []string{"0/0", "2/1", "-1/2", "1/x", "x", "", "1/99999999999999999999"}, []string{exp}},
		{"sweep", "out", []string{dir, filepath.Join(dir, "missing", "x.json")}, []string{exp}},
		{"compare", "epsilon", append(bad, "0"), []string{cmp}},
		{"compare", "horizon", append(counts, "0"), []string{"--epsilon", "5", cmp}},
		{"compare", "dir", []string{filepath.Join(dir, "missing"), cmp}, []string{cmp}},
		{"attack", "epsilon", append(bad, "0"), nil},
		{"attack", "target", []string{"-1", "1.5", "x", "99999999999999999999", "100000"}, nil},
		{"attack", "plf", []string{"-1", "x", "0", "100000000"}, nil},
		{"attack", "steps", []string{"-1", "x", "0", "99999999999999999999"}, nil},
		{"attack", "alpha", bad, nil},
		{"attack", "dataset", []string{"nosuch", "../../etc/passwd", ""}, nil},
		{"attack", "out", []string{dir, filepath.Join(dir, "missing", "a.json")}, nil},
	}
	n := 0
	for _, c := range cases {
		for _, v := range c.values {
			n++
			args := append([]string{c.cmd, "--quiet", "--" + c.flag, v}, c.tail...)
			if c.cmd == "attack" {
				args = append([]string{c.cmd, "--" + c.flag, v}, c.tail...)
			}
			before := names(dir)
			what := fmt.Sprintf("dpsim %s --%s %q", c.cmd, c.flag, v)
			code, _, errs, took := probeRun(t, what, "", args...)
			if code == 0 {
				t.Errorf("%s: accepted", what)
				continue
			}
			probeRefusal(t, what, errs, v)
			if !strings.Contains(errs, c.flag) {
				t.Errorf("%s: the refusal does not name the flag: %s", what, strings.TrimSpace(errs))
			}
			if strings.Contains(errs, "parse error") || strings.Contains(errs, "invalid value") {
				t.Errorf("%s: the flag package's wording, not the flag's rule: %s", what, strings.TrimSpace(errs))
			}
			if took > 5*time.Second {
				t.Errorf("%s: refused after %v, not at once", what, took)
			}
			if after := names(dir); len(after) != len(before) {
				t.Errorf("%s: refused, yet it wrote: %v → %v", what, before, after)
			}
		}
	}
	t.Logf("hostile flags: %d inputs, each refused in one line naming its flag", n)
}
