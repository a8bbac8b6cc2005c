package graph

import (
	"math/rand/v2"

	"dpsim/core/check"
)

// Kind is a graph builder described for the scenario loader and the page:
// a plug-in that a scenario's graph section names by its kind, with the
// parameters it reads declared as a tagged struct (core/param: json, doc,
// range, options), so that a form can be drawn from it and a key the kind
// does not read can be refused.
//
// A Kind is registered in one line in core/scenario/registry.go.
type Kind struct {
	// Name is the key in scenario files, e.g. "ring".
	Name string
	// Title is the name shown to people.
	Title string
	// Doc is one line saying what the builder makes.
	Doc string
	// NewParams returns a pointer to a fresh parameter struct holding the
	// defaults. Besides the core/param tags, a field tagged
	// required:"true" must be given by a scenario: its default only fills
	// a form.
	NewParams func() any
	// Check checks what the tags cannot say (a bound that depends on
	// another parameter, an edge list's entries), after every field is
	// inside its declared range, naming fields "graph.<key>". It runs
	// before the memory estimate, so it must not allocate in proportion
	// to the graph. Nil means nothing more to check.
	Check func(params any) error
	// Size returns the number of agents and an upper bound on the
	// directed links of the graph that checked parameters describe,
	// without building it: the memory estimate's input.
	Size func(params any) (agents, links int64)
	// SizeKeys are the keys that set the size, named by the memory
	// estimate when the graph is too large.
	SizeKeys []string
	// Random reports that Build draws from the graph stream.
	Random bool
	// Build builds the graph from checked parameters, drawing any
	// randomness from r (the scenario's graph stream).
	Build func(params any, r *rand.Rand) (*Graph, error)
}

// MaxPairDraws bounds the work of drawing a random graph: redraws × node
// pairs, so that a scenario cannot ask for minutes of retries.
const MaxPairDraws = 50_000_000

// MaxTries bounds the redraws of a random graph.
const MaxTries = 1000

// DefaultTries is how many times a random graph is redrawn until it is
// connected when the scenario does not say (fewer for large n, within
// MaxPairDraws).
const DefaultTries = 100

// Redraws returns how many times a random graph on n nodes may be drawn
// until it is connected: tries, or DefaultTries when tries is 0, within
// MaxPairDraws. An explicit tries beyond the bound is an error naming
// graph.tries.
func Redraws(n, tries int) (int, error) {
	pairs := max(n*(n-1)/2, 1)
	limit := max(MaxPairDraws/pairs, 1)
	if tries == 0 {
		return min(DefaultTries, limit), nil
	}
	if tries > limit {
		return 0, check.Errorf("graph.tries", "at most %d redraws for %d nodes (redraws × node pairs ≤ %d); got %d", limit, n, MaxPairDraws, tries)
	}
	return tries, nil
}
