// Package online holds what the online-learning algorithms share (LDP
// online's Algorithm 1 and its baselines LDOL, DOLA, DMOD, DSGD and the
// online DPOP): every agent's stream of received samples, and the
// gradient of the average loss over all of them (spec §7.2, baselines.md
// §7.0), with the cost kept bounded.
package online

import (
	"fmt"
	"math"

	"dpsim/core/check"
	"dpsim/core/farm"
	"dpsim/core/method"
	"dpsim/core/objective"
	"dpsim/core/pool"
)

// History is what every agent has received so far and the gradient over
// it. Every iteration each agent takes Batch new samples from its own
// cursor (method.Env.Samples: seeded, replayable, pinnable).
//
// With Window = 0 the gradient is over all samples received so far,
// (1/(t+1))·Σ_{k≤t} ∇ℓ(θ; ξ_k) — exactly, but in bounded memory and time:
// the samples come from a finite shard, so the sum is kept as a count per
// row of the shard (a running sum of sufficient statistics that holds for
// every loss), and the gradient is Σ_c (c·|G_c|/total)·GradBatch(G_c) over
// the groups G_c of rows received c times. Its cost is that of one pass
// over the distinct rows received, never more than the shard. With
// Window = w > 0 it is over the latest w batches only: the cost of w
// batches, and an estimate that forgets older data (w = 1 is classic
// online SGD on the latest batch).
//
// On a problem that serves no samples (objective.Stochastic) the stream
// is the whole shard at every step and the gradient is ∇f_i.
type History struct {
	prob   objective.Problem
	st     objective.Stochastic
	cur    []*method.Cursor
	batch  int
	window int
	t      int // batches received

	// all-past mode
	counts [][]int32
	seen   [][]int
	bucket [][][]int // scratch per agent: rows by count
	// window mode
	ring [][]int // per agent: the latest window·batch indices, circular
	at   []int
	tmp  []float64 // scratch per agent, agent-major: agents' gradients may run at once
	d    int
}

// Fields of the shared parameters, for errors.
const (
	FieldBatch  = "algorithm.params.batch"
	FieldWindow = "algorithm.params.window"
)

// NewHistory returns the agents' histories on env's problem, drawing
// batch samples per agent and iteration, over a window of the latest
// window batches (0: all). It creates the cursors (call it at Build).
func NewHistory(env *method.Env, batch, window int) (*History, error) {
	if batch < 1 {
		return nil, check.Errorf(FieldBatch, "must be ≥ 1 sample per agent and iteration (got %d)", batch)
	}
	if window < 0 {
		return nil, check.Errorf(FieldWindow, "must be ≥ 0 batches (0: all received data; got %d)", window)
	}
	n, d := env.Problem.Agents(), env.Problem.Dim()
	h := &History{prob: env.Problem, batch: batch, window: window, d: d}
	st, ok := env.Problem.(objective.Stochastic)
	if !ok {
		return h, nil
	}
	h.st = st
	env.SampleRate = batch
	for i := range n {
		h.cur = append(h.cur, env.Samples(i))
	}
	if window > 0 {
		h.ring = make([][]int, n)
		h.at = make([]int, n)
		for i := range h.ring {
			h.ring[i] = make([]int, 0, window*batch)
		}
		return h, nil
	}
	h.counts = make([][]int32, n)
	h.seen = make([][]int, n)
	h.bucket = make([][][]int, n)
	h.tmp = make([]float64, n*d)
	for i := range n {
		h.counts[i] = make([]int32, st.Samples(i))
	}
	return h, nil
}

// Stochastic reports whether the problem serves samples (else the
// gradient is the full ∇f_i).
func (h *History) Stochastic() bool { return h.st != nil }

// Received returns the number of batches each agent has received.
func (h *History) Received() int { return h.t }

// Receive hands every agent its next batch (ξ_t^i).
func (h *History) Receive() {
	h.t++
	if h.st == nil {
		return
	}
	for i, c := range h.cur {
		idx := c.Next(h.batch)
		if h.window > 0 {
			r := h.ring[i]
			for _, k := range idx {
				if len(r) < cap(r) {
					r = append(r, k)
					continue
				}
				r[h.at[i]] = k
				h.at[i] = (h.at[i] + 1) % len(r)
			}
			h.ring[i] = r
			continue
		}
		cnt := h.counts[i]
		for _, k := range idx {
			if cnt[k] == 0 {
				h.seen[i] = append(h.seen[i], k)
			}
			cnt[k]++
		}
	}
}

