package objective

import (
	"fmt"
	"math"

	"dpsim/core/check"
)

// Adjacency kinds: which neighbouring data sets a privacy analysis
// compares. Each names the data of one agent that may change, and how
// much (Adjacency.Bound).
const (
	// AdjacentBounded: the agent's objective f_i may become any other of
	// the problem's class whose gradient is bounded by the same C
	// (Adjacency.Bound), so sup_x ‖∇f_i(x) − ∇f′_i(x)‖₂ ≤ 2C (GT-DP,
	// DPOP, PPDC, DiaDSP).
	AdjacentBounded = "bounded-gradient"
	// AdjacentDistance: f_i and f′_i have sup_x ‖∇f_i(x) − ∇f′_i(x)‖₂ ≤ δ
	// (Adjacency.Bound; DPP²'s and DP-DGT's δ-adjacency).
	AdjacentDistance = "gradient-distance"
	// AdjacentRecord: one record of the agent's data set changes (DP-RECAL
	// and its zCDP baselines); every gradient stays within the problem's
	// bound.
	AdjacentRecord = "record"
	// AdjacentSample: one sample of the agent's stream changes, in one time
	// slot (LDP online and its baselines).
	AdjacentSample = "stream-sample"
)

// AdjacencyKinds lists the kinds, for messages.
var AdjacencyKinds = []string{AdjacentBounded, AdjacentDistance, AdjacentRecord, AdjacentSample}

// Adjacency is the neighbouring relation of a privacy analysis, as an
// audit makes a neighbour from it.
type Adjacency struct {
	// Kind is one of AdjacencyKinds.
	Kind string `json:"kind" doc:"which data of one agent may change: bounded-gradient (f_i within the class of gradient bound C), gradient-distance (sup‖∇f_i − ∇f′_i‖ ≤ δ), record (one record of its data set) or stream-sample (one sample of its stream)"`
	// Bound is C for AdjacentBounded and δ for AdjacentDistance; 0 for
	// the others.
	Bound float64 `json:"bound,omitempty" doc:"C of bounded-gradient, δ of gradient-distance; not used by the other kinds" range:"[0, 1e100]"`
	// Sample, for AdjacentSample, is the index in the agent's shard of the
	// sample to change: one the run's stream draws exactly once, so that
	// the change is in one time slot (an audit finds it from the run's
	// sample cursor). Nil: none found, and the stream adjacency is refused.
	Sample *int `json:"-"`
}

// Validate checks a, naming field (such as "audit.adjacency") in its
// one-line error.
func (a Adjacency) Validate(field string) error {
	switch a.Kind {
	case AdjacentBounded, AdjacentDistance:
		if !(a.Bound > 0 && a.Bound <= 1e100) {
			return check.Errorf(check.Join(field, "bound"), "must be a number in (0, 1e100] for kind %q (got %v)", a.Kind, a.Bound)
		}
	case AdjacentRecord, AdjacentSample:
		if a.Bound != 0 {
			return check.Errorf(check.Join(field, "bound"), "belongs to kinds %q and %q only (got %v for %q)", AdjacentBounded, AdjacentDistance, a.Bound, a.Kind)
		}
	default:
		return check.Errorf(check.Join(field, "kind"), "must be one of %q (got %q)", AdjacencyKinds, a.Kind)
	}
	return nil
}

// String says the adjacency in words.
func (a Adjacency) String() string {
	switch a.Kind {
	case AdjacentBounded:
		return fmt.Sprintf("one agent's f_i replaced by another of the problem's class, both with ‖∇f‖₂ ≤ C = %g", a.Bound)
	case AdjacentDistance:
		return fmt.Sprintf("one agent's f_i replaced by f′_i with sup_x ‖∇f_i(x) − ∇f′_i(x)‖₂ ≤ δ = %g", a.Bound)
	case AdjacentRecord:
		return "one record of one agent's data set changed"
	case AdjacentSample:
		return "one sample of one agent's stream changed, in one time slot"
	}
	return a.Kind
}

