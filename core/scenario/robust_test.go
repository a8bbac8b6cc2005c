package scenario

import (
	"strings"
	"testing"
)

// robustBase is a valid scenario; edits replace one of its fragments.
const robustBase = `{"name":"r","seed":1,"graph":{"kind":"ring","n":4},"weights":{"kind":"metropolis"},
 "problem":{"kind":"rendezvous","params":{"dim":2,"box":5}},
 "algorithm":{"kind":"gt-dp","params":{"alpha":0.1,"gradient_bound":30}},
 "noise":{"eta":{"dist":"laplace","scale":0.1},"xi":{"dist":"laplace","scale":0.1}},
 "init":{"x":[[0,0],[0,0],[0,0],[0,0]]},
 "iterations":10}`

func buildEdited(t *testing.T, old, new string) (*Built, error) {
	t.Helper()
	if !strings.Contains(robustBase, old) {
		t.Fatalf("robustBase has no %q", old)
	}
	s, err := Parse([]byte(strings.Replace(robustBase, old, new, 1)))
	if err != nil {
		return nil, err
	}
	return Build(s)
}

// Regression tests for the robustness probe's rows 4, 9, 11 and 12:
// values that would overflow later are refused at validation, with the
// rule; a one-agent network is an error; growing noise is a warning.
func TestOverflowAndSizeRules(t *testing.T) {
	for _, c := range []struct{ name, old, new, want string }{
		{"row 4: a gradient bound whose ε overflows", `"gradient_bound":30`, `"gradient_bound":5e307`, "algorithm.params.gradient_bound: must be in [0, 1e100]"},
		{"row 9: box", `"box":5`, `"box":1e300`, "problem.params.box: must be in (0, 1e12]"},
		{"row 9: targets", `"box":5`, `"targets":[[1e200,0],[0,0],[0,0],[0,0]]`, "problem.params.targets[0][0]: must be a number in [−1e12, 1e12]"},
		{"row 9: initial state", `[[0,0],[0,0],[0,0],[0,0]]`, `[[0,0],[0,1e200],[0,0],[0,0]]`, "init.x[1][1]: must be in [−1e+12, 1e+12]"},
		{"row 9: noise scale", `"eta":{"dist":"laplace","scale":0.1}`, `"eta":{"dist":"laplace","scale":1e300}`, "noise.eta.scale: must be at most 1e+12"},
		{"row 11: one agent", `"graph":{"kind":"ring","n":4}`, `"graph":{"kind":"path","n":1}`, "graph.n: a network needs at least 2 agents"},
		{"row 11: one-cell grid", `"graph":{"kind":"ring","n":4}`, `"graph":{"kind":"grid","rows":1,"cols":1}`, "graph.rows: a network needs at least 2 agents"},
	} {
		_, err := buildEdited(t, c.old, c.new)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: error %v, want it to start with %q", c.name, err, c.want)
		}
	}
	b, err := buildEdited(t, `"eta":{"dist":"laplace","scale":0.1}`, `"eta":{"dist":"laplace","scale":0.1,"decay":{"kind":"geometric","c":1,"r":1.1}}`)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, w := range b.Warnings {
		found = found || (w.Field == "noise.eta.decay" && strings.Contains(w.Message, "grows"))
	}
	if !found {
		t.Errorf("row 12: growing noise gave no warning: %v", b.Warnings)
	}
}
