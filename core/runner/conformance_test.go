package runner_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"dpsim/core/check"
	_ "dpsim/core/data/files" // the committed datasets: a preset trains on mushrooms
	"dpsim/core/experiment"
	"dpsim/core/objective"
	"dpsim/core/param"
	"dpsim/core/rng"
	"dpsim/core/runner"
	"dpsim/core/scenario"
)

// The conformance tests walk the registries (scenario.Factories,
// scenario.Problems) and the presets (scenario.Presets and the scenarios
// of experiment.Presets), never a hand-kept list: a plug-in or preset
// added later is covered without editing them.

// presetCase is one scenario a preset defines, as JSON (each test parses
// its own copy).
type presetCase struct {
	name string
	json []byte
}

// conformanceCases returns every scenario preset, then the scenario of the
// first run of every series and point of every experiment preset, unless
// an earlier case already holds the same scenario (seeds aside).
func conformanceCases(t *testing.T) []presetCase {
	t.Helper()
	casesOnce.Do(func() { casesMemo, casesErr = listCases() })
	if casesErr != nil {
		t.Fatal(casesErr)
	}
	return casesMemo
}

// The cases are listed once per process: planning every experiment
// preset builds its problems (central solves on the datasets), which cost
// seconds each, and three tests walk the same list.
var (
	casesOnce sync.Once
	casesMemo []presetCase
	casesErr  error
)

// sharedProblems hands the cases' builds one instance per problem key
// (objective.Factory.Key), as a sweep's plan does, so that a dataset's
// central solve runs once rather than at every build and replay; it keeps
// the last keepProblems instances.
var sharedProblems = func() scenario.ProblemProvider {
	const keepProblems = 6
	var (
		mu    sync.Mutex
		kept  = map[string]objective.Problem{}
		warns = map[string][]check.Warning{}
		order []string
	)
	return func(key string, _ int64, build func() (objective.Problem, []check.Warning, error)) (objective.Problem, []check.Warning, error) {
		mu.Lock()
		defer mu.Unlock()
		if p, ok := kept[key]; ok {
			return p, warns[key], nil
		}
		p, w, err := build()
		if err != nil {
			return p, w, err
		}
		if len(order) == keepProblems {
			delete(kept, order[0])
			delete(warns, order[0])
			order = order[1:]
		}
		kept[key], warns[key] = p, w
		order = append(order, key)
		return p, w, nil
	}
}()

func listCases() ([]presetCase, error) {
	var cs []presetCase
	seen := map[string]bool{}
	var addErr error
	add := func(name string, s *scenario.Scenario) {
		js, err := json.Marshal(s)
		if err != nil {
			addErr = fmt.Errorf("%s: %v", name, err)
			return
		}
		c := *s
		c.Seed, c.Seeds, c.Name, c.Title, c.Description = nil, nil, "", "", ""
		key, _ := json.Marshal(&c)
		if seen[string(key)] {
			return
		}
		seen[string(key)] = true
		cs = append(cs, presetCase{name, js})
	}
	for _, p := range scenario.Presets() {
		s, err := scenario.PresetScenario(p.Name)
		if err != nil {
			return nil, fmt.Errorf("preset %s: %v", p.Name, err)
		}
		if runtime.GOOS == "js" {
			// Step (e2) of test.sh compares every scenario preset's whole
			// export under js/wasm with the native one byte for byte;
			// here their code paths need only run (in full they took
			// this package past go test's ten minutes under node).
			shorten(s, jsExperimentHorizon)
		}
		add(p.Name, s)
	}
	for _, ep := range experiment.Presets() {
		e, err := experiment.PresetExperiment(ep.Name)
		if err != nil {
			return nil, fmt.Errorf("experiment preset %s: %v", ep.Name, err)
		}
		pl, err := experiment.NewPlan(e)
		if err != nil {
			return nil, fmt.Errorf("experiment preset %s: %v", ep.Name, err)
		}
		for si, se := range e.Series {
			for pt := range pl.Points(si) {
				s, err := pl.Scenario(pl.TaskIndex(si, pt, 0))
				if err != nil {
					return nil, fmt.Errorf("experiment preset %s: %v", ep.Name, err)
				}
				// An experiment's scenarios differ from the scenario
				// presets in parameters, not in code paths, so a short
				// horizon checks them; the full ones cost minutes (the
				// DPP² figures alone: 41 scenarios of 500–1000 iterations).
				shorten(s, experimentHorizon)
				if runtime.GOOS == "js" {
					// Under js/wasm the experiments' code paths need only
					// run: step (e2) compares every scenario preset's
					// export with the native one byte for byte.
					shorten(s, jsExperimentHorizon)
				}
				switch {
				case s.Problem.Kind == "cnn":
					// One iteration is a CNN step per agent (about 0.3 s
					// under js/wasm for the LDP figures' ten agents).
					shorten(s, 3)
				case trainsOnData(s):
					// DP-RECAL's figures train on MNIST-sized data for
					// thousands of iterations (minutes in all); replay
					// does not depend on the horizon.
					shorten(s, 100)
				}
				add(fmt.Sprintf("%s/%s/%d", ep.Name, se.Name, pt), s)
			}
		}
	}
	return cs, addErr
}

