package runner_test

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"dpsim/core/pld"
	"dpsim/core/privacy"
	"dpsim/core/runner"
	"dpsim/core/scenario"
	"dpsim/core/sim"
)

// TestEveryAccountantStatesItsReleases walks the registry: every
// algorithm's accountant either states its releases and the adjacency
// they assume (privacy.Releaser) or says why it has none
// (privacy.Uncharged), never both and never neither.
func TestEveryAccountantStatesItsReleases(t *testing.T) {
	for _, f := range scenario.Factories() {
		if scenario.RegisteredForTest(f.Name) {
			continue // a test's own plug-in
		}
		t.Run(f.Name, func(t *testing.T) {
			b := presetOf(t, f.Name, 5)
			r, rel := b.Accountant.(privacy.Releaser)
			u, unc := b.Accountant.(privacy.Uncharged)
			switch {
			case rel && unc:
				t.Errorf("the accountant is both a Releaser and Uncharged")
			case rel && strings.TrimSpace(r.Adjacency()) == "":
				t.Errorf("the accountant states no adjacency")
			case unc && strings.TrimSpace(u.Uncharged()) == "":
				t.Errorf("the accountant says no reason for having no releases")
			case !rel && !unc:
				t.Errorf("the accountant neither states its releases (privacy.Releaser) nor says why not (privacy.Uncharged)")
			}
		})
	}
}

// presetOf builds the first scenario preset of algorithm alg, cut to k
// iterations.
func presetOf(t *testing.T, alg string, k int) *scenario.Built {
	t.Helper()
	for _, p := range scenario.Presets() {
		s, err := scenario.PresetScenario(p.Name)
		if err != nil {
			t.Fatal(err)
		}
		if s.Algorithm.Kind != alg {
			continue
		}
		shorten(s, k)
		b, err := scenario.BuildWith(s, scenario.CLI, sharedProblems)
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		return b
	}
	t.Fatalf("no scenario preset uses %s", alg)
	return nil
}

// chargeCheck is a recorder that compares, after every step, what the
// accountant charges with what the step released: every release whose
// noise is not all zero is charged on its channel, every charge of a
// positive sensitivity and scale is a release with noise, and the noise
// divided by the charged scale is gathered per law, to be tested against
// the law's moments.
type chargeCheck struct {
	t      *testing.T
	name   string
	rel    privacy.Releaser
	agents int
	buf    []privacy.Charge
	// z holds the standardized noise coordinates per law.
	z map[pld.Mechanism][]float64
}

func (c *chargeCheck) Record(st *sim.Step) {
	if st.Iter < 1 {
		return
	}
	c.buf = privacy.StepCharges(c.buf[:0], c.rel, c.agents, st.Iter)
	type key struct {
		agent   int
		channel string
	}
	charged := map[key]pld.Release{}
	for _, ch := range c.buf {
		k := key{ch.Agent, ch.Channel}
		if old, ok := charged[k]; ok && old.Sensitivity > 0 {
			c.t.Errorf("%s, iteration %d: agent %d charged twice on channel %q", c.name, st.Iter-1, ch.Agent, ch.Channel)
		}
		charged[k] = ch.Release
	}
	released := map[key]bool{}
	for _, r := range st.Releases {
		noisy := false
		for _, v := range r.Noise {
			noisy = noisy || v != 0
		}
		if !noisy {
			continue
		}
		k := key{r.From, r.Channel}
		released[k] = true
		ch, ok := charged[k]
		if !ok {
			c.t.Errorf("%s, iteration %d: agent %d released noise on channel %q that its accountant does not charge", c.name, st.Iter-1, r.From, r.Channel)
			continue
		}
		if !(ch.Scale > 0) {
			c.t.Errorf("%s, iteration %d: agent %d's noise on %q is charged at scale %v", c.name, st.Iter-1, r.From, r.Channel, ch.Scale)
			continue
		}
		for _, v := range r.Noise {
			if v != 0 { // coordinates sent without noise (a relay's baton) are not part of the release
				c.z[ch.Mechanism] = append(c.z[ch.Mechanism], v/ch.Scale)
			}
		}
	}
	for k, ch := range charged {
		if ch.Sensitivity > 0 && ch.Scale > 0 && !released[k] {
			c.t.Errorf("%s, iteration %d: agent %d is charged on channel %q (Δ = %g, scale %g) but released no noise there", c.name, st.Iter-1, k.agent, k.channel, ch.Sensitivity, ch.Scale)
		}
	}
}

