// Package algo holds what every algorithm offers the scenario loader: a
// Factory that declares the algorithm's noise channels, state variables and
// parameters, and builds it on a validated environment.
//
// Each algorithm lives in its own package (core/gtdp, …) and exports one
// Factory; the scenario package lists them.
package method

import (
	"fmt"
	"sort"

	"dpsim/core/check"
	"dpsim/core/graph"
	"dpsim/core/noise"
	"dpsim/core/objective"
	"dpsim/core/pool"
	"dpsim/core/privacy"
	"dpsim/core/rng"
	"dpsim/core/sim"
	"dpsim/core/weights"
)

// Env is the validated problem instance an algorithm is built on.
type Env struct {
	Graph   *graph.Graph
	Weights *weights.Matrix
	// Report is the property analysis of Weights on Graph.
	Report weights.Report
	// Matrices holds the weight matrix of every role the factory declares
	// (Factory.Matrices), and Reports their analyses; both are nil for an
	// algorithm with one matrix. Weights and Report then hold the first
	// role's.
	Matrices map[string]*weights.Matrix
	Reports  map[string]weights.Report
	Problem  objective.Problem
	// Noise holds one validated spec per channel the factory declares.
	Noise map[string]*noise.Spec
	Seeds rng.Seeds
	// Streams registers every stream the run draws from (Sampler,
	// AlgorithmStream), so checkpoints can save their positions. Build
	// sets it; a nil Streams is created on first use.
	Streams *rng.Registry
	// Init holds initial states by variable name, one row per agent, each
	// of length Problem.Dim(), or one row for a shared variable
	// (Factory.Shared); a variable not listed starts at 0.
	Init map[string][][]float64
	// PinnedDraws holds the algorithm's draws the scenario pins, by the
	// name the factory declares (Factory.Draws); Draws serves them.
	PinnedDraws map[string][]float64
	// SampleMode is how agents' sample cursors walk their shards when
	// the order is not pinned: Shuffle (the default), Replace or InOrder.
	SampleMode string
	// SampleOrder pins every agent's sample order (one list per agent,
	// cycled); nil draws it from the data seed.
	SampleOrder [][]int
	// Iterations is the run's length, the scenario's iterations: what a
	// pinned draw that must cover the run (a walk) is checked against.
	Iterations int
	// Counting makes Positions count every source's draws, for a replay
	// export (record.replay).
	Counting bool
	// SampleRate is how many samples each agent's cursor serves per
	// iteration, as the algorithm says when it asks for cursors (the
	// online methods' batch); 0 means 1. It only sizes a replay export.
	SampleRate int
	// Pool runs the independent per-agent work of an iteration
	// (objective.Grads, pool.Each) on the run's workers. It is no part of
	// the scenario: the results are the same bits on any number of
	// workers. nil runs everything on the calling goroutine.
	Pool *pool.Pool

	sources  []*Source
	cursors  []*Cursor
	samplers []channelSampler
}

// Channel describes one noise channel of an algorithm.
type Channel struct {
	Name string
	// Dist is the distribution the paper uses (noise.Laplace or
	// noise.Gaussian); the scenario may not change it.
	Dist        string
	Description string
	// PerIteration bounds the draws the channel makes per iteration for
	// agents agents in dimension dim, which sizes a replay export; nil
	// means agents·dim (every agent noises a vector). A relay's holder
	// alone noises one (DP-RECAL: dim).
	PerIteration func(agents, dim int) int
}

// Draws returns c's draws per iteration (PerIteration, or agents·dim).
func (c Channel) Draws(agents, dim int) int64 {
	if c.PerIteration != nil {
		return int64(c.PerIteration(agents, dim))
	}
	return int64(agents) * int64(dim)
}

// Roles of weight matrices that a scenario's weights section may name
// (see MatrixRole).
const (
	// RolePull is the matrix with which an agent weighs the values it
	// pulls from its in-neighbours (row-stochastic R of push–pull methods).
	RolePull = "pull"
	// RolePush is the matrix whose column i splits what agent i pushes to
	// its out-neighbours (column-stochastic C of push–pull methods).
	RolePush = "push"
)

// MatrixRole is one of the weight matrices of an algorithm that mixes
// with more than one: the scenario's weights section then holds one
// section per role, each optional.
type MatrixRole struct {
	// Role is the section's key: RolePull or RolePush.
	Role string
	// Default is the weights kind built when the scenario gives none
	// (e.g. "row-stochastic").
	Default string
	// Description says what the matrix does, in the paper's notation.
	Description string
}

