// Package runnertest holds the helpers the algorithms' tests share: a
// built-in scenario with edits, a complete run, and a state variable by
// name. Every helper fails the test at the first error.
package runnertest

import (
	"testing"

	"dpsim/core/runner"
	"dpsim/core/scenario"
	"dpsim/core/sim"
)

// Preset builds the built-in scenario name after edit (nil: none)
// changed it.
func Preset(t testing.TB, name string, edit func(*scenario.Scenario)) *scenario.Built {
	t.Helper()
	s, err := scenario.PresetScenario(name)
	if err != nil {
		t.Fatal(err)
	}
	return build(t, s, edit)
}

// Parse builds the scenario in the JSON text js after edit (nil: none)
// changed it.
func Parse(t testing.TB, js []byte, edit func(*scenario.Scenario)) *scenario.Built {
	t.Helper()
	s, err := scenario.Parse(js)
	if err != nil {
		t.Fatal(err)
	}
	return build(t, s, edit)
}

func build(t testing.TB, s *scenario.Scenario, edit func(*scenario.Scenario)) *scenario.Built {
	t.Helper()
	if edit != nil {
		edit(s)
	}
	b, err := scenario.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Run runs b to its end.
func Run(t testing.TB, b *scenario.Built) *runner.Runner {
	t.Helper()
	r := runner.New(b)
	if err := r.Run(); err != nil {
		t.Fatal(err)
	}
	return r
}

// State returns the data of a's state variable called name, nil if it has
// none.
func State(a sim.Algorithm, name string) []float64 {
	for _, v := range a.State() {
		if v.Name == name {
			return v.Data
		}
	}
	return nil
}
