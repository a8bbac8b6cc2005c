package objective

import "dpsim/core/pool"

// Grads writes ∇f_i(x_i) of every agent into out, agent-major like x,
// with the agents spread over p's workers; on a serial pool it makes the
// one Batch call when prob offers it. Every agent's gradient is the same
// bits either way: a Problem is safe for concurrent use (Reads).
func Grads(p *pool.Pool, prob Problem, x, out []float64) {
	if b, ok := prob.(Batch); ok && p.Serial() {
		b.GradAll(x, out)
		return
	}
	d := prob.Dim()
	p.Each(prob.Agents(), func(i int) { prob.Grad(i, x[i*d:(i+1)*d], out[i*d:(i+1)*d]) })
}