// Grads writes into out every agent's gradient at its row of at (both
// agent-major) over the data it has received, the agents spread over p's
// workers or sent to p's farm (each task names the rows it reads).
func (h *History) Grads(p *pool.Pool, at, out []float64) {
	if h.st == nil {
		objective.Grads(p, h.prob, at, out)
		return
	}
	d, n := h.d, len(h.cur)
	if p.Farmed(n) {
		tasks := make([]farm.Task, n)
		for i := range tasks {
			tasks[i] = h.task(i, at[i*d:(i+1)*d], out[i*d:(i+1)*d])
		}
		if p.Send(tasks) {
			return
		}
	}
	p.Each(n, func(i int) { h.Grad(i, at[i*d:(i+1)*d], out[i*d:(i+1)*d]) })
}

// Grad writes into out agent i's gradient at x over the data it has
// received (see History). It needs Receive to have been called once.
// Calls for different agents may run at once.
func (h *History) Grad(i int, x, out []float64) {
	if h.st == nil {
		h.prob.Grad(i, x, out)
		return
	}
	t := h.task(i, x, out)
	var tmp []float64
	if t.Sum {
		tmp = h.tmp[i*h.d : (i+1)*h.d]
	}
	farm.Run(h.st, &t, tmp)
}

// task is agent i's gradient at x over the data it has received as a
// farm.Task: the rows it reads and their weights. Its rows are agent i's
// scratch, valid until the next call for i.
func (h *History) task(i int, x, out []float64) farm.Task {
	t := farm.Task{Agent: i, X: x, Out: out}
	if h.t == 0 {
		panic(fmt.Sprintf("online: agent %d asked for a gradient before receiving data", i))
	}
	if h.window > 0 {
		t.Groups = []farm.Group{{Rows: h.ring[i], Weight: 1}}
		return t
	}
	seen, cnt := h.seen[i], h.counts[i]
	lo, hi := cnt[seen[0]], cnt[seen[0]]
	for _, k := range seen {
		lo, hi = min(lo, cnt[k]), max(hi, cnt[k])
	}
	if lo == hi {
		// Every row received equally often: one batch (the usual case
		// while the shard is being visited once, and at each epoch's end).
		t.Groups = []farm.Group{{Rows: seen, Weight: 1}}
		return t
	}
	span := int(hi-lo) + 1
	for len(h.bucket[i]) < span {
		h.bucket[i] = append(h.bucket[i], nil)
	}
	b := h.bucket[i][:span]
	for c := range b {
		b[c] = b[c][:0]
	}
	for _, k := range seen {
		b[cnt[k]-lo] = append(b[cnt[k]-lo], k)
	}
	// Each GradBatch carries the per-sample ℓ2 term; the weights sum to
	// 1, so it is counted once.
	total := float64(h.t * h.batch)
	t.Sum = true
	for c, rows := range b {
		if len(rows) > 0 {
			t.Groups = append(t.Groups, farm.Group{Rows: rows, Weight: float64(int(lo)+c) * float64(len(rows)) / total})
		}
	}
	return t
}

// Rows returns the number of distinct samples agent i's gradient reads
// (all-past mode) or the window's length.
func (h *History) Rows(i int) int {
	switch {
	case h.st == nil:
		return 0
	case h.window > 0:
		return len(h.ring[i])
	}
	return len(h.seen[i])
}

// ClipL1 scales g so that ‖g‖₁ ≤ bound (a modification of the papers,
// which assume the bound holds), and reports whether it did.
func ClipL1(g []float64, bound float64) bool {
	s := 0.0
	for _, v := range g {
		if v < 0 {
			s -= v
		} else {
			s += v
		}
	}
	if s <= bound {
		return false
	}
	f := bound / s
	for j := range g {
		g[j] *= f
	}
	return true
}

// clipL2 scales g so that ‖g‖₂ ≤ bound, and reports whether it did.
func clipL2(g []float64, bound float64) bool {
	s := 0.0
	for _, v := range g {
		s += float64(v * v)
	}
	if s <= bound*bound {
		return false
	}
	ProjectBall(g, bound)
	return true
}

// ProjectBall projects x onto the ℓ2 ball of radius r (r = 0: no
// projection).
func ProjectBall(x []float64, r float64) {
	if r <= 0 {
		return
	}
	s := 0.0
	for _, v := range x {
		s += float64(v * v)
	}
	if s <= r*r {
		return
	}
	f := r / math.Sqrt(s)
	for j := range x {
		x[j] *= f
	}
}
