package runner_test

// Small plug-ins that exercise the contract extensions of issue 14 §3
// (relay/baton, rounds, stop rules and counters, no known optimum,
// expensive metrics). They are registered only for the tests that use
// them (register).

import (
	"fmt"
	"math"
	"testing"

	"dpsim/core/check"
	"dpsim/core/graph"
	"dpsim/core/method"
	"dpsim/core/objective"
	"dpsim/core/privacy"
	"dpsim/core/runner/runnertest"
	"dpsim/core/scenario"
	"dpsim/core/sim"
)

// toyParams are the toy problem's parameters.
type toyParams struct {
	Dim int `json:"dim" doc:"dimension of the decision variable" range:"[1, 8]"`
	// Wave makes f_i nonconvex and without a known optimum.
	Wave bool `json:"wave" doc:"f_i = Σ_c 1 − cos(x_c − t_ic): nonconvex, no known optimum"`
	// Expensive declares one expensive metric ("accuracy").
	Expensive bool `json:"expensive" doc:"declare one expensive metric, evaluated every record.eval_every"`
}

// toyProblem: f_i(x) = ½‖x − t_i‖² with t_i[c] = i + c (optimum: the
// mean target), or, with wave, f_i(x) = Σ_c 1 − cos(x_c − t_i[c]), which
// is nonconvex and offers no optimum.
type toyProblem struct {
	n, d      int
	wave      bool
	t         []float64
	gradAlls  *int // calls of GradAll
	evaluated *int // calls of Evaluate
}

func (p *toyProblem) Kind() string { return "toy" }
func (p *toyProblem) Agents() int  { return p.n }
func (p *toyProblem) Dim() int     { return p.d }
func (p *toyProblem) Value(i int, x []float64) float64 {
	v := 0.0
	for c, xc := range x {
		e := xc - p.t[i*p.d+c]
		if p.wave {
			v += 1 - math.Cos(e)
		} else {
			v += float64(e * e / 2)
		}
	}
	return v
}
func (p *toyProblem) Grad(i int, x, out []float64) {
	for c, xc := range x {
		e := xc - p.t[i*p.d+c]
		if p.wave {
			out[c] = math.Sin(e)
		} else {
			out[c] = e
		}
	}
}
func (p *toyProblem) GradAll(x, out []float64) {
	*p.gradAlls++
	for i := range p.n {
		p.Grad(i, x[i*p.d:(i+1)*p.d], out[i*p.d:(i+1)*p.d])
	}
}
func (p *toyProblem) Objective(x []float64) float64 {
	s := 0.0
	for i := range p.n {
		s += p.Value(i, x)
	}
	return s / float64(p.n)
}
func (p *toyProblem) Optimum() []float64 {
	if p.wave {
		return nil
	}
	m := make([]float64, p.d)
	for i := range p.n {
		for c := range p.d {
			m[c] += p.t[i*p.d+c] / float64(p.n)
		}
	}
	return m
}

// toyExpensive is the toy problem with an expensive metric.
type toyExpensive struct{ *toyProblem }

func (p toyExpensive) EvaluatedNames() []string { return []string{"accuracy"} }
func (p toyExpensive) Evaluate(s *sim.Step, out []float64) {
	*p.evaluated++
	x := s.Output
	if x == nil {
		x = s.Estimate(0)
	}
	out[0] = p.Objective(x)
}

var toyProblemFactory = objective.Factory{
	Name: "toy", Title: "toy quadratic", Source: "a test plug-in",
	NewParams: func() any { return &toyParams{Dim: 2} },
	Size:      func(params any, agents int) (int, int64) { return params.(*toyParams).Dim, 0 },
	Build: func(env *objective.Env, params any) (objective.Problem, []check.Warning, error) {
		pp := params.(*toyParams)
		if pp.Dim < 1 || pp.Dim > 8 {
			return nil, nil, check.Errorf("problem.params.dim", "must be from 1 to 8 (got %d)", pp.Dim)
		}
		p := &toyProblem{n: env.Agents(), d: pp.Dim, wave: pp.Wave, gradAlls: new(int), evaluated: new(int)}
		for i := range p.n {
			for c := range p.d {
				p.t = append(p.t, float64(i+c))
			}
		}
		if pp.Expensive {
			return toyExpensive{p}, nil, nil
		}
		return p, nil, nil
	},
	Pinned: func(p objective.Problem, params any) any { return params },
}

// toyAccountant counts what every agent released; the toys add no
// noise, so every agent's ε is infinite.
type toyAccountant struct {
	name     string
	released []int
	iters    int
}

func (a *toyAccountant) Record(s *sim.Step) {
	a.iters = s.Iter
	for _, r := range s.Releases {
		a.released[r.From]++
	}
}

func (a *toyAccountant) Ledger() privacy.Ledger {
	l := privacy.Ledger{Algorithm: a.name, Notion: "none: a test toy adds no noise", Iterations: a.iters, Max: privacy.Infinite()}
	for i := range a.released {
		l.Agents = append(l.Agents, privacy.Entry{Agent: i, Epsilon: privacy.Infinite(), Reason: "no noise"})
	}
	return l
}

