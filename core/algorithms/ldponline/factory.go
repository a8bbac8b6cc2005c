package ldponline

import (
	"fmt"
	"math"

	"dpsim/core/algorithms/internal/online"
	"dpsim/core/check"
	"dpsim/core/method"
	"dpsim/core/noise"
	"dpsim/core/param"
	"dpsim/core/privacy"
	"dpsim/core/sim"
)

// Factory builds Algorithm 1 from a scenario.
var Factory = method.Factory{
	Name:  "ldp-online",
	Title: "LDP online (Chen & Wang, Algorithm 1)",
	Paper: "Z. Chen and Y. Wang, Local differential privacy for decentralized online stochastic optimization with guaranteed optimality and convergence speed, Algorithm 1 and Theorem 5",
	Channels: []method.Channel{
		{Name: "theta", Dist: noise.Laplace, Description: "ϑ on the released estimate y = θ + ϑ: scale ν_0^i, per-agent decay 1/(1+t)^{ς^i} (the paper: ς^i = 0.5 + 0.01·i)"},
	},
	Solves:    method.Minimisation,
	States:    []string{"x"},
	NewParams: func() any { return Defaults() },
	Build:     build,
	Words:     words,
}

// Algorithm is Algorithm 1 on one problem instance.
type Algorithm struct {
	*online.Engine
	// Params are the parameters it runs with.
	Params Params
	// Hist is every agent's received data.
	Hist *online.History
}

// Formula is the ledger's formula (Theorem 5(1), with spec §7.7's
// contraction factor).
const Formula = "ε^i(T) = Σ_{t=1}^{T} 2d·ϱ_t/ν_t^i = Σ 2√2·d·ϱ_t·(t+1)^{ς^i}/σ_0^i,  ϱ_1 = λ_0,  ϱ_{t+1} = c_w·ϱ_t + λ_t,  c_w = max_i |1 + w_ii|;  after K iterations y_0, …, y_{K−1} are public: T = K − 1 (y_0 depends on no data)"

// InfiniteClaim is the paper's infinite-horizon statement, shown beside
// the finite-T ledger.
const InfiniteClaim = "The paper's Theorem 5(2) claims ε^i finite as T → ∞ (ε^i_∞ ≤ 2√2·λ_0·C3·d/(σ_0^i·(v − ς^i)), eqs. (27)–(28)), from a refined sensitivity recursion Δ_{t+1} ≤ (1 − w̄ + √n·L·λ_t·t/(t+1))·Δ_t + 2λ_t·d/(t+1) that needs the dimension n, the per-sample Lipschitz constant L and a free C2, and whose constant C3 is astronomically loose when √n·L·λ_0 ≫ w̄ (spec §7.4). dpsim does not compute it. The computable Theorem 5(1) bound on the ledger grows like T^(1+ς−v) without limit."

func build(env *method.Env, params any) (*method.Built, []check.Warning, error) {
	p := *params.(*Params)
	const pf = "algorithm.params"
	if err := param.Validate(pf, &p); err != nil {
		return nil, nil, err
	}
	minMix, known, err := online.CheckWeights(env, "LDP online (Assumption 3)")
	if err != nil {
		return nil, nil, err
	}
	if !env.Report.ZeroRowSums {
		return nil, nil, check.Errorf("weights", "LDP online's Assumption 3 needs a Laplacian-type W with w_ii = −Σ_j w_ij (zero row sums, weights kind ldp-laplacian); the rows of this W do not sum to 0")
	}
	th := env.Noise["theta"]
	noisy := !th.IsOff()
	if (noisy || p.Clip) && p.GradientBound == 0 {
		return nil, nil, check.Errorf(check.Join(pf, "gradient_bound"), "is required (> 0) when noise is on or gradients are clipped: Theorem 5's budget is computed from the ℓ1 gradient bound d")
	}
	var warns []check.Warning
	if known && minMix-1 <= -1 && minMix > -1+1e-12 {
		warns = append(warns, check.Warnf("weights", "Assumption 3 (−1 < δ_m) fails: the smallest eigenvalue of W is %.6g (as in the paper's own experiment, w_ij = 0.3 on a ring of 10: −1.2, spec §7.5); the mixing matrix I + W has %.6g > −1, so consensus still works", minMix-1, minMix))
	}
	warns = append(warns, online.MixingWarning(minMix, known)...)
	if !(p.V > 0.5 && p.V < 1) {
		warns = append(warns, check.Warnf(check.Join(pf, "v"), "Algorithm 1 needs ½ < v < 1 (got %g): the convergence theorems do not apply", p.V))
	}
	if noisy {
		for i := range env.Problem.Agents() {
			dec := th.DecayOf(i)
			if dec.Kind != noise.Polynomial || dec.M != 1 || !(dec.P > 0.5 && dec.P < 1) || !(dec.P < p.V) {
				key, _ := th.DecayKey()
				warns = append(warns, check.Warnf(check.Join("noise.theta", key), "agent %d's decay %v is not 1/(1+t)^ς with ½ < ς < v = %g (Assumption 4 and (11)): the convergence theorems and the paper's infinite-horizon claim do not apply (the finite-T ledger still holds)", i, dec, p.V))
				break
			}
		}
	}
	if !p.Clip && noisy {
		warns = append(warns, check.Warnf(check.Join(pf, "clip_gradients"), "d = %g is taken as given (A5), not enforced: turn on clip_gradients (a modification) for the budget to be a guarantee", p.GradientBound))
	}
	h, err := online.NewHistory(env, p.Batch, p.Window)
	if err != nil {
		return nil, nil, err
	}
	clip := 0.0
	if p.Clip {
		clip = p.GradientBound
	}
	e := online.NewEngine(online.Config{Name: "ldp-online", Channel: "theta", Step: p.Step, Clip: clip}, env, h)
	a := &Algorithm{Engine: e, Params: p, Hist: h}
	return &method.Built{Algorithm: a, Accountant: NewAccountant(p, env), Theory: theory(p, env)}, warns, nil
}

