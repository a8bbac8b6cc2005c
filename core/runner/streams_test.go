package runner_test

import (
	"bytes"
	"math"
	"slices"
	"strings"
	"testing"

	"dpsim/core/method"
	"dpsim/core/noise"
	"dpsim/core/rng"
	"dpsim/core/runner"
	"dpsim/core/runner/runnertest"
	"dpsim/core/scenario"
	"dpsim/core/sim"
)

// noiseLog keeps a copy of every release's noise.
type noiseLog struct{ v []float64 }

func (l *noiseLog) Record(st *sim.Step) {
	for _, r := range st.Releases {
		l.v = append(l.v, r.Noise...)
	}
}

func runToy(t *testing.T, b *scenario.Built) (*toyAlg, []float64, *runner.Runner) {
	t.Helper()
	var l noiseLog
	r := runner.New(b, &l)
	if err := r.Run(); err != nil {
		t.Fatal(err)
	}
	return b.Algorithm.(*toyAlg), l.v, r
}

// Per-agent decays: the toy's per-agent accountant gives each agent the
// ε its own decay ς_i implies, computed here independently; with one
// decay for all, every agent's ε is the same.
func TestPerAgentDecayBudgets(t *testing.T) {
	b := runnertest.Parse(t, ldpToyScenario(`{"kind": "rendezvous", "params": {"dim": 2, "box": 1}}`, ""), nil)
	_, _, r := runToy(t, b)
	l := r.Ledger()
	const K, C, scale = 30, 1.0, 0.1
	for i, e := range l.Agents {
		vs := 0.5 + float64(0.01*float64(i+1))
		want := 0.0
		for k := range K {
			lam := 0.5 / math.Pow(1+float64(k), 0.71)
			want += 2 * C * lam * math.Pow(1+float64(k), vs) / scale
		}
		if got := e.Epsilon.Value(); math.Abs(got-want) > 1e-12*want {
			t.Errorf("agent %d: ε = %.17g, want %.17g", i, got, want)
		}
		if i > 0 && !(e.Epsilon.Value() > l.Agents[i-1].Epsilon.Value()) {
			t.Errorf("agent %d: ε = %v does not exceed agent %d's %v although its noise decays faster", i, e.Epsilon, i-1, l.Agents[i-1].Epsilon)
		}
	}
	one := runnertest.Parse(t, ldpToyScenario(`{"kind": "rendezvous", "params": {"dim": 2, "box": 1}}`, ""), func(s *scenario.Scenario) {
		s.Noise["theta"].Decays, s.Noise["theta"].Decay = nil, noise.Poly(1, 1, 0.55)
	})
	_, _, r1 := runToy(t, one)
	for _, e := range r1.Ledger().Agents {
		if e.Epsilon != r1.Ledger().Agents[0].Epsilon {
			t.Fatalf("one decay for all, yet agent %d's ε %v differs from agent 0's %v", e.Agent, e.Epsilon, r1.Ledger().Agents[0].Epsilon)
		}
	}
}

// The algorithm's draws come from the algorithm seed alone: a new noise
// seed changes the noise, not η; a new algorithm seed changes η, not the
// noise. Pinned draws are served in order and cycle.
func TestAlgorithmDrawsIndependent(t *testing.T) {
	prob := `{"kind": "rendezvous", "params": {"dim": 2, "box": 1}}`
	seeds := func(noise, alg uint64) func(*scenario.Scenario) {
		return func(s *scenario.Scenario) {
			s.Seed = nil
			s.Seeds = &rng.Seeds{Data: 1, Graph: 2, Noise: noise, Algorithm: alg}
		}
	}
	a0, n0, _ := runToy(t, runnertest.Parse(t, ldpToyScenario(prob, ""), seeds(3, 4)))
	a1, n1, _ := runToy(t, runnertest.Parse(t, ldpToyScenario(prob, ""), seeds(30, 4)))
	a2, n2, _ := runToy(t, runnertest.Parse(t, ldpToyScenario(prob, ""), seeds(3, 40)))
	if len(a0.etas) != 30 || !slices.Equal(a0.etas, a1.etas) || slices.Equal(n0, n1) {
		t.Errorf("a new noise seed must change the noise (%v) and keep η (%v)", !slices.Equal(n0, n1), slices.Equal(a0.etas, a1.etas))
	}
	if slices.Equal(a0.etas, a2.etas) || !slices.Equal(n0, n2) {
		t.Errorf("a new algorithm seed must change η (%v) and keep the noise (%v)", !slices.Equal(a0.etas, a2.etas), slices.Equal(n0, n2))
	}
	for _, e := range a0.etas {
		if !(e > 0 && e < 1) {
			t.Fatalf("η = %v is outside (0, 1)", e)
		}
	}
	pinned := []float64{0.25, 1, 0.5}
	a3, n3, _ := runToy(t, runnertest.Parse(t, ldpToyScenario(prob, ""), func(s *scenario.Scenario) {
		seeds(3, 4)(s)
		s.Algorithm.Draws = map[string][]float64{"eta": pinned}
	}))
	for k, e := range a3.etas {
		if e != pinned[k%3] {
			t.Fatalf("η^%d = %v, want the pinned %v", k, e, pinned[k%3])
		}
	}
	if !slices.Equal(n0, n3) {
		t.Error("pinning η changed the noise")
	}
}

