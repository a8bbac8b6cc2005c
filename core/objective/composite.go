package objective

import "math"

// Composite is implemented by problems whose objectives are composite:
// agent i's objective is f_i(x) + r(x), with f_i smooth and r convex,
// closed, common to every agent and possibly nonsmooth (an ℓ1 penalty), so
// that no gradient of r exists and algorithms reach it through its
// proximal operator (DP-RECAL, spec §6: Σ_i f_i(x) + n·r(x)).
//
// On a Composite problem the Problem methods split the same way:
//   - Value(i, x) and Grad(i, x, out) are the smooth part f_i alone, so
//     that Grad is the gradient of Value;
//   - Objective(x) is the whole composite objective as the problem's paper
//     writes it, r included (for DP-RECAL Σ_i f_i(x) + n·r(x));
//   - Optimum minimises that whole objective.
type Composite interface {
	Problem
	// Regularizer returns r(x), the nonsmooth part of every agent's
	// objective.
	Regularizer(x []float64) float64
	// Prox writes the proximal point of r with the given step > 0,
	//
	//	argmin_u r(u) + ‖u − x‖²/(2·step),
	//
	// into out (len Dim; out may be x itself). An algorithm that needs
	// the prox of c·r (DP-RECAL's prox_{n·r}) passes step·c.
	Prox(x []float64, step float64, out []float64)
}

// ElasticNet is the regulariser r(x) = L1·‖x‖₁ + (L2/2)·‖x‖₂² with
// L1, L2 ≥ 0: DP-RECAL's r(x) = ½‖x‖₁ + ½‖x‖² is ElasticNet{L1: 0.5,
// L2: 1} (spec §6). Composite problems with this regulariser implement
// Regularizer and Prox with its methods.
type ElasticNet struct {
	L1, L2 float64
}

// Value returns L1·‖x‖₁ + (L2/2)·‖x‖₂².
func (r ElasticNet) Value(x []float64) float64 {
	var a, s float64
	for _, v := range x {
		a += math.Abs(v)
		s += float64(v * v)
	}
	return float64(r.L1*a) + float64(r.L2/2*s)
}

// Prox writes argmin_u r(u) + ‖u − x‖²/(2·step) into out (out may be x):
// coordinate-wise, the soft threshold of x_j at step·L1 shrunk by
// 1/(1 + step·L2), which is where 0 ∈ L1·∂|u_j| + L2·u_j + (u_j − x_j)/step.
func (r ElasticNet) Prox(x []float64, step float64, out []float64) {
	t, s := float64(step*r.L1), 1/(1+float64(step*r.L2))
	for j, v := range x {
		switch {
		case v > t:
			out[j] = (v - t) * s
		case v < -t:
			out[j] = (v + t) * s
		default:
			out[j] = 0
		}
	}
}
