package diffdradt

import (
	"math"

	"dpsim/core/algorithms/internal/pushpull"
	"dpsim/core/check"
	"dpsim/core/method"
	"dpsim/core/noise"
	"dpsim/core/objective"
	"dpsim/core/param"
	"dpsim/core/weights"
)

// Factory builds diff-DRADT from a scenario. It mixes with the scenario's
// one weight matrix (use "row-stochastic" to run it as the DP-DGT paper's
// Fig. 5 does on a digraph).
var Factory = method.Factory{
	Name:  "diff-dradt",
	Title: "diff-DRADT (reconstruction)",
	Paper: "T. Ding, S. Zhu, C. Chen, J. Xu and X. Guan, Differentially private distributed resource allocation via deviation tracking, IEEE TSIPN 7 (2021) — reconstructed from the DP-DGT paper's description (baseline; baselines.md §4.2, confidence medium-low)",
	Channels: []method.Channel{
		{Name: "xi", Dist: noise.Laplace, Description: "ξ on the deviation tracker y (the direction)"},
		{Name: "zeta", Dist: noise.Laplace, Description: "ζ on the price λ̃ (the state)"},
	},
	Solves: method.Allocation,
	// States are what State reports and what a scenario's init may pin:
	// the allocations w (by default the best response to the initial
	// price), the deviation trackers y (by default d − w_0) and the prices.
	States:    []string{"w", "y", "price"},
	NewParams: func() any { return Defaults() },
	Build:     build,
	Words:     words,
}

func build(env *method.Env, params any) (*method.Built, []check.Warning, error) {
	p := *params.(*Params)
	if err := env.RequireOneDecay(oneDecay); err != nil {
		return nil, nil, err
	}
	if err := param.Validate("algorithm.params", &p); err != nil {
		return nil, nil, err
	}
	prob, err := pushpull.Allocation(env, "diff-DRADT")
	if err != nil {
		return nil, nil, err
	}
	rep := env.Report
	if f, ok := rep.Find(weights.FindNonnegative); ok && !f.Holds {
		return nil, nil, check.Errorf("weights", "diff-DRADT needs W nonnegative: %s", f.Detail)
	}
	if !rep.RowStochastic && !rep.ColumnStochastic {
		f, _ := rep.Find(weights.FindRowStochastic)
		return nil, nil, check.Errorf("weights", "diff-DRADT mixes with an averaging matrix: W must be row- or column-stochastic (%s)", f.Detail)
	}
	warns := []check.Warning{check.Warnf("algorithm", "diff-DRADT is a reconstruction (baselines.md §4.2, confidence medium-low): its paper could not be consulted, and dpsim computes no ε for it")}
	if !rep.DoublyStochastic {
		warns = append(warns, check.Warnf("weights", "diff-DRADT is designed for undirected graphs with a doubly-stochastic W; with this W the sum of the trackers y does not follow the supply–demand gap, so it settles away from w* (the large error of the DP-DGT paper's Fig. 5 on its digraph)"))
	}
	// An export pins all three as the run began (w_0 the best response,
	// y_0 = d − w_0), so its replay starts where the run did; a y_0 whose
	// sum is not Σ(d − w_0) breaks the deviation tracking, and says so.
	var w0, y0 []float64
	if _, ok := env.Init["w"]; ok {
		w0 = env.InitState("w")
	}
	if _, ok := env.Init["y"]; ok {
		y0 = env.InitState("y")
	}
	a := New(p, prob, pushpull.NewMix(env.Weights), env.Noise["xi"], env.Noise["zeta"],
		env.Sampler("diff-dradt", "xi"), env.Sampler("diff-dradt", "zeta"), env.InitState("price"), w0, y0)
	if y0 != nil {
		if w, bad := trackingWarning(prob, a); bad {
			warns = append(warns, w)
		}
	}
	led := pushpull.NewNoLedger(prob.Agents(), "diff-dradt", "Ding, Zhu, Chen, Xu & Guan 2021 (formula not available to dpsim)",
		"no ε computed: diff-DRADT's privacy formula could not be consulted (baselines.md §4.2); it runs with DP-DGT's noise for the comparison at equal noise")
	return &method.Built{Algorithm: a, Accountant: led}, warns, nil
}

// trackingWarning reports pinned trackers whose sum is not the initial
// supply–demand gap Σ_i (d_i − w_{i,0}): y then tracks the wrong gap and
// the prices settle away from λ*.
func trackingWarning(prob objective.Allocation, a *Algorithm) (check.Warning, bool) {
	n, d := prob.Agents(), prob.Dim()
	for c := range d {
		gap, sum, scale := 0.0, 0.0, 1.0
		for i := range n {
			gap += prob.Demand(i)[c] - a.alloc[i*d+c]
			sum += a.y[i*d+c]
			scale = math.Max(scale, math.Max(math.Abs(prob.Demand(i)[c]), math.Abs(a.alloc[i*d+c])))
		}
		if math.Abs(gap-sum) > 1e-9*float64(n)*scale {
			return check.Warnf("init.y", "Σ_i y_{i,0} = %g is not the initial supply–demand gap Σ_i (d_i − w_{i,0}) = %g in coordinate %d: the trackers follow the wrong gap and the prices settle away from λ*", sum, gap, c), true
		}
	}
	return check.Warning{}, false
}

// oneDecay is why the algorithm refuses per-agent noise decays
// (noise.Spec.Decays).
const oneDecay = "DiffDRADT draws its noise with one decay per channel for all agents"
