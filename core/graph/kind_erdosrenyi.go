package graph

import (
	"math"
	"math/rand/v2"
)

// ErdosRenyiParams are the parameters of ErdosRenyiKind.
type ErdosRenyiParams struct {
	N     int     `json:"n" doc:"number of agents" range:"[1, 2000]" required:"true" unit:"agents"`
	P     float64 `json:"p" doc:"probability that a pair of agents is linked" range:"(0, 1]" required:"true"`
	Tries int     `json:"tries" doc:"redraws until the graph is connected (0: 100, fewer for large n, so that redraws × node pairs ≤ 5e7)" range:"[0, 1000]" unit:"redraws"`
}

// ErdosRenyiKind links every pair independently (ErdosRenyi).
var ErdosRenyiKind = Kind{
	Name:      "erdos-renyi",
	Title:     "Erdős–Rényi graph",
	Doc:       "every pair of agents linked independently with probability p; redrawn until connected",
	NewParams: func() any { return &ErdosRenyiParams{N: 20, P: 0.3} },
	Check: func(params any) error {
		p := params.(*ErdosRenyiParams)
		_, err := Redraws(p.N, p.Tries)
		return err
	},
	// The expected links.
	Size: func(params any) (int64, int64) {
		p := params.(*ErdosRenyiParams)
		n := int64(p.N)
		return n, int64(math.Ceil(float64(n*max(n-1, 0)) * math.Min(1, math.Max(0, p.P))))
	},
	SizeKeys: []string{"n", "p"},
	Random:   true,
	Build: func(params any, r *rand.Rand) (*Graph, error) {
		p := params.(*ErdosRenyiParams)
		tries, err := Redraws(p.N, p.Tries)
		if err != nil {
			return nil, err
		}
		return ErdosRenyi(p.N, p.P, tries, r)
	},
}
