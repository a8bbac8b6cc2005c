package softmax

import (
	"dpsim/core/objective"
	"dpsim/core/problems/internal/learn"
)

// Neighbour implements objective.Neighbouring: agent's labels move to
// the next class (learn.Relabelled says which, under which adjacency).
// The neighbour keeps D's constants (L) and its x* (metrics of an
// audit's runs are not reported).
func (m *Model) Neighbour(agent int, adj objective.Adjacency) (objective.Neighbour, error) {
	shards, _, what, err := learn.Relabelled("softmax", m.shards, m.k, agent, adj)
	if err != nil {
		return objective.Neighbour{}, err
	}
	q := *m
	q.shards = shards
	return objective.Neighbour{Problem: &q, Change: what, Record: -1}, nil
}
