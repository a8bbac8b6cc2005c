// Package pushpull holds what the dual methods for resource allocation
// over directed networks share — DP-DGT (core/dpdgt) and its baselines
// DDGT (core/ddgt) and diff-DRADT (core/diffdradt): the weight matrices
// in the flat forms their loops read, the release lists of pushed and
// pulled messages, the agents' best responses to a price, and the checks
// of the push–pull assumptions (row-stochastic R, column-stochastic C,
// spanning trees with a common root).
package pushpull

import (
	"errors"
	"fmt"

	"dpsim/core/check"
	"dpsim/core/graph"
	"dpsim/core/method"
	"dpsim/core/noise"
	"dpsim/core/objective"
	"dpsim/core/privacy"
	"dpsim/core/sim"
	"dpsim/core/weights"
)

// Mix is a weight matrix as the update loops read it: the diagonal and,
// per row i, the off-diagonal entries (i, Col[e]) = Val[e] for e in
// Start[i]..Start[i+1]−1 (compressed sparse rows). Row i lists whom agent
// i mixes in, with what weight.
type Mix struct {
	N     int
	Diag  []float64
	Start []int
	Col   []int
	Val   []float64
}

// MixRow sets acc = Σ_j M_ij·out_j over row i, the diagonal included,
// for agent-major out with d entries per agent.
func (m *Mix) MixRow(acc []float64, i int, out []float64, d int) {
	oi := out[i*d : (i+1)*d]
	for c := range acc {
		acc[c] = m.Diag[i] * oi[c]
	}
	a, b := m.Start[i], m.Start[i+1]
	weights.MixRow(acc[:d], out, m.Col[a:b], m.Val[a:b])
}

// Out is the transpose of a Mix without its diagonal: for agent j, the
// agents To[e] that mix j's value in, with the factors Fac[e] = M_{To[e], j},
// for e in Start[j]..Start[j+1]−1. It gives a release's receiver list.
type Out struct {
	Start []int
	To    []int
	Fac   []float64
}

// NewMix returns the flat form of m (it aliases m's CSR arrays).
func NewMix(m *weights.Matrix) *Mix {
	return &Mix{N: m.N, Diag: m.Diag, Start: m.Start, Col: m.Col, Val: m.Val}
}

// Out returns the receiver lists of m's columns.
func (m *Mix) Out() *Out {
	o := &Out{Start: make([]int, m.N+1)}
	for _, j := range m.Col {
		o.Start[j+1]++
	}
	for j := range m.N {
		o.Start[j+1] += o.Start[j]
	}
	o.To = make([]int, len(m.Col))
	o.Fac = make([]float64, len(m.Col))
	next := append([]int(nil), o.Start[:m.N]...)
	for i := range m.N {
		for e := m.Start[i]; e < m.Start[i+1]; e++ {
			j := m.Col[e]
			o.To[next[j]], o.Fac[next[j]] = i, m.Val[e]
			next[j]++
		}
	}
	return o
}

// Receivers returns the agents that mix j's value in, and the factors.
// The slices alias o.
func (o *Out) Receivers(j int) ([]int, []float64) {
	a, b := o.Start[j], o.Start[j+1]
	return o.To[a:b:b], o.Fac[a:b:b]
}

// Pullers returns the agents that pull j's value, with no factors: each
// weighs what it fetches by its own row.
func (o *Out) Pullers(j int) ([]int, []float64) {
	to, _ := o.Receivers(j)
	return to, nil
}

// Allocation returns env's problem as a resource-allocation problem, or an
// error naming the problem section when it is not one.
func Allocation(env *method.Env, title string) (objective.Allocation, error) {
	a, ok := env.Problem.(objective.Allocation)
	if !ok {
		return nil, check.Errorf("problem.kind", "%s solves resource-allocation problems (kind \"dispatch\"), not %q", title, env.Problem.Kind())
	}
	return a, nil
}

// quadratic is implemented by problems whose costs are a·w² + b·w + c on a
// box (core/dispatch), so the best response can be computed inline.
type quadratic interface {
	Quadratic(i int) (a, b, lo, hi float64, ok bool)
}

