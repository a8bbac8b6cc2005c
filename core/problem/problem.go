// Package problem holds the optimization problems agents solve together:
// each agent i holds a private objective f_i, and the network minimises
// the aggregate the problem's paper defines (a sum or an average).
package problem

// Problem is a decentralized problem over R^Dim with one private
// objective per agent.
type Problem interface {
	// Kind names the problem, e.g. "rendezvous".
	Kind() string
	// Agents returns the number of agents (private objectives).
	Agents() int
	// Dim returns the dimension of the decision variable.
	Dim() int
	// Value returns f_i(x).
	Value(i int, x []float64) float64
	// Grad writes ∇f_i(x) into out (len Dim).
	Grad(i int, x, out []float64)
	// Objective returns the global objective at a common point x, as the
	// problem's paper writes it (for example (1/n)·Σ_i f_i(x)).
	Objective(x []float64) float64
	// Optimum returns a minimiser of the global objective computed
	// centrally, or nil when the problem has none to offer (nonconvex).
	Optimum() []float64
}

// Planar is implemented by problems whose agents hold a point in the plane
// (Dim = 2) worth drawing, like the rendezvous targets.
type Planar interface {
	Points() [][2]float64
}

// Smooth is implemented by problems that know their constants: every f_i
// is μ-strongly convex and L-smooth. Algorithms use them to check the step
// size against their theorems (warnings only).
type Smooth interface {
	Smoothness() (mu, l float64)
}
