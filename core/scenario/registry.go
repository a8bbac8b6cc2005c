package scenario

import (
	"fmt"
	"reflect"
	"runtime"

	"dpsim/core/algorithms/ddgt"
	"dpsim/core/algorithms/diadsp"
	"dpsim/core/algorithms/diffdradt"
	"dpsim/core/algorithms/dmod"
	"dpsim/core/algorithms/dola"
	"dpsim/core/algorithms/dpadmm"
	"dpsim/core/algorithms/dpdgt"
	"dpsim/core/algorithms/dpextra"
	"dpsim/core/algorithms/dpmradmm"
	"dpsim/core/algorithms/dpnids"
	"dpsim/core/algorithms/dpop"
	"dpsim/core/algorithms/dpp2"
	"dpsim/core/algorithms/dprwadmm"
	"dpsim/core/algorithms/dsgd"
	"dpsim/core/algorithms/gtdp"
	"dpsim/core/algorithms/ldol"
	"dpsim/core/algorithms/ldponline"
	"dpsim/core/algorithms/ppdc"
	"dpsim/core/algorithms/recal"
	"dpsim/core/graph"
	"dpsim/core/method"
	"dpsim/core/objective"
	"dpsim/core/problems/cnn"
	"dpsim/core/problems/dispatch"
	"dpsim/core/problems/logistic"
	"dpsim/core/problems/nonconvex"
	"dpsim/core/problems/rendezvous"
	"dpsim/core/problems/ridge"
	"dpsim/core/problems/softmax"
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
		&dpp2.Factory,
		&ppdc.Factory,
		&ldponline.Factory,
		&ldol.Factory,
		&dola.Factory,
		&dmod.Factory,
		&dsgd.Factory,
		&recal.Factory,
		&dpextra.Factory,
		&dpnids.Factory,
		&dpadmm.Factory,
		&dprwadmm.Factory,
		&dpmradmm.Factory,
	)
	problems = registry(
		&rendezvous.Factory,
		&dispatch.Factory,
		&ridge.Factory,
		&logistic.Factory,
		&cnn.Factory,
		&nonconvex.Factory,
		&softmax.Factory,
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

// registry indexes fs by name. Two plug-ins under one name are a
// programming error that would silently shadow one of them, so it panics
// at init with a message naming the name and both plug-ins (newRegistry
// is the same check as an error, for the test).
func registry[F named](fs ...F) map[string]F {
	m, err := newRegistry(fs...)
	if err != nil {
		panic(err)
	}
	return m
}

// newRegistry indexes fs by name, refusing a name given twice or empty.
func newRegistry[F named](fs ...F) (map[string]F, error) {
	m := make(map[string]F, len(fs))
	for _, f := range fs {
		name := nameOf(f)
		if name == "" {
			return nil, fmt.Errorf("scenario: registry: %s has no name", pluginID(f))
		}
		if prev, dup := m[name]; dup {
			return nil, fmt.Errorf("scenario: registry: name %q registered twice: by %s and by %s", name, pluginID(prev), pluginID(f))
		}
		m[name] = f
	}
	return m, nil
}

// pluginID names a plug-in for the registry's errors: its title and the
// package its build function lives in.
func pluginID[F named](f F) string {
	var title string
	var build any
	switch f := any(f).(type) {
	case *method.Factory:
		title, build = f.Title, f.Build
	case *objective.Factory:
		title, build = f.Title, f.Build
	}
	where := "?"
	if v := reflect.ValueOf(build); v.Kind() == reflect.Func && !v.IsNil() {
		if fn := runtime.FuncForPC(v.Pointer()); fn != nil {
			where = fn.Name()
		}
	}
	return fmt.Sprintf("%q (%s)", title, where)
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