// Responder computes every agent's best response argmin_{w∈W_i} F_i(w) −
// pᵀw. For one-dimensional quadratic costs it works from flat arrays with
// the problem's own formula clip((p − b)/(2a), lo, hi), so the results
// are the same bits as the problem's Respond without a call per agent.
type Responder struct {
	prob  objective.Allocation
	d     int
	fast  bool
	units []unit
}

// unit is one agent's quadratic cost and box, together in memory: the
// update loop reads them once per agent and iteration.
type unit struct {
	gen     bool
	twoA, b float64
	lo, hi  float64
}

// NewResponder returns the best-response kernel of prob.
func NewResponder(prob objective.Allocation) *Responder {
	r := &Responder{prob: prob, d: prob.Dim()}
	q, ok := prob.(quadratic)
	if !ok || r.d != 1 {
		return r
	}
	n := prob.Agents()
	r.fast = true
	r.units = make([]unit, n)
	for i := range n {
		a, b, lo, hi, g := q.Quadratic(i)
		r.units[i] = unit{gen: g, twoA: 2 * a, b: b, lo: lo, hi: hi}
	}
	return r
}

// Respond writes agent i's best response to price p into w (both of
// length Dim).
func (r *Responder) Respond(i int, p, w []float64) {
	if r.fast {
		w[0] = r.Scalar(i, p[0])
		return
	}
	r.prob.Respond(i, p, w)
}

// Unit is agent i's quadratic cost and box as the fast path uses them:
// Gen is false for an agent that allocates nothing; TwoA is 2a.
type Unit struct {
	Gen     bool
	TwoA, B float64
	Lo, Hi  float64
}

// Unit returns agent i's record; only when Fast.
func (r *Responder) Unit(i int) Unit {
	u := r.units[i]
	return Unit{Gen: u.gen, TwoA: u.twoA, B: u.b, Lo: u.lo, Hi: u.hi}
}

// Fast reports whether Scalar may be used (Dim = 1, quadratic costs).
func (r *Responder) Fast() bool { return r.fast }

// Scalar returns agent i's best response to the scalar price p; only when
// Fast.
func (r *Responder) Scalar(i int, p float64) float64 {
	u := &r.units[i]
	if !u.gen {
		return 0
	}
	// The same formula and clip as dispatch.Dispatch.Respond, inline.
	x := (p - u.b) / u.twoA
	if x < u.lo {
		return u.lo
	} else if x > u.hi {
		return u.hi
	}
	return x
}

// CheckStochastic checks Assumption 3 of push–pull methods: the pull
// matrix R row-stochastic and the push matrix C column-stochastic, both
// nonnegative with a positive diagonal (R_ii, C_ii > 0), and nonzero off
// the diagonal only on the graph's links (entry (i, j) needs a link
// j → i). R and C may use different subsets of the links: G_R and G_C are
// the graphs they induce. Errors name the role's section.
func CheckStochastic(env *method.Env, title string) error {
	for _, c := range []struct {
		role, need string
	}{{method.RolePull, weights.FindRowStochastic}, {method.RolePush, weights.FindColumnStochastic}} {
		field := check.Join("weights", c.role)
		rep := env.Reports[c.role]
		for _, name := range []string{weights.FindNonnegative, c.need, weights.FindPositiveDiagonal} {
			if f, ok := rep.Find(name); ok && !f.Holds {
				return check.Errorf(field, "%s needs the %s matrix %s (Assumption 3): %s", title, c.role, name, f.Detail)
			}
		}
		m, g := env.Matrices[c.role], env.Graph
		for i := range m.N {
			for e := m.Start[i]; e < m.Start[i+1]; e++ {
				if j := m.Col[e]; m.Val[e] != 0 && !g.HasLink(j, i) {
					return check.Errorf(field, "entry (%d, %d) is %g, but there is no link %d → %d for it to weigh: the %s matrix may use only the graph's links", i, j, m.Val[e], j, i, c.role)
				}
			}
		}
	}
	return nil
}