// batonParams are the baton toy's parameters.
type batonParams struct {
	Step float64 `json:"step" doc:"step size of the holder's gradient step" range:"(0, 1]"`
	// Leak makes the next holder release too, before it is active: a
	// broken contract the runner must refuse.
	Leak bool `json:"leak" doc:"let the next holder release before it is active (a broken contract)"`
}

// baton is one walker on a ring: the holder h = k mod n of iteration k
// takes a gradient step on the shared x with its own f_h, keeps a local
// copy z_h, sets the shared tracker u to its gradient, and passes (u, x)
// to the next agent as one release — one message per iteration, as
// DP-RECAL's Table IV counts them. Only the holder computes and speaks.
type baton struct {
	n, d    int
	prob    objective.Problem
	step    float64
	leak    bool
	k       int
	x, u, z []float64
	msg     []float64 // (u, x) as passed on
	st      sim.Step
	rels    [1]sim.Release
	to      [1]int
	active  [1]int
}

var batonFactory = method.Factory{
	Solves: method.Minimisation,
	Name:   "toy-baton", Title: "toy baton", Paper: "a test plug-in (DP-RECAL's relay pattern)",
	States: []string{"z"},
	Shared: []method.SharedVar{
		{Name: "x", Description: "the baton's estimate"},
		{Name: "u", Description: "the baton's tracker ũ"},
	},
	Output:    "x",
	NewParams: func() any { return &batonParams{Step: 0.5} },
	Build: func(env *method.Env, params any) (*method.Built, []check.Warning, error) {
		p := params.(*batonParams)
		if !(p.Step > 0 && p.Step <= 1) {
			return nil, nil, check.Errorf("algorithm.params.step", "must be in (0, 1] (got %v)", p.Step)
		}
		n, d := env.Problem.Agents(), env.Problem.Dim()
		a := &baton{n: n, d: d, prob: env.Problem, step: p.Step, leak: p.Leak,
			x: env.InitShared("x", d), u: env.InitShared("u", d), z: env.InitState("z"), msg: make([]float64, 2*d)}
		return &method.Built{Algorithm: a, Accountant: &toyAccountant{name: "toy-baton", released: make([]int, n)}}, nil, nil
	},
}

func (a *baton) Name() string { return "toy-baton" }

func (a *baton) Initial() *sim.Step {
	a.st = sim.Step{Iter: a.k, Dim: a.d, Estimates: a.z, Output: a.x}
	return &a.st
}

func (a *baton) Advance() *sim.Step {
	h := a.k % a.n
	a.prob.Grad(h, a.x, a.u)
	for c := range a.x {
		a.x[c] -= float64(a.step * a.u[c])
	}
	copy(a.z[h*a.d:(h+1)*a.d], a.x)
	a.to[0], a.active[0] = (h+1)%a.n, h
	copy(a.msg, a.u)
	copy(a.msg[a.d:], a.x)
	a.rels[0] = sim.Release{From: h, Channel: "baton", Sent: a.msg, To: a.to[:]}
	a.k++
	if a.leak {
		a.rels[0].From = a.to[0]
	}
	a.st = sim.Step{Iter: a.k, Dim: a.d, Estimates: a.z, Output: a.x, Releases: a.rels[:], Active: a.active[:]}
	return &a.st
}

func (a *baton) State() []sim.Var {
	return []sim.Var{
		{Name: "x", Dim: a.d, Data: append([]float64(nil), a.x...)},
		{Name: "u", Dim: a.d, Data: append([]float64(nil), a.u...)},
		{Name: "z", Dim: a.d, Data: append([]float64(nil), a.z...)},
	}
}

// Resume implements sim.Resumable.
func (a *baton) Resume(iter int, state []sim.Var) error {
	return resumeVars(state, map[string][]float64{"x": a.x, "u": a.u, "z": a.z}, func() { a.k = iter })
}

// resumeVars copies every state variable into its buffer, checking names
// and lengths, then calls done.
func resumeVars(state []sim.Var, bufs map[string][]float64, done func()) error {
	if len(state) != len(bufs) {
		return fmt.Errorf("resume: %d state variables, want %d", len(state), len(bufs))
	}
	for _, v := range state {
		b, ok := bufs[v.Name]
		if !ok || len(b) != len(v.Data) {
			return fmt.Errorf("resume: state variable %q unknown or of the wrong length", v.Name)
		}
	}
	for _, v := range state {
		copy(bufs[v.Name], v.Data)
	}
	done()
	return nil
}

// roundsParams are the two-round toy's parameters.
type roundsParams struct {
	Step float64 `json:"step" doc:"step size α" range:"(0, 1]"`
	// Reverse lists round 1's releases before round 0's, as an algorithm
	// must not: the runner reorders them for its recorders.
	Reverse bool `json:"reverse" doc:"list round 1's releases before round 0's"`
}

