package runner_test

// Two toy plug-ins, registered for this package's tests only, that
// exercise the contract extensions of issue 14 §3 items 1, 2 and 6:
//
//   - "toy-ldp", an LDP-online-like algorithm (spec §7): every agent
//     releases θ_i + ϑ_i (Laplace, channel "theta", per-agent decays
//     allowed), mixes, and steps along its gradient with λ_k, times a draw
//     η^k ∈ (0, 1] (DPP²-like, spec §3) when random_step is on; on a
//     stochastic problem the gradient is taken on a batch from the agent's
//     sample cursor. Its accountant is per agent:
//     ε_i(K) = Σ_{k<K} 2C·λ_k / ν_{i,k}, with ν_{i,k} agent i's scale.
//   - "toy-stream", a streaming least-squares problem: agent i holds m
//     samples (a_ij, b_ij) and f_i(x) = (1/m)·Σ_j ½(a_ijᵀx − b_ij)².

import (
	"fmt"
	"math"
	"os"
	"testing"

	"dpsim/core/check"
	"dpsim/core/method"
	"dpsim/core/noise"
	"dpsim/core/num"
	"dpsim/core/objective"
	"dpsim/core/privacy"
	"dpsim/core/rng"
	"dpsim/core/scenario"
	"dpsim/core/sim"
	"dpsim/core/weights"
)

func TestMain(m *testing.M) {
	un1, err := scenario.RegisterForTest(&toyFactory)
	if err != nil {
		panic(err)
	}
	un2, err := scenario.RegisterProblemForTest(&streamFactory)
	if err != nil {
		panic(err)
	}
	code := m.Run()
	un1()
	un2()
	os.Exit(code)
}

type ldpToyParams struct {
	Step          noise.Schedule `json:"step" doc:"step size λ_k"`
	Batch         int            `json:"batch" doc:"samples per gradient (0: the full ∇f_i)" range:"[0, 1000]"`
	RandomStep    bool           `json:"random_step" doc:"scale the step by a draw η^k in (0, 1) from the algorithm's stream"`
	GradientBound float64        `json:"gradient_bound" doc:"the gradient bound C the accountant uses" range:"[0, inf)"`
}

var toyFactory = method.Factory{
	Solves:   method.Minimisation,
	Name:     "toy-ldp",
	Title:    "toy LDP",
	Paper:    "a test toy after spec §7 (LDP online) and §3 (DPP²'s η^k)",
	Channels: []method.Channel{{Name: "theta", Dist: noise.Laplace, Description: "ϑ on θ"}},
	States:   []string{"x"},
	Draws:    []method.Draw{{Name: "eta", Description: "η^k ∈ (0, 1], which multiplies the step", Min: 0x1p-53, Max: 1}},
	NewParams: func() any {
		return &ldpToyParams{Step: noise.Poly(0.5, 1, 0.71), Batch: 2, GradientBound: 1}
	},
	Build: buildToyAlg,
}

func buildToyAlg(env *method.Env, params any) (*method.Built, []check.Warning, error) {
	p := *params.(*ldpToyParams)
	if err := p.Step.Validate("algorithm.params.step"); err != nil {
		return nil, nil, err
	}
	if p.Batch < 1 {
		return nil, nil, check.Errorf("algorithm.params.batch", "must be ≥ 1 (got %d)", p.Batch)
	}
	n, d := env.Problem.Agents(), env.Problem.Dim()
	a := &toyAlg{p: p, n: n, d: d, prob: env.Problem, w: env.Weights, spec: env.Noise["theta"],
		smp: env.Sampler("toy-ldp", "theta"), x: env.InitState("x"), xn: make([]float64, n*d),
		nz: make([]float64, n*d), out: make([]float64, n*d), g: make([]float64, d), acc: make([]float64, d)}
	if p.RandomStep {
		a.eta = env.Draws("toy-ldp", "eta")
	}
	if st, ok := env.Problem.(objective.Stochastic); ok {
		a.st = st
		for i := range n {
			a.cur = append(a.cur, env.Samples(i))
		}
		a.seen = make([][]int, n)
	}
	a.step.AddReleases("theta", n, d, d, 0, a.out, a.nz, false, env.Weights.Row)
	a.step.Dim, a.step.Estimates = d, a.x
	return &method.Built{Algorithm: a, Accountant: &toyAcct{a: a}}, nil, nil
}

type toyAlg struct {
	p                  ldpToyParams
	n, d, k            int
	prob               objective.Problem
	st                 objective.Stochastic
	cur                []*method.Cursor
	w                  *weights.Matrix
	spec               *noise.Spec
	smp                *noise.Sampler
	eta                *method.Source
	x, xn, nz, out     []float64
	g, acc             []float64
	step               sim.Step
	etas               []float64 // every η^k drawn, for the tests
	seen               [][]int   // every sample each agent used, for the tests
	resumedAt, resumed int
}

