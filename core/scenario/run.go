package scenario

import (
	"math"
	"slices"

	"dpsim/core/check"
	"dpsim/core/method"
	"dpsim/core/metrics"
	"dpsim/core/objective"
)

// MaxCount bounds a stop rule's counts: far beyond any run's messages
// (MaxIterations × the links of the largest graph), and exact in a
// float64, so every language reads it.
const MaxCount = 1 << 53

// Stop ends a run before its planned iterations once a communication
// budget is spent (DP-RECAL bounds each agent's activations, its privacy
// leakage frequency; Table IV compares methods by messages). The run
// stops after the first iteration at which a limit is reached; its export
// says which (status "stopped", stop_reason).
type Stop struct {
	// MaxActivations stops the run once some agent has been active this
	// many times: no agent is ever active more often, since an agent is
	// active at most once per iteration.
	MaxActivations int64 `json:"max_activations,omitempty"`
	// MaxMessages stops the run once this many per-link messages were
	// sent. The last iteration's messages all count, so the total may
	// exceed the budget by less than one iteration's messages.
	MaxMessages int64 `json:"max_messages,omitempty"`

	// given lists the keys the parsed text gave, so that a limit given as
	// 0 is named when it is the only one (0 sets no limit).
	given []string
}

// checkRecordStop checks record.eval_every and the stop section
// (record.every must be set already).
func checkRecordStop(s *Scenario) error {
	// eval_every 0 is the default, as when it is left out: an
	// experiment's override sets 0 to undo its base's interval.
	if e := s.Record.EvalEvery; e != 0 {
		if err := check.IntRange("record.eval_every", e, 1, MaxIterations); err != nil {
			return err
		}
		if e%s.Record.Every != 0 {
			return check.Errorf("record.eval_every", "must be a multiple of record.every = %d, so that every evaluation falls on a recorded point (got %d)", s.Record.Every, e)
		}
	}
	st := s.Stop
	if st == nil {
		return nil
	}
	if st.MaxActivations == 0 && st.MaxMessages == 0 {
		for _, k := range []string{"max_messages", "max_activations"} {
			if slices.Contains(st.given, k) {
				return check.Errorf("stop."+k, "must be from 1 to 2^53 = %d when no other limit is given: 0 sets no limit, so this stop rule would never stop the run (got 0); leave out \"stop\" to run every iteration", int64(MaxCount))
			}
		}
		return check.Errorf("stop", "give max_activations, max_messages or both (or leave out \"stop\")")
	}
	for _, c := range []struct {
		field string
		v     int64
	}{{"stop.max_activations", st.MaxActivations}, {"stop.max_messages", st.MaxMessages}} {
		if c.v < 0 || c.v > MaxCount {
			return check.Errorf(c.field, "must be from 1 to 2^53 = %d (got %d)", int64(MaxCount), c.v)
		}
	}
	return nil
}

// evalWarnings warns when record.eval_every is given but prob has no
// expensive metric (metrics.Evaluated) for it to space out.
func evalWarnings(s *Scenario, pf *objective.Factory, prob objective.Problem) []check.Warning {
	if s.Record.EvalEvery == 0 {
		return nil
	}
	if ev, ok := prob.(metrics.Evaluated); ok && len(ev.EvaluatedNames()) > 0 {
		return nil
	}
	return []check.Warning{check.Warnf("record.eval_every", "has no effect: %s has no expensive metric to evaluate every %d iterations (only learning problems with test_accuracy, or the CNN, have one)", pf.Name, s.Record.EvalEvery)}
}

// checkInit checks the initial states: known variables; a per-agent
// variable has one finite row of length dim per agent, a shared variable
// (method.Factory.Shared) exactly one row of its declared length.
func checkInit(s *Scenario, f *method.Factory, agents, dim int) error {
	for _, name := range sortedKeys(s.Init) {
		field := check.Join("init", name)
		rows := s.Init[name]
		if sv, ok := f.SharedVar(name); ok {
			if len(rows) != 1 {
				return check.Errorf(field, "is shared (it belongs to no agent): give one row, [[…]], got %d", len(rows))
			}
			if err := checkRow(check.Index(field, 0), rows[0], sv.Length(dim), "the shared variable's length"); err != nil {
				return err
			}
			continue
		}
		if !slices.Contains(f.States, name) {
			return check.Errorf(field, "unknown state variable: %s has %v", f.Title, stateNames(f))
		}
		if len(rows) != agents {
			return check.Errorf(field, "must have one row per agent: %d, got %d", agents, len(rows))
		}
		for i, r := range rows {
			if err := checkRow(check.Index(field, i), r, dim, "the problem's dimension"); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkRow checks one row of an initial state: its length, finite, and
// within MaxMagnitude.
func checkRow(field string, r []float64, n int, what string) error {
	if len(r) != n {
		return check.Errorf(field, "must have %d entries (%s), got %d", n, what, len(r))
	}
	if err := check.AllFinite(field, r); err != nil {
		return err
	}
	for j, v := range r {
		if math.Abs(v) > MaxMagnitude {
			return check.Errorf(check.Index(field, j), "must be in [−%g, %g], so that squared distances stay far inside float64's range (got %g)", MaxMagnitude, MaxMagnitude, v)
		}
	}
	return nil
}

// stateNames lists every state variable a scenario may pin: the
// per-agent ones, then the shared ones.
func stateNames(f *method.Factory) []string {
	names := slices.Clone(f.States)
	for _, v := range f.Shared {
		names = append(names, v.Name)
	}
	return names
}

// forTest marks the plug-ins a test registered (problems under
// "problem/"+name): they have no preset, and the conformance test leaves
// running them to that test's own scenarios.
var forTest = map[string]bool{}

// RegisteredForTest reports whether the algorithm name was registered by
// RegisterForTest.
func RegisteredForTest(name string) bool { return forTest[name] }

// ProblemRegisteredForTest reports whether the problem kind name was
// registered by RegisterProblemForTest.
func ProblemRegisteredForTest(name string) bool { return forTest["problem/"+name] }

// RegisterForTest adds an algorithm for the duration of a test and
// returns the function that removes it. It refuses a name already
// registered. It is not safe to call while scenarios are being built
// concurrently; tests call it before they build anything.
func RegisterForTest(f *method.Factory) (unregister func(), err error) {
	if _, dup := factories[f.Name]; dup || f.Name == "" {
		return nil, check.Errorf("algorithm.kind", "%q is already registered (or empty): a test plug-in needs a name of its own", f.Name)
	}
	if err := f.CheckState(); err != nil {
		return nil, err
	}
	factories[f.Name] = f
	forTest[f.Name] = true
	return func() { delete(factories, f.Name); delete(forTest, f.Name) }, nil
}

// RegisterProblemForTest is RegisterForTest for a problem kind.
func RegisterProblemForTest(f *objective.Factory) (unregister func(), err error) {
	if _, dup := problems[f.Name]; dup || f.Name == "" {
		return nil, check.Errorf("problem.kind", "%q is already registered (or empty): a test plug-in needs a name of its own", f.Name)
	}
	problems[f.Name] = f
	forTest["problem/"+f.Name] = true
	return func() { delete(problems, f.Name); delete(forTest, "problem/"+f.Name) }, nil
}
