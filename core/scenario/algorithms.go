package scenario

import (
	"sort"

	"dpsim/core/algo"
	"dpsim/core/gtdp"
)

// factories lists every algorithm a scenario may name. A new algorithm is
// a new package exporting an algo.Factory, plus one line here.
var factories = map[string]*algo.Factory{
	gtdp.Factory.Name: &gtdp.Factory,
}

// AlgorithmNames lists the algorithms a scenario may name.
func AlgorithmNames() []string {
	var ns []string
	for n := range factories {
		ns = append(ns, n)
	}
	sort.Strings(ns)
	return ns
}

// Factories returns the algorithm factories, sorted by name.
func Factories() []*algo.Factory {
	var fs []*algo.Factory
	for _, n := range AlgorithmNames() {
		fs = append(fs, factories[n])
	}
	return fs
}
