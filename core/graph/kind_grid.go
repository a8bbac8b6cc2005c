package graph

import (
	"math/rand/v2"

	"dpsim/core/check"
)

// GridParams are the parameters of GridKind.
type GridParams struct {
	Rows int `json:"rows" doc:"rows of the lattice" range:"[1, 5000]" required:"true" unit:"agents"`
	Cols int `json:"cols" doc:"columns of the lattice (rows × cols ≤ 5000 agents)" range:"[1, 5000]" required:"true" unit:"agents"`
}

// GridKind is the rows×cols lattice (Grid).
var GridKind = Kind{
	Name:      "grid",
	Title:     "Grid",
	Doc:       "the rows × cols lattice, agent r·cols + c at row r, column c, drawn at its place",
	NewParams: func() any { return &GridParams{Rows: 3, Cols: 3} },
	Check: func(params any) error {
		p := params.(*GridParams)
		return check.IntRange("graph.cols", p.Cols, 1, MaxAgents/p.Rows)
	},
	Size: func(params any) (int64, int64) {
		p := params.(*GridParams)
		cells := int64(p.Rows) * int64(p.Cols)
		return cells, 4 * cells
	},
	SizeKeys: []string{"rows", "cols"},
	Build: func(params any, _ *rand.Rand) (*Graph, error) {
		p := params.(*GridParams)
		return Grid(p.Rows, p.Cols)
	},
}
