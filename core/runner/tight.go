package runner

import "dpsim/core/privacy"

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

// LedgerWithin is Ledger with a tight bound up to age iterations old
// while the run goes on (current once it is done): the page's live
// readout, at age LiveTightEvery. Exports use Ledger.
func (r *Runner) LedgerWithin(age int) privacy.Ledger {
	if r.Done() {
		age = 0
	}
	return r.ledger(age)
}
