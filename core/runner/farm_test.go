package runner_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"testing"

	"dpsim/core/farm"
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
func exportFarmed(t *testing.T, name string, js []byte, size, workers int, wrap func(*farm.Local) farm.Farm) ([]byte, *farm.Local, *pool.Pool) {
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
	b.Env.Pool.SetFarm(wrap(local))
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
	plain := func(l *farm.Local) farm.Farm { return l }
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
			lost, _, p := exportFarmed(t, c.name, js, 3, 3, func(l *farm.Local) farm.Farm { f = &flaky{Local: l, starting: 1, failAt: 3}; return f })
			if !bytes.Equal(one, lost) {
				t.Errorf("%s: a farm lost mid-run writes another export than 1 worker: %s", c.name, firstDiff(string(one), string(lost)))
			}
			if f.Local.Calls != 1 || p.Lost() == nil || f.calls != 3 {
				t.Errorf("%s: the farm answered %d calls of %d and the pool lost it with %v; want 1 of 3 and the helper's error", c.name, f.Local.Calls, f.calls, p.Lost())
			}
		})
	}
}
