// Package problem holds the contract of the optimization problems agents
// solve together — each agent i holds a private objective f_i, and the
// network minimises the aggregate the problem's paper defines (a sum or an
// average) — and the Factory by which a problem kind plugs into scenario
// files. Problem kinds live in their own packages (core/rendezvous, …).
package objective

import (
	"dpsim/core/check"
	"dpsim/core/graph"
	"dpsim/core/rng"
)

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

// Batch is implemented by problems that compute every agent's gradient
// in one call: ∇f_i(x_i) for all i, agent-major. Hot loops prefer it to
// n calls of Grad (a call costs under WebAssembly).
type Batch interface {
	GradAll(x, out []float64)
}

// Planar is implemented by problems whose agents hold a point in the plane
// (Dim = 2) worth drawing, like the rendezvous targets.
type Planar interface {
	Points() [][2]float64
}

// Allocation is a resource-allocation problem: agent i decides its own
// w_i in a closed convex set W_i ⊂ R^Dim at a private cost F_i(w_i) and
// holds a private demand d_i; the network minimises Σ_i F_i(w_i) subject
// to the coupling constraint Σ_i w_i = Σ_i d_i.
//
// Its Problem methods describe the dual in price form, which is what dual
// methods (DP-DGT) solve: with the best response w_i(p) =
// argmin_{w∈W_i} F_i(w) − pᵀw, agent i's dual objective is
// h_i(p) = pᵀw_i(p) − F_i(w_i(p)) − pᵀd_i, its gradient w_i(p) − d_i,
// and Optimum is the optimal price λ*, the common minimiser of Σ_i h_i.
// An algorithm on an Allocation reports the allocations w_i as its
// estimates and the prices in sim.Step.Prices.
type Allocation interface {
	Problem
	// Demand returns d_i. The slice must not be modified.
	Demand(i int) []float64
	// Respond writes agent i's best response to price p,
	// argmin_{w∈W_i} F_i(w) − pᵀw, into out.
	Respond(i int, p, out []float64)
	// Cost returns F_i(w).
	Cost(i int, w []float64) float64
	// Allocation returns the optimal allocation w*, agent-major, computed
	// centrally.
	Allocation() []float64
	// Fixed reports whether W_i is the single point {0} (an agent with
	// nothing to allocate, like a bus without a generator): its cost never
	// influences what it sends.
	Fixed(i int) bool
	// StrongConvexity returns μ: every F_i of an agent that is not Fixed
	// is μ-strongly convex.
	StrongConvexity() float64
}

// Smooth is implemented by problems that know their constants: every f_i
// is μ-strongly convex and L-smooth. Algorithms use them to check the step
// size against their theorems (warnings only).
type Smooth interface {
	Smoothness() (mu, l float64)
}

// Bounded is implemented by problems posed on a bounded convex domain X,
// so that the bounded-gradient assumption of the papers (GT-DP's
// Assumption 2, the C of Huang, Mitra and Vaidya's DPOP) holds with a
// real constant rather than a user's guess.
type Bounded interface {
	// Domain reports whether this instance has a bounded domain, and C,
	// a bound on ‖∇f_i(x)‖₂ over X for every admissible f_i (not only
	// this instance's data).
	Domain() (c float64, ok bool)
	// Project replaces x by its Euclidean projection onto X; it does
	// nothing when the instance has no domain.
	Project(x []float64)
}

// Env is what a problem is built on: the network (some problems place
// data on particular agents) and the data seed, from which every random
// draw of the problem's data comes.
type Env struct {
	Graph *graph.Graph
	// Seeds are the run's stream seeds; problems draw from
	// rng.New(Seeds.Data, label) with a label of their own.
	Seeds rng.Seeds
}

// Agents returns the number of agents, one private objective each.
func (e *Env) Agents() int { return e.Graph.N }

// Factory builds one kind of problem from the scenario's "problem"
// section: {"kind": Name, "params": {…}}. Each problem kind lives in its
// own package exporting a Factory, registered in one line in
// core/scenario/registry.go.
type Factory struct {
	// Name is the key in scenario files, e.g. "rendezvous".
	Name string
	// Title is the name shown to people.
	Title string
	// Source cites where the problem comes from.
	Source string
	// NewParams returns a pointer to a parameter struct holding the
	// defaults; the scenario loader decodes the user's parameters into it
	// strictly (unknown keys are errors) and checks its param tags.
	NewParams func() any
	// Size returns the dimension of the decision variable and the bytes
	// of data the problem will hold for agents agents, from the decoded
	// params alone — the scenario's memory estimate calls it before
	// anything is built. Params that Build would reject may give any
	// answer here.
	Size func(params any, agents int) (dim int, dataBytes int64)
	// Build validates params (naming fields as problem.params.…) and
	// builds the problem on env.
	Build func(env *Env, params any) (Problem, []check.Warning, error)
	// Pinned returns parameters that rebuild p exactly without drawing
	// anything: every random choice written out.
	Pinned func(p Problem, params any) any
}

// Measured is implemented by problems with metrics of their own beyond
// the generic optimality, consensus and objective (for example the
// supply–demand mismatch of a resource-allocation problem). The runner
// records them beside the generic ones, under these names.
type Measured interface {
	// MetricNames names the extra metrics (JSON keys: lower case, '_').
	MetricNames() []string
	// Measure writes one value per name into out, from the agents'
	// estimates (agent-major, dim values each).
	Measure(estimates []float64, dim int, out []float64)
}

// Stochastic is implemented by problems that serve samples: agent i's
// objective is an average over a private shard of Samples(i) samples
// (LDP online's stream of observations, DP-RECAL's minibatches), and an
// algorithm may use the gradient on a batch of them instead of ∇f_i.
//
// The problem stays read-only: which samples an agent visits, and in what
// order, is the run's business (method.Env.Samples hands each agent a
// cursor whose position checkpoints save), so one problem instance can be
// shared by every run of a sweep.
type Stochastic interface {
	Problem
	// Samples returns the size of agent i's shard (at least 1).
	Samples(i int) int
	// GradBatch writes into out (len Dim) the gradient at x of the
	// average of agent i's losses over the samples idx (each in
	// [0, Samples(i)), repeats allowed): (1/|idx|)·Σ_{j∈idx} ∇ℓ_i(x; j).
	GradBatch(i int, x []float64, idx []int, out []float64)
}
