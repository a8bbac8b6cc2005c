package graph

import "math/rand/v2"

// RingParams are the parameters of RingKind.
type RingParams struct {
	N int `json:"n" doc:"number of agents" range:"[2, 5000]" required:"true" unit:"agents"`
}

// RingKind is the cycle 0–1–…–(n−1)–0 (Ring).
var RingKind = Kind{
	Name:      "ring",
	Title:     "Ring",
	Doc:       "the cycle 0–1–…–(n−1)–0: every agent talks to its two neighbours",
	NewParams: func() any { return &RingParams{N: 8} },
	Size: func(params any) (int64, int64) {
		n := int64(params.(*RingParams).N)
		return n, 2 * n
	},
	SizeKeys: []string{"n"},
	Build: func(params any, _ *rand.Rand) (*Graph, error) {
		return Ring(params.(*RingParams).N)
	},
}