// trainsOnData reports whether s's problem reads a committed dataset.
func trainsOnData(s *scenario.Scenario) bool {
	var p struct {
		Dataset string `json:"dataset"`
	}
	_ = json.Unmarshal(s.Problem.Params, &p)
	return p.Dataset != "" && p.Dataset != "synthetic"
}

func parseCase(t *testing.T, c presetCase) *scenario.Scenario {
	t.Helper()
	s, err := scenario.Parse(c.json)
	if err != nil {
		t.Fatalf("%s: %v", c.name, err)
	}
	return s
}

// experimentHorizon caps the iterations of the experiment presets'
// scenarios in the conformance cases (the scenario presets run in full,
// natively).
const experimentHorizon = 300

// jsExperimentHorizon is the cap of every case under js/wasm, where every
// iteration costs several times more (the runner's package alone took
// minutes).
const jsExperimentHorizon = 30

// shorten cuts s to at most k iterations (a plug-in's defaults need only
// build and take a few steps).
func shorten(s *scenario.Scenario, k int) {
	s.Iterations = min(s.Iterations, k)
	s.Record.Checkpoints = slices.DeleteFunc(s.Record.Checkpoints, func(c int) bool { return c > s.Iterations })
	if s.Calibrate != nil && s.Calibrate.Iterations > s.Iterations {
		s.Calibrate.Iterations = s.Iterations
	}
}

// checkParams checks that the parameter struct newParams returns is
// described: every field has a doc line, every default lies in its range
// and options, and the defaults pass param.Validate.
func checkParams(t *testing.T, prefix string, newParams func() any) {
	t.Helper()
	if newParams == nil {
		t.Fatalf("NewParams is nil")
	}
	p := newParams()
	if p == newParams() {
		t.Errorf("NewParams returns the same struct twice: builds would share their parameters")
	}
	checkFields(t, prefix, param.Describe(p))
	if err := param.Validate(prefix, p); err != nil {
		t.Errorf("the defaults fail validation: %v", err)
	}
}

func checkFields(t *testing.T, prefix string, fs []param.Field) {
	t.Helper()
	for _, f := range fs {
		name := prefix + "." + f.Name
		if f.Doc == "" {
			t.Errorf("%s has no doc line", name)
		}
		if f.Range != "" {
			iv, err := param.ParseInterval(f.Range)
			if err != nil {
				t.Errorf("%s: %v", name, err)
			} else if x, ok := number(f.Default); ok && !iv.Contains(x) {
				t.Errorf("%s: the default %v is outside its range %s", name, f.Default, f.Range)
			}
		}
		if len(f.Options) > 0 {
			if s, ok := f.Default.(string); ok && !slices.Contains(f.Options, s) {
				t.Errorf("%s: the default %q is not one of its options %v", name, s, f.Options)
			}
		}
		checkFields(t, name, f.Fields)
	}
}

