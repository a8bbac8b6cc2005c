package privacy_test

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"dpsim/core/pld"
	"dpsim/core/privacy"
	"dpsim/core/sim"
)

// laplaceAcc is an accountant of n agents, each releasing one Laplace
// value per iteration of sensitivity 1 at scale b_i (b_i = 0: no noise),
// whose ledger is basic composition, Σ 1/b_i, at δ = delta.
type laplaceAcc struct {
	scales []float64
	delta  float64
	iters  int
}

func (a *laplaceAcc) Record(st *sim.Step) { a.iters = st.Iter }

func (a *laplaceAcc) Ledger() privacy.Ledger {
	l := privacy.Ledger{Algorithm: "test", Iterations: a.iters}
	for i, b := range a.scales {
		e := privacy.Entry{Agent: i, Delta: a.delta, Epsilon: privacy.OfLog10(math.Log10(float64(a.iters)) - math.Log10(b))}
		if b == 0 {
			e.Epsilon, e.Reason = privacy.Infinite(), "no noise"
		}
		l.Agents = append(l.Agents, e)
	}
	l.Max = privacy.MaxOf(l.Agents)
	return l
}

func (a *laplaceAcc) Adjacency() string { return "one value changes by at most 1" }

func (a *laplaceAcc) Releases(dst []privacy.Charge, agent, from, to int, factor float64) []privacy.Charge {
	for range to - from {
		dst = append(dst, privacy.Charge{Agent: agent, Channel: "x",
			Release: pld.Release{Mechanism: pld.Laplace, Scale: a.scales[agent] * factor, Sensitivity: 1}})
	}
	return dst
}

// uncharged is an accountant without releases.
type uncharged struct{ acc *laplaceAcc }

func (u uncharged) Record(st *sim.Step)    { u.acc.Record(st) }
func (u uncharged) Ledger() privacy.Ledger { return u.acc.Ledger() }
func (uncharged) Uncharged() string        { return "no analysis" }

// TestTightAccount: each agent's tight bound is its releases composed at
// the ledger's δ (TightDelta for pure ε-DP), never above the paper's
// basic composition, ∞ with the paper's reason where the paper gives no
// bound; an accountant without releases says why; a ledger read at an
// earlier iteration starts over; the bound falls as δ grows.
func TestTightAccount(t *testing.T) {
	acc := &laplaceAcc{scales: []float64{100, 200, 0}}
	tight := privacy.NewTightAccount(acc, 3)
	acc.Record(&sim.Step{Iter: 1000})
	l := acc.Ledger()
	tl := tight.At(&l, 0)
	if tl.Reason != "" || len(tl.Agents) != 3 || tl.Iterations != 1000 {
		t.Fatalf("tight ledger %+v", tl)
	}
	for i, e := range tl.Agents[:2] {
		c, _ := pld.Compose([]pld.Release{{Mechanism: pld.Laplace, Scale: acc.scales[i], Sensitivity: 1, Count: 1000}}, pld.Options{Tolerance: privacy.TightTolerance})
		want, _ := c.Epsilon(privacy.TightDelta)
		if e.Delta != privacy.TightDelta || e.Epsilon.Value() != want.Epsilon || e.Error != want.Error || e.Releases != 1000 {
			t.Errorf("agent %d: %+v, want ε %v ± %v at δ = %g", i, e, want.Epsilon, want.Error, privacy.TightDelta)
		}
		if !(e.Epsilon.Value() < l.Agents[i].Epsilon.Value()) {
			t.Errorf("agent %d: tight %v not below the paper's %v", i, e.Epsilon, l.Agents[i].Epsilon)
		}
		if e.DeltaAtPaper == nil || *e.DeltaAtPaper > 1e-12 {
			t.Errorf("agent %d: δ at the paper's ε = Σ ε_k is %v, want 0 up to the cut tails", i, e.DeltaAtPaper)
		}
	}
	if e := tl.Agents[2]; !e.Epsilon.IsInf() || !strings.Contains(e.Reason, "no noise") {
		t.Errorf("agent without noise: %+v", e)
	}
	if !tl.Max.IsInf() {
		t.Errorf("max %v, want ∞", tl.Max)
	}
	// The same iteration is not composed again; an earlier one starts over.
	if again := tight.At(&l, 0); again != tl {
		t.Errorf("composed again at the same iteration")
	}
	acc.Record(&sim.Step{Iter: 10})
	l10 := acc.Ledger()
	if e := tight.At(&l10, 0).Agents[0]; e.Releases != 10 {
		t.Errorf("after a restart at 10 iterations: %d releases", e.Releases)
	}
	// Within an age, the last bound stands; beyond it, it is recomputed.
	acc.Record(&sim.Step{Iter: 20})
	l20 := acc.Ledger()
	if e := tight.At(&l20, 16).Agents[0]; e.Releases != 10 {
		t.Errorf("age 16, 10 iterations on: recomputed (%d releases)", e.Releases)
	}
	if e := tight.At(&l20, 10).Agents[0]; e.Releases != 20 {
		t.Errorf("age 10, 10 iterations on: %d releases", e.Releases)
	}
	// Monotone in δ: a ledger at δ = 10⁻³ reads a smaller tight ε.
	loose := &laplaceAcc{scales: []float64{100}, delta: 1e-3, iters: 1000}
	ll := loose.Ledger()
	if a, b := privacy.NewTightAccount(loose, 1).At(&ll, 0).Agents[0], tl.Agents[0]; !(a.Epsilon.Value() < b.Epsilon.Value()) || a.Delta != 1e-3 {
		t.Errorf("δ = 10⁻³: %+v, not below δ = 10⁻⁶: %+v", a, b)
	}
	// Without releases, the reason.
	u := uncharged{&laplaceAcc{scales: []float64{1}, iters: 5}}
	lu := u.Ledger()
	if tu := privacy.NewTightAccount(u, 1).At(&lu, 0); tu.Reason != "no analysis" || tu.Agents != nil || !tu.Max.IsInf() {
		t.Errorf("uncharged: %+v", tu)
	}
}

