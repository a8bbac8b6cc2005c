package runner

import (
	"math"
	"strconv"
	"strings"

	"dpsim/core/privacy"
)

// LiveTightEvery is how many iterations the page's tight bound may
// lag behind the run: composing every agent's releases takes milliseconds
// to a second, too long for every frame of the page.
const LiveTightEvery = 256

// TrackTight makes the run's ledger carry the tight bound beside the
// paper's (privacy.TightAccount, docs/privacy-truth.md): the CLI's and
// the page's runs, whose exports then hold it; not the experiment
// engine's. Call it before the run advances, or at any time: the releases
// are replayed from the start.
func (r *Runner) TrackTight() {
	r.tight = privacy.NewTightAccount(r.b.Accountant, r.b.Env.Problem.Agents())
}

// TrackTightUnless is TrackTight, or, when reason is not empty (the
// tight bound would not fit the run's memory: scenario.Built.KeepTight),
// a ledger whose tight bound is absent and says why in that one line.
func (r *Runner) TrackTightUnless(reason string) {
	if reason != "" {
		r.tight, r.tightOff = nil, reason
		return
	}
	r.TrackTight()
}

// LedgerWithin is Ledger with a tight bound up to age iterations old
// while the run goes on (current once it is done): the page's live
// readout, at age LiveTightEvery. Exports use Ledger.
func (r *Runner) LedgerWithin(age int) privacy.Ledger {
	if r.Done() {
		age = 0
	}
	return r.ledger(age)
}

// tightMeta is what the CSV's header says of the tight bound, when the run
// keeps it: every agent's tight ε, its error and its δ at the current
// iteration (the export's privacy.tight), in agent order, "+Inf" where
// there is no finite bound; or why there is none.
func (r *Runner) tightMeta() []string {
	if r.tight == nil {
		return nil
	}
	t := r.Ledger().Tight
	head := "epsilon_tight_note: every agent's tight bound on ε after " + strconv.Itoa(t.Iterations) +
		" iterations, the releases its paper charges composed exactly (docs/privacy-truth.md)"
	if t.Reason != "" {
		return []string{head + ": none, " + t.Reason}
	}
	var eps, errs, deltas []string
	for _, e := range t.Agents {
		v := e.Epsilon.Value()
		if e.Epsilon.NoGuarantee() {
			v = math.Inf(1)
		}
		eps = append(eps, strconv.FormatFloat(epsValue(v), 'g', -1, 64))
		errs = append(errs, strconv.FormatFloat(e.Error, 'g', -1, 64))
		deltas = append(deltas, strconv.FormatFloat(e.Delta, 'g', -1, 64))
	}
	return []string{head,
		"epsilon_tight: " + strings.Join(eps, ","),
		"epsilon_tight_error: " + strings.Join(errs, ","),
		"epsilon_tight_delta: " + strings.Join(deltas, ","),
	}
}
