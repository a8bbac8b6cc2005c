package graph

import "math/rand/v2"

// PathParams are the parameters of PathKind.
type PathParams struct {
	N int `json:"n" doc:"number of agents" range:"[1, 5000]" required:"true" unit:"agents"`
}

// PathKind is the path 0–1–…–(n−1) (Path).
var PathKind = Kind{
	Name:      "path",
	Title:     "Path",
	Doc:       "the path 0–1–…–(n−1): the slowest-mixing connected graph",
	NewParams: func() any { return &PathParams{N: 8} },
	Size: func(params any) (int64, int64) {
		n := int64(params.(*PathParams).N)
		return n, 2 * max(n-1, 0)
	},
	SizeKeys: []string{"n"},
	Build: func(params any, _ *rand.Rand) (*Graph, error) {
		return Path(params.(*PathParams).N)
	},
}
