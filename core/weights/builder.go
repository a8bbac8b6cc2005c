package weights

import (
	"dpsim/core/check"
	"dpsim/core/graph"
)

// Builder is a weight-matrix builder described for the scenario loader
// and the page: a plug-in that a scenario's weights section (or a role's
// section) names by its kind, with the parameters it reads declared as a
// tagged struct (core/param: json, doc, range, options), so that a form
// can be drawn from it and a key the builder does not read can be refused.
//
// A Builder is registered in one line in core/scenario/registry.go.
type Builder struct {
	// Name is the kind in scenario files, e.g. "metropolis".
	Name string
	// Title is the name shown to people.
	Title string
	// Doc is one line saying what the matrix is.
	Doc string
	// Directed reports whether the builder accepts directed graphs.
	Directed bool
	// NewParams returns a pointer to a fresh parameter struct holding the
	// defaults. Besides the core/param tags, a field tagged
	// required:"true" must be given by a scenario: its default only fills
	// a form.
	NewParams func() any
	// Build builds the matrix on g from parameters inside their declared
	// ranges, naming fields "weights.<key>" in errors.
	Build func(params any, g *graph.Graph) (*Matrix, error)
}

// NoParams is the parameter struct of a builder that reads none: the
// matrix follows from the graph alone.
type NoParams struct{}

// fromGraph describes a builder that reads nothing but the graph.
func fromGraph(kind, title string, build func(*graph.Graph) (*Matrix, error)) Builder {
	info := infoOf(kind)
	return Builder{
		Name: kind, Title: title, Doc: info.Description, Directed: info.Directed,
		NewParams: func() any { return &NoParams{} },
		Build:     func(_ any, g *graph.Graph) (*Matrix, error) { return build(g) },
	}
}

func infoOf(kind string) KindInfo {
	for _, k := range kinds {
		if k.Kind == kind {
			return k
		}
	}
	panic("weights: no kind " + kind)
}

// The builders of the matrices that follow from the graph alone.
var (
	MetropolisBuilder             = fromGraph(KindMetropolis, "Metropolis–Hastings", Metropolis)
	LaplacianBuilder              = fromGraph(KindLaplacian, "Laplacian", Laplacian)
	NormalizedLaplacianBuilder    = fromGraph(KindNormalizedLaplacian, "Normalised Laplacian", NormalizedLaplacian)
	SymNormalizedLaplacianBuilder = fromGraph(KindSymNormalizedLaplacian, "Symmetric normalised Laplacian", SymNormalizedLaplacian)
	RowStochasticBuilder          = fromGraph(KindRowStochastic, "Row-stochastic (pull)", RowStochastic)
	ColumnStochasticBuilder       = fromGraph(KindColumnStochastic, "Column-stochastic (push)", ColumnStochastic)
	RandomWalkBuilder             = fromGraph(KindRandomWalk, "Random walk", RandomWalk)
)

// LDPLaplacianParams are the parameters of LDPLaplacianBuilder.
type LDPLaplacianParams struct {
	C float64 `json:"c" doc:"edge weight c of W = −c·L" range:"(0, inf)" required:"true"`
}

// LDPLaplacianBuilder builds W = −c·L (LDPLaplacian).
var LDPLaplacianBuilder = Builder{
	Name: KindLDPLaplacian, Title: "Negative Laplacian −c·L", Doc: infoOf(KindLDPLaplacian).Description,
	NewParams: func() any { return &LDPLaplacianParams{C: 0.1} },
	Build: func(params any, g *graph.Graph) (*Matrix, error) {
		return LDPLaplacian(g, params.(*LDPLaplacianParams).C)
	},
}

// MatrixParams are the parameters of MatrixBuilder.
type MatrixParams struct {
	Matrix [][]float64 `json:"matrix" doc:"the n × n matrix, one row of n numbers per agent" required:"true"`
}

// MatrixBuilder takes an explicit dense matrix.
var MatrixBuilder = Builder{
	Name: KindMatrix, Title: "Explicit matrix", Doc: infoOf(KindMatrix).Description, Directed: true,
	NewParams: func() any {
		return &MatrixParams{Matrix: [][]float64{{0.5, 0.5}, {0.5, 0.5}}}
	},
	Build: func(params any, g *graph.Graph) (*Matrix, error) {
		rows := params.(*MatrixParams).Matrix
		if len(rows) != g.N {
			return nil, check.Errorf(fieldRows, "must have one row per agent: %d, got %d", g.N, len(rows))
		}
		for i, r := range rows {
			if len(r) != g.N {
				return nil, check.Errorf(check.Index(fieldRows, i), "must have %d entries, got %d", g.N, len(r))
			}
			if err := check.AllFinite(check.Index(fieldRows, i), r); err != nil {
				return nil, err
			}
		}
		return Build(Spec{Kind: KindMatrix, Rows: rows}, g)
	},
}

// EntriesParams are the parameters of EntriesBuilder.
type EntriesParams struct {
	Entries [][]float64 `json:"entries" doc:"every nonzero entry, diagonal included, as [i, j, w] with i, j agents from 0 to n − 1" required:"true"`
}

// EntriesBuilder takes an explicit matrix as its nonzero entries, the
// form pinned scenarios write.
var EntriesBuilder = Builder{
	Name: KindEntries, Title: "Explicit entries", Doc: infoOf(KindEntries).Description, Directed: true,
	NewParams: func() any {
		return &EntriesParams{Entries: [][]float64{{0, 0, 0.5}, {0, 1, 0.5}, {1, 0, 0.5}, {1, 1, 0.5}}}
	},
	Build: func(params any, g *graph.Graph) (*Matrix, error) {
		// FromTriples checks the entries (arity, whole indices in range,
		// finite weights, no duplicates), naming weights.entries[k].
		return Build(Spec{Kind: KindEntries, Entries: params.(*EntriesParams).Entries}, g)
	},
}
