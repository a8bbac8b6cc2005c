package experiment

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"dpsim/core/check"
	"dpsim/core/objective"
)

// sweepText is a small experiment on base: each series sets setA to one
// of its values, each x point sets the noise scale fields, runs runs.
func sweepText(base, set string, series []string, fields string, values string, runs int) string {
	ss := ""
	for i, s := range series {
		if i > 0 {
			ss += ","
		}
		ss += fmt.Sprintf(`{"name":"s%d","set":{%s}}`, i, s)
	}
	return fmt.Sprintf(`{"format":"dpsim-experiment/1","name":"share","title":"T","base":%s,
	 "set":{%s},"series":[%s],
	 "x":{"kind":"field","fields":[%s],"values":[%s],"label":"x"},
	 "runs":%d,"seed":11,"metrics":[{"name":"optimality"}],"quantities":["epsilon"],"statistic":"mean",
	 "figure":{"title":"T","y":{"metric":"optimality","label":"e"}}}`, base, set, ss, fields, values, runs)
}

// sweepBytes runs every task of the experiment on two workers, with or
// without shared problems, and returns the assembled result's bytes and
// the number of problem builds the share saw.
func sweepBytes(t *testing.T, text string, share bool, workers int) ([]byte, int64) {
	t.Helper()
	p := plan(t, text)
	if !share {
		p.problems = nil
	}
	counter := p.problems
	res := executeAll(t, p, workers)
	if counter == nil {
		return res.JSON(), -1
	}
	return res.JSON(), counter.builds.Load()
}

// TestSharedProblemSweep: a 2,000-run sweep (on one worker, and on two
// when the data do not depend on the run) builds its problem once per
// distinct key — once in all when the data do not depend
// on the run (the IEEE 14-bus dispatch, and pinned rendezvous targets),
// once per run when they are drawn from the run's data seed (every series
// and x point of a run share it) — and its result is byte-identical to the
// sweep in which every run builds its own problem.
func TestSharedProblemSweep(t *testing.T) {
	pinned := `{"scenario":{"name":"pinned","seed":3,"graph":{"kind":"ring","n":4},"weights":{"kind":"metropolis"},
	  "problem":{"kind":"rendezvous","params":{"dim":2,"box":1,"domain_radius":2,"targets":[[1,0],[0,1],[-1,0],[0,-0.5]]}},
	  "algorithm":{"kind":"gt-dp","params":{"alpha":0.1}},
	  "noise":{"eta":{"dist":"laplace","scale":1},"xi":{"dist":"laplace","scale":1}},"iterations":10}}`
	for _, c := range []struct {
		name, text string
		builds     int64
	}{
		{"dispatch-2000", sweepText(`{"preset":"dpdgt-ieee14"}`, `"iterations":4`, []string{`"algorithm.params.phi":0.7`},
			`"noise.xi.scale","noise.zeta.scale"`, `0.01`, 2000), 1},
		{"pinned-rendezvous", sweepText(pinned, `"iterations":4`, []string{`"algorithm.params.alpha":0.1`, `"algorithm.params.alpha":0.05`},
			`"noise.eta.scale","noise.xi.scale"`, `1,2`, 300), 1},
		// Random targets: one instance per run, shared by its 2 series ×
		// 2 points; the domain radius differs between series.
		{"random-rendezvous", sweepText(`{"preset":"gtdp-rendezvous"}`, `"iterations":4`,
			[]string{`"algorithm.params.alpha":0.1`, `"algorithm.params.alpha":0.05`},
			`"noise.eta.scale","noise.xi.scale"`, `1,2`, 150), 150},
		// Random samples: one instance per run; the two series differ in
		// the penalty, so two per run.
		{"random-ridge", sweepText(`{"preset":"gtdp-ridge-ring"}`, `"iterations":4`,
			[]string{`"problem.params.penalty":0.1`, `"problem.params.penalty":0.2`},
			`"noise.eta.variance","noise.xi.variance"`, `1,2`, 60), 120},
		{"two-problems-per-run", sweepText(pinned, `"iterations":4`,
			[]string{`"problem.params.domain_radius":2`, `"problem.params.domain_radius":3`},
			`"noise.eta.scale","noise.xi.scale"`, `1,2`, 100), 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			// The count on one worker, whose order is fixed. On two, a
			// worker held up between taking a task and building its
			// problem can find the entry evicted (the share is bounded)
			// and build it again: correct, but a count that depends on
			// the scheduler.
			one, builds := sweepBytes(t, c.text, true, 1)
			if builds != c.builds {
				t.Errorf("the sweep built its problem %d times, want %d (one per distinct data)", builds, c.builds)
			}
			on, builds2 := sweepBytes(t, c.text, true, 2)
			off, _ := sweepBytes(t, c.text, false, 2)
			if builds2 < c.builds || c.builds == 1 && builds2 != 1 {
				// One instance is never evicted: exactly one build.
				t.Errorf("on two workers the sweep built its problem %d times, for %d distinct instances", builds2, c.builds)
			}
			if !bytes.Equal(on, off) || !bytes.Equal(one, off) {
				t.Errorf("the results with shared problems (1 and 2 workers) differ from the one without (%d, %d and %d bytes)", len(one), len(on), len(off))
			}
		})
	}
}

