package ui

import (
	"dpsim/core/runner"
	"dpsim/core/scenario"
	"dpsim/core/sim"
)

// Twin is the noise-free run the packets' colours compare each message
// with (scene.Reference): the same scenario and seeds without noise,
// calibration or stop rule, advanced in lockstep with the page's run as
// one of its recorders, keeping a copy of its latest step's releases.
// A message's colour is then ‖sent − sent*‖/‖sent*‖ against the twin's
// message sent*: all the noise it carries, the fresh and what earlier
// noise left in the sender's state — which is what sends the estimates
// to the corners at a small ε while every fresh noise stays near its
// signal's size. (The ghost, ui/ghost.go, runs the same scenario lazily
// for the plot; the picture needs the very iteration it shows.) It holds
// no syscall/js, so that it is tested natively.
type Twin struct {
	run  *runner.Runner
	iter int
	rels []sim.Release
	buf  []float64 // the releases' Sent, one after the other
	// off: the twin stopped following (fast-forward, an error), for good
	// until the scenario is built again; the colours then compare the
	// fresh noise with the rest of each message.
	off bool
}

// TwinMaxWork bounds agents × dimension for a twin: it doubles the cost
// of every iteration the page plays, which a small problem does not
// notice and a model of thousands of weights would.
const TwinMaxWork = 4096

// NewTwin returns the noise-free twin of b's scenario, or nil when it
// adds no noise, loads datasets, is larger than TwinMaxWork, or does not
// build without noise.
func NewTwin(b *scenario.Built) *Twin {
	s := b.Scenario
	if !Noisy(s) || b.Env.Problem.Agents()*b.Env.Problem.Dim() > TwinMaxWork ||
		(b.ProblemFactory.Datasets != nil && len(b.ProblemFactory.Datasets(b.ProblemParams)) > 0) {
		return nil
	}
	tb, err := scenario.BuildFor(noiseFree(s), scenario.Page) // the ghost's scenario
	if err != nil {
		return nil
	}
	r := runner.New(tb)
	r.Start()
	return &Twin{run: r}
}

// Record implements sim.Recorder on the page's run: it advances the twin
// to the step's iteration and keeps a copy of the twin's releases there.
func (t *Twin) Record(st *sim.Step) {
	if t == nil || t.off {
		return
	}
	if st.Iter < t.run.Iter() {
		t.off = true // a rewound run (a resume): the twin cannot follow
		return
	}
	var last *sim.Step
	for t.run.Iter() < st.Iter {
		s, err := t.run.Advance()
		if err != nil {
			t.off = true
			return
		}
		last = s
	}
	if last == nil {
		return
	}
	// Copies: the algorithm reuses its buffers at its next step.
	t.iter = last.Iter
	n := 0
	for _, r := range last.Releases {
		n += len(r.Sent)
	}
	if cap(t.buf) < n {
		t.buf = make([]float64, n)
	}
	t.buf, t.rels = t.buf[:0], t.rels[:0]
	for _, r := range last.Releases {
		at := len(t.buf)
		t.buf = append(t.buf, r.Sent...)
		t.rels = append(t.rels, sim.Release{From: r.From, Channel: r.Channel, Round: r.Round, Sent: t.buf[at:len(t.buf):len(t.buf)]})
	}
}

// Releases implements scene.Reference: the twin's releases of iteration
// iter, nil when it is not there or has stopped following.
func (t *Twin) Releases(iter int) []sim.Release {
	if t == nil || t.off || iter != t.iter {
		return nil
	}
	return t.rels
}

// Stop makes the twin stop following, for good (fast-forward: the page's
// iterations are then the run's alone).
func (t *Twin) Stop() {
	if t != nil {
		t.off = true
	}
}

// Following reports whether the twin still follows the run.
func (t *Twin) Following() bool { return t != nil && !t.off }
