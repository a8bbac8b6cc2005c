package zcdpgauss

import (
	"fmt"

	"dpsim/core/sim"
)

// Buffers pairs names with an algorithm's own buffers, each a state
// variable of dimension dim, in the order State lists them. State copies
// the result (Snapshot) and Resume restores into it (method.Restore), so
// that the names and their order are written once per algorithm.
func Buffers(dim int, names []string, bufs ...[]float64) []sim.Var {
	if len(names) != len(bufs) {
		// A programming error in a plug-in, never a user's input.
		panic(fmt.Sprintf("zcdpgauss: %d state names for %d buffers", len(names), len(bufs)))
	}
	vs := make([]sim.Var, len(names))
	for k, name := range names {
		vs[k] = sim.Var{Name: name, Dim: dim, Data: bufs[k]}
	}
	return vs
}

// Snapshot returns a copy of vars whose Data no longer alias the
// algorithm's buffers, for sim.Algorithm.State.
func Snapshot(vars []sim.Var) []sim.Var {
	out := make([]sim.Var, len(vars))
	for k, v := range vars {
		out[k] = sim.Var{Name: v.Name, Dim: v.Dim, Data: append([]float64(nil), v.Data...)}
	}
	return out
}
