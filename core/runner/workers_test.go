package runner_test

import (
	"bytes"
	"encoding/json"
	"slices"
	"testing"

	"dpsim/core/runner"
	"dpsim/core/scenario"
)

// workerCase is one scenario of the workers' identity test.
type workerCase struct {
	name string
	s    *scenario.Scenario
}

// workerCases returns every scenario preset, cut to k iterations (a CNN
// to 3), and two variants that reach code the presets' first iterations
// do not: LDP online training the CNN (the online engine's gradients over
// a history of images), and LDP online on mushrooms with a pinned sample
// order that repeats rows, so that the history groups them by count from
// the second iteration on.
func workerCases(t *testing.T, k int) []workerCase {
	t.Helper()
	var cs []workerCase
	for _, p := range scenario.Presets() {
		s, err := scenario.PresetScenario(p.Name)
		if err != nil {
			t.Fatalf("preset %s: %v", p.Name, err)
		}
		cs = append(cs, workerCase{p.Name, s})
	}
	preset := func(name string) *scenario.Scenario {
		s, err := scenario.PresetScenario(name)
		if err != nil {
			t.Fatalf("preset %s: %v", name, err)
		}
		return s
	}
	cnn := preset("ldp-online-mushrooms")
	cnn.Name = "ldp-online-cnn"
	cnn.Problem = preset("gtdp-cnn-mnist").Problem
	cnn.Graph.N = 4
	cnn.Noise["theta"].Decays = cnn.Noise["theta"].Decays[:4]
	cs = append(cs, workerCase{cnn.Name, cnn})

	rep := preset("ldp-online-mushrooms")
	rep.Name = "ldp-online-repeats"
	order := make([][]int, rep.Graph.N)
	for i := range order {
		order[i] = []int{0, 1, 0, 2, 3, 1, 4, 5}
	}
	rep.Samples = &scenario.Samples{Order: order}
	cs = append(cs, workerCase{rep.Name, rep})

	for _, c := range cs {
		shorten(c.s, k)
		if c.s.Problem.Kind == "cnn" {
			shorten(c.s, 3)
		}
		c.s.Record.Every, c.s.Record.EvalEvery = 1, 0
		c.s.Record.Checkpoints = slices.Compact([]int{0, c.s.Iterations / 2, c.s.Iterations})
	}
	return cs
}

// exportOn runs s (rebuilt from its JSON, so that runs share nothing but
// the problem instance) on the given number of workers and returns its
// export.
func exportOn(t *testing.T, name string, js []byte, workers int) []byte {
	t.Helper()
	s, err := scenario.Parse(js)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	b, err := scenario.BuildWith(s, scenario.CLI, sharedProblems)
	if err != nil {
		t.Fatalf("%s does not build: %v", name, err)
	}
	r := runner.New(b)
	r.SetWorkers(workers)
	_ = r.Run() // a divergence is part of the trace
	var buf bytes.Buffer
	if err := r.WriteExport(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// One run on several workers writes the export of one worker, byte for
// byte: the metrics at every iteration, the states at the checkpoints,
// the ledger, the pinned scenario. Every scenario preset (every
// algorithm, every problem, every paper, the CNN and the datasets among
// them) runs on 1 and 4 workers; go test -race -run TestWorkers checks
// that no two workers write the same memory.
func TestWorkersSameExport(t *testing.T) {
	k := 12
	if testing.Short() || raceEnabled {
		k = 4
	}
	for _, c := range workerCases(t, k) {
		t.Run(c.name, func(t *testing.T) {
			if raceEnabled && !raceCase[c.name] {
				t.Skip("under -race, a few cases that cover every kind of parallel work")
			}
			js, err := json.Marshal(c.s)
			if err != nil {
				t.Fatal(err)
			}
			one := exportOn(t, c.name, js, 1)
			four := exportOn(t, c.name, js, 4)
			if !bytes.Equal(one, four) {
				t.Errorf("%s: 4 workers write another export than 1: %s", c.name, firstDiff(string(one), string(four)))
			}
		})
	}
}

// raceCase names the cases run under -race: the CNN's gradients on a
// network algorithm and in the online engine, a dataset's, the
// classifier's with the stationarity metric, DP-MRADMM's inner solves,
// and the online history's groups.
var raceCase = map[string]bool{
	"gtdp-cnn-mnist": true, "ldp-online-cnn": true, "gtdp-logistic-mushrooms": true,
	"dpp2-fig3": true, "dp-mradmm-ring8": true, "ldp-online-repeats": true, "dpop-fig1": true,
}

// A scenario builds with one worker, so a sweep's runs (experiment.Plan
// builds them with scenario.BuildWith) use one core each and its
// --workers runs fill the cores, never more; only the runner's caller
// (dpsim run, compare) asks for more.
func TestBuildsWithOneWorker(t *testing.T) {
	s, err := scenario.PresetScenario("gtdp-cnn-mnist")
	if err != nil {
		t.Fatal(err)
	}
	b, err := scenario.BuildWith(s, scenario.CLI, sharedProblems)
	if err != nil {
		t.Fatal(err)
	}
	if w := b.Env.Pool.Workers(); w != 1 || !b.Env.Pool.Serial() {
		t.Errorf("a built scenario has %d workers, want 1", w)
	}
	runner.New(b).SetWorkers(3)
	if w := b.Env.Pool.Workers(); w != 3 {
		t.Errorf("SetWorkers(3) left %d workers", w)
	}
}
