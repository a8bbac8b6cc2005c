package graph

import (
	"math"
	"math/rand/v2"
)

// RandomGeometricParams are the parameters of RandomGeometricKind.
type RandomGeometricParams struct {
	N      int     `json:"n" doc:"number of agents" range:"[1, 2000]" required:"true" unit:"agents"`
	Radius float64 `json:"radius" doc:"agents closer than this in the unit square are linked" range:"(0, 2]" required:"true" unit:"unit-square lengths"`
	Tries  int     `json:"tries" doc:"redraws until the graph is connected (0: 100, fewer for large n, so that redraws × node pairs ≤ 5e7)" range:"[0, 1000]" unit:"redraws"`
}

// RandomGeometricKind draws points in the unit square and links those
// within a radius (RandomGeometric).
var RandomGeometricKind = Kind{
	Name:      "random-geometric",
	Title:     "Random geometric graph",
	Doc:       "n points drawn uniformly in the unit square, linked within a radius; redrawn until connected",
	NewParams: func() any { return &RandomGeometricParams{N: 20, Radius: 0.4} },
	Check: func(params any) error {
		p := params.(*RandomGeometricParams)
		_, err := Redraws(p.N, p.Tries)
		return err
	},
	// The expected links, a disc of the radius around each point (an
	// over-count at the square's edges).
	Size: func(params any) (int64, int64) {
		p := params.(*RandomGeometricParams)
		n := int64(p.N)
		return n, int64(math.Ceil(float64(n*max(n-1, 0)) * math.Min(1, math.Pi*p.Radius*p.Radius)))
	},
	SizeKeys: []string{"n", "radius"},
	Random:   true,
	Build: func(params any, r *rand.Rand) (*Graph, error) {
		p := params.(*RandomGeometricParams)
		tries, err := Redraws(p.N, p.Tries)
		if err != nil {
			return nil, err
		}
		return RandomGeometric(p.N, p.Radius, tries, r)
	},
}
