package rendezvous

import (
	"fmt"
	"math"

	"dpsim/core/objective"
)

// Neighbour implements objective.Neighbouring: agent's target a_i moves
// to the admissible target farthest from it, which changes its gradient
// 2(x − a_i) by the constant 2(a_i − a′_i) at every x, the largest change
// its class allows:
//
//   - the admissible targets are the ball ‖a‖ ≤ a_max of the domain's
//     bound when the problem has a domain, a′_i = −a_max·a_i/‖a_i‖ (the
//     antipode), and otherwise the box [−m, m]^d of the largest target
//     coordinate m of any agent, a′_i the box's corner opposite a_i;
//   - under the bounded-gradient adjacency the move is at most C
//     (‖∇f_i − ∇f′_i‖ ≤ 2C), under the gradient-distance adjacency at
//     most δ/2 in the same direction; a record is the target itself.
//
// A rendezvous serves no stream, so the stream adjacency is refused.
func (p *Rendezvous) Neighbour(agent int, adj objective.Adjacency) (objective.Neighbour, error) {
	if err := objective.CheckAgent(agent, p.Agents()); err != nil {
		return objective.Neighbour{}, err
	}
	a := p.Target(agent)
	far := make([]float64, p.dim)
	where := ""
	if p.radius > 0 {
		nrm := norm(a)
		if nrm == 0 {
			far[0] = p.amax
		} else {
			for c, v := range a {
				far[c] = -p.amax * v / nrm
			}
		}
		where = fmt.Sprintf("the admissible target farthest from it (‖a‖ ≤ a_max = %.6g)", p.amax)
	} else {
		m := 0.0
		for _, v := range p.targets {
			m = math.Max(m, math.Abs(v))
		}
		for c, v := range a {
			far[c] = m
			if v > 0 {
				far[c] = -m
			}
		}
		where = fmt.Sprintf("the corner of the targets' box [−%.6g, %.6g]^%d opposite it", m, m, p.dim)
	}
	move := make([]float64, p.dim)
	for c := range move {
		move[c] = far[c] - a[c]
	}
	dist := norm(move)
	switch adj.Kind {
	case objective.AdjacentBounded:
		if dist > adj.Bound {
			move = objective.Scaled(move, adj.Bound)
			where += fmt.Sprintf(", shortened to ‖a_i − a′_i‖ = C = %g", adj.Bound)
		}
	case objective.AdjacentDistance:
		move = objective.Scaled(move, adj.Bound/2)
		where = fmt.Sprintf("a′_i = a_i moved by δ/2 = %g towards %s", adj.Bound/2, where)
	case objective.AdjacentRecord:
	default:
		return objective.Neighbour{}, objective.NoNeighbour("rendezvous", adj, "a rendezvous agent holds one target, not a stream of samples")
	}
	if norm(move) == 0 {
		return objective.Neighbour{}, objective.NoNeighbour("rendezvous", adj, "every target is 0, so no admissible target differs from agent's")
	}
	q := *p
	q.targets = append([]float64(nil), p.targets...)
	t := q.targets[agent*p.dim : (agent+1)*p.dim]
	for c := range t {
		t[c] += move[c]
	}
	q.opt = make([]float64, p.dim)
	n := float64(p.Agents())
	for i := range p.Agents() {
		for c, v := range q.Target(i) {
			q.opt[c] += v / n
		}
	}
	q.Project(q.opt)
	moved := append([]float64(nil), t...)
	return objective.Neighbour{
		Problem:  &q,
		Change:   fmt.Sprintf("agent %d's target a_%d moved from %s to %s, %s", agent, agent, vec(a), vec(moved), where),
		Gradient: 2 * norm(move),
		Record:   -1,
		Pin: func(params any) any {
			pp := *params.(*Params)
			pp.Targets = q.Targets()
			pp.CommonTarget = false
			return &pp
		},
	}, nil
}

func vec(v []float64) string {
	s := "("
	for i, x := range v {
		if i > 0 {
			s += ", "
		}
		s += fmt.Sprintf("%.4g", x)
	}
	return s + ")"
}
