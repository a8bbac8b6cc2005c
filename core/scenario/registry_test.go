package scenario

import (
	"strings"
	"testing"

	"dpsim/core/method"
	"dpsim/core/objective"
)

// TestRegistryRefusesDuplicate checks that two plug-ins under one name
// are refused, by the constructor and by the panic at init, with a
// message naming the name and both plug-ins.
func TestRegistryRefusesDuplicate(t *testing.T) {
	a := &method.Factory{Name: "same", Title: "First"}
	b := &method.Factory{Name: "same", Title: "Second"}
	if _, err := newRegistry(a, b); err == nil {
		t.Fatal("newRegistry accepted two algorithms named \"same\"")
	} else if msg := err.Error(); !strings.Contains(msg, `"same"`) || !strings.Contains(msg, "First") || !strings.Contains(msg, "Second") {
		t.Errorf("the error %q must name the name and both plug-ins", msg)
	}
	p := &objective.Factory{Name: "p", Title: "P one"}
	q := &objective.Factory{Name: "p", Title: "P two"}
	func() {
		defer func() {
			r := recover()
			if r == nil {
				t.Fatal("registry did not panic on two problems named \"p\"")
			}
			if msg := r.(error).Error(); !strings.Contains(msg, "P one") || !strings.Contains(msg, "P two") {
				t.Errorf("the panic %q must name both plug-ins", msg)
			}
		}()
		registry(p, q)
	}()
	if _, err := newRegistry(&method.Factory{Title: "Nameless"}); err == nil {
		t.Error("newRegistry accepted a plug-in without a name")
	}
	// The real registries are built: distinct names, each found.
	for _, f := range Factories() {
		if factories[f.Name] != f {
			t.Errorf("algorithm %q is not registered under its name", f.Name)
		}
	}
	for _, f := range Problems() {
		if problems[f.Name] != f {
			t.Errorf("problem %q is not registered under its name", f.Name)
		}
	}
}
