package ridge

import (
	"fmt"
	"math"

	"dpsim/core/objective"
)

// Neighbour implements objective.Neighbouring: agent's output v_i moves,
// which moves ∇f_i(x) = 2u_i(u_iᵀx − v_i) + 2ρx by the constant
// −2u_i·Δv at every x. The admissible outputs are the range of every
// agent's output (the problem declares no other), and v′_i is its far end:
// under the bounded-gradient adjacency moved at most C/‖u_i‖ (so that
// ‖∇f_i − ∇f′_i‖ ≤ 2C); under the gradient-distance adjacency by exactly
// δ/(2‖u_i‖) towards it; a record is the agent's one sample. A ridge
// agent holds no stream, so the stream adjacency is refused.
func (r *Ridge) Neighbour(agent int, adj objective.Adjacency) (objective.Neighbour, error) {
	if err := objective.CheckAgent(agent, r.Agents()); err != nil {
		return objective.Neighbour{}, err
	}
	lo, hi := r.outputs[0], r.outputs[0]
	for _, v := range r.outputs {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	v := r.outputs[agent]
	far := lo
	if v-lo < hi-v {
		far = hi
	}
	nu := math.Sqrt(dot(r.Feature(agent), r.Feature(agent)))
	if nu == 0 {
		return objective.Neighbour{}, objective.NoNeighbour("ridge", adj, fmt.Sprintf("agent %d's features are 0, so its output changes no gradient", agent))
	}
	dv := far - v
	where := fmt.Sprintf("the far end of the outputs' range [%.6g, %.6g]", lo, hi)
	switch adj.Kind {
	case objective.AdjacentBounded:
		if math.Abs(dv) > adj.Bound/nu {
			dv = math.Copysign(adj.Bound/nu, dv)
			where += fmt.Sprintf(", shortened to |Δv| = C/‖u_i‖ = %.6g", adj.Bound/nu)
		}
	case objective.AdjacentDistance:
		if dv == 0 {
			dv = 1
		}
		dv = math.Copysign(adj.Bound/(2*nu), dv)
		where = fmt.Sprintf("moved by δ/(2‖u_i‖) = %.6g towards %s", math.Abs(dv), where)
	case objective.AdjacentRecord:
	default:
		return objective.Neighbour{}, objective.NoNeighbour("ridge", adj, "a ridge agent holds one sample, not a stream")
	}
	if dv == 0 {
		return objective.Neighbour{}, objective.NoNeighbour("ridge", adj, "every agent has the same output, so no admissible output differs from agent's")
	}
	q := *r
	q.outputs = append([]float64(nil), r.outputs...)
	q.outputs[agent] += dv
	opt, err := q.solve()
	if err != nil {
		return objective.Neighbour{}, err
	}
	q.opt = opt
	return objective.Neighbour{
		Problem:  &q,
		Change:   fmt.Sprintf("agent %d's output v_%d moved from %.6g to %.6g, %s", agent, agent, v, q.outputs[agent], where),
		Gradient: 2 * nu * math.Abs(dv),
		Record:   -1,
		Pin: func(params any) any {
			p := *params.(*Params)
			p.Features = make([][]float64, q.Agents())
			for i := range p.Features {
				p.Features[i] = append([]float64(nil), q.Feature(i)...)
			}
			p.Outputs = append([]float64(nil), q.outputs...)
			return &p
		},
	}, nil
}
