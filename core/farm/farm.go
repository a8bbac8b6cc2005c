// Package farm splits the agents' gradients of one iteration over several
// workers that each hold their own instance of the run's problem — in the
// page, helper Web Workers — so that only vectors cross: the caller sends
// each worker its agents' points (and, for an online method, the rows
// each agent's gradient reads), and every worker sends the gradients
// back. A gradient draws no random number and reads only its own agent's
// data, and every worker runs the same code (Run) on the same problem, so
// the bits are those of one worker: noise, ordering and every byte of the
// run stay as they are.
//
// The wire format (Encode, Decode, EncodeReply, DecodeReply) is
// little-endian and exact (float64 bits as they are). A reply names the
// agent of each gradient, and DecodeReply refuses one that does not fit
// the request (another agent, another length, a value that is not
// finite, bytes cut short or left over): the caller then computes those
// gradients itself (Helpers).
package farm

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"
)

// Task is one agent's gradient at X, written into Out.
//
// With no Groups it is the full gradient ∇f_i(X) (Grader.Grad). With
// Sum false it is the gradient over the rows of Groups[0] alone
// (BatchGrader.GradBatch). With Sum true it is Σ_g Weight_g·GradBatch(rows
// of g), summed into a cleared Out in the groups' order: an online
// method's gradient over everything an agent has received
// (core/algorithms/internal/online).
type Task struct {
	Agent  int
	X, Out []float64
	Groups []Group
	Sum    bool
}

// Group is a set of sample rows and the weight of their gradient.
type Group struct {
	Rows   []int
	Weight float64
}

// Grader is what a worker computes full gradients with (an
// objective.Problem).
type Grader interface {
	Grad(i int, x, out []float64)
}

// BatchGrader is what a worker computes gradients over rows with (an
// objective.Stochastic).
type BatchGrader interface {
	GradBatch(i int, x []float64, idx []int, out []float64)
}

// Farm computes every task's Out on its workers.
type Farm interface {
	// Size is the number of workers, the caller's among them (≥ 2 for a
	// farm worth using).
	Size() int
	// Grads fills every task's Out. ErrNotReady says the workers are not
	// up yet (the caller computes the tasks itself and asks again later);
	// any other error says the farm is lost: the caller computes the
	// tasks itself and stops using it. Either way the tasks' Out is
	// rewritten by the caller, so nothing of the run is lost.
	Grads(tasks []Task) error
}

// ErrNotReady says that a farm's workers are still starting.
var ErrNotReady = errors.New("the workers are starting")

// Run computes t on g (a BatchGrader too when t has Groups); tmp is
// scratch of len(t.Out) for a Sum task. It is the one code every worker
// runs, the caller's included.
func Run(g Grader, t *Task, tmp []float64) {
	switch {
	case len(t.Groups) == 0:
		g.Grad(t.Agent, t.X, t.Out)
	case !t.Sum:
		g.(BatchGrader).GradBatch(t.Agent, t.X, t.Groups[0].Rows, t.Out)
	default:
		b := g.(BatchGrader)
		clear(t.Out)
		for _, gr := range t.Groups {
			b.GradBatch(t.Agent, t.X, gr.Rows, tmp)
			for j, v := range tmp {
				t.Out[j] += float64(gr.Weight * v)
			}
		}
	}
}

// Share returns the tasks [lo, hi) worker w of size gets of n: blocks of
// consecutive agents, the first ones one larger.
func Share(n, size, w int) (lo, hi int) {
	q, r := n/size, n%size
	lo = w*q + min(w, r)
	hi = lo + q
	if w < r {
		hi++
	}
	return lo, hi
}

// Encode appends the request of tasks (their agents, points and groups;
// not Out) to b.
func Encode(b []byte, tasks []Task) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(tasks)))
	for _, t := range tasks {
		b = binary.LittleEndian.AppendUint32(b, uint32(t.Agent))
		flag := byte(0)
		if t.Sum {
			flag = 1
		}
		b = append(b, flag)
		b = appendFloats(b, t.X)
		b = binary.LittleEndian.AppendUint32(b, uint32(len(t.Groups)))
		for _, g := range t.Groups {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(g.Weight))
			b = binary.LittleEndian.AppendUint32(b, uint32(len(g.Rows)))
			for _, r := range g.Rows {
				b = binary.LittleEndian.AppendUint32(b, uint32(r))
			}
		}
	}
	return b
}