// TestTightResolution: a ledger whose δ is below what its releases'
// composition resolves says so in the entry's note (one line, with both
// numbers), and one whose δ is resolved has none; the note is what the
// export carries.
func TestTightResolution(t *testing.T) {
	for _, c := range []struct {
		delta float64
		note  bool
	}{{1e-6, false}, {1e-12, true}} {
		acc := &laplaceAcc{scales: []float64{10}, delta: c.delta, iters: 1000}
		l := acc.Ledger()
		e := privacy.NewTightAccount(acc, 1).At(&l, 0).Agents[0]
		comp, _ := pld.Compose([]pld.Release{{Mechanism: pld.Laplace, Scale: acc.scales[0], Sensitivity: 1, Count: 1000}}, pld.Options{Tolerance: privacy.TightTolerance})
		b, _ := comp.Epsilon(c.delta)
		if got := e.Note != ""; got != c.note || got != (c.delta < b.Resolved) {
			t.Errorf("δ = %g (resolved from %g): note %q", c.delta, b.Resolved, e.Note)
		}
		if c.note && (strings.Contains(e.Note, "\n") || !strings.Contains(e.Note, "below what the discretization resolves")) {
			t.Errorf("δ = %g: note %q is not one line saying why", c.delta, e.Note)
		}
		js, _ := json.Marshal(e)
		if strings.Contains(string(js), `"note"`) != c.note {
			t.Errorf("δ = %g: export %s", c.delta, js)
		}
	}
}

// TestTightRoundTrip: a ledger with its tight bound is written and read
// back to the same bytes (the run export's privacy section), its
// infinite and beyond-float64 amounts included.
func TestTightRoundTrip(t *testing.T) {
	acc := &laplaceAcc{scales: []float64{100, 1e-307, 0}, iters: 1000}
	l := acc.Ledger()
	l.Tight = privacy.NewTightAccount(acc, 3).At(&l, 0)
	js, err := json.Marshal(l)
	if err != nil {
		t.Fatal(err)
	}
	var back privacy.Ledger
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	again, err := json.Marshal(back)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(js, again) {
		t.Errorf("round trip:\n%s\n%s", js, again)
	}
	if e := back.Tight.Agents[1].Epsilon; e.Value() != math.Inf(1) || !(e.Log10() > 309 && e.Log10() < 311) {
		t.Errorf("beyond float64: %v (log10 %v)", e, e.Log10())
	}
}

// TestTightLiveRefresh: a live view (age 256) never keeps a bound of 0
// beside a paper's ε above 0, and recomputes once the run has more than
// doubled its iterations since the last bound, or gone age on.
func TestTightLiveRefresh(t *testing.T) {
	acc := &laplaceAcc{scales: []float64{100}}
	tight := privacy.NewTightAccount(acc, 1)
	at := func(k int) int {
		acc.Record(&sim.Step{Iter: k})
		l := acc.Ledger()
		return tight.At(&l, 256).Iterations
	}
	for _, c := range []struct{ iter, want int }{
		{0, 0},
		{1, 1}, // the bound of 0 at iteration 0 is not kept beside ε > 0
		{2, 1}, {3, 3}, {6, 3}, {7, 7}, {14, 7}, {15, 15},
		{600, 600}, {855, 600}, {856, 856},
	} {
		if got := at(c.iter); got != c.want {
			t.Errorf("iteration %d: the live bound is of iteration %d, want %d", c.iter, got, c.want)
		}
	}
}

// scheduleAcc releases at iterations where every k-th, Laplace with scale
// decaying as 0.999^t (or Gaussian), to count what TightBytes counts.
type scheduleAcc struct {
	laplaceAcc
	every int
	mech  pld.Mechanism
}

func (a *scheduleAcc) Releases(dst []privacy.Charge, agent, from, to int, factor float64) []privacy.Charge {
	for t := from; t < to; t++ {
		if t%a.every == 0 {
			dst = append(dst, privacy.Charge{Agent: agent, Channel: "x",
				Release: pld.Release{Mechanism: a.mech, Scale: math.Pow(0.999, float64(t)) * factor, Sensitivity: 1}})
		}
	}
	return dst
}

// TestTightBytes: what the tight bound holds over a run is counted from
// its releases — one entry per distinct Laplace ε, none for Gaussian
// ones (they fold into one sum); a release every 5th iteration with
// decaying noise is counted over the whole run (one window of 64
// iterations held 13 distinct ε, under half of 64, and the run was
// counted as 13 entries where it holds 2·10⁶); over-counting a little is
// safe, under-counting runs out of memory.
func TestTightBytes(t *testing.T) {
	const iters = 10_000_000
	for _, c := range []struct {
		name     string
		acc      privacy.Accountant
		min, max int64
	}{
		{"constant", &laplaceAcc{scales: []float64{1}}, 1, 1},
		{"decaying, every iteration", &scheduleAcc{every: 1, mech: pld.Laplace}, iters, iters + 64},
		{"decaying, every 5th", &scheduleAcc{every: 5, mech: pld.Laplace}, iters / 5, iters / 5 * 21 / 20}, // a window of 64 holds 13
		{"decaying Gaussian", &scheduleAcc{every: 1, mech: pld.Gaussian}, 0, 0},
	} {
		got := privacy.TightBytes(c.acc, 1, iters) / 64
		if got < c.min || got > c.max {
			t.Errorf("%s: %d entries counted, want %d … %d", c.name, got, c.min, c.max)
		}
	}
}