func number(v any) (float64, bool) {
	r := reflect.ValueOf(v)
	switch r.Kind() {
	case reflect.Float32, reflect.Float64:
		return r.Float(), true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(r.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return float64(r.Uint()), true
	}
	return 0, false
}

// defaultsOn finds the presets that use a plug-in (use says so, and
// resets the plug-in's params to its defaults) and returns the first that
// builds and runs a few iterations with the defaults; it fails the test
// with every preset's error when none does, or when no preset uses it.
func defaultsOn(t *testing.T, cases []presetCase, what string, use func(*scenario.Scenario) bool) *scenario.Built {
	t.Helper()
	var errs []string
	for _, c := range cases {
		s := parseCase(t, c)
		if !use(s) {
			continue
		}
		shorten(s, 5)
		b, err := scenario.BuildWith(s, scenario.CLI, sharedProblems)
		if err == nil {
			if err = runner.New(b).Run(); err == nil {
				return b
			}
		}
		errs = append(errs, fmt.Sprintf("on preset %s: %v", c.name, err))
	}
	if errs == nil {
		t.Fatalf("no preset uses %s: every plug-in needs one (core/scenario/presets)", what)
	}
	t.Fatalf("the defaults of %s build and run on no preset that uses it:\n%s", what, strings.Join(errs, "\n"))
	return nil
}

// checkStates checks that the factory's States list names exactly the
// variables the algorithm reports, in order: Pinned writes every one of
// them into init, and Build must read each back with the same meaning.
func checkStates(t *testing.T, b *scenario.Built) {
	t.Helper()
	var got, shared []string
	for _, v := range b.Algorithm.State() {
		// A relay's shared variables (method.Factory.Shared: the baton)
		// are reported too, and declared apart from the per-agent States.
		if _, ok := b.Factory.SharedVar(v.Name); ok {
			shared = append(shared, v.Name)
			continue
		}
		got = append(got, v.Name)
	}
	if len(shared) != len(b.Factory.Shared) {
		t.Errorf("%s: State() reports the shared variables %v but the factory declares %d", b.Factory.Name, shared, len(b.Factory.Shared))
	}
	if !slices.Equal(got, b.Factory.States) {
		t.Errorf("%s: State() reports %v but the factory declares States %v", b.Factory.Name, got, b.Factory.States)
	}
}

// checkSize checks that the problem factory declares Size and that its
// dimension is the one Build produced.
func checkSize(t *testing.T, b *scenario.Built) {
	t.Helper()
	pf := b.ProblemFactory
	if pf.Size == nil {
		t.Errorf("problem %s declares no Size: the memory estimate and the dimension limit cannot see it", pf.Name)
		return
	}
	if dim, _ := pf.Size(b.ProblemParams, b.Env.Graph.N); dim != b.Env.Problem.Dim() {
		t.Errorf("problem %s: Size says dimension %d, Build produced %d", pf.Name, dim, b.Env.Problem.Dim())
	}
}

// TestConformanceAlgorithms checks every registered algorithm: its
// parameters are described, its defaults build and run on a preset that
// uses it, and its States list is what it reports.
func TestConformanceAlgorithms(t *testing.T) {
	cases := conformanceCases(t)
	for _, f := range scenario.Factories() {
		t.Run(f.Name, func(t *testing.T) {
			checkParams(t, "algorithm.params", f.NewParams)
			if f.Build == nil || f.Title == "" || len(f.States) == 0 {
				t.Errorf("the factory must have a Build, a Title and its States")
			}
			if scenario.RegisteredForTest(f.Name) {
				return // a test's own plug-in, run by that test's scenarios
			}
			b := defaultsOn(t, cases, "algorithm "+f.Name, func(s *scenario.Scenario) bool {
				if s.Algorithm.Kind != f.Name {
					return false
				}
				s.Algorithm.Params = nil
				return true
			})
			checkStates(t, b)
		})
	}
}

// TestConformanceProblems checks every registered problem: its parameters
// are described, Size is declared and agrees with Build, and its defaults
// build and run on a preset that uses it.
func TestConformanceProblems(t *testing.T) {
	cases := conformanceCases(t)
	for _, f := range scenario.Problems() {
		t.Run(f.Name, func(t *testing.T) {
			checkParams(t, "problem.params", f.NewParams)
			if f.Build == nil || f.Pinned == nil || f.Title == "" {
				t.Errorf("the factory must have a Build, a Pinned and a Title")
			}
			if scenario.ProblemRegisteredForTest(f.Name) {
				return // a test's own plug-in, run by that test's scenarios
			}
			b := defaultsOn(t, cases, "problem "+f.Name, func(s *scenario.Scenario) bool {
				if s.Problem.Kind != f.Name {
					return false
				}
				s.Problem.Params = nil
				s.Init = nil // pinned rows have the preset's dimension
				return true
			})
			checkSize(t, b)
		})
	}
}

// replayed is what must be the same, byte for byte, when an export is
// replayed.
type replayed struct {
	Status      string          `json:"status"`
	Error       string          `json:"error"`
	Iter        int             `json:"iterations_run"`
	Scenario    json.RawMessage `json:"scenario"`
	Optimum     json.RawMessage `json:"optimum"`
	Metrics     json.RawMessage `json:"metrics"`
	Privacy     json.RawMessage `json:"privacy"`
	Checkpoints json.RawMessage `json:"checkpoints"`
	Steady      json.RawMessage `json:"steady_state"`
}

// TestConformancePresets runs every preset (scenario presets and the
// distinct scenarios of the experiment presets), exports it, parses the
// export's scenario, builds and runs it again, and requires the same
// trace bit for bit: metrics, privacy ledger, checkpoints (the states at
// the start, the middle and the end) and the pinned scenario itself.
// When the export holds the replay arrays (record.replay: every preset
// small enough for them by default), the second run has four other
// seeds: the arrays alone give the same export, but for the seeds.
func TestConformancePresets(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every preset twice")
	}
	for _, c := range conformanceCases(t) {
		t.Run(c.name, func(t *testing.T) {
			// The cases share nothing but the read-only problems of
			// sharedProblems; run side by side they keep every core
			// busy (this test was the longest single one of go test ./...).
			t.Parallel()
			s := parseCase(t, c)
			s.Record.Checkpoints = slices.Compact([]int{0, s.Iterations / 2, s.Iterations})
			first, b := exportOf(t, c.name, s)
			checkStates(t, b)
			checkSize(t, b)
			var a replayed
			if err := json.Unmarshal(first, &a); err != nil {
				t.Fatalf("%s: the export does not read back: %v", c.name, err)
			}
			again, err := scenario.Parse(a.Scenario)
			if err != nil {
				t.Fatalf("%s: the export's scenario does not parse: %v", c.name, err)
			}
			// A replay export (record.replay) holds every draw of the
			// run: its scenario replays with any other seeds.
			seedless := b.Replay && a.Status != "paused"
			if seedless {
				again.Seed, again.Seeds = nil, &rng.Seeds{Data: 101, Graph: 102, Noise: 103, Algorithm: 104}
			}
			bb, err := scenario.BuildWith(again, scenario.CLI, sharedProblems)
			if err != nil {
				t.Fatalf("%s: the export does not replay: %v", c.name, err)
			}
			second := writeExport(t, bb)
			var z replayed
			if err := json.Unmarshal(second, &z); err != nil {
				t.Fatalf("%s: the replay's export does not read back: %v", c.name, err)
			}
			// A calibrated run's replay carries the calibrated scales, so
			// its ledger has no calibration record; the rest is the same.
			ledger := func(raw json.RawMessage) string {
				var m map[string]any
				if err := json.Unmarshal(raw, &m); err != nil {
					t.Fatal(err)
				}
				delete(m, "calibration")
				if notes, ok := m["notes"].([]any); ok {
					m["notes"] = slices.DeleteFunc(notes, func(n any) bool {
						s, _ := n.(string)
						return strings.HasPrefix(s, "calibrated: ")
					})
					if len(m["notes"].([]any)) == 0 {
						delete(m, "notes")
					}
				}
				js, _ := json.Marshal(m)
				return string(js)
			}
			for _, d := range []struct {
				what string
				x, y string
			}{
				{"status", a.Status + " " + a.Error, z.Status + " " + z.Error},
				{"iterations run", fmt.Sprint(a.Iter), fmt.Sprint(z.Iter)},
				{"metrics", string(a.Metrics), string(z.Metrics)},
				{"checkpoints", string(a.Checkpoints), string(z.Checkpoints)},
				{"optimum", string(a.Optimum), string(z.Optimum)},
				{"steady state", string(a.Steady), string(z.Steady)},
				{"privacy ledger", ledger(a.Privacy), ledger(z.Privacy)},
				{"pinned scenario", withoutSeeds(t, a.Scenario, seedless), withoutSeeds(t, z.Scenario, seedless)},
			} {
				if d.x != d.y {
					t.Errorf("%s: the replay's %s differ from the export's: %s", c.name, d.what, firstDiff(d.x, d.y))
				}
			}
		})
	}
}

