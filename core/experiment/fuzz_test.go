package experiment

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"dpsim/core/data"
)

// fuzzPoints bounds the points a fuzzed experiment may plan (NewPlan
// builds each once), so that every input takes milliseconds.
const fuzzPoints = 16

// fuzzCells bounds the committed dataset a fuzzed experiment's problems
// may train on, in values (rows × columns of its files): NewPlan builds
// each problem, and a logistic one solves for its optimum over all its
// data, 1–3 s for the 28×28 and 32×32 sets. Three presets' seeds cost
// that much, and under the fuzzer's instrumentation the baseline never
// ended in step (f)'s share of test.sh, so nothing was fuzzed.
// ijcnn1 (1.1 million values) and mushrooms (0.9 million) stay in;
// TestPresetsValid plans every preset, the larger sets' too.
const fuzzCells = 2_000_000

// bigData reports whether a point of e trains on a committed dataset of
// more than fuzzCells values. An experiment whose points cannot be
// worked out is not big: NewPlan refuses it.
func bigData(e *Experiment) bool {
	scs, err := Scenarios(e)
	if err != nil {
		return false
	}
	for _, sc := range scs {
		var params struct {
			Dataset string `json:"dataset"`
		}
		if json.Unmarshal(sc.Problem.Params, &params) != nil || params.Dataset == "" {
			continue
		}
		d, err := data.Info(params.Dataset)
		if err != nil {
			continue
		}
		cells := 0
		for _, s := range d.Splits {
			cells += s.Rows * d.Cols
		}
		if cells > fuzzCells {
			return true
		}
	}
	return false
}

// FuzzExperiment parses whatever an experiment file may hold and, when
// it validates and is small, plans it and runs its first task: nothing
// may panic or hang, and an accepted experiment's canonical form must
// parse back to itself.
func FuzzExperiment(f *testing.F) {
	for _, s := range small {
		f.Add([]byte(s))
	}
	files, _ := filepath.Glob("presets/*.json")
	for _, p := range files {
		if data, err := os.ReadFile(p); err == nil {
			f.Add(data)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		e, err := Parse(data)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("a multi-line error: %q", err)
			}
			return
		}
		back, err := Parse(e.JSON())
		if err != nil || string(back.JSON()) != string(e.JSON()) {
			t.Fatalf("the canonical form does not round-trip: %v", err)
		}
		points := 0
		for _, s := range e.Series {
			switch {
			case e.X.alongRun():
				points++
			case s.Sweep != nil:
				points += len(s.Sweep.Values)
			default:
				points += len(e.X.Values)
			}
		}
		if points > fuzzPoints || strings.Contains(string(data), `"scenario"`) {
			return // an inline scenario may be any size: FuzzScenario's business
		}
		if bigData(e) {
			return // planned in full by TestPresetsValid: seconds an input
		}
		p, err := NewPlan(e)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("a multi-line plan error: %q", err)
			}
			return
		}
		if sc, err := p.Scenario(0); err != nil || sc == nil {
			t.Fatalf("task 0 has no scenario: %v", err)
		}
	})
}

// FuzzMerge merges a fuzzed part alone and beside a genuine result: a
// part no sweep can write is refused (never a panic), and a part that is
// accepted merges into a result that reads back.
func FuzzMerge(f *testing.F) {
	for _, name := range []string{"field", "iteration", "derived"} {
		if data, err := os.ReadFile(filepath.Join("testdata", name+".golden.json")); err == nil {
			f.Add(data)
		}
	}
	genuine, err := os.ReadFile(filepath.Join("testdata", "iteration.golden.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, parts := range [][][]byte{{data}, {genuine, data}} {
			r, err := Merge(parts)
			if err != nil {
				if strings.Contains(err.Error(), "\n") {
					t.Fatalf("a multi-line error: %q", err)
				}
				continue
			}
			if _, _, err := ReadResult(r.JSON()); err != nil {
				t.Fatalf("a merged result does not read back: %v", err)
			}
		}
	})
}

// FuzzOverride sets a fuzzed path to a fuzzed value in a scenario tree:
// a path either parses, and then prints back to a path that parses to
// the same steps, or is refused; setting never panics, and a value that
// is set reads back from the re-encoded tree.
func FuzzOverride(f *testing.F) {
	for _, c := range [][2]string{
		{"algorithm.params.alpha", "0.1"}, {"noise.eta.decay.p", "0.8"}, {"problem.params.targets[0][1]", "[1,2]"},
		{"graph.n", `"x"`}, {"a[3]", "null"}, {"x.y[0].z", "{}"}, {"[1]", "1"}, {"a..b", "1"}, {"a[99999999999]", "1"},
	} {
		f.Add(c[0], []byte(c[1]))
	}
	base, err := os.ReadFile(filepath.Join("..", "scenario", "presets", "gtdp-rendezvous.json"))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, path string, value []byte) {
		steps, err := parsePath(path)
		if err != nil {
			return
		}
		again, err := parsePath(pathString(steps))
		if err != nil || len(again) != len(steps) {
			t.Fatalf("%q prints as %q, which parses to %v (%v)", path, pathString(steps), again, err)
		}
		for i := range steps {
			if steps[i] != again[i] {
				t.Fatalf("%q prints as %q, which parses differently", path, pathString(steps))
			}
		}
		if !json.Valid(value) {
			return
		}
		tr, err := decodeTree(base)
		if err != nil {
			t.Fatal(err)
		}
		if err := setPath(tr, path, value); err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("a multi-line error: %q", err)
			}
			return
		}
		if _, err := json.Marshal(tr); err != nil {
			t.Fatalf("the tree no longer encodes after setting %q to %s: %v", path, value, err)
		}
	})
}

// FuzzShard reads a --shard value: a shard either parses, with
// 0 ≤ index < count, and splits a plan's tasks into disjoint parts, or
// is refused in one line.
func FuzzShard(f *testing.F) {
	for _, s := range []string{"0/1", "1/3", "2/2", "-1/4", "3/0", "9223372036854775807/9223372036854775807", "1/9223372036854775807", "1/", "/", "a/b"} {
		f.Add(s)
	}
	p, err := NewPlan(mustParse(f, []byte(small["iteration"])))
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sh, err := ParseShard(s)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("a multi-line error: %q", err)
			}
			return
		}
		if sh.Index < 0 || sh.Index >= sh.Count {
			t.Fatalf("%q parsed to %+v", s, sh)
		}
		for _, task := range p.ShardTasks(sh) {
			if task%sh.Count != sh.Index || task < 0 || task >= p.Tasks() {
				t.Fatalf("%q: task %d in shard %+v", s, task, sh)
			}
		}
	})
}
