package runner_test

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"dpsim/core/farm"
	"dpsim/core/objective"
	"dpsim/core/pool"
	"dpsim/core/runner"
	"dpsim/core/scenario"
)

// flaky is a farm whose workers are still starting for its first calls
// and that fails for good at call failAt (0: never), as a helper Web
// Worker that crashes.
type flaky struct {
	*farm.Local
	starting, failAt, calls int
}

func (f *flaky) Grads(tasks []farm.Task) error {
	f.calls++
	switch {
	case f.calls <= f.starting:
		return farm.ErrNotReady
	case f.calls == f.failAt:
		return errors.New("a helper stopped")
	}
	return f.Local.Grads(tasks)
}

// exportFarmed runs the scenario js with its agents' gradients split over
// a farm of size workers — the caller and size−1 others, each with a
// problem instance of its own built from the same JSON (scenario.ProblemOf,
// as the page's helper Web Workers build theirs), exchanging the encoded
// requests and replies — and returns its export and the farm.
func exportFarmed(t *testing.T, name string, js []byte, size, workers int, wrap func(*farm.Local, []farm.Grader) farm.Farm) ([]byte, *farm.Local, *pool.Pool) {
	t.Helper()
	s, err := scenario.Parse(js)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	b, err := scenario.BuildFor(s, scenario.CLI)
	if err != nil {
		t.Fatalf("%s does not build: %v", name, err)
	}
	graders := []farm.Grader{b.Env.Problem}
	for range size - 1 {
		hs, err := scenario.Parse(js)
		if err != nil {
			t.Fatal(err)
		}
		p, err := scenario.ProblemOf(hs)
		if err != nil {
			t.Fatalf("%s: a helper's problem: %v", name, err)
		}
		graders = append(graders, p)
	}
	local := farm.NewLocal(b.Env.Problem.Agents(), b.Env.Problem.Dim(), graders...)
	r := runner.New(b)
	r.SetWorkers(workers)
	b.Env.Pool.SetFarm(wrap(local, graders))
	_ = r.Run()
	var buf bytes.Buffer
	if err := r.WriteExport(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes(), local, b.Env.Pool
}

var noFarm = map[string]bool{"dp-recal": true, "dp-rwadmm": true, "dp-mradmm": true}

// A run whose agents' gradients go to a farm of helper workers (the
// page's Workers setting) writes the export of one worker, byte for byte:
// every scenario preset, the CNN and the datasets among them, on a farm
// of 3 (explicit count) and, for the online CNN, of 2 chosen by the Auto
// rule; and a farm that is still starting for the first calls and then
// fails mid-run leaves the run on the caller, its bytes unchanged.
func TestFarmSameExport(t *testing.T) {
	k := 6
	if testing.Short() {
		k = 3
	}
	plain := func(l *farm.Local, _ []farm.Grader) farm.Farm { return l }
	for _, c := range workerCases(t, k) {
		t.Run(c.name, func(t *testing.T) {
			js, err := json.Marshal(c.s)
			if err != nil {
				t.Fatal(err)
			}
			one := exportOn(t, c.name, js, 1)
			three, local, _ := exportFarmed(t, c.name, js, 3, 3, plain)
			if !bytes.Equal(one, three) {
				t.Errorf("%s: a farm of 3 writes another export than 1 worker: %s", c.name, firstDiff(string(one), string(three)))
			}
			switch c.s.Problem.Kind {
			case "cnn", "logistic", "softmax":
				// The relays' one holder and DP-MRADMM's inner solves
				// (pool.Each) are no farm's work.
				if local.Calls == 0 && !noFarm[c.s.Algorithm.Kind] {
					t.Errorf("%s: no gradient call went to the farm", c.name)
				}
			}
			if c.name != "ldp-online-cnn" && c.name != "ldp-online-repeats" {
				return
			}
			auto, _, _ := exportFarmed(t, c.name, js, 2, pool.Auto, plain)
			if !bytes.Equal(one, auto) {
				t.Errorf("%s: an Auto farm of 2 writes another export than 1 worker: %s", c.name, firstDiff(string(one), string(auto)))
			}
			var f *flaky
			lost, _, p := exportFarmed(t, c.name, js, 3, 3, func(l *farm.Local, _ []farm.Grader) farm.Farm { f = &flaky{Local: l, starting: 1, failAt: 3}; return f })
			if !bytes.Equal(one, lost) {
				t.Errorf("%s: a farm lost mid-run writes another export than 1 worker: %s", c.name, firstDiff(string(one), string(lost)))
			}
			if f.Local.Calls != 1 || p.Lost() == nil || f.calls != 3 {
				t.Errorf("%s: the farm answered %d calls of %d and the pool lost it with %v; want 1 of 3 and the helper's error", c.name, f.Local.Calls, f.calls, p.Lost())
			}
		})
	}
}

// hostile is a helper's way of failing from its second request on (the
// first is answered well): what public/run-worker.js's test hook
// (self.dpsimFarmFault) does to a helper's reply in the page.
var hostile = map[string]func(reply []byte) ([]byte, error, bool){
	// NaN for its first agent's first value.
	"nan": func(b []byte) ([]byte, error, bool) {
		binary.LittleEndian.PutUint64(b[12:], math.Float64bits(math.NaN()))
		return b, nil, true
	},
	// The gradient of another agent.
	"agent": func(b []byte) ([]byte, error, bool) {
		binary.LittleEndian.PutUint32(b[4:], binary.LittleEndian.Uint32(b[4:])+1)
		return b, nil, true
	},
	"truncated": func(b []byte) ([]byte, error, bool) { return b[:len(b)-5], nil, true },
	// A count of gradients one short: the rest read as the wrong lengths.
	"length": func(b []byte) ([]byte, error, bool) {
		binary.LittleEndian.PutUint32(b, binary.LittleEndian.Uint32(b)-1)
		return b, nil, true
	},
	"throw":  func(b []byte) ([]byte, error, bool) { return nil, errors.New("RangeError: out of memory"), true },
	"silent": func(b []byte) ([]byte, error, bool) { return nil, nil, false },
}

// A helper that answers amiss — a NaN, another agent's gradient, a reply
// cut short or of the wrong length, an error, or nothing at all — is
// found out on the call it spoils: the pool drops the farm with a line
// naming the helper, the caller computes the call's gradients itself,
// and the run writes the export of one worker, byte for byte. No NaN
// reaches the run and nothing waits for ever (the silent helper is given
// up after the Wait the caller sets).
func TestFarmHostileHelper(t *testing.T) {
	cases := map[string]*scenario.Scenario{}
	for _, c := range workerCases(t, 6) {
		if c.name == "ldp-online-repeats" || c.name == "gtdp-fig2" {
			cases[c.name] = c.s
		}
	}
	if len(cases) != 2 {
		t.Fatalf("the cases: %v", cases)
	}
	for name, s := range cases {
		js, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		one := exportOn(t, name, js, 1)
		for mode, spoil := range hostile {
			var h *farm.Helpers
			calls := 0
			wrap := func(_ *farm.Local, g []farm.Grader) farm.Farm {
				p := g[0].(objective.Problem)
				h = &farm.Helpers{Workers: 3, Own: g[0], Replies: make(chan farm.Reply, 8),
					Wait: func(time.Duration) time.Duration { return 50 * time.Millisecond }}
				h.Post = func(k, seq int, req []byte) {
					calls++
					reply, err := farm.Serve(g[k+1], p.Agents(), p.Dim(), req)
					answer := true
					if k == 1 && calls > 2 && err == nil {
						reply, err, answer = spoil(reply)
					}
					if answer {
						go func() { h.Replies <- farm.Reply{Helper: k, Seq: seq, Bytes: reply, Err: err} }()
					}
				}
				return h
			}
			got, _, pl := exportFarmed(t, name, js, 3, 3, wrap)
			if !bytes.Equal(one, got) {
				t.Errorf("%s, helper 2 %s: another export than 1 worker: %s", name, mode, firstDiff(string(one), string(got)))
			}
			if pl.Lost() == nil || !strings.Contains(pl.Lost().Error(), "helper 2") {
				t.Errorf("%s, helper 2 %s: the pool kept its farm or lost it with %v, want a line naming helper 2", name, mode, pl.Lost())
			}
		}
		// Helpers that answer well keep the farm to the end.
		_, _, pl := exportFarmed(t, name, js, 3, 3, func(_ *farm.Local, g []farm.Grader) farm.Farm {
			p := g[0].(objective.Problem)
			h := &farm.Helpers{Workers: 3, Own: g[0], Replies: make(chan farm.Reply, 8)}
			h.Post = func(k, seq int, req []byte) {
				reply, err := farm.Serve(g[k+1], p.Agents(), p.Dim(), req)
				go func() { h.Replies <- farm.Reply{Helper: k, Seq: seq, Bytes: reply, Err: err} }()
			}
			return h
		})
		if pl.Lost() != nil {
			t.Errorf("%s: good helpers were given up: %v", name, pl.Lost())
		}
	}
}
