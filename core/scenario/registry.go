package scenario

import (
	"dpsim/core/algorithms/ddgt"
	"dpsim/core/algorithms/diadsp"
	"dpsim/core/algorithms/diffdradt"
	"dpsim/core/algorithms/dpdgt"
	"dpsim/core/algorithms/dpop"
	"dpsim/core/algorithms/gtdp"
	"dpsim/core/graph"
	"dpsim/core/method"
	"dpsim/core/objective"
	"dpsim/core/problems/dispatch"
	"dpsim/core/problems/rendezvous"
	"dpsim/core/problems/ridge"
	"dpsim/core/weights"
)

// The plug-ins a scenario may name. A new algorithm or problem is a new
// package exporting a Factory, plus one line here; nothing else changes.
var (
	factories = registry(
		&gtdp.Factory,
		&dpdgt.Factory,
		&ddgt.Factory,
		&diffdradt.Factory,
		&dpop.Factory,
		&diadsp.Factory,
	)
	problems = registry(
		&rendezvous.Factory,
		&dispatch.Factory,
		&ridge.Factory,
	)
	// Graph kinds and weight builders, in the order messages list them.
	graphKinds = describe(graphKind,
		&graph.RingKind,
		&graph.PathKind,
		&graph.StarKind,
		&graph.CompleteKind,
		&graph.GridKind,
		&graph.RandomGeometricKind,
		&graph.ErdosRenyiKind,
		&graph.EdgesKind,
	)
	weightBuilders = describe(weightBuilder,
		&weights.MetropolisBuilder,
		&weights.LaplacianBuilder,
		&weights.NormalizedLaplacianBuilder,
		&weights.SymNormalizedLaplacianBuilder,
		&weights.RowStochasticBuilder,
		&weights.ColumnStochasticBuilder,
		&weights.RandomWalkBuilder,
		&weights.LDPLaplacianBuilder,
		&weights.MatrixBuilder,
		&weights.EntriesBuilder,
		&weights.RingRDBuilder,
	)
)

// named is what the registry needs of a factory.
type named interface {
	*method.Factory | *objective.Factory
}

func registry[F named](fs ...F) map[string]F {
	m := map[string]F{}
	for _, f := range fs {
		m[nameOf(f)] = f
	}
	return m
}

func nameOf[F named](f F) string {
	switch f := any(f).(type) {
	case *method.Factory:
		return f.Name
	case *objective.Factory:
		return f.Name
	}
	return ""
}

// AlgorithmNames lists the algorithms a scenario may name.
func AlgorithmNames() []string { return sortedKeys(factories) }

// Factories returns the algorithm factories, sorted by name.
func Factories() []*method.Factory {
	var fs []*method.Factory
	for _, n := range AlgorithmNames() {
		fs = append(fs, factories[n])
	}
	return fs
}

// ProblemKinds lists the problem kinds a scenario may name.
func ProblemKinds() []string { return sortedKeys(problems) }

// Problems returns the problem factories, sorted by name.
func Problems() []*objective.Factory {
	var fs []*objective.Factory
	for _, n := range ProblemKinds() {
		fs = append(fs, problems[n])
	}
	return fs
}
