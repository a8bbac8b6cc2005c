// Package dispatch holds the economic-dispatch problem of the DP-DGT paper
// (Huo et al., Sec. 6): a resource-allocation problem in which agent i
// runs a generator with quadratic cost a_i w² + b_i w + c_i on a box
// [lo_i, hi_i] (or none, and then produces 0) and holds a local demand
// d_i; together the agents meet the total demand at least cost,
//
//	minimise Σ_i F_i(w_i)  subject to  Σ_i w_i = Σ_i d_i,  w_i ∈ W_i.
//
// The problem plugs into scenario files as kind "dispatch", with the IEEE
// 14-bus data of the paper's Table 2 as the case "ieee14", and implements
// objective.Allocation: its Problem methods describe the dual in price form.
package dispatch

import (
	"fmt"
	"math"
	"strconv"

	"dpsim/core/check"
	"dpsim/core/metrics"
	"dpsim/core/objective"
	"dpsim/core/sim"
)

// Dispatch is an economic-dispatch instance with one decision variable
// per agent (Dim = 1).
type Dispatch struct {
	n     int
	gen   []bool    // whether agent i has a generator
	a, b  []float64 // cost coefficients (0 without a generator)
	c     []float64
	lo    []float64 // output bounds (0 without a generator)
	hi    []float64
	d     []float64 // demands
	dTot  float64
	name  []string
	unit  string
	watch int // index of the metric "watched" repeats (−1: none)

	price float64   // λ*
	wOpt  []float64 // w*
	mu    float64
	gens  []int // the agents with a generator, in order
}

// Unit is one generator: cost a·w² + b·w + c for outputs w in [Lo, Hi].
type Unit struct {
	A, B, C, Lo, Hi float64
}

// New returns the dispatch problem of n agents: units[i] is agent i's
// generator, or nil for an agent without one (held at w = 0); demands[i]
// is d_i; names (may be nil) label the agents. The central optimum w* and
// the price λ* are computed here. Errors name the parameters of a
// scenario's problem section.
func New(units []*Unit, demands []float64, names []string) (*Dispatch, error) {
	n := len(demands)
	if n == 0 || len(units) != n {
		return nil, check.Errorf(fieldDemands, "must list one demand per agent (got %d demands for %d agents)", n, len(units))
	}
	p := &Dispatch{n: n, gen: make([]bool, n), a: make([]float64, n), b: make([]float64, n), c: make([]float64, n),
		lo: make([]float64, n), hi: make([]float64, n), d: append([]float64(nil), demands...), mu: math.Inf(1), watch: -1}
	for i, u := range units {
		if math.IsNaN(demands[i]) || math.IsInf(demands[i], 0) {
			return nil, check.Finite(check.Index(fieldDemands, i), demands[i])
		}
		p.dTot += demands[i]
		if u == nil {
			continue
		}
		p.gen[i] = true
		p.gens = append(p.gens, i)
		p.a[i], p.b[i], p.c[i], p.lo[i], p.hi[i] = u.A, u.B, u.C, u.Lo, u.Hi
		p.mu = min(p.mu, 2*u.A)
	}
	if len(p.gens) == 0 {
		return nil, check.Errorf(fieldGenerators, "must list at least one generator: without one no demand can be met")
	}
	p.name = make([]string, n)
	for i := range n {
		p.name[i] = "agent " + strconv.Itoa(i)
		if i < len(names) && names[i] != "" {
			p.name[i] = names[i]
		}
	}
	if err := p.solve(); err != nil {
		return nil, err
	}
	return p, nil
}

// Fields of the scenario's problem section named by errors.
const (
	fieldGenerators = "problem.params.generators"
	fieldDemands    = "problem.params.demands"
)

// respond returns agent i's best response to price p:
// argmin_{w∈[lo,hi]} a w² + b w − p w = clip((p − b)/(2a), lo, hi).
func (p *Dispatch) respond(i int, price float64) float64 {
	if !p.gen[i] {
		return 0
	}
	w := (price - p.b[i]) / (2 * p.a[i])
	return Clip(w, p.lo[i], p.hi[i])
}

// Clip returns x limited to [lo, hi] (lo ≤ hi), and NaN for NaN. Plain
// comparisons, not the min and max builtins, whose care for −0 and NaN
// costs a dozen instructions in the solvers' inner loop; every best
// response in dpsim clips with this, so all agree to the bit.
func Clip(x, lo, hi float64) float64 {
	if x < lo {
		return lo
	}
	if x > hi {
		return hi
	}
	return x
}

// supply returns the total best response to price λ, nondecreasing in λ.
func (p *Dispatch) supply(lambda float64) float64 {
	s := 0.0
	for _, i := range p.gens {
		s += p.respond(i, lambda)
	}
	return s
}