// CheckRoots checks Assumption 2 of push–pull methods: G_R (link j → i
// when R_ij > 0: i pulls from j) and G_Cᵀ (link j → i when C_ji > 0: j
// receives i's pushes) each contain a spanning tree, and some node is a
// root of both — a node whose price reaches every agent by pulls and that
// every agent's pushes reach. It returns the common roots, or an error
// naming the nodes that break the condition. Strong connectivity is not
// needed.
func CheckRoots(env *method.Env, title string) ([]int, error) {
	r, c := env.Matrices[method.RolePull], env.Matrices[method.RolePush]
	// G_R: a link j → i for every stored R_ij ≠ 0; G_Cᵀ: a link i → j for
	// every stored C_ij ≠ 0 (the transpose's entry (j, i)).
	var eR, eC []graph.Edge
	for i := range r.N {
		for e := r.Start[i]; e < r.Start[i+1]; e++ {
			if r.Val[e] != 0 {
				eR = append(eR, graph.Edge{From: r.Col[e], To: i})
			}
		}
		for e := c.Start[i]; e < c.Start[i+1]; e++ {
			if c.Val[e] != 0 {
				eC = append(eC, graph.Edge{From: i, To: c.Col[e]})
			}
		}
	}
	gR, err1 := graph.New(r.N, eR, true)
	gCT, err2 := graph.New(c.N, eC, true)
	if err := check.First(err1, err2); err != nil {
		return nil, err // CSR columns are in range and off the diagonal
	}
	roots, err := graph.CommonRoots(gR, gCT)
	var re *graph.RootError
	if !errors.As(err, &re) {
		return roots, err
	}
	switch re.Which {
	case 0:
		return nil, check.Errorf("weights.pull", "%s's Assumption 2 needs G_R (i pulls from j when R_ij > 0) to contain a spanning tree: no agent's price reaches both node %d and node %d by pulls", title, re.Apart[0], re.Apart[1])
	case 1:
		return nil, check.Errorf("weights.push", "%s's Assumption 2 needs G_Cᵀ to contain a spanning tree: no agent receives, even indirectly, the pushes of both node %d and node %d", title, re.Apart[0], re.Apart[1])
	}
	return nil, check.Errorf("weights", "%s's Assumption 2 needs a node that is a root of both G_R and G_Cᵀ: node %d's price reaches every agent by pulls, but not every agent's pushes reach node %d (roots of G_R: %v; of G_Cᵀ: %v)",
		title, re.Node, re.Node, re.Roots[0], re.Roots[1])
}

// Describe formats a root list for messages: "every node" when all are.
func Describe(roots []int, n int) string {
	if len(roots) == n {
		return "every node"
	}
	return fmt.Sprint(roots)
}

// Draw fills nz with channel spec's noise at the iteration whose decay
// factor is f (agent i's scale is its base scale times f; one Fill for all
// agents when they share a scale) and writes the released vectors v + nz
// into out. All slices are agent-major with d entries per agent.
func Draw(smp *noise.Sampler, spec *noise.Spec, f float64, nz, v, out []float64, d int) {
	smp.FillChannel(spec, f, nz, d)
	noise.Release(out, v, nz, d, d, 0)
}

// NoLedger is the accountant of a baseline that runs with privacy noise
// but has no privacy analysis in dpsim: every agent's ε is reported as
// unknown (+Inf, no guarantee claimed), with the reason.
type NoLedger struct {
	// Algorithm, Source and Reason fill the ledger.
	Algorithm, Source, Reason string
	iters                     int
	n                         int
}

// NewNoLedger returns the accountant of n agents.
func NewNoLedger(n int, algorithm, source, reason string) *NoLedger {
	return &NoLedger{Algorithm: algorithm, Source: source, Reason: reason, n: n}
}

// Record implements sim.Recorder.
func (l *NoLedger) Record(st *sim.Step) { l.iters = st.Iter }

// Ledger implements privacy.Accountant.
func (l *NoLedger) Ledger() privacy.Ledger {
	led := privacy.Ledger{Algorithm: l.Algorithm, Notion: "none claimed", Source: l.Source,
		Formula: "—", Iterations: l.iters, Inputs: []privacy.Input{}}
	for i := range l.n {
		led.Agents = append(led.Agents, privacy.Entry{Agent: i, Epsilon: privacy.Infinite(), Reason: l.Reason, Inputs: []privacy.Input{}})
	}
	led.Max = privacy.MaxOf(led.Agents)
	led.Notes = []string{l.Reason}
	return led
}

// Uncharged implements privacy.Uncharged: without an analysis there are
// no sensitivities to compose.
func (l *NoLedger) Uncharged() string {
	return "no privacy analysis states the sensitivity of its messages, so there are no releases to compose: " + l.Reason
}
