package dispatch

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"dpsim/core/check"
	"dpsim/core/objective"
	"dpsim/core/param"
)

// MaxValue bounds every coefficient, bound and demand, so that costs and
// squared errors stay far inside float64's range.
const MaxValue = 1e12

// Generator is one agent's generator in a scenario.
type Generator struct {
	Agent int     `json:"agent" doc:"the agent that runs the generator, from 0" range:"[0, 4999]"`
	A     float64 `json:"a" doc:"quadratic cost coefficient a_i (strong convexity 2a_i)" range:"(0, 1e12]"`
	B     float64 `json:"b" doc:"linear cost coefficient b_i" range:"[-1e12, 1e12]"`
	C     float64 `json:"c" doc:"constant cost c_i (changes the cost, not the optimum)" range:"[-1e12, 1e12]"`
	Min   float64 `json:"min" doc:"lowest output" range:"[-1e12, 1e12]" unit:"MW"`
	Max   float64 `json:"max" doc:"highest output" range:"[-1e12, 1e12]" unit:"MW"`
}

// Params are the scenario's parameters of the dispatch problem.
type Params struct {
	// Case loads a data set from a paper; the data fields stay empty.
	Case string `json:"case,omitempty" doc:"a data set from a paper: ieee14 is the DP-DGT paper's IEEE 14-bus case (Table 2, demands D_1…D_14), also used when neither generators nor demands are given; leave generators and demands out" options:"|ieee14"`
	// Generators lists the agents with a generator; every other agent
	// produces nothing (W_i = {0}).
	Generators []Generator `json:"generators,omitempty" doc:"the generators: agent, cost a·w² + b·w + c, output range [min, max]; every other agent produces 0"`
	// Demands holds d_i for every agent.
	Demands []float64 `json:"demands,omitempty" doc:"every agent's local demand d_i" unit:"MW"`
	// Names labels the agents in the view and the exports.
	Names []string `json:"names,omitempty" doc:"a label per agent (e.g. bus 1); default agent 0, agent 1, …"`
	// Unit names the unit of outputs and demands, for display.
	Unit string `json:"unit,omitempty" doc:"the unit of outputs and demands, for display (ieee14: MW)"`
	// Watch names one of the problem's metrics that the metric "watched"
	// repeats, so that a figure drawing one metric can give each series
	// its own quantity (the paper's Fig. 2: one generator per series).
	Watch string `json:"watch,omitempty" doc:"a metric of this problem (e.g. w_0, generation, demand) that the metric watched repeats, for figures with one quantity per series; it changes nothing in the run"`
}

// Factory builds the dispatch problem from a scenario.
var Factory = objective.Factory{
	Name:       "dispatch",
	Title:      "Economic dispatch: min Σ a_i w_i² + b_i w_i + c_i s.t. Σ w_i = Σ d_i, w_i in a box",
	Source:     "Huo, Chen, Huang, Johansson & Shi, DP-DGT, Sec. 6 (IEEE 14-bus data after Kar & Hug 2012)",
	Allocation: true,
	NewParams: func() any {
		return &Params{}
	},
	Size: func(params any, agents int) (int, int64) {
		// The price is a scalar: one number per agent. The problem holds
		// eight numbers per agent (costs, bounds, demand, w*) and a name;
		// the pinned export repeats the data.
		return 1, 2 * 8 * 8 * int64(agents)
	},
	Build: build,
	// The data are the params (or a case of them): nothing is drawn and
	// the graph is not read.
	Reads: func(any) objective.Reads { return objective.Reads{} },
	// Per agent a demand, a name and at most one generator row (five
	// numbers and an agent index), as text.
	PinnedBytes: func(params any, agents int) int64 { return 256 * int64(agents) },
	Pinned: func(pr objective.Problem, params any) any {
		p, q := pr.(*Dispatch), params.(*Params)
		out := &Params{Demands: append([]float64(nil), p.d...), Names: p.Names(), Unit: p.unit, Watch: q.Watch}
		for _, i := range p.gens {
			out.Generators = append(out.Generators, Generator{Agent: i, A: p.a[i], B: p.b[i], C: p.c[i], Min: p.lo[i], Max: p.hi[i]})
		}
		return out
	},
	Words: words,
}

// IEEE14 returns the DP-DGT paper's IEEE 14-bus case (Sec. 6): generators
// on buses 1, 2, 3, 6 and 8 with Table 2's costs (c_i is not given and is
// 0), and the local demands D_1…D_14, total 361 MW. Bus k is agent k−1.
func IEEE14() *Params {
	p := &Params{
		Generators: []Generator{
			{Agent: 0, A: 0.04, B: 2.0, Min: 0, Max: 80},
			{Agent: 1, A: 0.03, B: 3.0, Min: 0, Max: 90},
			{Agent: 2, A: 0.035, B: 4.0, Min: 0, Max: 70},
			{Agent: 5, A: 0.03, B: 4.0, Min: 0, Max: 70},
			{Agent: 7, A: 0.04, B: 2.5, Min: 0, Max: 80},
		},
		Demands: []float64{0, 9, 56, 55, 27, 27, 0, 0, 8, 24, 53, 46, 16, 40},
		Unit:    "MW",
	}
	for k := 1; k <= 14; k++ {
		p.Names = append(p.Names, "bus "+strconv.Itoa(k))
	}
	return p
}

