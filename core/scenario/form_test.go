package scenario_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	. "dpsim/core/scenario"

	"dpsim/core/objective"
	"dpsim/core/runner"
)

// short sets a scenario text's iterations to 3 (and drops what depends
// on the horizon), so that a walk over the registries stays quick.
func short(t *testing.T, text []byte) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(text, &m); err != nil {
		t.Fatal(err)
	}
	m["iterations"] = 3
	delete(m, "record")
	delete(m, "stop")
	delete(m, "calibrate")
	out, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// runs checks that text validates with no error and runs its iterations.
func runs(t *testing.T, what string, text []byte) {
	t.Helper()
	r := CheckAll(text, CLI, nil)
	if len(r.Errors) > 0 || !r.Built {
		t.Errorf("%s: the form's scenario does not validate: %+v\n%s", what, r.Errors, text)
		return
	}
	s, err := Parse(text)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Build(s)
	if err != nil {
		t.Fatalf("%s: CheckAll passed but Build refused: %v", what, err)
	}
	if err := runner.New(b).Run(); err != nil {
		t.Errorf("%s: %v", what, err)
	}
}

// refusedAt checks that text validates, or that every error it has is
// about a field under one of prefixes (the section the form changed,
// where the builder shows it).
func refusedAt(t *testing.T, what string, text []byte, prefixes ...string) {
	t.Helper()
	r := CheckAll(text, CLI, nil)
	for _, e := range r.Errors {
		ok := false
		for _, p := range prefixes {
			ok = ok || e.Path == p || strings.HasPrefix(e.Path, p+".")
		}
		if !ok {
			t.Errorf("%s: error outside %v: %+v", what, prefixes, e)
		}
	}
	if len(r.Errors) == 0 && !r.Built {
		t.Errorf("%s: no error, yet not built", what)
	}
}

// TestFormDefaults walks the registries through Form and Choose, as the
// page's builder does: every algorithm and every problem picked in the
// form (each from its preset, with the network of that preset when the
// current problem's form or the weight roles do not fit) validates and
// runs; so does every graph kind and weight builder picked with its
// defaults runs or is refused at its own section only.
func TestFormDefaults(t *testing.T) {
	fc := Form()
	var bases [][]byte
	for _, name := range []string{"gtdp-rendezvous", "dpdgt-ieee14"} {
		b, err := PresetJSON(name)
		if err != nil {
			t.Fatal(err)
		}
		bases = append(bases, short(t, b))
	}
	pick := func(base []byte, section, kind string) []byte {
		t.Helper()
		out, err := Choose(base, section, kind, CLI, nil)
		if err != nil {
			t.Fatalf("choose %s %s: %v", section, kind, err)
		}
		return short(t, out)
	}
	for bi, base := range bases {
		for _, a := range fc.Algorithms {
			runs(t, fmt.Sprintf("base %d, algorithm %s", bi, a.Name), pick(base, "algorithm", a.Name))
		}
		for _, p := range fc.Problems {
			runs(t, fmt.Sprintf("base %d, problem %s", bi, p.Name), pick(base, "problem", p.Name))
		}
	}
	for _, g := range fc.Graphs {
		runs(t, "graph "+g.Name, pick(bases[0], "graph", g.Name))
	}
	// A weight builder may break the algorithm's assumptions (GT-DP needs
	// a nonnegative W, DPP² a Laplacian): the form shows that beside
	// weights, and nowhere else.
	for _, w := range fc.Weights {
		refusedAt(t, "weights "+w.Name, pick(bases[0], "weights", w.Name), "weights")
		refusedAt(t, "weights.pull "+w.Name, pick(bases[1], "weights.pull", w.Name), "weights")
	}
}

// TestFormDeclarations: a problem's declared form (Allocation) is the
// form of what its Build returns, on every preset.
func TestFormDeclarations(t *testing.T) {
	for _, p := range Presets() {
		s, err := PresetScenario(p.Name)
		if err != nil {
			t.Fatal(err)
		}
		b, err := Build(s)
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		_, alloc := b.Env.Problem.(objective.Allocation)
		if alloc != b.ProblemFactory.Allocation {
			t.Errorf("%s: problem %s declares Allocation %v, builds %T", p.Name, b.ProblemFactory.Name, b.ProblemFactory.Allocation, b.Env.Problem)
		}
	}
}
