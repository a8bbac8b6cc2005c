package method

import "dpsim/core/objective"

// Adjacent is implemented by algorithms whose paper's privacy analysis
// compares data sets that differ in one agent's data under a stated
// adjacency: an audit (core/experiment, docs/privacy-truth.md) makes the
// neighbouring data set from it through the problem
// (objective.Neighbouring). The bound is the one this run's parameters
// give (GT-DP's C, DPP²'s δ), so that the neighbour stays within what
// the ledger's ε covers.
type Adjacent interface {
	Adjacency() objective.Adjacency
}