func build(env *objective.Env, params any) (objective.Problem, []check.Warning, error) {
	p := params.(*Params)
	const pf = "problem.params"
	if err := param.Validate(pf, p); err != nil {
		return nil, nil, err
	}
	n := env.Agents()
	if p.Case == "" && p.Generators == nil && p.Demands == nil {
		// The defaults: a scenario that gives no data means the paper's
		// case, rather than an instance with nothing to dispatch.
		p.Case = "ieee14"
	}
	if p.Case == "ieee14" {
		if p.Generators != nil || p.Demands != nil || p.Names != nil || p.Unit != "" {
			return nil, nil, check.Errorf(check.Join(pf, "case"), "\"ieee14\" brings its own generators, demands and names: leave those out, or drop case and give them all")
		}
		if n != 14 {
			return nil, nil, check.Errorf(check.Join(pf, "case"), "the IEEE 14-bus case has 14 buses, one per agent, but the graph has %d agents", n)
		}
		// A copy: Build leaves the scenario's params as they were.
		watch := p.Watch
		p = IEEE14()
		p.Watch = watch
	}
	if len(p.Demands) != n {
		return nil, nil, check.Errorf(fieldDemands, "must list one demand per agent: %d, got %d", n, len(p.Demands))
	}
	for i, v := range p.Demands {
		if !(math.Abs(v) <= MaxValue) {
			return nil, nil, check.Errorf(check.Index(fieldDemands, i), "must be a number in [−1e12, 1e12] (got %v)", v)
		}
	}
	if p.Names != nil && len(p.Names) != n {
		return nil, nil, check.Errorf(check.Join(pf, "names"), "must list one name per agent: %d, got %d", n, len(p.Names))
	}
	// A name labels one agent in the view and the exports: an empty or a
	// repeated one would leave two agents indistinguishable.
	seen := make(map[string]int, len(p.Names))
	for i, name := range p.Names {
		if strings.TrimSpace(name) == "" {
			return nil, nil, check.Errorf(check.Index(check.Join(pf, "names"), i), "must be a nonempty label (got %q)", name)
		}
		if j, dup := seen[name]; dup {
			return nil, nil, check.Errorf(check.Index(check.Join(pf, "names"), i), "repeats the name of agent %d (%q): every agent needs a label of its own", j, name)
		}
		seen[name] = i
	}
	units := make([]*Unit, n)
	for k, g := range p.Generators {
		field := func() string { return check.Index(fieldGenerators, k) }
		// The reflective check (which words the error) only when the plain
		// one fails: sweeps build the same problem thousands of times.
		if !plainValid(g) {
			if err := param.Validate(field(), &g); err != nil {
				return nil, nil, err
			}
		}
		if g.Agent >= n {
			return nil, nil, check.Errorf(check.Join(field(), "agent"), "must name an agent from 0 to %d (got %d)", n-1, g.Agent)
		}
		if units[g.Agent] != nil {
			return nil, nil, check.Errorf(check.Join(field(), "agent"), "agent %d already has a generator; give each agent at most one", g.Agent)
		}
		if g.Min > g.Max {
			return nil, nil, check.Errorf(check.Join(field(), "max"), "must be at least min = %g (got %g)", g.Min, g.Max)
		}
		units[g.Agent] = &Unit{A: g.A, B: g.B, C: g.C, Lo: g.Min, Hi: g.Max}
	}
	prob, err := New(units, p.Demands, p.Names)
	if err != nil {
		return nil, nil, err
	}
	prob.unit = p.Unit
	if p.Watch != "" {
		names := prob.MetricNames()
		k := slices.Index(names, p.Watch)
		if k < 0 || p.Watch == MetricWatched {
			return nil, nil, check.Errorf(check.Join(pf, "watch"), "must name one of the problem's metrics %v (got %q)", names[:len(names)-1], p.Watch)
		}
		prob.watch = k
	}
	var warns []check.Warning
	// Slater's condition (Assumption 1): the demand strictly inside the
	// range the generators can produce.
	sLo, sHi := 0.0, 0.0
	for _, i := range prob.gens {
		sLo += prob.lo[i]
		sHi += prob.hi[i]
	}
	if prob.dTot == sLo || prob.dTot == sHi {
		warns = append(warns, check.Warnf(fieldDemands, "the total demand %g is at the edge of what the generators can produce [%g, %g]: Slater's condition (the paper's Assumption 1) fails, and the optimal price is not unique", prob.dTot, sLo, sHi))
	}
	return prob, warns, nil
}

// plainValid checks g against its range tags without reflection: true
// means param.Validate would accept it.
func plainValid(g Generator) bool {
	in := func(x float64) bool { return x >= -MaxValue && x <= MaxValue }
	return g.Agent >= 0 && g.Agent <= 4999 && g.A > 0 && g.A <= MaxValue &&
		in(g.B) && in(g.C) && in(g.Min) && in(g.Max)
}
