package learn

import (
	"fmt"

	"dpsim/core/objective"
)

// Relabelled returns shards with agent's labels moved to the next class
// ((y + 1) mod classes) as adj allows, and what changed in words: every
// label of the agent for the bounded-gradient adjacency (admissible
// data, so the problem's declared gradient bound still holds), the label
// of its sample with the largest ‖a‖ for the record adjacency, that of
// the sample its stream draws once (adj.Sample) for the stream
// adjacency. The gradient-distance adjacency is refused: a label moves
// the gradient by a fixed amount. It returns the view
// rows changed too; kind names the problem in errors.
func Relabelled(kind string, shards []Rows, classes, agent int, adj objective.Adjacency) (out []Rows, ks []int, what string, err error) {
	if err := objective.CheckAgent(agent, len(shards)); err != nil {
		return nil, nil, "", err
	}
	r := shards[agent]
	moved := "moved to the next class"
	if classes == 2 {
		moved = "flipped"
	}
	switch adj.Kind {
	case objective.AdjacentBounded:
		ks = r.All()
		what = fmt.Sprintf("every one of agent %d's %d labels %s", agent, len(ks), moved)
	case objective.AdjacentRecord:
		k := r.Largest()
		ks = []int{k}
		what = fmt.Sprintf("the label of agent %d's sample %d (row %d of %s, the largest ‖a‖ = %.4g of its shard) %s", agent, k, r.Row(k), r.Set.Name, r.RowNorm(k), moved)
	case objective.AdjacentSample:
		k, err := StreamSample(kind, r, agent, adj)
		if err != nil {
			return nil, nil, "", err
		}
		ks = []int{k}
		what = fmt.Sprintf("the label of agent %d's sample %d (row %d of %s), the one its stream draws once, %s", agent, k, r.Row(k), r.Set.Name, moved)
	default:
		return nil, nil, "", objective.NoNeighbour(kind, adj, "a label moves the agent's gradient by a fixed amount, never by a chosen δ")
	}
	out = append([]Rows(nil), shards...)
	out[agent] = Relabel(r, ks, func(y uint8) uint8 { return uint8((int(y) + 1) % classes) })
	return out, ks, what, nil
}

// StreamSample returns the sample the stream adjacency adj changes in
// view r (adj.Sample, checked), or the refusal when there is none.
func StreamSample(kind string, r Rows, agent int, adj objective.Adjacency) (int, error) {
	if adj.Sample == nil {
		return 0, objective.NoNeighbour(kind, adj, fmt.Sprintf("no sample of agent %d's stream is drawn exactly once in the run, so changing one would change several time slots (or none), beyond the one the adjacency allows: audit fewer iterations", agent))
	}
	if k := *adj.Sample; k < 0 || k >= r.Len() {
		return 0, objective.NoNeighbour(kind, adj, fmt.Sprintf("sample %d is outside agent %d's %d samples", k, agent, r.Len()))
	}
	return *adj.Sample, nil
}