// TestChargesAreTheReleases runs every scenario preset for up to 300
// iterations and holds each accountant's charges to what the run actually
// released: the channels and agents match step by step, and the noise
// divided by the charged scale has the first two absolute moments of the
// charged law (Laplace: E|z| = 1, E z² = 2; Gaussian: E|z| = √(2/π),
// E z² = 1) within five standard errors. With the 3,600 coordinates of
// the smallest preset a scale off by a fifth or the wrong law fails; a
// tenth fails on the larger ones (checked by multiplying DPOP's and
// DP-RECAL's charged scales by 1.1).
func TestChargesAreTheReleases(t *testing.T) {
	laws := map[pld.Mechanism]struct{ abs, absSD, sq, sqSD float64 }{
		pld.Laplace:  {1, 1, 2, math.Sqrt(20)},
		pld.Gaussian: {math.Sqrt(2 / math.Pi), math.Sqrt(1 - 2/math.Pi), 1, math.Sqrt2},
	}
	seen := map[string]bool{}
	// Every preset, and variants whose noise the presets do not show.
	type variant struct{ preset, name, params string }
	var cases []variant
	for _, p := range scenario.Presets() {
		cases = append(cases, variant{preset: p.Name, name: p.Name})
	}
	cases = append(cases, variant{"dp-admm-ring8", "dp-admm-ring8, variant huang",
		`{"variant": "huang", "tau": 0.2, "gamma": 0.99, "penalty": 0.7, "gradient_bound": 1, "attenuation": 1, "delta": 1e-3}`})
	for _, p := range cases {
		s, err := scenario.PresetScenario(p.preset)
		if err != nil {
			t.Fatal(err)
		}
		if p.params != "" {
			s.Algorithm.Params = json.RawMessage(p.params)
		}
		if testing.Short() && seen[s.Algorithm.Kind] {
			continue
		}
		seen[s.Algorithm.Kind] = true
		t.Run(p.name, func(t *testing.T) {
			shorten(s, 300)
			b, err := scenario.BuildWith(s, scenario.CLI, sharedProblems)
			if err != nil {
				t.Fatal(err)
			}
			rel, ok := b.Accountant.(privacy.Releaser)
			if !ok {
				t.Skipf("%s states no releases", b.Factory.Name)
			}
			c := &chargeCheck{t: t, name: p.name, rel: rel, agents: b.Env.Problem.Agents(), z: map[pld.Mechanism][]float64{}}
			if err := runner.New(b, c).Run(); err != nil {
				t.Fatal(err)
			}
			for m, z := range c.z {
				law, ok := laws[m]
				if !ok {
					t.Errorf("charged law %q", m)
					continue
				}
				var a, q float64
				for _, v := range z {
					a += math.Abs(v)
					q += float64(v * v)
				}
				n := float64(len(z))
				a, q = a/n, q/n
				if n < 1000 {
					t.Logf("%s: only %d noise coordinates of law %s", p.name, len(z), m)
					continue
				}
				if math.Abs(a-law.abs) > 5*law.absSD/math.Sqrt(n) || math.Abs(q-law.sq) > 5*law.sqSD/math.Sqrt(n) {
					t.Errorf("%s: the noise ÷ the charged %s scale has E|z| = %.4f (want %.4f) and E z² = %.4f (want %.4f) over %d coordinates",
						p.name, m, a, law.abs, q, law.sq, len(z))
				}
			}
		})
	}
}