// withoutSeeds returns a scenario's JSON with its seeds left out when
// drop is set (the scenario's fields in a fixed order), else as it is.
func withoutSeeds(t *testing.T, raw json.RawMessage, drop bool) string {
	t.Helper()
	if !drop {
		return string(raw)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "seed")
	delete(m, "seeds")
	js, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(js)
}

// exportOf builds and runs s and returns its export.
func exportOf(t *testing.T, name string, s *scenario.Scenario) ([]byte, *scenario.Built) {
	t.Helper()
	b, err := scenario.BuildWith(s, scenario.CLI, sharedProblems)
	if err != nil {
		t.Fatalf("%s does not build: %v", name, err)
	}
	return writeExport(t, b), b
}

// writeExport runs b to its end (a divergence is part of the trace) and
// returns its export.
func writeExport(t *testing.T, b *scenario.Built) []byte {
	t.Helper()
	r := runner.New(b)
	_ = r.Run() // a diverged run is exported as such, and must replay as such
	var buf bytes.Buffer
	if err := r.WriteExport(&buf); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// firstDiff shows where x and y first differ, with some context.
func firstDiff(x, y string) string {
	i := 0
	for i < len(x) && i < len(y) && x[i] == y[i] {
		i++
	}
	lo := max(i-60, 0)
	cut := func(s string) string { return s[lo:min(i+60, len(s))] }
	return fmt.Sprintf("at byte %d of %d and %d: …%s… against …%s…", i, len(x), len(y), cut(x), cut(y))
}
