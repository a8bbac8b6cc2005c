package farm

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"
)

// sum is a toy problem: agent i's gradient at x is x·(i+1) plus, over
// rows, the mean row index; enough to tell every task's kind apart.
type sum struct{}

func (sum) Grad(i int, x, out []float64) {
	for j, v := range x {
		out[j] = v * float64(i+1)
	}
}

func (sum) GradBatch(i int, x []float64, idx []int, out []float64) {
	m := 0.0
	for _, k := range idx {
		m += float64(k)
	}
	m /= float64(len(idx))
	for j, v := range x {
		out[j] = float64(v*float64(i+1)) + m
	}
}

// Share cuts n tasks into size blocks that cover [0, n) once, in order,
// their lengths differing by at most one.
func TestShare(t *testing.T) {
	for _, n := range []int{0, 1, 2, 5, 10, 11} {
		for size := 1; size <= 4; size++ {
			next := 0
			for w := range size {
				lo, hi := Share(n, size, w)
				if lo != next || hi < lo || hi-lo > n/size+1 || hi-lo < n/size {
					t.Fatalf("n %d, size %d: worker %d gets [%d, %d) after %d", n, size, w, lo, hi, next)
				}
				next = hi
			}
			if next != n {
				t.Fatalf("n %d, size %d: the shares end at %d", n, size, next)
			}
		}
	}
}

// The wire format carries every bit: a request decodes to the tasks
// encoded (−0, NaN payloads, infinities, weights), and a reply computed
// on the other side is the gradient Run gives here.
func TestWireExact(t *testing.T) {
	nan := math.Float64frombits(0x7ff8_0000_dead_beef)
	tasks := []Task{
		{Agent: 0, X: []float64{math.Copysign(0, -1), 1.5, nan}},
		{Agent: 2, X: []float64{math.Inf(1), -3, 1e-310}, Groups: []Group{{Rows: []int{4, 1, 4}, Weight: 1}}},
		{Agent: 1, X: []float64{0.1, 0.2, 0.3}, Sum: true, Groups: []Group{{Rows: []int{0}, Weight: 0.25}, {Rows: []int{7, 9}, Weight: 0.75}}},
	}
	got, err := Decode(Encode(nil, tasks), 3, 3)
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range tasks {
		g := got[k]
		if g.Agent != want.Agent || g.Sum != want.Sum || len(g.Groups) != len(want.Groups) || len(g.Out) != len(want.X) {
			t.Fatalf("task %d: decoded %+v, want %+v", k, g, want)
		}
		for j := range want.X {
			if math.Float64bits(g.X[j]) != math.Float64bits(want.X[j]) {
				t.Errorf("task %d: x[%d] is %x, want %x", k, j, math.Float64bits(g.X[j]), math.Float64bits(want.X[j]))
			}
		}
		for c, gr := range want.Groups {
			if g.Groups[c].Weight != gr.Weight || len(g.Groups[c].Rows) != len(gr.Rows) {
				t.Errorf("task %d: group %d is %+v, want %+v", k, c, g.Groups[c], gr)
			}
		}
	}
	// The gradients back: finite ones (a reply that is not finite is
	// refused: TestReplyRefuses).
	tasks[0].X, tasks[1].X = []float64{math.Copysign(0, -1), 1.5, 1e-310}, []float64{math.MaxFloat64 / 4, -3, 1e-310}
	reply, err := Serve(sum{}, 3, 3, Encode(nil, tasks))
	if err != nil {
		t.Fatal(err)
	}
	for k := range tasks {
		tasks[k].Out = make([]float64, 3)
	}
	if err := DecodeReply(reply, tasks); err != nil {
		t.Fatal(err)
	}
	tmp := make([]float64, 3)
	for k, task := range tasks {
		here := task
		here.Out = make([]float64, 3)
		Run(sum{}, &here, tmp)
		for j := range here.Out {
			if math.Float64bits(here.Out[j]) != math.Float64bits(task.Out[j]) {
				t.Errorf("task %d: the worker's gradient[%d] is %v, here %v", k, j, task.Out[j], here.Out[j])
			}
		}
	}
}