// TestSharedProblemEviction: beyond its bounds the share drops the least
// recently used instance, which is then built again on demand; an
// instance in use stays valid.
func TestSharedProblemEviction(t *testing.T) {
	s := newProblemShare()
	build := func() func() (objective.Problem, []check.Warning, error) {
		return func() (objective.Problem, []check.Warning, error) { return nil, nil, nil }
	}
	for i := range shareEntries + 1 {
		if _, _, err := s.provide(fmt.Sprint(i), 1, build()); err != nil {
			t.Fatal(err)
		}
	}
	if got := s.lru.Len(); got != shareEntries {
		t.Fatalf("%d entries kept, want the bound %d", got, shareEntries)
	}
	s.provide("1", 1, build()) // still kept: no build
	s.provide("0", 1, build()) // dropped first: built again
	if got := s.builds.Load(); got != shareEntries+2 {
		t.Errorf("%d builds, want %d (key 0 rebuilt after its eviction)", got, shareEntries+2)
	}
	s.provide("big", shareBytes, build()) // alone over the byte bound: kept, the rest dropped
	if s.lru.Len() != 1 || s.bytes != shareBytes {
		t.Errorf("after an entry of the whole byte budget: %d entries, %d bytes; want 1 and %d", s.lru.Len(), s.bytes, int64(shareBytes))
	}
	s.reset()
	if s.lru.Len() != 0 || len(s.entries) != 0 || s.bytes != 0 {
		t.Errorf("reset left %d entries, %d bytes", s.lru.Len(), s.bytes)
	}
}

// BenchmarkSharedProblem times whole runs (RunTask: build, run, reduce)
// with the plan's problem instances shared and with every run building
// its own, interleaved so that both see the same load, and reports the
// median time per run of each. ridge-d200 has 8 x points per run on a
// problem whose build (a 200×200 Cholesky solve) dominates a short run;
// dispatch is the 14-bus case, cheap to build.
func BenchmarkSharedProblem(b *testing.B) {
	ridge := `{"scenario":{"name":"ridge","seed":4,"graph":{"kind":"ring","n":8},"weights":{"kind":"metropolis"},
	  "problem":{"kind":"ridge","params":{"dim":200,"penalty":0.1,"output_noise_sd":1}},
	  "algorithm":{"kind":"gt-dp","params":{"alpha":0.01,"gradient_bound":100}},
	  "noise":{"eta":{"dist":"laplace","scale":1},"xi":{"dist":"laplace","scale":1}},"iterations":20}}`
	for _, c := range []struct{ name, text string }{
		{"dispatch", sweepText(`{"preset":"dpdgt-ieee14"}`, `"iterations":20`, []string{`"algorithm.params.phi":0.7`},
			`"noise.xi.scale","noise.zeta.scale"`, `0.01,0.02,0.04,0.08,0.16,0.32,0.64,1.28`, 64)},
		{"ridge-d200", sweepText(ridge, `"iterations":20`, []string{`"algorithm.params.alpha":0.01`},
			`"noise.eta.scale","noise.xi.scale"`, `0.01,0.02,0.04,0.08,0.16,0.32,0.64,1.28`, 64)},
	} {
		b.Run(c.name, func(b *testing.B) {
			on, off := plan(b, c.text), plan(b, c.text)
			off.problems = nil
			tasks := on.RunMajor(on.AllTasks())
			var ton, toff []time.Duration
			for i := range b.N {
				t := tasks[i%len(tasks)]
				t0 := time.Now()
				if _, err := on.RunTask(context.Background(), t); err != nil {
					b.Fatal(err)
				}
				t1 := time.Now()
				if _, err := off.RunTask(context.Background(), t); err != nil {
					b.Fatal(err)
				}
				ton, toff = append(ton, t1.Sub(t0)), append(toff, time.Since(t1))
			}
			mon, moff := median(ton), median(toff)
			b.ReportMetric(float64(mon.Nanoseconds()), "shared-ns/run")
			b.ReportMetric(float64(moff.Nanoseconds()), "unshared-ns/run")
			b.ReportMetric(float64(moff)/float64(mon), "speedup")
		})
	}
}
