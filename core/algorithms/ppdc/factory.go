package ppdc

import (
	"fmt"
	"math"

	"dpsim/core/check"
	"dpsim/core/method"
	"dpsim/core/noise"
	"dpsim/core/num"
	"dpsim/core/objective"
	"dpsim/core/param"
	"dpsim/core/privacy"
	"dpsim/core/sim"
	"dpsim/core/weights"
)

// Confidence is the source confidence baselines.md gives PPDC; the page
// and the docs show it beside the name.
const Confidence = "low: the equations are reconstructed from recollection (the paper could not be opened); only the parameter names and values come from the DPP² paper (baselines.md §3.2)"

// Factory builds PPDC from a scenario.
var Factory = method.Factory{
	Name:  "ppdc",
	Title: "PPDC without compression (Xie et al. 2025)",
	Paper: "Xie, Yi, Wang, Cao & Ren, Differentially private distributed nonconvex optimization with compressed communication, Automatica 177, 2025, simulated without compression as in DPP²'s Fig. 3; as specified in baselines.md §3.2 (confidence " + Confidence + ")",
	Channels: []method.Channel{
		{Name: "zeta_x", Dist: noise.Laplace, Description: "ζ^x on the released primal x: scale u_x, decay r^k"},
		{Name: "zeta_v", Dist: noise.Laplace, Description: "ζ^v on the released dual v (form pi only): scale u_v, decay r^k"},
	},
	Solves:    method.Minimisation,
	States:    []string{"x", "v"},
	NewParams: func() any { return Defaults() },
	Build:     build,
	Words:     words,
}

var needs = []string{weights.FindSymmetric, weights.FindZeroRowSums, weights.FindSparsity}

func build(env *method.Env, params any) (*method.Built, []check.Warning, error) {
	p := *params.(*Params)
	const pf = "algorithm.params"
	if err := param.Validate(pf, &p); err != nil {
		return nil, nil, err
	}
	if err := env.RequireUndirected("PPDC", "PPDC needs a Laplacian-type L (symmetric, L·1 = 0, on the edges: weights kind normalized-laplacian); L fails", needs...); err != nil {
		return nil, nil, err
	}
	zx, zv := env.Noise["zeta_x"], env.Noise["zeta_v"]
	cFrom := objective.GradientBoundSource(p.GradientBound, env.Problem)
	if p.GradientBound == 0 {
		if lp, ok := env.Problem.(objective.Lipschitz); ok {
			if b, ok := lp.GradientBound(); ok {
				p.GradientBound = b.Value
			}
		}
	}
	if !zx.IsOff() && p.GradientBound == 0 {
		return nil, nil, check.Errorf(check.Join(pf, "gradient_bound"), "is required (> 0) when noise is on: the reconstructed ledger is computed from C")
	}
	var warns []check.Warning
	if p.Form == FormLocalDual && !zv.IsOff() {
		warns = append(warns, check.Warnf("noise.zeta_v", "has no effect in the local-dual form: v is never sent"))
	}
	a := New(p, env.Problem, env.Weights, zx, zv, env.Sampler("ppdc", "zeta_x"), env.Sampler("ppdc", "zeta_v"), env.InitState("x"))
	a.pool = env.Pool
	copy(a.v, env.InitState("v"))
	a.cFrom, a.gradBound = cFrom, p.GradientBound
	th := &method.Theory{
		Source:      "Xie et al. 2025 (PPDC) as baselines.md §3.2 reconstructs it",
		Convergence: "O(1/K) to a neighbourhood of a stationary point (linear under P-Ł), by the DPP² paper's account; not exact",
		InfiniteHorizon: &method.Budget{Source: "baselines.md §3.2", Formula: Formula,
			Reason: "none: the reconstructed sensitivity grows like k, so ε grows without bound"},
	}
	return &method.Built{Algorithm: a, Accountant: &Accountant{alg: a, agents: make([]privacy.Sum, a.n)}, Theory: th}, warns, nil
}

