package experiment

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"dpsim/core/metrics"
	"dpsim/core/rng"
	"dpsim/core/runner"
	"dpsim/core/scenario"
)

var update = flag.Bool("update", false, "rewrite the golden results in testdata/")

// small experiments, one per x-axis kind, that run in well under a second.
var small = map[string]string{
	"field": `{"format":"dpsim-experiment/1","name":"small-field","title":"T",
	 "base":{"preset":"gtdp-rendezvous"},"set":{"iterations":120},
	 "series":[{"name":"a"},{"name":"b","label":"half step","set":{"algorithm.params.alpha":0.05}}],
	 "x":{"kind":"field","fields":["noise.eta.scale","noise.xi.scale"],"values":[1,0.1],"label":"b","scale":"log"},
	 "runs":6,"seed":7,
	 "metrics":[{"name":"optimality"},{"name":"consensus","id":"cons-tail","reduce":"tail-mean","last":50}],
	 "quantities":["epsilon"],"statistic":"mean",
	 "figure":{"title":"T","y":{"metric":"optimality","label":"err","scale":"log"},"y2":{"quantity":"epsilon","label":"ε"}},
	 "expectations":[{"claim":"grows","kind":"increasing","series":"a"},
	   {"claim":"a below b","kind":"below","series":"a","than":"b","at":"all","test":"rank"},
	   {"claim":"small","kind":"at-most","series":"a","value":1e-3}]}`,
	"iteration": `{"format":"dpsim-experiment/1","name":"small-iter","title":"T",
	 "base":{"preset":"gtdp-rendezvous"},"set":{"iterations":60,"record.every":20},
	 "series":[{"name":"lo","set":{"noise.eta.scale":0.1,"noise.xi.scale":0.1}},{"name":"hi"}],
	 "x":{"kind":"iteration","label":"k"},"runs":5,"seed":8,
	 "metrics":[{"name":"optimality"}],"quantities":["epsilon"],"statistic":"median",
	 "figure":{"title":"T","y":{"metric":"optimality","label":"err","scale":"log"}},
	 "expectations":[{"claim":"falls","kind":"decreasing","series":"hi"},{"claim":"lo below hi","kind":"below","series":"lo","than":"hi"}]}`,
	"derived": `{"format":"dpsim-experiment/1","name":"small-derived","title":"T",
	 "base":{"scenario":{"name":"inline","seed":1,"graph":{"kind":"random-geometric","n":6,"radius":0.6},
	   "weights":{"kind":"metropolis"},"problem":{"kind":"rendezvous","params":{"dim":2,"box":2}},
	   "algorithm":{"kind":"gt-dp","params":{"alpha":0.1,"gradient_bound":20}},
	   "noise":{"eta":{"dist":"laplace","scale":1},"xi":{"dist":"laplace","scale":1}},"iterations":80}},
	 "series":[{"name":"g","sweep":{"fields":["noise.eta.scale","noise.xi.scale"],"values":[1,10]}}],
	 "x":{"kind":"derived","quantity":"epsilon","label":"ε","scale":"log"},"runs":4,"seed":9,
	 "metrics":[{"name":"optimality"}],"quantities":["epsilon_log10"],"statistic":"mean",
	 "figure":{"title":"T","y":{"metric":"optimality","label":"err"}}}`,
}