// Each agent's sample cursor walks its shard as the scenario says, from
// the data seed alone (the noise seed does not move it), and a pinned
// order cycles.
func TestSampleCursors(t *testing.T) {
	const m, batch, iters = 5, 2, 30
	for _, c := range []struct {
		mode  string
		order [][]int
		check func(i int, seen []int) string
	}{
		{method.Shuffle, nil, func(i int, seen []int) string {
			for e := 0; e+m <= len(seen); e += m {
				ep := slices.Clone(seen[e : e+m])
				slices.Sort(ep)
				if !slices.Equal(ep, []int{0, 1, 2, 3, 4}) {
					return "an epoch is not a permutation of the shard"
				}
			}
			if slices.Equal(seen[:m], seen[m:2*m]) && slices.Equal(seen[m:2*m], seen[2*m:3*m]) {
				return "the epochs repeat one order"
			}
			return ""
		}},
		{method.Replace, nil, func(i int, seen []int) string {
			for _, v := range seen {
				if v < 0 || v >= m {
					return "a draw is outside the shard"
				}
			}
			return ""
		}},
		{method.InOrder, nil, func(i int, seen []int) string {
			for k, v := range seen {
				if v != k%m {
					return "not in order"
				}
			}
			return ""
		}},
		{"", [][]int{{4}, {0, 1}, {2, 2, 3}, {1}, {0}, {3, 4}}, func(i int, seen []int) string {
			o := [][]int{{4}, {0, 1}, {2, 2, 3}, {1}, {0}, {3, 4}}[i]
			for k, v := range seen {
				if v != o[k%len(o)] {
					return "does not follow the pinned order"
				}
			}
			return ""
		}},
	} {
		edit := func(noise uint64) func(*scenario.Scenario) {
			return func(s *scenario.Scenario) {
				s.Seed = nil
				s.Seeds = &rng.Seeds{Data: 1, Graph: 2, Noise: noise, Algorithm: 4}
				s.Samples = &scenario.Samples{Mode: c.mode, Order: c.order}
			}
		}
		a, _, _ := runToy(t, runnertest.Parse(t, ldpToyScenario(streamProblem, ""), edit(3)))
		b, _, _ := runToy(t, runnertest.Parse(t, ldpToyScenario(streamProblem, ""), edit(33)))
		for i, seen := range a.seen {
			if len(seen) != batch*iters {
				t.Fatalf("%s: agent %d used %d samples, want %d", c.mode, i, len(seen), batch*iters)
			}
			if msg := c.check(i, seen); msg != "" {
				t.Errorf("mode %q, agent %d: %s: %v", c.mode, i, msg, seen)
			}
			if !slices.Equal(seen, b.seen[i]) {
				t.Errorf("mode %q, agent %d: the noise seed moved the sample order", c.mode, i)
			}
		}
		if c.mode != method.InOrder && c.order == nil && slices.Equal(a.seen[0], a.seen[1]) {
			t.Errorf("mode %q: agents 0 and 1 share one order", c.mode)
		}
	}
}