// Factory builds one algorithm.
type Factory struct {
	// Name is the key in scenario files, e.g. "gt-dp".
	Name string
	// Title is the name shown to people.
	Title string
	// Paper cites the source.
	Paper string
	// Channels lists the noise channels the algorithm adds.
	Channels []Channel
	// States lists the per-agent state variables, the estimate first.
	States []string
	// Shared lists the state variables that belong to no agent — the
	// baton (ũ, x) a relay algorithm passes around (DP-RECAL). Each is
	// one row: a scenario pins it as init.<name> = [[…]], and State
	// reports it as a sim.Var whose Data is one row of its Dim.
	Shared []SharedVar
	// Output names the shared variable that is the algorithm's estimate
	// (sim.Step.Output); empty when the estimate is per agent.
	Output string
	// Prox reports that the algorithm minimises a composite problem's
	// nonsmooth part through its proximal operator (objective.Composite,
	// DP-RECAL's prox of n·r). An algorithm without it is refused on a
	// composite problem: it would quietly minimise the smooth part alone.
	Prox bool
	// Solves declares the form of problem the algorithm solves: a plain
	// minimisation (objective.Problem) or a resource allocation
	// (objective.Allocation, whose Problem methods are the price dual).
	// The scenario refuses any other pairing at build time, naming both:
	// a minimisation method on an allocation would run on the dual with
	// no allocation to report, an allocation method on a plain problem
	// has no best response to call. Every factory must declare it.
	Solves Form
	// Matrices lists the weight matrices by role for an algorithm that
	// mixes with more than one (DP-DGT pulls with R and pushes with C);
	// nil means one matrix, the scenario's weights section.
	Matrices []MatrixRole
	// RootedDigraphs reports that the algorithm checks its own, weaker
	// connectivity condition on directed graphs (a spanning tree, like
	// DP-DGT's Assumption 2), so the scenario does not require a directed
	// graph to be strongly connected (it must still be weakly connected).
	RootedDigraphs bool
	// Draws declares the algorithm's internal random draws that a
	// scenario may pin (algorithm.draws); Env.Draws serves them.
	Draws []Draw
	// NewParams returns a pointer to a parameter struct holding the
	// defaults; the scenario loader decodes the user's parameters into it
	// strictly (unknown keys are errors).
	NewParams func() any
	// Footprint, if set, returns the bytes the algorithm allocates for
	// agents agents, links directed links and dimension dim; the scenario's
	// memory estimate calls it before anything is built. When nil, the
	// estimate assumes 2·len(States)+4 vectors per agent.
	Footprint func(agents, links, dim int) int64
	// Build validates params against env and builds the algorithm and its
	// privacy accountant. Errors name fields with check.Errorf.
	Build func(env *Env, params any) (*Built, []check.Warning, error)
	// Words is what the page says about the algorithm: what a link
	// carries, its glossary, its source's assumptions, its paper.
	Words Words
}

// Form is the form of problem an algorithm solves (Factory.Solves).
type Form int

const (
	// Undeclared is the zero Form: a factory that did not say; the
	// registry's tests refuse it.
	Undeclared Form = iota
	// Minimisation is min_x Σ_i f_i(x) over a plain objective.Problem
	// that is not an objective.Allocation.
	Minimisation
	// Allocation is the resource-allocation problem of
	// objective.Allocation (economic dispatch).
	Allocation
)

// String names the form in plain words.
func (f Form) String() string {
	switch f {
	case Minimisation:
		return "a minimisation problem"
	case Allocation:
		return "a resource-allocation problem"
	}
	return "an undeclared form of problem"
}

// SharedVar is one state variable that belongs to no agent.
type SharedVar struct {
	Name        string
	Description string
	// Dim returns the variable's length for a problem of dimension dim;
	// nil means dim.
	Dim func(dim int) int
}

// Length returns the variable's length for a problem of dimension dim.
func (v SharedVar) Length(dim int) int {
	if v.Dim == nil {
		return dim
	}
	return v.Dim(dim)
}

// SharedVar returns the shared variable called name, if f declares it.
func (f *Factory) SharedVar(name string) (SharedVar, bool) {
	for _, v := range f.Shared {
		if v.Name == name {
			return v, true
		}
	}
	return SharedVar{}, false
}