// Decode reads a request, each task with an Out of its point's length.
// agents and dim bound what it accepts (the worker's problem).
func Decode(b []byte, agents, dim int) ([]Task, error) {
	r := reader{b: b}
	n := r.count(agents + 1)
	tasks := make([]Task, 0, n)
	for range n {
		t := Task{Agent: r.count(agents)}
		t.Sum = r.byte() == 1
		t.X = r.floats(dim)
		if len(t.X) != dim && r.err == nil {
			r.err = fmt.Errorf("a point of %d values for a problem of dimension %d", len(t.X), dim)
		}
		t.Out = make([]float64, len(t.X))
		groups := r.count(1 << 20)
		for range groups {
			g := Group{Weight: math.Float64frombits(r.u64())}
			rows := r.count(len(r.b)/4 + 1)
			g.Rows = make([]int, rows)
			for k := range g.Rows {
				g.Rows[k] = int(r.u32())
			}
			t.Groups = append(t.Groups, g)
		}
		if r.err != nil {
			return nil, r.err
		}
		tasks = append(tasks, t)
	}
	if r.err == nil && len(r.b) != 0 {
		r.err = fmt.Errorf("%d bytes after the last task", len(r.b))
	}
	return tasks, r.err
}

// EncodeReply appends the tasks' gradients (each its agent and Out, in
// order) to b.
func EncodeReply(b []byte, tasks []Task) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(tasks)))
	for _, t := range tasks {
		b = binary.LittleEndian.AppendUint32(b, uint32(t.Agent))
		b = appendFloats(b, t.Out)
	}
	return b
}

// notFinite is DecodeReply's refusal of a value that is not finite: a
// broken worker's, or a diverging run's, which the caller computing the
// same gradient also meets (Helpers.Grads tells them apart).
type notFinite struct {
	agent, j int
	x        float64
}

func (e notFinite) Error() string {
	return fmt.Sprintf("agent %d's gradient has %v in place %d", e.agent, e.x, e.j+1)
}

// DecodeReply copies a reply into the Out of tasks, which must be the
// tasks of the request, in order. It refuses a reply for other agents,
// of other lengths, or with a value that is not finite: a gradient the
// caller computes finite is finite on every worker (the same code on the
// same data), so such a value says the worker is broken — unless the
// caller's own gradient is not finite either (a diverging run), which
// Helpers.Grads checks.
func DecodeReply(b []byte, tasks []Task) error {
	r := reader{b: b}
	if n := r.count(len(tasks) + 1); n != len(tasks) && r.err == nil {
		return fmt.Errorf("%d gradients where %d were asked", n, len(tasks))
	}
	for _, t := range tasks {
		agent := r.u32()
		v := r.floats(len(t.Out))
		if r.err != nil {
			return r.err
		}
		if int64(agent) != int64(t.Agent) {
			return fmt.Errorf("a gradient for agent %d where agent %d's was asked", agent, t.Agent)
		}
		if len(v) != len(t.Out) {
			return fmt.Errorf("a gradient of %d values for agent %d where %d were asked", len(v), t.Agent, len(t.Out))
		}
		for j, x := range v {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return notFinite{t.Agent, j, x}
			}
		}
		copy(t.Out, v)
	}
	if len(r.b) != 0 {
		return fmt.Errorf("%d bytes after the last gradient", len(r.b))
	}
	return r.err
}

// Serve answers a request on g: it decodes it, runs every task and
// returns the reply. agents and dim are g's problem's.
func Serve(g Grader, agents, dim int, req []byte) ([]byte, error) {
	tasks, err := Decode(req, agents, dim)
	if err != nil {
		return nil, err
	}
	tmp := make([]float64, dim)
	for k := range tasks {
		t := &tasks[k]
		if len(t.Groups) > 0 {
			if _, ok := g.(BatchGrader); !ok {
				return nil, errors.New("rows asked of a problem that serves no samples")
			}
		}
		Run(g, t, tmp)
	}
	return EncodeReply(nil, tasks), nil
}

func appendFloats(b []byte, v []float64) []byte {
	b = binary.LittleEndian.AppendUint32(b, uint32(len(v)))
	for _, x := range v {
		b = binary.LittleEndian.AppendUint64(b, math.Float64bits(x))
	}
	return b
}

// reader reads the wire format; its first error sticks.
type reader struct {
	b   []byte
	err error
}

func (r *reader) take(n int) []byte {
	if r.err != nil {
		return nil
	}
	if len(r.b) < n {
		r.err = errors.New("a message cut short")
		return nil
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

func (r *reader) byte() byte {
	if v := r.take(1); v != nil {
		return v[0]
	}
	return 0
}

func (r *reader) u32() uint32 {
	if v := r.take(4); v != nil {
		return binary.LittleEndian.Uint32(v)
	}
	return 0
}

func (r *reader) u64() uint64 {
	if v := r.take(8); v != nil {
		return binary.LittleEndian.Uint64(v)
	}
	return 0
}

// count reads a count or an index below limit.
func (r *reader) count(limit int) int {
	v := r.u32()
	if r.err == nil && int64(v) >= int64(limit) {
		r.err = fmt.Errorf("%d is out of range (below %d)", v, limit)
		return 0
	}
	return int(v)
}

func (r *reader) floats(limit int) []float64 {
	n := r.count(limit + 1)
	raw := r.take(8 * n)
	if raw == nil {
		return nil
	}
	v := make([]float64, n)
	for k := range v {
		v[k] = math.Float64frombits(binary.LittleEndian.Uint64(raw[8*k:]))
	}
	return v
}