// solve finds λ* with supply(λ*) = Σ d_i and w* = w(λ*). Supply is
// piecewise linear: bisection finds the piece, and on it the price solves
// a linear equation exactly (equal marginal costs 2a_i w_i + b_i = λ* for
// every generator strictly inside its box).
func (p *Dispatch) solve() error {
	sLo, sHi := 0.0, 0.0
	lamLo, lamHi := math.Inf(1), math.Inf(-1)
	for _, i := range p.gens {
		sLo += p.lo[i]
		sHi += p.hi[i]
		// The marginal cost at the box ends brackets every useful price.
		lamLo = min(lamLo, p.b[i]+float64(2*p.a[i]*p.lo[i]))
		lamHi = max(lamHi, p.b[i]+float64(2*p.a[i]*p.hi[i]))
	}
	if p.dTot < sLo || p.dTot > sHi {
		return check.Errorf(fieldDemands, "the total demand %g cannot be met: the generators together produce between %g and %g", p.dTot, sLo, sHi)
	}
	lamLo, lamHi = lamLo-1, lamHi+1
	for range 400 {
		mid := lamLo + float64((lamHi-lamLo)/2)
		if mid == lamLo || mid == lamHi {
			break
		}
		if p.supply(mid) < p.dTot {
			lamLo = mid
		} else {
			lamHi = mid
		}
	}
	lambda := lamLo + float64((lamHi-lamLo)/2)
	// Refine on the piece: the free generators share what the clipped
	// ones leave, at a common marginal cost.
	rest, inv, shift := p.dTot, 0.0, 0.0
	for _, i := range p.gens {
		w := (lambda - p.b[i]) / (2 * p.a[i])
		switch {
		case w <= p.lo[i]:
			rest -= p.lo[i]
		case w >= p.hi[i]:
			rest -= p.hi[i]
		default:
			inv += 1 / (2 * p.a[i])
			shift += p.b[i] / (2 * p.a[i])
		}
	}
	if inv > 0 {
		if exact := (rest + shift) / inv; math.Abs(exact-lambda) <= 1e-9*max(1, math.Abs(lambda)) {
			lambda = exact
		}
	}
	p.price = lambda
	p.wOpt = make([]float64, p.n)
	for _, i := range p.gens {
		p.wOpt[i] = p.respond(i, lambda)
	}
	return nil
}

// Kind implements objective.Problem.
func (p *Dispatch) Kind() string { return "dispatch" }

// Agents implements objective.Problem.
func (p *Dispatch) Agents() int { return p.n }

// Dim implements objective.Problem: one output per agent.
func (p *Dispatch) Dim() int { return 1 }

// Value implements objective.Problem: agent i's dual objective at price x,
// h_i(x) = x·w_i(x) − F_i(w_i(x)) − x·d_i (the convex conjugate of F_i on
// its box, minus the demand's value).
func (p *Dispatch) Value(i int, x []float64) float64 {
	w := p.respond(i, x[0])
	return float64(x[0]*w) - p.cost(i, w) - float64(x[0]*p.d[i])
}

// Grad implements objective.Problem: ∇h_i(x) = w_i(x) − d_i, agent i's
// surplus at price x.
func (p *Dispatch) Grad(i int, x, out []float64) {
	out[0] = p.respond(i, x[0]) - p.d[i]
}

// Objective implements objective.Problem: Σ_i h_i(x), the dual function
// negated, minimised at λ*.
func (p *Dispatch) Objective(x []float64) float64 {
	s := 0.0
	for i := range p.n {
		s += p.Value(i, x)
	}
	return s
}

// Optimum implements objective.Problem: the optimal price λ*.
func (p *Dispatch) Optimum() []float64 { return []float64{p.price} }

// Demand implements objective.Allocation.
func (p *Dispatch) Demand(i int) []float64 { return p.d[i : i+1 : i+1] }

// TotalDemand returns Σ_i d_i.
func (p *Dispatch) TotalDemand() float64 { return p.dTot }

// Respond implements objective.Allocation.
func (p *Dispatch) Respond(i int, price, out []float64) { out[0] = p.respond(i, price[0]) }

// cost returns F_i(w); an agent without a generator costs nothing.
func (p *Dispatch) cost(i int, w float64) float64 {
	if !p.gen[i] {
		return 0
	}
	return float64((float64(p.a[i]*w)+p.b[i])*w) + p.c[i]
}

// Cost implements objective.Allocation.
func (p *Dispatch) Cost(i int, w []float64) float64 { return p.cost(i, w[0]) }

// Allocation implements objective.Allocation: w*.
func (p *Dispatch) Allocation() []float64 { return append([]float64(nil), p.wOpt...) }

// Fixed implements objective.Allocation: agents without a generator.
func (p *Dispatch) Fixed(i int) bool { return !p.gen[i] }

// StrongConvexity implements objective.Allocation: μ = min 2a_i over the
// generators.
func (p *Dispatch) StrongConvexity() float64 { return p.mu }

// Quadratic returns agent i's cost coefficients and box; ok is false for
// an agent without a generator. Solvers use it to inline the best
// response clip((p − b)/(2a), lo, hi).
func (p *Dispatch) Quadratic(i int) (a, b, lo, hi float64, ok bool) {
	return p.a[i], p.b[i], p.lo[i], p.hi[i], p.gen[i]
}

