package privacy

import "dpsim/core/pld"

// Charge is one release an accountant charges an agent for: the channel
// that carried it (sim.Release.Channel) and the release as the tight
// accountant composes it — the noise law, its scale, the sensitivity its
// paper's analysis gives for one agent's change of data under the
// paper's adjacency, and how many times it was made (pld.Release.Count).
type Charge struct {
	Agent   int         `json:"agent"`
	Channel string      `json:"channel"`
	Release pld.Release `json:"release"`
}

// Releaser is implemented by an accountant whose paper's bound is a
// composition of releases, each a Laplace or Gaussian mechanism with a
// stated sensitivity: it states those releases, so that core/pld can
// compose them exactly (the tight bound, docs/privacy-truth.md) and an
// audit can test them. Its paper's bound is then at least the tight
// bound of the same releases, up to the conversions the paper uses.
type Releaser interface {
	Accountant
	// Adjacency states, in words, the neighbouring relation of the
	// paper's analysis: which data of one agent may change, and by how
	// much (the bound the sensitivities come from).
	Adjacency() string
	// Releases appends to dst the releases charged to agent for the
	// messages of iterations from … to−1 of a run from the start (a step
	// with Iter = k reports the messages of iteration k − 1), with every
	// noise scale multiplied by factor > 0 (1: the run's own scales).
	// They come in the order of the iterations; a release made several
	// times in a row on one channel may be given once with its Count.
	// The answer depends on the scenario alone (a walk is replayed from
	// its seed), so that a prediction equals what a run charges.
	Releases(dst []Charge, agent, from, to int, factor float64) []Charge
}

// Uncharged is implemented by an accountant whose bound is not a
// composition of releases with stated sensitivities (no privacy analysis,
// or a bound proved another way): the tight accountant does not apply,
// and Uncharged says why, in one sentence the ledger shows.
type Uncharged interface {
	Accountant
	Uncharged() string
}

// StepCharges appends to dst what r charges every agent (0 … agents−1)
// for the step with Iter = iter: the messages of iteration iter − 1 at
// the run's own scales.
func StepCharges(dst []Charge, r Releaser, agents, iter int) []Charge {
	if iter < 1 {
		return dst
	}
	for i := range agents {
		dst = r.Releases(dst, i, iter-1, iter, 1)
	}
	return dst
}
