package privacy

import (
	"fmt"
	"math"

	"dpsim/core/pld"
)

// The tight bound beside the paper's: the releases an accountant charges
// (Releaser), composed exactly by core/pld (docs/privacy-truth.md).

// TightDelta is the δ of the tight bound of a pure ε-DP ledger (δ = 0):
// at δ = 0 the composition of Laplace releases is Σ Δ_k/b_k, which basic
// composition already gives, so the tight bound is stated at this δ.
const TightDelta = 1e-6

// TightTolerance is the accountant's tolerance in a ledger: the tight
// bound is within about this share of the exact ε of its releases (its
// Error says how far at most), the 1 %.
const TightTolerance = 1e-2

// TightEntry is one agent's tight bound.
type TightEntry struct {
	// Epsilon bounds ε at Delta for the agent's releases composed
	// exactly: ∞ when no finite bound exists (Reason says why).
	Epsilon Amount  `json:"epsilon"`
	Delta   float64 `json:"delta"`
	// Error bounds how far above the exact ε Epsilon may be: the exact
	// value lies in [Epsilon − Error, Epsilon] (pld.Bound.Error).
	Error float64 `json:"error"`
	// DeltaAtPaper is the smallest δ at which the same releases give the
	// paper's ε (an upper bound, within DeltaAtPaperError), when the
	// paper's ε is a finite number.
	DeltaAtPaper      *float64 `json:"delta_at_paper_epsilon,omitempty"`
	DeltaAtPaperError float64  `json:"delta_at_paper_epsilon_error,omitempty"`
	// Releases counts the releases composed.
	Releases int64 `json:"releases"`
	// Method says how the bound was computed (pld's methods).
	Method string `json:"method"`
	Reason string `json:"reason,omitempty"`
	// Note says, in one line, when Delta is below what the composition's
	// discretization resolves (pld.Bound.Resolved): Epsilon is still an
	// upper bound, but Error then includes the transform's rounding and
	// may pass TightTolerance of it.
	Note string `json:"note,omitempty"`
}

// TightLedger is the tight bound of every agent of a ledger.
type TightLedger struct {
	// Iterations is the iteration the bound is for (the live page
	// refreshes it every few hundred iterations; exports are current).
	Iterations int `json:"iterations"`
	// Adjacency states the paper's neighbouring relation in words.
	Adjacency string `json:"adjacency,omitempty"`
	// Reason says why there is no tight bound ("" when there is).
	Reason string       `json:"reason,omitempty"`
	Max    Amount       `json:"max_epsilon"`
	Agents []TightEntry `json:"agents,omitempty"`
}

// TightAccount keeps a run's tight bound up to date: it adds the releases of
// each new iteration to a pld.Ledger and composes them when asked.
type TightAccount struct {
	acc    Accountant
	rel    Releaser
	agents int
	led    *pld.Ledger
	upTo   int // releases of iterations < upTo added
	buf    []Charge
	err    error
	last   *TightLedger // the bound at last.Iterations
}

// NewTightAccount returns the tight bound of a run of agents agents whose
// ledger acc keeps.
func NewTightAccount(acc Accountant, agents int) *TightAccount {
	t := &TightAccount{acc: acc, agents: agents}
	if r, ok := acc.(Releaser); ok {
		t.rel, t.led = r, pld.NewLedger(agents)
	}
	return t
}

// At returns the tight bound of l (a ledger of the accountant at
// l.Iterations), computing it unless the last one was for the same
// iteration, or for one fewer than age iterations before it (a live
// view's refresh interval; 0 for a current bound) and at least half as
// many iterations. The halving keeps a young run's bound close (its
// releases are few, so composing them is cheap, and the recomputations
// cost at most twice the last), and a bound of 0 is never kept beside a
// paper's ε above 0: the page would read "0 (tight)" after releases.
func (t *TightAccount) At(l *Ledger, age int) *TightLedger {
	if t.last != nil && t.last.Iterations <= l.Iterations {
		lag := l.Iterations - t.last.Iterations
		zero := t.last.Reason == "" && math.IsInf(t.last.Max.Log10(), -1) && !math.IsInf(l.Max.Log10(), -1)
		if lag == 0 || lag < age && lag <= max(t.last.Iterations, 1) && !zero {
			return t.last
		}
	}
	tl := &TightLedger{Iterations: l.Iterations, Max: Infinite()}
	t.last = tl
	if t.rel == nil {
		tl.Reason = "the accountant states no releases"
		if u, ok := t.acc.(Uncharged); ok {
			tl.Reason = u.Uncharged()
		}
		return tl
	}
	tl.Adjacency = t.rel.Adjacency()
	if err := t.add(l.Iterations); err != nil {
		tl.Reason = "the accountant's releases are invalid: " + err.Error()
		return tl
	}
	tl.Agents = make([]TightEntry, t.agents)
	// Each distinct δ is read once per shared composition.
	comps, err := t.led.Compose(pld.Options{Tolerance: TightTolerance})
	if err != nil {
		tl.Reason, tl.Agents = "the composition failed: "+err.Error(), nil
		return tl
	}
	for _, e := range l.Agents {
		if e.Agent < 0 || e.Agent >= t.agents {
			continue
		}
		tl.Agents[e.Agent] = entry(comps[e.Agent], e)
	}
	m := Of(0)
	for _, e := range tl.Agents {
		m = Max(m, e.Epsilon)
	}
	tl.Max = m
	return tl
}