// TestTightFollowsTheRun reads the ledger of a run that keeps the tight
// bound every 50 iterations: each agent's tight ε never falls as releases
// are added (beyond its error: the exact value of more releases is not
// smaller), it stays at most the paper's, and at the end it is what
// pld.Compose makes of the agent's releases stated by the accountant, one
// agent at a time (the ledger composes them together, sharing equal
// multisets). A live view (LedgerWithin) keeps the last bound for fewer
// than its age of iterations.
func TestTightFollowsTheRun(t *testing.T) {
	for _, preset := range []string{"gtdp-fig1", "dp-extra-ring8", "ldol-mushrooms"} {
		t.Run(preset, func(t *testing.T) {
			s, err := scenario.PresetScenario(preset)
			if err != nil {
				t.Fatal(err)
			}
			shorten(s, 300)
			b, err := scenario.BuildWith(s, scenario.CLI, sharedProblems)
			if err != nil {
				t.Fatal(err)
			}
			r := runner.New(b)
			r.TrackTight()
			r.Start()
			agents := b.Env.Problem.Agents()
			prev := make([]privacy.TightEntry, agents)
			for !r.Done() {
				if _, err := r.Advance(); err != nil {
					t.Fatal(err)
				}
				if k := r.Iter(); k%50 == 0 {
					// The last bound, read 50 iterations ago, is young enough.
					if live := r.LedgerWithin(runner.LiveTightEvery); k > 50 && !r.Done() && live.Tight.Iterations != k-50 {
						t.Errorf("iteration %d: the live view's bound is of iteration %d, want the one of %d (age %d)", k, live.Tight.Iterations, k-50, runner.LiveTightEvery)
					}
				}
				if k := r.Iter(); k%50 == 0 || r.Done() {
					l := r.Ledger()
					if l.Tight == nil || l.Tight.Reason != "" || l.Tight.Iterations != k || len(l.Tight.Agents) != agents {
						t.Fatalf("iteration %d: tight ledger %+v", k, l.Tight)
					}
					for _, e := range l.Agents {
						te := l.Tight.Agents[e.Agent]
						if te.Epsilon.NoGuarantee() {
							t.Fatalf("iteration %d, agent %d: no tight bound: %s", k, e.Agent, te.Reason)
						}
						if te.Epsilon.Log10() > e.Epsilon.Log10()+math.Log10(1+1e-9) {
							t.Errorf("iteration %d, agent %d: tight %v above the paper's %v", k, e.Agent, te.Epsilon, e.Epsilon)
						}
						p := prev[e.Agent]
						if p.Releases > 0 && (te.Releases < p.Releases || te.Epsilon.Value() < p.Epsilon.Value()-p.Error) {
							t.Errorf("iteration %d, agent %d: tight %v ± %g of %d releases, after %v ± %g of %d", k, e.Agent, te.Epsilon, te.Error, te.Releases, p.Epsilon, p.Error, p.Releases)
						}
						prev[e.Agent] = te
					}
				}
			}
			rel := b.Accountant.(privacy.Releaser)
			for i, te := range prev {
				var rs []pld.Release
				for _, c := range rel.Releases(nil, i, 0, r.Iter(), 1) {
					rs = append(rs, c.Release)
				}
				c, err := pld.Compose(rs, pld.Options{Tolerance: privacy.TightTolerance})
				if err != nil {
					t.Fatal(err)
				}
				want, err := c.Epsilon(te.Delta)
				if err != nil {
					t.Fatal(err)
				}
				if got := te.Epsilon.Value(); math.Abs(got-want.Epsilon) > te.Error+want.Error || c.Releases() != te.Releases {
					t.Errorf("agent %d: the ledger's tight ε %v ± %g of %d releases, pld.Compose's %v ± %g of %d", i, got, te.Error, te.Releases, want.Epsilon, want.Error, c.Releases())
				}
			}
		})
	}
}

// TestTightOffWhenItWouldNotFit: a run whose decaying noise would make
// the tight bound hold more releases than its place's memory allows runs
// without it, and its ledger (and so its export) says why in one line,
// with ε ∞ rather than a 0 — the CLI refused such a run, and the page
// would have run out of memory. A short run keeps its bound.
func TestTightOffWhenItWouldNotFit(t *testing.T) {
	for _, c := range []struct {
		iterations int
		place      scenario.Place
		off        bool
	}{
		{1000, scenario.Page, false},
		{1000, scenario.CLI, false},
		{2_000_000, scenario.Page, true},
		{2_000_000, scenario.CLI, false},
		{10_000_000, scenario.CLI, true},
	} {
		s, err := scenario.PresetScenario("gtdp-rendezvous")
		if err != nil {
			t.Fatal(err)
		}
		s.Iterations, s.Record.Checkpoints = c.iterations, nil
		s.Record.Every = c.iterations
		b, err := scenario.BuildFor(s, c.place)
		if err != nil {
			t.Fatalf("%d iterations: %v", c.iterations, err)
		}
		est, off := b.KeepTight(b.Estimate(c.place), c.place)
		if (off != "") != c.off {
			t.Fatalf("%d iterations, place %v: reason %q, want one: %v (estimate %s)", c.iterations, c.place, off, c.off, scenario.Bytes(est.Total))
		}
		r := runner.New(b)
		r.TrackTightUnless(off)
		r.Start()
		for range 3 {
			if _, err := r.Advance(); err != nil {
				t.Fatal(err)
			}
		}
		tl := r.Ledger().Tight
		if tl == nil {
			t.Fatalf("%d iterations: no tight ledger", c.iterations)
		}
		if c.off {
			if tl.Reason != off || strings.Contains(off, "\n") || !strings.Contains(off, "iterations") || !tl.Max.IsInf() || len(tl.Agents) != 0 {
				t.Errorf("%d iterations: off, but the ledger's tight bound reads %+v", c.iterations, tl)
			}
			js, _ := json.Marshal(tl)
			if !strings.Contains(string(js), "not kept for this run") || strings.Contains(string(js), `"text":"0"`) {
				t.Errorf("%d iterations: export %s", c.iterations, js)
			}
		} else if tl.Reason != "" || len(tl.Agents) == 0 {
			t.Errorf("%d iterations: the tight bound is missing: %+v", c.iterations, tl)
		}
	}
}