// Formula is the reconstructed ledger's formula.
const Formula = "ε_i = Σ_{k=1..K−1} 2√d·C·η·k/(u_x r^k): with every message observed, only agent i's own x differs, by Δx_{k+1} = Δx_k − η(∇f_i − ∇f_i'), ‖Δx_k‖₂ ≤ 2Cηk; v̂ leaks nothing more (baselines.md §3.2, reconstructed)"

// Accountant keeps PPDC's reconstructed ledger (Formula).
type Accountant struct {
	alg    *Algorithm
	agents []privacy.Sum
	inf    string
	k      int
}

// Record implements sim.Recorder: Iter = n means iterations 0..n−1 sent.
func (ac *Accountant) Record(st *sim.Step) {
	a := ac.alg
	for ; ac.k < st.Iter; ac.k++ {
		if ac.k == 0 || ac.inf != "" {
			continue // Δx_0 = 0
		}
		s := 2 * math.Sqrt(float64(a.d)) * a.gradBound * a.p.Eta * float64(ac.k)
		for i := range ac.agents {
			lb := a.zx.LogScaleAt(i, ac.k)
			if math.IsInf(lb, -1) {
				ac.inf = fmt.Sprintf("the noise on x is 0 at iteration %d", ac.k)
				break
			}
			ac.agents[i].AddLog(num.Log(s) - lb)
		}
	}
}

// Ledger implements privacy.Accountant.
func (ac *Accountant) Ledger() privacy.Ledger {
	a := ac.alg
	l := privacy.Ledger{
		Algorithm:  "ppdc",
		Notion:     "ε-DP of the local objectives (Laplace mechanism; adjacent f_i, f_i' with ‖∇f‖₂ ≤ C)",
		Source:     "baselines.md §3.2, reconstructed; confidence " + Confidence,
		Formula:    Formula,
		Iterations: ac.k,
		Inputs: []privacy.Input{privacy.Num("d (dimension)", float64(a.d)), privacy.Num("η", a.p.Eta),
			privacy.Num("C", a.gradBound), privacy.Text("C from", a.cFrom), privacy.Text("u_x decay", a.zx.Decay.String())},
		Notes: []string{"The DPP² paper does not compute PPDC's budget; it states that its Fig. 3 parameters give the three methods the same one."},
	}
	for i := range ac.agents {
		e := privacy.Entry{Agent: i, Inputs: []privacy.Input{privacy.Num("u_x", a.zx.Base(i))}}
		switch {
		case a.zx.IsOff() && ac.k > 1:
			e.Epsilon, e.Reason = privacy.Infinite(), "no noise on x (channel zeta_x)"
		case ac.inf != "":
			e.Epsilon, e.Reason = privacy.Infinite(), ac.inf
		default:
			e.Epsilon = ac.agents[i].Amount()
		}
		l.Agents = append(l.Agents, e)
	}
	l.Max = privacy.MaxOf(l.Agents)
	return l
}

// Adjacency implements privacy.Releaser.
func (ac *Accountant) Adjacency() string {
	return "one agent's objective f_i is replaced by another, both with ‖∇f‖₂ ≤ C (baselines.md §3.2, reconstructed)"
}

// Releases implements privacy.Releaser: x̂_i^k is a Laplace release of
// scale u_x r^k and ℓ1 sensitivity 2√d·C·η·k (Formula); v̂_i^k, sent in
// the PI form, is a function of observed messages and its own past, so
// its sensitivity is 0.
func (ac *Accountant) Releases(dst []privacy.Charge, agent, from, to int, factor float64) []privacy.Charge {
	a := ac.alg
	for k := from; k < to; k++ {
		s := 2 * math.Sqrt(float64(a.d)) * a.gradBound * a.p.Eta * float64(k)
		dst = append(dst, privacy.Charge{Agent: agent, Channel: "x", Release: privacy.ChannelRelease(a.zx, agent, k, s, factor)})
		if a.p.Form == FormPI {
			dst = append(dst, privacy.Charge{Agent: agent, Channel: "v", Release: privacy.ChannelRelease(a.zv, agent, k, 0, factor)})
		}
	}
	return dst
}