func (a *toyAlg) Name() string { return "toy-ldp" }

func (a *toyAlg) Initial() *sim.Step { return &sim.Step{Dim: a.d, Estimates: a.x} }

func (a *toyAlg) Advance() *sim.Step {
	d := a.d
	a.smp.FillAt(a.spec, a.k, a.nz, d)
	noise.Release(a.out, a.x, a.nz, d, d, 0)
	lam := a.p.Step.At(a.k)
	if a.eta != nil {
		e := a.eta.OpenUnit()
		a.etas = append(a.etas, e)
		lam *= e
	}
	for i := range a.n {
		xi := a.x[i*d : (i+1)*d]
		for c := range a.acc {
			a.acc[c] = a.w.Diag[i] * xi[c]
		}
		cols, vals := a.w.Row(i)
		weights.MixRow(a.acc, a.out, cols, vals)
		if a.st != nil {
			idx := a.cur[i].Next(a.p.Batch)
			a.seen[i] = append(a.seen[i], idx...)
			a.st.GradBatch(i, xi, idx, a.g)
		} else {
			a.prob.Grad(i, xi, a.g)
		}
		xn := a.xn[i*d : (i+1)*d]
		for c := range xn {
			xn[c] = a.acc[c] - float64(lam*a.g[c])
		}
	}
	a.x, a.xn = a.xn, a.x
	a.k++
	a.step.Iter, a.step.Estimates = a.k, a.x
	return &a.step
}

func (a *toyAlg) State() []sim.Var {
	return []sim.Var{{Name: "x", Dim: a.d, Data: append([]float64(nil), a.x...)}}
}

func (a *toyAlg) Resume(iter int, state []sim.Var) error {
	if err := method.Restore(state, sim.Var{Name: "x", Dim: a.d, Data: a.x}); err != nil {
		return err
	}
	a.k, a.step.Iter, a.step.Estimates = iter, iter, a.x
	return nil
}

// toyAcct: ε_i(K) = Σ_{k<K} 2C·λ_k / ν_{i,k}, per agent, from the
// iteration count alone.
type toyAcct struct {
	a     *toyAlg
	iters int
}

func (ac *toyAcct) Record(st *sim.Step) { ac.iters = st.Iter }

func (ac *toyAcct) Ledger() privacy.Ledger {
	a := ac.a
	l := privacy.Ledger{Algorithm: "toy-ldp", Notion: "ε-LDP (toy)", Formula: "ε_i = Σ_k 2C·λ_k/ν_{i,k}", Iterations: ac.iters}
	for i := range a.n {
		var s privacy.Sum
		for k := range ac.iters {
			s.AddLog(num.Log(2*a.p.GradientBound*a.p.Step.At(k)) - a.spec.LogScaleAt(i, k))
		}
		l.Agents = append(l.Agents, privacy.Entry{Agent: i, Epsilon: s.Amount(), Inputs: []privacy.Input{privacy.Text("decay", a.spec.DecayOf(i).String())}})
	}
	l.Max = privacy.MaxOf(l.Agents)
	return l
}

// streamParams are toy-stream's parameters; A and B pin the data.
type streamParams struct {
	Dim     int           `json:"dim" doc:"dimension of the decision variable" range:"[1, 100]"`
	Samples int           `json:"samples" doc:"samples in each agent's shard" range:"[1, 10000]"`
	A       [][][]float64 `json:"a,omitempty" doc:"pinned features: per agent, per sample, one row"`
	B       [][]float64   `json:"b,omitempty" doc:"pinned outputs: per agent, one per sample"`
}

var streamFactory = objective.Factory{
	Name:      "toy-stream",
	Title:     "toy streaming least squares",
	Source:    "a test toy",
	NewParams: func() any { return &streamParams{Dim: 2, Samples: 5} },
	Size: func(params any, agents int) (int, int64) {
		p := params.(*streamParams)
		return p.Dim, int64(8 * agents * p.Samples * (p.Dim + 1))
	},
	Build: func(env *objective.Env, params any) (objective.Problem, []check.Warning, error) {
		p := params.(*streamParams)
		n := env.Agents()
		if p.A != nil {
			if len(p.A) != n || len(p.B) != n {
				return nil, nil, check.Errorf("problem.params.a", "must hold one shard per agent")
			}
			return &stream{n: n, d: p.Dim, a: p.A, b: p.B}, nil, nil
		}
		r := rng.New(env.Seeds.Data, "toy-stream")
		s := &stream{n: n, d: p.Dim}
		for range n {
			var as [][]float64
			var bs []float64
			for range p.Samples {
				row := make([]float64, p.Dim)
				y := 0.0
				for c := range row {
					row[c] = float64(2*r.Float64()) - 1
					y += float64(row[c] * float64(1-2*(c%2)))
				}
				as, bs = append(as, row), append(bs, y+float64(0.1*(float64(2*r.Float64())-1)))
			}
			s.a, s.b = append(s.a, as), append(s.b, bs)
		}
		return s, nil, nil
	},
	Pinned: func(p objective.Problem, params any) any {
		s := p.(*stream)
		return &streamParams{Dim: s.d, Samples: len(s.b[0]), A: s.a, B: s.b}
	},
}

