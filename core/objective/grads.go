package objective

import (
	"dpsim/core/farm"
	"dpsim/core/pool"
)

// Grads writes ∇f_i(x_i) of every agent into out, agent-major like x,
// with the agents spread over p's workers, or sent to p's farm (the
// page's helper Web Workers, each with its own instance of prob); on a
// serial pool it makes the one Batch call when prob offers it. Every
// agent's gradient is the same bits either way: a Problem is safe for
// concurrent use (Reads), and Batch and farm.Run compute what Grad does.
func Grads(p *pool.Pool, prob Problem, x, out []float64) {
	d, n := prob.Dim(), prob.Agents()
	if p.Farmed(n) {
		tasks := make([]farm.Task, n)
		for i := range tasks {
			tasks[i] = farm.Task{Agent: i, X: x[i*d : (i+1)*d], Out: out[i*d : (i+1)*d]}
		}
		if p.Send(tasks) {
			return
		}
	}
	if b, ok := prob.(Batch); ok && p.Serial() {
		b.GradAll(x, out)
		return
	}
	p.Each(n, func(i int) { prob.Grad(i, x[i*d:(i+1)*d], out[i*d:(i+1)*d]) })
}