// Resume implements sim.Resumable.
func (a *Algorithm) Resume(iter int, state []sim.Var) error { return a.Engine.Resume(iter, state) }

// Contraction returns c_w = max_i |1 + w_ii| (spec §7.7: the paper's
// 1 − w̄ is the same when every |w_ii| ≤ 1).
func Contraction(diag []float64) float64 {
	c := 0.0
	for _, w := range diag {
		c = max(c, math.Abs(1+w))
	}
	return c
}

// NewAccountant returns Theorem 5(1)'s ledger: message y_t of agent i has
// ℓ1 sensitivity Δ_t = 2d·ϱ_t, Δ_0 = 0, Δ_{t+1} = c_w·Δ_t + 2d·λ_t
// (eqs. (19)–(21) with the gradient difference bounded by 2d), and the
// agent spends Σ_t Δ_t/ν_t^i (Lemma 1).
func NewAccountant(p Params, env *method.Env) *online.Accountant {
	cw := Contraction(env.Weights.Diag)
	th := env.Noise["theta"]
	ac := online.NewAccountant(env.Problem.Agents(), th, func(_, t int, delta float64) float64 {
		return float64(cw*delta) + float64(2*p.GradientBound*p.Step(t))
	})
	ac.Head = privacy.Ledger{
		Algorithm: "ldp-online",
		Notion:    "ε^i-LDP per agent (Laplace mechanism; adjacent streams differ in one sample of the agent's own stream, Definition 1); ε is reported per agent, the maximum is the weakest protection",
		Source:    "Chen & Wang, LDP online, Theorem 5(1) and Lemma 1 (spec §7.4)",
		Formula:   Formula,
		Inputs: []privacy.Input{
			privacy.Num("d (ℓ1 gradient bound)", p.GradientBound),
			privacy.Num("λ_0", p.Lambda0), privacy.Num("v", p.V),
			privacy.Num("c_w = max_i |1 + w_ii|", cw),
			privacy.Text("clip_gradients (modification)", fmt.Sprint(p.Clip)),
		},
		Notes: []string{
			"The finite-T budget grows with T (like T^(1+ς−v)); a longer run always reports a larger ε.",
			InfiniteClaim,
		},
	}
	ac.EntryInputs = func(i int) []privacy.Input { return online.ScaleInputs(th, i) }
	ac.Adjacent, ac.Channel = "one sample ξ_k^i of one agent's data stream is replaced, all others equal (Definition 1); every sample gradient has ℓ1 norm at most d (Theorem 5's bound on the gradient difference, 2d)", "theta"
	return ac
}

// theory: the convergence rate Theorem 1 states, and the paper's
// infinite-horizon budget, stated but not computed.
func theory(p Params, env *method.Env) *method.Theory {
	th := env.Noise["theta"]
	vs := 1.0
	for i := range env.Problem.Agents() {
		vs = min(vs, th.DecayOf(i).P)
	}
	beta := min((3-float64(3*p.V))/2, float64(2*vs)-float64((p.V+1)/2))
	return &method.Theory{
		Source: "Chen & Wang, LDP online, Theorems 1–5 (spec §7.3–7.4)",
		Convergence: fmt.Sprintf("strongly convex F: E‖θ_t^i − θ*‖² = O(t^(−β)) with β = min{(3 − 3v)/2, 2ς − (v + 1)/2} = %.4g (v = %g, ς = min_i ς^i = %g; Theorems 1–2); convex: O(T^(−(1−v))) ergodic objective gap (Theorem 3); nonconvex: O(T^(−(1−v))) ergodic ‖∇F‖² (Theorem 4). λ_0 = %g is usually far above Theorem 1's bound −δ_2·μ/(2μ² + 16L²).",
			beta, p.V, vs, p.Lambda0),
		// Not computed: ∞ (no figure), never a 0 that reads as perfect privacy.
		InfiniteHorizon: &method.Budget{Source: "Chen & Wang, Theorem 5(2)", Formula: "ε^i_∞ ≤ 2√2·λ_0·C3·d/(σ_0^i·(v − ς^i))", Reason: InfiniteClaim, Epsilon: privacy.Infinite()},
	}
}
