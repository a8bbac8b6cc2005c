package graph

import "math/rand/v2"

// CompleteParams are the parameters of CompleteKind. The bound on n is
// lower than MaxAgents: the links grow as n².
type CompleteParams struct {
	N int `json:"n" doc:"number of agents" range:"[1, 1000]" required:"true" unit:"agents"`
}

// CompleteKind is the complete graph (Complete).
var CompleteKind = Kind{
	Name:      "complete",
	Title:     "Complete graph",
	Doc:       "every pair of agents linked (at most 1000 agents: the links grow as n²)",
	NewParams: func() any { return &CompleteParams{N: 8} },
	Size: func(params any) (int64, int64) {
		n := int64(params.(*CompleteParams).N)
		return n, n * max(n-1, 0)
	},
	SizeKeys: []string{"n"},
	Build: func(params any, _ *rand.Rand) (*Graph, error) {
		return Complete(params.(*CompleteParams).N)
	},
}
