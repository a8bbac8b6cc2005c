package logistic

import (
	"dpsim/core/objective"
	"dpsim/core/problems/internal/learn"
)

// Neighbour implements objective.Neighbouring: agent's labels flip
// (learn.Relabelled says which, under which adjacency). A flip moves the
// gradient of the sample's loss by the constant b·a (logistic loss) or
// 2b·a (squares) at every x, so f′_i is f_i plus a linear term: the
// change of largest effect a label can make.
//
// The neighbour keeps D's constants (L, the gradient bound) and its x*
// (metrics of an audit's runs are not reported).
func (m *Model) Neighbour(agent int, adj objective.Adjacency) (objective.Neighbour, error) {
	q, change, err := m.flipped(agent, adj)
	if err != nil {
		return objective.Neighbour{}, err
	}
	return objective.Neighbour{Problem: q, Change: change, Record: -1}, nil
}

// Neighbour implements objective.Neighbouring for the composite model:
// the same change, the regulariser kept.
func (c *Composite) Neighbour(agent int, adj objective.Adjacency) (objective.Neighbour, error) {
	q, change, err := c.Model.flipped(agent, adj)
	if err != nil {
		return objective.Neighbour{}, err
	}
	return objective.Neighbour{Problem: &Composite{q}, Change: change, Record: -1}, nil
}

// flipped returns the model with agent's labels flipped as adj allows
// (learn.Relabelled), its signs and packed rows to match.
func (m *Model) flipped(agent int, adj objective.Adjacency) (*Model, string, error) {
	shards, ks, what, err := learn.Relabelled("logistic", m.shards, 2, agent, adj)
	if err != nil {
		return nil, "", err
	}
	q := *m
	q.shards = shards
	if m.signs != nil {
		q.signs = append([][]int8(nil), m.signs...)
		s := append([]int8(nil), m.signs[agent]...)
		for _, k := range ks {
			s[k] = -s[k]
		}
		q.signs[agent] = s
	}
	if m.packed != nil {
		q.packed = append([]*learn.Packed(nil), m.packed...)
		q.packed[agent] = learn.Pack(q.shards[agent])
	}
	return &q, what, nil
}