func plan(t testing.TB, text string) *Plan {
	t.Helper()
	e, err := Parse([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPlan(e)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func sweep(t testing.TB, p *Plan, tasks []int, workers int, shard *Shard) []byte {
	t.Helper()
	recs, err := p.Execute(context.Background(), tasks, workers, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := Assemble(p, recs, shard)
	if err != nil {
		t.Fatal(err)
	}
	return r.JSON()
}

// TestGolden pins the result of each small experiment byte for byte.
// Under GOOS=js this proves the browser computes the same bytes as the
// CLI. Regenerate with go test ./core/experiment -run Golden -update.
func TestGolden(t *testing.T) {
	for kind, text := range small {
		t.Run(kind, func(t *testing.T) {
			p := plan(t, text)
			got := sweep(t, p, p.AllTasks(), 2, nil)
			path := filepath.Join("testdata", kind+".golden.json")
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("result differs from %s (%d vs %d bytes); if the change is intended, rerun with -update", path, len(got), len(want))
			}
		})
	}
}

// TestSameBytes: worker count and shard split cannot change a byte.
func TestSameBytes(t *testing.T) {
	for kind, text := range small {
		t.Run(kind, func(t *testing.T) {
			p := plan(t, text)
			one := sweep(t, p, p.AllTasks(), 1, nil)
			if two := sweep(t, p, p.AllTasks(), 2, nil); !bytes.Equal(one, two) {
				t.Fatal("--workers 1 and 2 differ")
			}
			if four := sweep(t, p, p.AllTasks(), 4, nil); !bytes.Equal(one, four) {
				t.Fatal("--workers 1 and 4 differ")
			}
			var parts [][]byte
			for i := range 3 {
				sh := Shard{Index: i, Count: 3}
				part := sweep(t, p, p.ShardTasks(sh), 2, &sh)
				if !bytes.Contains(part, []byte(`"partial": true`)) || !bytes.Contains(part, []byte(`"shard": {"index":`)) {
					t.Fatalf("shard %d is not marked partial", i)
				}
				parts = append(parts, part)
			}
			// Any order of the parts, and a part given twice, merge the same.
			for _, order := range [][]int{{0, 1, 2}, {2, 0, 1}, {1, 2, 0, 1}} {
				var in [][]byte
				for _, i := range order {
					in = append(in, parts[i])
				}
				m, err := Merge(in)
				if err != nil {
					t.Fatal(err)
				}
				if got := m.JSON(); !bytes.Equal(got, one) {
					t.Fatalf("merge of shards %v differs from the unsharded result", order)
				}
			}
			// Two shards only: a partial result, which merges with the third.
			m, err := Merge(parts[:2])
			if err != nil || !m.Partial || m.Finished >= m.Tasks {
				t.Fatalf("merge of 2 of 3 shards: partial=%v finished=%d err=%v", m.Partial, m.Finished, err)
			}
			full, err := Merge([][]byte{m.JSON(), parts[2]})
			if err != nil || !bytes.Equal(full.JSON(), one) {
				t.Fatalf("re-merge differs (err %v)", err)
			}
		})
	}
}

func TestMergeRejects(t *testing.T) {
	p := plan(t, small["field"])
	q := plan(t, small["iteration"])
	a := sweep(t, p, p.ShardTasks(Shard{0, 2}), 1, &Shard{0, 2})
	b := sweep(t, q, q.ShardTasks(Shard{1, 2}), 1, &Shard{1, 2})
	if _, err := Merge([][]byte{a, b}); err == nil || !strings.Contains(err.Error(), "different experiment") {
		t.Errorf("merging two experiments: %v", err)
	}
	bad := bytes.Replace(a, []byte(`"status":"completed"`), []byte(`"status":"completed","extra":1`), 1)
	if _, err := Merge([][]byte{bad}); err == nil || !strings.Contains(err.Error(), "unknown key") {
		t.Errorf("an unknown key in a run: %v", err)
	}
	at := bytes.Index(a, []byte(`"runs": [`))
	tampered := append(append([]byte(nil), a[:at]...), regexp.MustCompile(`"optimality":[^,}]*`).ReplaceAll(a[at:], []byte(`"optimality":1e9`))...)
	if _, err := Merge([][]byte{a, tampered}); err == nil || !strings.Contains(err.Error(), "different record") {
		t.Errorf("a task with two different records: %v", err)
	}
}

// TestMergeValidatesRecords: merge refuses, in one line naming the part
// and the record, run records no sweep writes; each used to be accepted
// (a missing metric read as 0).
func TestMergeValidatesRecords(t *testing.T) {
	p := plan(t, small["iteration"])
	a := sweep(t, p, p.AllTasks(), 1, nil)
	at := bytes.Index(a, []byte(`"runs": [`))
	for _, c := range []struct{ re, to, want string }{
		{`"metrics":\{"optimality":[^}]*\}`, `"metrics":{}`, `metrics: must hold exactly ["optimality"]`},
		{`"status":"completed"`, `"status":"great"`, `status: must be one of`},
		{`"iterations":60`, `"iterations":-3`, `iterations: a completed run ran all 60`},
		{`"status":"completed","iterations":60`, `"status":"diverged","error":"x","iterations":-3`, `iterations: must be from 0 to the 60 planned (got -3)`},
		{`"curves":\{"optimality":\[[^,]*,`, `"curves":{"optimality":[`, `curves.optimality: must hold the 4 recorded iterations`},
		{`"quantities":\{[^}]*\}`, `"quantities":{"epsilon":1,"epsilon_log10":0,"rho":2}`, `quantities: must hold exactly`},
		{`"status":"completed","iterations":60`, `"status":"diverged","iterations":60`, `error: a diverged run has an error message`},
		{`"task":0,`, `"task":1,`, `task: task 1 is series 0, point 0, run 1`},
	} {
		bad := append(append([]byte(nil), a[:at]...), regexp.MustCompile(c.re).ReplaceAll(a[at:], []byte(c.to))...)
		if bytes.Equal(bad, a) {
			t.Fatalf("%s matched nothing", c.re)
		}
		_, err := MergeNamed([]string{"shard-a.json"}, [][]byte{bad})
		if err == nil || !strings.HasPrefix(err.Error(), "part 1 (shard-a.json): runs[") || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s → %s: got %v, want one line naming the part, the record and %q", c.re, c.to, err, c.want)
		}
	}
}

func TestCancel(t *testing.T) {
	p := plan(t, small["field"])
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	recs, err := p.Execute(ctx, p.AllTasks(), 2, func(done int) {
		n = done
		if done == 5 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if len(recs) < 5 || len(recs) >= p.Tasks() || len(recs) != n {
		t.Fatalf("%d records after cancelling at 5 of %d (progress said %d)", len(recs), p.Tasks(), n)
	}
	r, err := Assemble(p, recs, nil)
	if err != nil || !r.Partial || r.Finished != len(recs) {
		t.Fatalf("partial result: %+v, %v", r.Partial, err)
	}
}

func TestCommonRandomNumbers(t *testing.T) {
	p := plan(t, small["field"])
	// Run 3 has the same targets in both series and at both points; its
	// noise differs.
	var targets []string
	noise := map[uint64]bool{}
	for s := range 2 {
		for pt := range 2 {
			sc, err := p.Scenario(p.TaskIndex(s, pt, 3))
			if err != nil {
				t.Fatal(err)
			}
			b, err := scenario.Build(sc)
			if err != nil {
				t.Fatal(err)
			}
			targets = append(targets, fmtTargets(b))
			noise[sc.Seeds.Noise] = true
		}
	}
	for _, tg := range targets[1:] {
		if tg != targets[0] {
			t.Fatal("run 3 has different problem data in different series or points")
		}
	}
	if len(noise) != 4 {
		t.Fatalf("%d distinct noise seeds over 2 series × 2 points, want 4", len(noise))
	}
}

func fmtTargets(b *scenario.Built) string {
	return string(mustJSON(b.Pinned().Problem))
}

func TestRunSeeds(t *testing.T) {
	a := RunSeeds(1, 0, "s", 0)
	// Pinned: changing the rule changes every published result.
	want := seeds4(a)
	if pinned := [4]uint64{0x1b535ca52e6825, 0x1ffa611d4be918, 0x253fc2ce7e97a, 0x1299dc05d70986}; want != pinned {
		t.Errorf("RunSeeds(1, 0, \"s\", 0) = %#x, pinned %#x: the seed rule changed", want, pinned)
	}
	for _, c := range []struct {
		name       string
		b          [4]uint64
		same, diff []int // indices into data, graph, noise, algorithm
	}{
		{"other series", seeds4(RunSeeds(1, 0, "t", 0)), []int{0, 1, 3}, []int{2}},
		{"other point", seeds4(RunSeeds(1, 0, "s", 1)), []int{0, 1, 3}, []int{2}},
		{"other run", seeds4(RunSeeds(1, 1, "s", 0)), nil, []int{0, 1, 2, 3}},
		{"other master", seeds4(RunSeeds(2, 0, "s", 0)), nil, []int{0, 1, 2, 3}},
	} {
		for _, i := range c.same {
			if c.b[i] != want[i] {
				t.Errorf("%s: seed %d changed", c.name, i)
			}
		}
		for _, i := range c.diff {
			if c.b[i] == want[i] {
				t.Errorf("%s: seed %d did not change", c.name, i)
			}
		}
		for _, v := range c.b {
			if v > 1<<53 {
				t.Errorf("%s: seed %d exceeds 2^53", c.name, v)
			}
		}
	}
}

func seeds4(s rng.Seeds) [4]uint64 { return [4]uint64{s.Data, s.Graph, s.Noise, s.Algorithm} }

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// TestProblemMetric: a metric the problem records itself is read from the
// series' extra columns by name.
func TestProblemMetric(t *testing.T) {
	p := plan(t, small["iteration"])
	sc, err := p.Scenario(0)
	if err != nil {
		t.Fatal(err)
	}
	b, err := scenario.Build(sc)
	if err != nil {
		t.Fatal(err)
	}
	r := runner.New(b)
	if err := r.Run(); err != nil {
		t.Fatal(err)
	}
	s := &r.Metrics.Series
	col := make(metrics.Floats, s.Len())
	for i := range col {
		col[i] = float64(10 * i)
	}
	s.ExtraNames, s.Extra = []string{"mismatch"}, []metrics.Floats{col}
	iters, vals := problemMetric("mismatch").Curve(&Run{Built: b, Runner: r})
	if len(iters) != s.Len() || vals[2] != 20 || iters[2] != s.At(2).Iter {
		t.Fatalf("problem metric: %v %v", iters, vals)
	}
	if _, vals := problemMetric("absent").Curve(&Run{Built: b, Runner: r}); !math.IsNaN(vals[0]) {
		t.Fatal("an absent problem metric is not missing")
	}
}

// checkClaims plans e, runs it on two workers and fails t unless it has
// want expectations (want 0: at least one) and every one holds; the
// verdicts are logged.
func checkClaims(t testing.TB, e *Experiment, want int) {
	t.Helper()
	p, err := NewPlan(e)
	if err != nil {
		t.Fatal(err)
	}
	r := executeAll(t, p, 2)
	if n := len(r.Expectations); n == 0 || want > 0 && n != want {
		t.Fatalf("%d expectations, want %d (0: at least one)", n, want)
	}
	for _, x := range r.Expectations {
		if x.Verdict != Holds {
			t.Errorf("%q: %s (%s)", x.Claim, x.Verdict, x.Summary)
		} else {
			t.Logf("%q: %s", x.Claim, x.Summary)
		}
	}
}

// executeAll runs every task of p on workers workers and assembles the
// result, failing t on any error.
func executeAll(t testing.TB, p *Plan, workers int) *Result {
	t.Helper()
	recs, err := p.Execute(context.Background(), p.AllTasks(), workers, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Assemble(p, recs, nil)
	if err != nil {
		t.Fatal(err)
	}
	return res
}