// Neighbour is a neighbouring data set: the problem with one agent's data
// changed.
type Neighbour struct {
	// Problem is the neighbouring instance. It declares the same
	// constants as the original (gradient bound, smoothness, domain), so
	// that an algorithm built on it is the same mechanism, and it is
	// read-only like any Problem.
	Problem Problem
	// Change says what changed, in words ("agent 3's target a_3 moved
	// from (1, 2) to (−10, −10)").
	Change string
	// Gradient is sup_x ‖∇f_i(x) − ∇f′_i(x)‖₂ of the change where it is
	// known in closed form (0 when it depends on x in a way the problem
	// does not bound).
	Gradient float64
	// Pin, when not nil, returns from the original's decoded parameters
	// those that rebuild Problem through the problem's factory (a
	// scenario file of the neighbour); nil when its data cannot be
	// written in one (a dataset).
	Pin func(params any) any
	// Record, for AdjacentSample and AdjacentRecord on a problem that
	// serves samples (Stochastic), is the index in the agent's shard of
	// the record that changed; −1 otherwise. An audit counts the times a
	// run draws it: the stream adjacency allows one.
	Record int
}

// Neighbouring is implemented by problems that can make a neighbouring
// data set for a privacy audit (core/audit, docs/privacy-truth.md): the
// same problem with agent's data changed within adj, chosen to change the
// agent's gradients — what its messages carry — as much as adj allows.
// It returns an error naming the reason when it cannot (an adjacency its
// data have no notion of, a class without a bound); an audit is then
// refused with that reason.
type Neighbouring interface {
	Neighbour(agent int, adj Adjacency) (Neighbour, error)
}

// NoNeighbour is the error of a problem that does not implement
// Neighbouring, or of an adjacency a problem cannot honour: one line
// naming the problem, the adjacency and why.
func NoNeighbour(kind string, adj Adjacency, why string) error {
	return fmt.Errorf("the %s problem cannot make a neighbour under the %s adjacency: %s", kind, adj.Kind, why)
}

// CheckAgent returns an error unless 0 ≤ agent < n.
func CheckAgent(agent, n int) error {
	if agent < 0 || agent >= n {
		return check.Errorf("audit.agent", "must be an agent, 0 to %d (got %d)", n-1, agent)
	}
	return nil
}

// Tilt is a change of one agent's objective by a linear term,
// f′_i(x) = f_i(x) + ⟨V, x⟩, so that ∇f′_i = ∇f_i + V everywhere: the
// change of largest effect for a bound on sup‖∇f_i − ∇f′_i‖ (every
// message built from the gradient moves by V at every iteration). It is
// also exactly what flipping the label of one sample does to a logistic
// loss (the sample's features, scaled).
type Tilt struct {
	Agent int
	V     []float64
}

// Value returns ⟨V, x⟩, the change of f_i(x).
func (t *Tilt) Value(x []float64) float64 {
	s := 0.0
	for c, v := range t.V {
		s += float64(v * x[c])
	}
	return s
}

// Add adds V·w to out (the agent's gradient, or w times it in a batch).
func (t *Tilt) Add(out []float64, w float64) {
	for c, v := range t.V {
		out[c] += float64(w * v)
	}
}

// Norm returns ‖V‖₂.
func (t *Tilt) Norm() float64 {
	s := 0.0
	for _, v := range t.V {
		s += float64(v * v)
	}
	return math.Sqrt(s)
}

// Scaled returns v scaled to norm n (v itself when it is zero).
func Scaled(v []float64, n float64) []float64 {
	s := 0.0
	for _, x := range v {
		s += float64(x * x)
	}
	out := append([]float64(nil), v...)
	if s == 0 {
		return out
	}
	f := n / math.Sqrt(s)
	for i := range out {
		out[i] *= f
	}
	return out
}

// Grad adds V to out when i is the tilted agent (out is ∇f_i).
func (t *Tilt) Grad(i int, out []float64) {
	if i == t.Agent {
		t.Add(out, 1)
	}
}

// All adds V to the tilted agent's block of out (every agent's gradient,
// agent-major, d each).
func (t *Tilt) All(out []float64, d int) { t.Add(out[t.Agent*d:(t.Agent+1)*d], 1) }

// At returns the change of f_i(x): ⟨V, x⟩ for the tilted agent, 0 else.
func (t *Tilt) At(i int, x []float64) float64 {
	if i != t.Agent {
		return 0
	}
	return t.Value(x)
}
