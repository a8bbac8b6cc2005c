// Package problem holds the contract of the optimization problems agents
// solve together — each agent i holds a private objective f_i, and the
// network minimises the aggregate the problem's paper defines (a sum or an
// average) — and the Factory by which a problem kind plugs into scenario
// files. Problem kinds live in their own packages (core/rendezvous, …).
package objective

import (
	"fmt"

	"dpsim/core/check"
	"dpsim/core/data"
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
// worth drawing, like the rendezvous targets. A problem is planar only when
// its Dim is 2: Points returns nil otherwise, and whoever asserts Planar
// checks the dimension too (render/sceneof.Plane).
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

// Smooth is implemented by problems that know their smoothness: every
// f_i is L-smooth (∇f_i is L-Lipschitz) and μ-strongly convex (μ = 0 when
// f_i is only convex, or not convex). Algorithms use them to check the
// step size against their theorems (warnings only) and in their predicted
// errors. L bounds how fast a gradient changes, not the gradient itself:
// the sensitivity of a privacy mechanism comes from Lipschitz, never
// from here.
type Smooth interface {
	Smoothness() (mu, l float64)
}

// SmoothSource is implemented by Smooth problems that say how μ and L
// follow from their data, in a few words, so that a computed constant can
// be shown beside its formula and beside a paper's reported value
// (DPP²'s M̄ = max_i M_i, computed from the data where the paper reports
// 5.03).
type SmoothSource interface {
	Smooth
	SmoothnessSource() string
}

// Lipschitz is implemented by problems that declare a gradient bound C:
// ‖∇f_i(x)‖₂ ≤ C for every agent and every admissible f_i (not only this
// instance's data), where the Bound says — on the problem's domain, or
// everywhere. Each f_i is then C-Lipschitz there. C is the sensitivity
// input of the privacy accountants that assume bounded gradients (GT-DP's
// Assumption 2, the C of Huang, Mitra and Vaidya's DPOP, DP-RECAL's c);
// it is a different quantity from the smoothness L of Smooth.
type Lipschitz interface {
	// GradientBound reports this instance's bound, or ok = false when it
	// declares none (a rendezvous without a domain).
	GradientBound() (b Bound, ok bool)
}

// Bound is a declared gradient bound and where it comes from.
type Bound struct {
	// Value is C.
	Value float64
	// Everywhere reports that the bound holds on all of R^Dim; when false
	// it holds on the problem's domain only (Bounded), so an algorithm
	// that does not project its iterates there must clip its gradients
	// for the bound to hold.
	Everywhere bool
	// Source says how C follows from the problem, in a few words
	// ("2(R + a_max) on the ball ‖x‖ ≤ R, targets in [−a_max/√d, …]").
	Source string
}

// Bounded is implemented by problems posed on a bounded convex domain X,
// onto which projected methods (DPOP) project their iterates. The gradient
// bound that the domain makes real is declared apart, by Lipschitz.
type Bounded interface {
	// HasDomain reports whether this instance has a bounded domain (a
	// kind may offer one only for some parameters).
	HasDomain() bool
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
	// Allocation declares that Build returns an Allocation (a
	// resource-allocation problem), so that a form can pair the problem
	// with the algorithms that solve its form (method.Factory.Solves)
	// before building it; the scenario's tests check the declaration
	// against what Build returns.
	Allocation bool
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
	// Scratch, if set, returns the bytes one gradient call holds while it
	// runs (a network's workspace, say), from the decoded params alone:
	// the memory estimate counts one per gradient running at once (the
	// run's pool: its workers, natively; one in a sweep's run and in the
	// page). Size leaves it out.
	Scratch func(params any) int64
	// Build validates params (naming fields as problem.params.…) and
	// builds the problem on env. It must not modify params: a sweep
	// shares one instance among runs with equal params (Reads).
	Build func(env *Env, params any) (Problem, []check.Warning, error)
	// Pinned returns parameters that rebuild p exactly without drawing
	// anything: every random choice written out.
	Pinned func(p Problem, params any) any
	// PinnedBytes bounds, from the decoded params alone, the text Pinned's
	// data take in an export's pinned scenario for agents agents (drawn
	// targets or samples written out), so that the memory estimate and
	// the replay limit count what is written; nil: Pinned writes the
	// parameters only (a dataset is named, never written).
	PinnedBytes func(params any, agents int) int64
	// Rows returns, for a replay export (record.replay), the pinned
	// parameters with what p drew written out — a synthetic set as the
	// user's inline rows, one source per agent (its shard, in its order)
	// and the test rows; a shuffled deal of a committed dataset's or the
	// user's rows as each agent's row indices; drawn samples by value —
	// so that a replay needs neither the generator nor the seed, and the
	// number of values it writes (counted with the replay arrays, against
	// their size line); nil when p drew nothing (a committed dataset in
	// contiguous blocks, the user's rows per agent) or the rows exceed
	// what the parameters may hold (data.MaxInlineValues for inline
	// rows). nil: the problem writes nothing.
	Rows func(p Problem, params any) (any, int64)
	// Reads declares what of its Env Build reads beyond the number of
	// agents, for the given (decoded) params. Sweeps share one instance
	// among the runs whose Key is equal (see Key); nil means both the
	// data seed and the graph, which is always safe.
	Reads func(params any) Reads
	// Datasets names, for the given (decoded) params, the dataset splits
	// Build loads through core/data, as "name/split" (e.g.
	// "mushrooms/train"), so that the page can fetch them before it builds
	// the scenario; nil or empty means none.
	Datasets func(params any) []string
	// Words is what the page says about the problem: the picture it
	// draws, what its error plot shows, its glossary, its papers.
	Words Words
	// UserData returns, for the given (decoded) params, the user's data
	// Build reads (core/data's UserData: inline rows, or files by name),
	// nil when none, so that the CLI can read the files it names and the
	// page ask for them before building.
	UserData func(params any) *data.UserData
}

// Measured is implemented by problems with metrics of their own beyond
// the generic optimality, consensus and objective (for example the
// supply–demand mismatch of a resource-allocation problem). The runner
// records them beside the generic ones, under these names.
type Measured interface {
	// MetricNames names the extra metrics (JSON keys: lower case, '_').
	MetricNames() []string
	// Measure writes one value per name into out, from the agents'
	// estimates (agent-major, dim values each) or, when the algorithm's
	// estimate is shared (sim.Step.Output: DP-RECAL's baton x), from
	// that one row: a problem then measures every agent at it.
	Measure(estimates []float64, dim int, out []float64)
}

// GradientBoundSource says where an algorithm's gradient bound C comes
// from, for the theory inputs an export shows: the scenario's
// algorithm.params.gradient_bound when given (> 0), else the problem's
// declaration (Lipschitz), else nowhere.
func GradientBoundSource(given float64, p Problem) string {
	if given > 0 {
		return "the scenario (algorithm.params.gradient_bound)"
	}
	if lp, ok := p.(Lipschitz); ok {
		if b, ok := lp.GradientBound(); ok {
			where := "on the problem's domain"
			if b.Everywhere {
				where = "everywhere"
			}
			return fmt.Sprintf("the problem %s, %s: %s", p.Kind(), where, b.Source)
		}
	}
	return "not given"
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