// A request or a reply that does not fit the problem is refused with an
// error, never a panic or an allocation of what a count claims.
func TestWireRefuses(t *testing.T) {
	good := Encode(nil, []Task{{Agent: 1, X: []float64{1, 2}}})
	for _, tc := range []struct {
		name   string
		b      []byte
		agents int
		dim    int
		want   string
	}{
		{"cut short", good[:len(good)-3], 2, 2, "cut short"},
		{"an agent out of range", good, 1, 2, "out of range"},
		{"another dimension", good, 2, 3, "dimension 3"},
		{"a huge count", []byte{0xff, 0xff, 0xff, 0xff}, 2, 2, "out of range"},
		{"bytes after", append(append([]byte{}, good...), 0), 2, 2, "after the last task"},
	} {
		_, err := Decode(tc.b, tc.agents, tc.dim)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error saying %q", tc.name, err, tc.want)
		}
	}
	if _, err := Serve(Grader(gradOnly{}), 2, 2, Encode(nil, []Task{{Agent: 0, X: []float64{1, 2}, Groups: []Group{{Rows: []int{0}, Weight: 1}}}})); err == nil {
		t.Error("rows asked of a problem without samples were served")
	}
}

type gradOnly struct{}

func (gradOnly) Grad(i int, x, out []float64) { copy(out, x) }

// A Local farm of any size gives the gradients one worker gives.
func TestLocalFarm(t *testing.T) {
	mk := func() []Task {
		var ts []Task
		for i := range 5 {
			ts = append(ts, Task{Agent: i, X: []float64{float64(i), 1}, Out: make([]float64, 2), Groups: []Group{{Rows: []int{i, 2 * i}, Weight: 1}}})
		}
		return ts
	}
	one := mk()
	tmp := make([]float64, 2)
	for k := range one {
		Run(sum{}, &one[k], tmp)
	}
	for size := 1; size <= 6; size++ {
		ws := make([]Grader, size)
		for w := range ws {
			ws[w] = sum{}
		}
		l := NewLocal(5, 2, ws...)
		ts := mk()
		if err := l.Grads(ts); err != nil {
			t.Fatal(err)
		}
		for k := range ts {
			for j := range ts[k].Out {
				if ts[k].Out[j] != one[k].Out[j] {
					t.Errorf("size %d: agent %d's gradient[%d] is %v, want %v", size, k, j, ts[k].Out[j], one[k].Out[j])
				}
			}
		}
	}
}

// A reply that does not fit its request is refused with an error naming
// what is amiss — the caller then computes the gradients itself — never
// copied in: another length, another agent, a value that is not finite,
// bytes cut short or left over, another count.
func TestReplyRefuses(t *testing.T) {
	ask := func() []Task {
		return []Task{{Agent: 3, Out: make([]float64, 2)}, {Agent: 4, Out: make([]float64, 2)}}
	}
	good := EncodeReply(nil, []Task{{Agent: 3, Out: []float64{1, 2}}, {Agent: 4, Out: []float64{3, 4}}})
	if err := DecodeReply(good, ask()); err != nil {
		t.Fatalf("the good reply: %v", err)
	}
	for _, tc := range []struct {
		name  string
		reply []byte
		want  string
	}{
		{"a gradient too long", EncodeReply(nil, []Task{{Agent: 3, Out: []float64{1, 2, 3}}, {Agent: 4, Out: []float64{3, 4}}}), "out of range"},
		{"a gradient too short", EncodeReply(nil, []Task{{Agent: 3, Out: []float64{1}}, {Agent: 4, Out: []float64{3, 4}}}), "1 values for agent 3"},
		{"another agent", EncodeReply(nil, []Task{{Agent: 3, Out: []float64{1, 2}}, {Agent: 5, Out: []float64{3, 4}}}), "agent 5 where agent 4"},
		{"NaN", EncodeReply(nil, []Task{{Agent: 3, Out: []float64{1, 2}}, {Agent: 4, Out: []float64{math.NaN(), 4}}}), "agent 4's gradient has NaN in place 1"},
		{"+Inf", EncodeReply(nil, []Task{{Agent: 3, Out: []float64{1, math.Inf(1)}}, {Agent: 4, Out: []float64{3, 4}}}), "agent 3's gradient has +Inf in place 2"},
		{"cut short", good[:len(good)-5], "cut short"},
		{"bytes after", append(append([]byte{}, good...), 7), "after the last gradient"},
		{"one gradient for two", EncodeReply(nil, []Task{{Agent: 3, Out: []float64{1, 2}}}), "1 gradients where 2 were asked"},
		{"empty", nil, "cut short"},
	} {
		tasks := ask()
		err := DecodeReply(tc.reply, tasks)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error saying %q", tc.name, err, tc.want)
		}
	}
}

