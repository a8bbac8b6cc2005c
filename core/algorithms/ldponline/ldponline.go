// Package ldponline implements Algorithm 1 of Z. Chen and Y. Wang, "Local
// differential privacy for decentralized online stochastic optimization
// with guaranteed optimality and convergence speed" (the LDP online
// paper), with the fixes of spec §7.
//
// Every agent i receives N^i new samples ξ_t^i of its own stream every
// iteration and keeps all of them; it releases one noisy copy of its
// estimate and steps on the gradient of the average loss over everything
// it has received:
//
//	y_t^i   = θ_t^i + ϑ_t^i,  ϑ_t^i ~ Lap(ν_t^i)^n,  ν_t^i = ν_0^i/(t+1)^{ς^i}   (Alg. 1 line 7, A4; ν = σ/√2, spec §7.7)
//	g_t^i   = (1/(t+1))·Σ_{k=0}^{t} ∇l(θ_t^i; ξ_k^i)                             (Alg. 1 line 4)
//	θ_{t+1}^i = θ_t^i + Σ_{j∈N_i} w_ij·(y_t^j − θ_t^i) − λ_t·g_t^i,  λ_t = λ_0/(t+1)^v   (Alg. 1 line 6)
//
// W is Laplacian-type: w_ij > 0 on the edges, w_ii = −Σ_j w_ij (A3); the
// agent mixes its own clean θ_t^i (only the neighbours' copies are noisy,
// spec §7.8 pitfall 5). The privacy ledger is Theorem 5(1)'s finite-T
// budget per agent (see Accountant).
package ldponline

import "dpsim/core/noise"

// Params are Algorithm 1's parameters in the paper's notation. The noise
// ν_0^i/(t+1)^{ς^i} is the scenario's channel "theta": its scale(s) are
// ν_0^i, its per-agent decays 1/(1+t)^{ς^i} (noise.Spec.Decays).
type Params struct {
	// Lambda0 and V give the step λ_t = λ_0/(t+1)^v.
	Lambda0 float64 `json:"lambda0" doc:"λ_0 in the step λ_t = λ_0/(t+1)^v (the paper: 1; Theorem 1 asks λ_0 ≤ −δ_2·μ/(2μ² + 16L²), far smaller)" range:"(0, 1e6]"`
	V       float64 `json:"v" doc:"v in λ_t = λ_0/(t+1)^v; the theory needs ½ < v < 1 and v > max_i ς^i (the paper: 0.71 mushrooms, 0.68 MNIST, 0.70 CIFAR-10)" range:"[0, 2]"`
	// Batch is N^i, the samples each agent receives per iteration.
	Batch int `json:"batch" doc:"N^i: new samples each agent receives from its shard every iteration (the paper: 2 on mushrooms, 32 images on MNIST and CIFAR-10)" range:"[1, 100000]" unit:"samples per iteration"`
	// Window caps the data the gradient reads (0: all received).
	Window int `json:"window" doc:"the gradient reads the latest window batches only (0: every sample received so far, as the paper; its cost is then bounded by the shard; a window is cheaper but forgets older data, 1 is classic online SGD)" range:"[0, 1000000]" unit:"batches"`
	// GradientBound is d of A5: ‖∇l(θ; ξ)‖₁ ≤ d for every θ and ξ.
	GradientBound float64 `json:"gradient_bound" doc:"d: the ℓ1 bound on every per-sample gradient (A5), the privacy ledger's sensitivity input; the paper gives none" range:"[0, 1e100]"`
	// Clip scales each gradient step to ‖g‖₁ ≤ d: a modification of the
	// paper, which assumes A5 holds.
	Clip bool `json:"clip_gradients" doc:"modification (not in the paper): scale the gradient to ‖g‖₁ ≤ d, so that A5 holds on the iterates and the ledger is a guarantee"`
}

// Defaults returns the mushrooms settings of Sec. VI-A: λ_t = 1/(t+1)^0.71,
// 2 samples per agent and iteration, all received data, d = 1.
func Defaults() *Params {
	return &Params{Lambda0: 1, V: 0.71, Batch: 2, GradientBound: 1}
}

// Step returns λ_t = λ_0/(t+1)^v.
func (p Params) Step(t int) float64 { return noise.Poly(p.Lambda0, 1, p.V).At(t) }
