package nonconvex

import (
	"fmt"

	"dpsim/core/objective"
	"dpsim/core/problems/internal/learn"
)

// Neighbour implements objective.Neighbouring. A flipped label moves the
// gradient of its sample's logistic term by the constant y·z/m at every
// x, so f′_i is f_i plus a linear term:
//
//   - bounded-gradient: every label of the agent flips (admissible data:
//     the gradient bound the problem declares still holds);
//   - record: the label of the agent's sample with the largest ‖z‖;
//   - gradient-distance: f′_i = f_i + ⟨v, x⟩ with ‖v‖ = δ, the δ-adjacent
//     function of largest effect (∇f_i moves by δ at every x), v along
//     the change every label's flip would make (DPP²'s and DiaDSP's
//     affine adjacency are about functions, not data);
//   - stream-sample: the label of the sample the run's stream draws
//     exactly once (adj.Sample, which an audit finds), so that the change
//     is in one time slot.
func (c *Classifier) Neighbour(agent int, adj objective.Adjacency) (objective.Neighbour, error) {
	if err := objective.CheckAgent(agent, c.n); err != nil {
		return objective.Neighbour{}, err
	}
	base, m := c.span(agent)
	var ks []int
	var what string
	switch adj.Kind {
	case objective.AdjacentBounded:
		for k := range m {
			ks = append(ks, k)
		}
		what = fmt.Sprintf("every one of agent %d's %d labels flipped", agent, m)
	case objective.AdjacentRecord:
		best := -1.0
		for k := range m {
			z, _ := c.sample(agent, k)
			if nz := learn.Norm(z); nz > best {
				best, ks = nz, []int{k}
			}
		}
		what = fmt.Sprintf("the label of agent %d's sample %d (the largest ‖z‖ = %.4g of its samples) flipped", agent, ks[0], best)
	case objective.AdjacentDistance:
		// Every flip's change, Σ_s y_s z_s/m, scaled to δ.
		v := make([]float64, c.d)
		for k := range m {
			z, y := c.sample(agent, k)
			for t, zt := range z {
				v[t] += y * zt / float64(m)
			}
		}
		if learn.Norm(v) == 0 {
			v[0] = 1
		}
		t := objective.Tilt{Agent: agent, V: objective.Scaled(v, adj.Bound)}
		return objective.Neighbour{Problem: &tilted{Classifier: c, t: t}, Record: -1, Gradient: adj.Bound,
			Change: fmt.Sprintf("agent %d's f_i tilted by ⟨v, x⟩ with ‖v‖ = δ = %g, along the change flipping its labels would make", agent, adj.Bound)}, nil
	case objective.AdjacentSample:
		if adj.Sample == nil || *adj.Sample < 0 || *adj.Sample >= m {
			return objective.Neighbour{}, objective.NoNeighbour("nonconvex-classifier", adj, fmt.Sprintf("no sample of agent %d's stream is drawn exactly once in the run, so changing one would change several time slots (or none), beyond the one the adjacency allows: audit fewer iterations", agent))
		}
		ks = []int{*adj.Sample}
		what = fmt.Sprintf("the label of agent %d's sample %d, the one its stream draws once, flipped", agent, ks[0])
	default:
		return objective.Neighbour{}, objective.NoNeighbour("nonconvex-classifier", adj, "its adjacency kind is unknown")
	}
	q := *c
	q.y = append([]float64(nil), c.y...)
	for _, k := range ks {
		q.y[base+k] = -q.y[base+k]
	}
	return objective.Neighbour{Problem: &q, Change: what, Record: -1}, nil
}

// tilted is the classifier with one agent's f_i tilted (objective.Tilt);
// every other method is the classifier's.
type tilted struct {
	*Classifier
	t objective.Tilt
}

// Value is f_i(x), plus ⟨v, x⟩ for the tilted agent.
func (c *tilted) Value(i int, x []float64) float64 { return c.Classifier.Value(i, x) + c.t.At(i, x) }

// Grad is ∇f_i(x), plus v for the tilted agent.
func (c *tilted) Grad(i int, x, out []float64) {
	c.Classifier.Grad(i, x, out)
	c.t.Grad(i, out)
}

// GradBatch is the batch's gradient, plus v for the tilted agent.
func (c *tilted) GradBatch(i int, x []float64, idx []int, out []float64) {
	c.Classifier.GradBatch(i, x, idx, out)
	c.t.Grad(i, out)
}

// GradAll is every agent's gradient, the tilted agent's plus v.
func (c *tilted) GradAll(x, out []float64) {
	c.Classifier.GradAll(x, out)
	c.t.All(out, c.d)
}

// Objective is Σ_i f_i(x) plus ⟨v, x⟩.
func (c *tilted) Objective(x []float64) float64 {
	return c.Classifier.Objective(x) + c.t.Value(x)
}
