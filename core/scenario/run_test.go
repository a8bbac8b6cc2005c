package scenario

import (
	"slices"
	"testing"

	"dpsim/core/method"
	"dpsim/core/objective"
)

// Test plug-ins register under names of their own only, and unregister.
func TestRegisterForTestRefusesDuplicates(t *testing.T) {
	for _, name := range AlgorithmNames() {
		if _, err := RegisterForTest(&method.Factory{Name: name}); err == nil {
			t.Errorf("algorithm %q registered twice", name)
		}
	}
	for _, name := range ProblemKinds() {
		if _, err := RegisterProblemForTest(&objective.Factory{Name: name}); err == nil {
			t.Errorf("problem %q registered twice", name)
		}
	}
	if _, err := RegisterForTest(&method.Factory{}); err == nil {
		t.Error("an empty name was registered")
	}
	un, err := RegisterForTest(&method.Factory{Name: "test-only", Solves: method.Minimisation})
	if err != nil || !slices.Contains(AlgorithmNames(), "test-only") {
		t.Fatalf("registering test-only: %v", err)
	}
	un()
	if slices.Contains(AlgorithmNames(), "test-only") {
		t.Fatal("test-only is still registered")
	}
	unp, err := RegisterProblemForTest(&objective.Factory{Name: "test-only"})
	if err != nil || !slices.Contains(ProblemKinds(), "test-only") {
		t.Fatalf("registering problem test-only: %v", err)
	}
	unp()
	if slices.Contains(ProblemKinds(), "test-only") {
		t.Fatal("problem test-only is still registered")
	}
}

// Every registered algorithm declares its state consistently, and a
// factory that does not is caught.
func TestFactoriesCheckState(t *testing.T) {
	for _, f := range Factories() {
		if err := f.CheckState(); err != nil {
			t.Error(err)
		}
	}
	for _, f := range []method.Factory{
		{Name: "a", Solves: method.Minimisation, States: []string{"x", "x"}},
		{Name: "b", Solves: method.Minimisation, States: []string{"x"}, Shared: []method.SharedVar{{Name: "x"}}},
		{Name: "c", Solves: method.Minimisation, Shared: []method.SharedVar{{Name: "u"}}, Output: "x"},
		{Name: "d", Solves: method.Minimisation, Shared: []method.SharedVar{{Name: "u", Dim: func(int) int { return 0 }}}},
		{Name: "e", States: []string{"x"}}, // Solves undeclared
	} {
		if err := f.CheckState(); err == nil {
			t.Errorf("factory %s passes", f.Name)
		}
	}
}