// CheckState reports a factory whose state declaration contradicts
// itself: a name declared twice (per-agent or shared), an Output that is
// not a shared variable, a shared length rule that gives no positive
// length for a dimension of 1. It is a programming error, caught by the
// registry's tests.
func (f *Factory) CheckState() error {
	seen := map[string]bool{}
	for _, n := range f.States {
		if seen[n] {
			return fmt.Errorf("%s: state variable %q declared twice", f.Name, n)
		}
		seen[n] = true
	}
	for _, v := range f.Shared {
		if seen[v.Name] {
			return fmt.Errorf("%s: shared variable %q declared twice (or also per agent)", f.Name, v.Name)
		}
		seen[v.Name] = true
		if v.Length(1) < 1 {
			return fmt.Errorf("%s: shared variable %q has length %d at dimension 1", f.Name, v.Name, v.Length(1))
		}
	}
	if f.Solves != Minimisation && f.Solves != Allocation {
		return fmt.Errorf("%s: Solves is not declared (method.Minimisation or method.Allocation)", f.Name)
	}
	if _, ok := f.SharedVar(f.Output); f.Output != "" && !ok {
		return fmt.Errorf("%s: the output %q is not a shared variable", f.Name, f.Output)
	}
	return nil
}

// Built is an algorithm ready to run, with the accountant that keeps its
// privacy ledger.
type Built struct {
	Algorithm  sim.Algorithm
	Accountant privacy.Accountant
	// Theory is what the algorithm's source proves about this
	// configuration; nil when the factory offers none.
	Theory *Theory
	// Target is the privacy target the parameters ask for, nil when
	// none: the scenario calibrates the noise to it (see Target).
	Target *Target
}

// InitState returns the initial value of variable name as a flat
// agent-major slice (zeros when the scenario does not pin it).
func (e *Env) InitState(name string) []float64 {
	n, d := e.Problem.Agents(), e.Problem.Dim()
	out := make([]float64, n*d)
	for i, row := range e.Init[name] {
		copy(out[i*d:(i+1)*d], row)
	}
	return out
}

// InitShared returns the initial value of the shared variable name, of
// length n (zeros when the scenario does not pin it; the scenario checks
// a pinned row's length against the factory's Shared declaration).
func (e *Env) InitShared(name string, n int) []float64 {
	out := make([]float64, n)
	if rows := e.Init[name]; len(rows) == 1 {
		copy(out, rows[0])
	}
	return out
}

// Replay returns a fresh copy of algorithm alg's draws named name, from
// their start: the pinned values or a new stream of the algorithm seed
// with Draws' label. It is registered nowhere, so that an accountant can
// replay a walk for its predictions without moving the run's streams.
func (e *Env) Replay(alg, name string) *Source {
	src := &Source{label: alg + "/" + name}
	if v, ok := e.PinnedDraws[name]; ok {
		src.pinned = v
	} else {
		src.s = rng.NewStream(e.Seeds.Algorithm, alg+"/"+name)
	}
	return src
}

// AlgorithmStream returns the algorithm's own stream labelled label (DPP²'s
// η^k, DP-RECAL's random walk), drawn from the algorithm seed: independent
// of the data, graph and noise streams, replayable from the seeds, and
// saved and restored with checkpoints.
func (e *Env) AlgorithmStream(alg, label string) *rng.Stream {
	return e.streams().Stream("algorithm", e.Seeds.Algorithm, alg+"/"+label)
}

// RequireUndirected checks the assumptions an algorithm of undirected
// networks makes: the graph is undirected and its weight matrix has every
// property in needs (weights.Find… names). why completes the error
// message, e.g. "GT-DP's Assumption 4 needs W" or "DPOP mixes with a
// doubly stochastic A whose support is the graph; W fails".
func (e *Env) RequireUndirected(title, why string, needs ...string) error {
	if e.Graph.Directed {
		return check.Errorf("graph.directed", "%s needs an undirected graph", title)
	}
	for _, f := range e.Report.Findings {
		for _, need := range needs {
			if f.Name == need && !f.Holds {
				return check.Errorf("weights", "%s %s: %s", why, f.Name, f.Detail)
			}
		}
	}
	return nil
}

// RequireOneDecay refuses per-agent noise decays (noise.Spec.Decays) on
// every channel, naming the first channel that has them; why says whose
// assumption that breaks (an accountant's theorem, an update's single
// noise factor).
func (e *Env) RequireOneDecay(why string) error {
	names := make([]string, 0, len(e.Noise))
	for name := range e.Noise {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if err := e.Noise[name].RequireOneDecay(check.Join("noise", name), why); err != nil {
			return err
		}
	}
	return nil
}

func (e *Env) streams() *rng.Registry {
	if e.Streams == nil {
		e.Streams = &rng.Registry{}
	}
	return e.Streams
}