// The toy on a stochastic problem, with per-agent decays, seeded or
// pinned η and every sample order: export → resume at every checkpoint →
// the same export bit for bit; and export → replay of the pinned
// scenario → the same export.
func TestToyResumeAndReplay(t *testing.T) {
	for _, extra := range []string{
		"",
		`, "samples": {"mode": "replace"}`,
		`, "samples": {"mode": "in-order"}`,
		`, "samples": {"order": [[4, 0], [1], [2, 3, 3], [0], [1, 2], [3]]}`,
	} {
		for _, pin := range []bool{false, true} {
			js := ldpToyScenario(streamProblem, extra)
			if pin {
				js = bytes.Replace(js, []byte(`"batch": 2}`), []byte(`"batch": 2}, "draws": {"eta": [0.5, 0.125]}`), 1)
			}
			first := runnertest.Parse(t, js, nil)
			want := runExport(t, runner.New(first))
			for _, k := range []int{0, 1, 4, 13, 29, 30} {
				r, err := runner.ResumeExport(want, k, scenario.CLI)
				if err != nil {
					t.Fatalf("%s (pinned η: %v) from %d: %v", extra, pin, k, err)
				}
				if got := runExport(t, r); !bytes.Equal(got, want) {
					t.Fatalf("%s (pinned η: %v) resumed at %d: the export differs:\n%s", extra, pin, k, firstDiff(string(got), string(want)))
				}
			}
			e, err := runner.ResumeExport(want, -1, scenario.CLI)
			if err != nil {
				t.Fatal(err)
			}
			pinned := e.Built().Pinned().JSON()
			if bytes.Contains(pinned, []byte(`"decay"`)) {
				t.Errorf("the pinned scenario writes an empty decay beside decays")
			}
			again := runnertest.Parse(t, pinned, nil)
			replay := runExport(t, runner.New(again))
			a0, a1 := first.Algorithm.(*toyAlg), again.Algorithm.(*toyAlg)
			if !slices.Equal(a0.etas, a1.etas) || !slices.EqualFunc(a0.seen, a1.seen, slices.Equal) || len(a0.etas) != 30 {
				t.Errorf("%s (pinned η: %v): the replay drew other η (%v) or samples (%v)", extra, pin, !slices.Equal(a0.etas, a1.etas), !slices.EqualFunc(a0.seen, a1.seen, slices.Equal))
			}
			if !bytes.Equal(replay, want) {
				t.Fatalf("%s (pinned η: %v): the replay of the pinned scenario differs:\n%s", extra, pin, firstDiff(string(replay), string(want)))
			}
		}
	}
}

// An algorithm that cannot resume is refused by name.
func TestResumeRefusesNonResumable(t *testing.T) {
	b := runnertest.Parse(t, ldpToyScenario(streamProblem, ""), nil)
	b.Algorithm = struct{ sim.Algorithm }{b.Algorithm}
	_, err := runner.Resume(b, runner.Checkpoint{Iter: 0, Sources: &method.Positions{}})
	if err == nil || !strings.Contains(err.Error(), "toy LDP cannot resume") {
		t.Fatalf("got %v", err)
	}
}

// Pinned draws and sample orders are checked before the run, one line
// naming the field, the rule and the value.
func TestToyStreamsValidation(t *testing.T) {
	for _, c := range []struct {
		edit func(*scenario.Scenario)
		want string
	}{
		{func(s *scenario.Scenario) { s.Algorithm.Draws = map[string][]float64{"walk": {1}} }, `algorithm.draws.walk: unknown draw: toy LDP draws [eta]`},
		{func(s *scenario.Scenario) { s.Algorithm.Draws = map[string][]float64{"eta": {0.5, 1.5}} }, `algorithm.draws.eta[1]: must be in [1.1102230246251565e-16, 1]: η^k ∈ (0, 1], which multiplies the step (got 1.5)`},
		{func(s *scenario.Scenario) { s.Algorithm.Draws = map[string][]float64{"eta": {}} }, `algorithm.draws.eta: must list at least one value`},
		{func(s *scenario.Scenario) { s.Samples = &scenario.Samples{Mode: "random"} }, `samples.mode: must be one of [shuffle replace in-order] (got "random")`},
		{func(s *scenario.Scenario) { s.Samples = &scenario.Samples{Order: [][]int{{0}}} }, `samples.order: must list one order per agent: 6, got 1`},
		{func(s *scenario.Scenario) {
			s.Samples = &scenario.Samples{Order: [][]int{{0}, {1}, {5}, {0}, {0}, {0}}}
		}, `samples.order[2][0]: must be a sample of agent 2's shard, from 0 to 4 (got 5)`},
		{func(s *scenario.Scenario) {
			s.Samples = &scenario.Samples{Order: [][]int{{0}, {1}, {}, {0}, {0}, {0}}}
		}, `samples.order[2]: must list at least one sample`},
		{func(s *scenario.Scenario) {
			s.Samples = &scenario.Samples{Mode: "shuffle", Order: [][]int{{0}, {1}, {2}, {0}, {0}, {0}}}
		}, `samples.mode: give either a mode or a pinned order, not both`},
	} {
		s, err := scenario.Parse(ldpToyScenario(streamProblem, ""))
		if err != nil {
			t.Fatal(err)
		}
		c.edit(s)
		_, err = scenario.Build(s)
		if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("got %v\nwant %s", err, c.want)
		}
	}
}

// A per-agent decay that grows is warned about under noise.<ch>.decays,
// with every agent's schedule.
func TestPerAgentDecayGrowthWarning(t *testing.T) {
	b := runnertest.Parse(t, ldpToyScenario(streamProblem, ""), func(s *scenario.Scenario) {
		s.Noise["theta"].Decays[4] = noise.Geom(1, 1.5)
	})
	for _, w := range b.Warnings {
		if w.Field == "noise.theta.decays" && strings.Contains(w.Message, "1·1.5^k") {
			return
		}
	}
	t.Fatalf("no growth warning: %v", b.Warnings)
}