// add records the releases of iterations upTo … iterations − 1; an
// earlier iteration (a run started again) starts over.
func (t *TightAccount) add(iterations int) error {
	if t.err != nil {
		return t.err
	}
	if iterations < t.upTo {
		t.led, t.upTo = pld.NewLedger(t.agents), 0
	}
	for i := range t.agents {
		t.buf = t.rel.Releases(t.buf[:0], i, t.upTo, iterations, 1)
		for _, c := range t.buf {
			if err := t.led.Add(i, c.Release); err != nil {
				t.err = fmt.Errorf("agent %d, channel %s: %w", i, c.Channel, err)
				return t.err
			}
		}
	}
	t.upTo = iterations
	return nil
}

// entry is the tight bound of composition c for the paper's entry e.
func entry(c *pld.Composition, e Entry) TightEntry {
	te := TightEntry{Delta: e.Delta, Releases: c.Releases(), Epsilon: Infinite()}
	if te.Delta == 0 {
		te.Delta = TightDelta
	}
	if e.Epsilon.NoGuarantee() {
		// Without a finite bound the paper's analysis gives the
		// sensitivities no meaning: nothing tighter can be claimed.
		te.Method, te.Reason = "none", "the paper's analysis gives no finite bound here"
		if e.Reason != "" {
			te.Reason += ": " + e.Reason
		}
		return te
	}
	b, err := c.Epsilon(te.Delta)
	if err != nil {
		te.Method, te.Reason = "none", err.Error()
		return te
	}
	te.Method = b.Method
	if te.Delta < b.Resolved {
		te.Note = fmt.Sprintf("δ = %.3g is below what the discretization resolves (%.2g): ε stays an upper bound, but its error includes the transform's rounding and may pass 1 %%", te.Delta, b.Resolved)
	}
	switch {
	case math.IsInf(b.Log10, 1) && b.Method == pld.MethodPLD:
		te.Reason = fmt.Sprintf("no finite ε is proved at δ = %.3g: the discretization's rounding, or its cut tails, reach δ", te.Delta)
	case math.IsInf(b.Log10, 1):
		te.Reason = b.Method
	case math.IsInf(b.Epsilon, 1):
		te.Epsilon = OfLog10(b.Log10)
	default:
		te.Epsilon, te.Error = Of(b.Epsilon), b.Error
		if math.IsNaN(b.Error) || math.IsInf(b.Error, 0) {
			te.Error = b.Epsilon // the exact value lies in [0, ε]
		}
	}
	if v := e.Epsilon.Value(); !math.IsInf(v, 0) && !math.IsNaN(v) {
		d, de, err := c.Delta(v)
		if err == nil {
			d = finite(d)
			te.DeltaAtPaper, te.DeltaAtPaperError = &d, finite(de)
		}
	}
	return te
}

// finite returns v, or 0 when it is not a finite number (JSON has none).
func finite(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return v
}

// MostExposed returns the entry of t whose ε is largest (the first of
// equals), and false when t has none.
func MostExposed(t *TightLedger) (TightEntry, bool) {
	if t == nil || len(t.Agents) == 0 {
		return TightEntry{}, false
	}
	best := 0
	for i, e := range t.Agents {
		if m := Max(t.Agents[best].Epsilon, e.Epsilon); m != t.Agents[best].Epsilon {
			best = i
		}
	}
	return t.Agents[best], true
}

// tightEntryBytes is what one distinct release of one agent costs in the
// tight bound's ledger (its ε, its count and its index entry, with the
// slices' and the map's growth), measured by cmd/dpsim's
// TestMemoryEstimatesCoverMeasuredPeaks at about 49 bytes.
const tightEntryBytes = 64

// tightProbe is how many iterations TightBytes reads an agent's releases
// over to tell whether their ε changes from one iteration to the next.
const tightProbe = 64

// TightBytes estimates what the tight bound of a run of agents agents
// and iterations iterations holds (NewTightAccount): every agent keeps
// one entry per distinct Laplace release ε (Gaussian ones fold into one
// sum, pld's multiset), one per channel when the releases repeat
// (constant noise and sensitivity), more as the run goes when the noise
// decays. It reads agent 0's releases over two windows of tightProbe
// iterations: the ε the second adds that the first had not, it counts for
// every later window (a release every k-th iteration adds about
// tightProbe/k a window, which one window's count alone once missed); 0
// for an accountant that states no releases.
func TightBytes(acc Accountant, agents, iterations int) int64 {
	r, ok := acc.(Releaser)
	if !ok || agents <= 0 || iterations <= 0 {
		return 0
	}
	seen := map[float64]bool{}
	count := func(from, to int) (fresh int64) {
		for _, c := range r.Releases(nil, 0, from, to, 1) {
			if v := c.Release.Sensitivity / c.Release.Scale; c.Release.Mechanism == pld.Laplace && !seen[v] {
				seen[v] = true
				fresh++
			}
		}
		return fresh
	}
	probe := min(iterations, tightProbe)
	perAgent := count(0, probe)
	if iterations > probe {
		if fresh := count(probe, min(iterations, 2*probe)); fresh > 0 {
			windows := (int64(iterations) - int64(probe) + tightProbe - 1) / tightProbe
			perAgent += fresh * windows
		}
	}
	return int64(agents) * perAgent * tightEntryBytes
}
