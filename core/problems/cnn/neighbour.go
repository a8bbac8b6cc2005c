package cnn

import (
	"dpsim/core/objective"
	"dpsim/core/problems/internal/learn"
)

// Neighbour implements objective.Neighbouring: agent's training labels
// move to the next class (learn.Relabelled says which, under which
// adjacency).
func (m *Model) Neighbour(agent int, adj objective.Adjacency) (objective.Neighbour, error) {
	shards, _, what, err := learn.Relabelled("cnn", m.shards, len(m.shards[0].Set.Classes), agent, adj)
	if err != nil {
		return objective.Neighbour{}, err
	}
	q := *m
	q.shards = shards
	return objective.Neighbour{Problem: &q, Change: what, Record: -1}, nil
}