// inf is a diverged problem: every gradient is +Inf.
type inf struct{}

func (inf) Grad(i int, x, out []float64) {
	for j := range out {
		out[j] = math.Inf(1)
	}
}

// A helper's non-finite gradient is the run's own when the caller's is
// not finite either (a diverging run): taken, not blamed on the helper,
// which the page once gave up with "answered amiss … is +Inf". A helper
// that failed between two calls is reported at the next, not drained
// away (which then waited the whole patience for a dead helper).
func TestHelpersNotFinite(t *testing.T) {
	mk := func() []Task {
		return []Task{{Agent: 0, X: []float64{1}, Out: make([]float64, 1)}, {Agent: 1, X: []float64{1}, Out: make([]float64, 1)}}
	}
	for _, c := range []struct {
		name string
		own  Grader
		fail bool
	}{{"diverged run", inf{}, false}, {"broken helper", sum{}, true}} {
		h := &Helpers{Workers: 2, Own: c.own, Replies: make(chan Reply, 4)}
		h.Post = func(helper, seq int, req []byte) {
			ts, err := Decode(req, 2, 1)
			if err != nil {
				t.Fatal(err)
			}
			for k := range ts {
				inf{}.Grad(ts[k].Agent, ts[k].X, ts[k].Out)
			}
			h.Replies <- Reply{Helper: helper, Seq: seq, Bytes: EncodeReply(nil, ts)}
		}
		ts := mk()
		err := h.Grads(ts)
		if (err != nil) != c.fail {
			t.Errorf("%s: %v", c.name, err)
		}
		// The page shows this line: plain words, no package name.
		if want := "helper 1 sent a wrong answer (agent 1's gradient has +Inf in place 1)"; c.fail && err != nil && err.Error() != want {
			t.Errorf("%s: %q, want %q", c.name, err, want)
		}
		if !c.fail && !math.IsInf(ts[1].Out[0], 1) {
			t.Errorf("%s: agent 1's gradient %v", c.name, ts[1].Out[0])
		}
	}
	h := &Helpers{Workers: 2, Own: sum{}, Replies: make(chan Reply, 4), Wait: func(time.Duration) time.Duration { return 200 * time.Millisecond }}
	h.Post = func(int, int, []byte) {} // dead: never answers
	h.Replies <- Reply{Helper: 0, Err: errors.New("RangeError: out of memory")}
	if err := h.Grads(mk()); err == nil || err.Error() != "helper 1 failed (RangeError: out of memory)" {
		t.Errorf("a helper's failure between calls: %v", err)
	}
}

// Wait is waitFactor times the caller's own share, never below MinWait
// nor above MaxWait: a helper is waited on at most a minute however slow
// the caller's share was.
func TestWait(t *testing.T) {
	for _, c := range []struct{ own, want time.Duration }{
		{0, MinWait},
		{time.Millisecond, MinWait},
		{200 * time.Millisecond, 20 * time.Second},
		{600 * time.Millisecond, MaxWait},
		{time.Hour, MaxWait},
	} {
		if got := Wait(c.own); got != c.want {
			t.Errorf("Wait(%v) = %v, want %v", c.own, got, c.want)
		}
	}
	if MaxWait != time.Minute {
		t.Errorf("MaxWait = %v, want 1m0s", MaxWait)
	}
}