type stream struct {
	n, d int
	a    [][][]float64
	b    [][]float64
}

func (s *stream) Kind() string      { return "toy-stream" }
func (s *stream) Agents() int       { return s.n }
func (s *stream) Dim() int          { return s.d }
func (s *stream) Samples(i int) int { return len(s.b[i]) }

// Optimum solves the normal equations Σ_i (1/m_i)·Σ_j a_ij a_ijᵀ x =
// Σ_i (1/m_i)·Σ_j b_ij a_ij by Gaussian elimination (dim is small).
func (s *stream) Optimum() []float64 {
	d := s.d
	m := make([][]float64, d)
	for r := range m {
		m[r] = make([]float64, d+1)
	}
	for i := range s.n {
		w := 1 / float64(len(s.b[i]))
		for j, a := range s.a[i] {
			for r := range d {
				for c := range d {
					m[r][c] += float64(w * a[r] * a[c])
				}
				m[r][d] += float64(w * a[r] * s.b[i][j])
			}
		}
	}
	for c := range d {
		p := c
		for r := c + 1; r < d; r++ {
			if math.Abs(m[r][c]) > math.Abs(m[p][c]) {
				p = r
			}
		}
		m[c], m[p] = m[p], m[c]
		for r := range d {
			if r != c {
				f := m[r][c] / m[c][c]
				for k := c; k <= d; k++ {
					m[r][k] -= float64(f * m[c][k])
				}
			}
		}
	}
	x := make([]float64, d)
	for c := range d {
		x[c] = m[c][d] / m[c][c]
	}
	return x
}

func (s *stream) loss(i, j int, x []float64) (float64, float64) {
	r := -s.b[i][j]
	for c, v := range s.a[i][j] {
		r += float64(v * x[c])
	}
	return 0.5 * r * r, r
}

func (s *stream) Value(i int, x []float64) float64 {
	v := 0.0
	for j := range s.b[i] {
		l, _ := s.loss(i, j, x)
		v += l
	}
	return v / float64(len(s.b[i]))
}

func (s *stream) Grad(i int, x, out []float64) {
	idx := make([]int, len(s.b[i]))
	for j := range idx {
		idx[j] = j
	}
	s.GradBatch(i, x, idx, out)
}

func (s *stream) GradBatch(i int, x []float64, idx []int, out []float64) {
	clear(out)
	for _, j := range idx {
		_, r := s.loss(i, j, x)
		for c, v := range s.a[i][j] {
			out[c] += float64(r * v)
		}
	}
	for c := range out {
		out[c] /= float64(len(idx))
	}
}

func (s *stream) Objective(x []float64) float64 {
	v := 0.0
	for i := range s.n {
		v += s.Value(i, x)
	}
	return v / float64(s.n)
}

// ldpToyScenario is a toy-ldp run on toy-stream (or on another problem)
// with per-agent decays ς_i = 0.5 + 0.01·(i+1), as in LDP online's
// experiments (spec §7).
func ldpToyScenario(problem string, extra string) []byte {
	decays := ""
	for i := range 6 {
		if i > 0 {
			decays += ", "
		}
		decays += fmt.Sprintf(`{"kind": "polynomial", "c": 1, "m": 1, "p": %g}`, 0.5+float64(0.01*float64(i+1)))
	}
	return []byte(fmt.Sprintf(`{
  "name": "toy", "seed": 7,
  "graph": {"kind": "ring", "n": 6},
  "weights": {"kind": "metropolis"},
  "problem": %s,
  "algorithm": {"kind": "toy-ldp", "params": {"random_step": true, "batch": 2}},
  "noise": {"theta": {"dist": "laplace", "scale": 0.1, "decays": [%s]}},
  "iterations": 30,
  "record": {"checkpoints": [0, 1, 4, 13, 29, 30]}%s
}`, problem, decays, extra))
}

const streamProblem = `{"kind": "toy-stream", "params": {"dim": 2, "samples": 5}}`