// Generators returns the agents with a generator, in increasing order.
func (p *Dispatch) Generators() []int { return append([]int(nil), p.gens...) }

// Unit returns the unit of outputs and demands ("" when not given).
func (p *Dispatch) Unit() string { return p.unit }

// Names returns every agent's label ("bus 3" in the IEEE case).
func (p *Dispatch) Names() []string { return append([]string(nil), p.name...) }

// TotalCost returns Σ_i F_i(w_i) for an allocation, agent-major.
func (p *Dispatch) TotalCost(w []float64) float64 {
	s := 0.0
	for i := range p.n {
		s += p.cost(i, w[i])
	}
	return s
}

// GenericMetrics implements metrics.Generic. For resource allocation the
// three generic metrics are
//
//   - optimality: ‖w − w*‖² = Σ_i (w_i − w_i*)², the DP-DGT paper's error
//     (Figs. 4 and 5; agents without a generator contribute 0);
//   - consensus: (1/n)·Σ_i (p_i − p̄)², the disagreement of the agents'
//     prices (NaN when the step reports none);
//   - objective: Σ_i F_i(w_i), the total cost of the allocation.
func (p *Dispatch) GenericMetrics(s *sim.Step) (optimality, consensus, objective float64) {
	w := s.Estimates
	for i := range p.n {
		e := w[i] - p.wOpt[i]
		optimality += float64(e * e)
	}
	objective = p.TotalCost(w)
	consensus = math.NaN()
	if pr := s.Prices; len(pr) == p.n {
		mean := 0.0
		for _, v := range pr {
			mean += v
		}
		mean /= float64(p.n)
		c := 0.0
		for _, v := range pr {
			c += float64((v - mean) * (v - mean))
		}
		consensus = c / float64(p.n)
	}
	return optimality, consensus, objective
}

// MetricLabels implements metrics.Generic.
func (p *Dispatch) MetricLabels() (optimality, consensus string) {
	return "‖w − w*‖² = Σ_i (w_i − w_i*)²", "(1/n)·Σ_i (p_i − p̄)² (prices)"
}

// Extra metrics (objective.Measured), beside the three generic ones.
const (
	// MetricGeneration is Σ_i w_i, the total output (the paper's Fig. 3).
	MetricGeneration = "generation"
	// MetricDemand is Σ_i d_i, constant: the line Fig. 3 draws the total
	// generation against.
	MetricDemand = "demand"
	// MetricImbalance is Σ_i w_i − Σ_i d_i: supply minus demand.
	MetricImbalance = "imbalance"
	// MetricAbsImbalance is |Σ_i w_i − Σ_i d_i|.
	MetricAbsImbalance = "abs_imbalance"
	// MetricAllocationError is ‖w − w*‖², the generic optimality under a
	// name that says what it is (figure captions use it).
	MetricAllocationError = "allocation_error"
	// MetricWatched repeats the metric the parameter watch names (NaN
	// when none): figures that draw one metric give each series its own.
	MetricWatched = "watched"
)

// OutputMetric names the extra metric of agent i's output w_i (the
// paper's Fig. 2 plots those of the generators).
func OutputMetric(i int) string { return fmt.Sprintf("w_%d", i) }

// DeviationMetric names the extra metric |w_i − w_i*| of generator i.
func DeviationMetric(i int) string { return fmt.Sprintf("dev_%d", i) }

// MetricNames implements objective.Measured: generation, demand, imbalance
// and its magnitude, the allocation error ‖w − w*‖², each generator's
// output w_i, each generator's distance |w_i − w_i*| to the optimum, and
// watched.
func (p *Dispatch) MetricNames() []string {
	names := []string{MetricGeneration, MetricDemand, MetricImbalance, MetricAbsImbalance, MetricAllocationError}
	for _, i := range p.gens {
		names = append(names, OutputMetric(i))
	}
	for _, i := range p.gens {
		names = append(names, DeviationMetric(i))
	}
	return append(names, MetricWatched)
}

// Measure implements objective.Measured.
func (p *Dispatch) Measure(w []float64, dim int, out []float64) {
	tot := 0.0
	for _, v := range w[:p.n] {
		tot += v
	}
	errSq := 0.0
	for i := range p.n {
		e := w[i] - p.wOpt[i]
		errSq += float64(e * e)
	}
	out[0], out[1], out[2], out[3], out[4] = tot, p.dTot, tot-p.dTot, math.Abs(tot-p.dTot), errSq
	const head = 5
	g := len(p.gens)
	for k, i := range p.gens {
		out[head+k] = w[i]
		out[head+g+k] = math.Abs(w[i] - p.wOpt[i])
	}
	out[head+2*g] = math.NaN()
	if p.watch >= 0 {
		out[head+2*g] = out[p.watch]
	}
}

var (
	_ objective.Allocation = (*Dispatch)(nil)
	_ objective.Measured   = (*Dispatch)(nil)
	_ metrics.Generic      = (*Dispatch)(nil)
)