// rounds sends two rounds per iteration, like DPP²: every agent releases
// y_i = x_i (round 0), then z_i, the mean of the y over its closed
// neighbourhood (round 1), and steps x_i = z̄_i − α∇f_i(z̄_i), with z̄_i
// the mean of the z over its closed neighbourhood.
type rounds struct {
	n, d       int
	g          *graph.Graph
	prob       objective.Problem
	step       float64
	reverse    bool
	k          int
	x, y, z, m []float64
	grad       []float64
	st         sim.Step
	rels       []sim.Release
}

var roundsFactory = method.Factory{
	Solves: method.Minimisation,
	Name:   "toy-rounds", Title: "toy two rounds", Paper: "a test plug-in (DPP²'s y-then-z pattern)",
	States:    []string{"x", "y", "z"},
	NewParams: func() any { return &roundsParams{Step: 0.3} },
	Build: func(env *method.Env, params any) (*method.Built, []check.Warning, error) {
		p := params.(*roundsParams)
		n, d := env.Problem.Agents(), env.Problem.Dim()
		a := &rounds{n: n, d: d, g: env.Graph, prob: env.Problem, step: p.Step, reverse: p.Reverse,
			x: env.InitState("x"), y: env.InitState("y"), z: env.InitState("z"),
			m: make([]float64, n*d), grad: make([]float64, d)}
		return &method.Built{Algorithm: a, Accountant: &toyAccountant{name: "toy-rounds", released: make([]int, n)}}, nil, nil
	},
}

func (a *rounds) Name() string { return "toy-rounds" }

func (a *rounds) Initial() *sim.Step {
	a.st = sim.Step{Iter: a.k, Dim: a.d, Estimates: a.x}
	return &a.st
}

// mix writes the mean of src over every agent's closed neighbourhood
// into dst.
func (a *rounds) mix(dst, src []float64) {
	for i := range a.n {
		nb := a.g.Neighbors(i)
		for c := range a.d {
			s := src[i*a.d+c]
			for _, j := range nb {
				s += src[j*a.d+c]
			}
			dst[i*a.d+c] = s / float64(len(nb)+1)
		}
	}
}

func (a *rounds) Advance() *sim.Step {
	copy(a.y, a.x)
	a.mix(a.z, a.y)
	a.mix(a.m, a.z)
	for i := range a.n {
		zi := a.m[i*a.d : (i+1)*a.d]
		a.prob.Grad(i, zi, a.grad)
		for c := range a.d {
			a.x[i*a.d+c] = zi[c] - float64(a.step*a.grad[c])
		}
	}
	a.k++
	a.rels = a.rels[:0]
	recv := func(i int) ([]int, []float64) { return a.g.Neighbors(i), nil }
	st := sim.Step{}
	st.AddReleases("y", a.n, a.d, a.d, 0, a.y, make([]float64, a.n*a.d), false, recv)
	st.AddReleases("z", a.n, a.d, a.d, 0, a.z, make([]float64, a.n*a.d), false, recv)
	for i := a.n; i < 2*a.n; i++ {
		st.Releases[i].Round = 1
	}
	if a.reverse {
		st.Releases = append(st.Releases[a.n:], st.Releases[:a.n]...)
	}
	a.rels = st.Releases
	a.st = sim.Step{Iter: a.k, Dim: a.d, Estimates: a.x, Releases: a.rels}
	return &a.st
}

func (a *rounds) State() []sim.Var {
	return []sim.Var{
		{Name: "x", Dim: a.d, Data: append([]float64(nil), a.x...)},
		{Name: "y", Dim: a.d, Data: append([]float64(nil), a.y...)},
		{Name: "z", Dim: a.d, Data: append([]float64(nil), a.z...)},
	}
}

// Resume implements sim.Resumable.
func (a *rounds) Resume(iter int, state []sim.Var) error {
	return resumeVars(state, map[string][]float64{"x": a.x, "y": a.y, "z": a.z}, func() { a.k = iter })
}

// register adds the toy plug-ins for the duration of t.
func register(t testing.TB) {
	t.Helper()
	for _, f := range []*method.Factory{&batonFactory, &roundsFactory} {
		un, err := scenario.RegisterForTest(f)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(un)
	}
	un, err := scenario.RegisterProblemForTest(&toyProblemFactory)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(un)
}

// toyScenario builds a scenario of algorithm alg on a ring of n agents
// with the toy problem; extra is spliced into the JSON object (e.g.
// `"stop": {…},`).
func toyScenario(t testing.TB, alg string, n, iters int, problemParams, extra string) *scenario.Built {
	t.Helper()
	js := fmt.Sprintf(`{"name": "toy", "seed": 1, "graph": {"kind": "ring", "n": %d},
		"weights": {"kind": "metropolis"}, "problem": {"kind": "toy", "params": %s},
		"algorithm": {"kind": %q}, "noise": {}, %s "iterations": %d}`, n, problemParams, alg, extra, iters)
	return runnertest.Parse(t, []byte(js), nil)
}
