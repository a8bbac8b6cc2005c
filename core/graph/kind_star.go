package graph

import "math/rand/v2"

// StarParams are the parameters of StarKind.
type StarParams struct {
	N int `json:"n" doc:"number of agents (the centre is agent 0)" range:"[1, 5000]" required:"true" unit:"agents"`
}

// StarKind is the star with centre 0 (Star).
var StarKind = Kind{
	Name:      "star",
	Title:     "Star",
	Doc:       "the star: agent 0 linked to every other agent, no other links",
	NewParams: func() any { return &StarParams{N: 8} },
	Size: func(params any) (int64, int64) {
		n := int64(params.(*StarParams).N)
		return n, 2 * max(n-1, 0)
	},
	SizeKeys: []string{"n"},
	Build: func(params any, _ *rand.Rand) (*Graph, error) {
		return Star(params.(*StarParams).N)
	},
}
