package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"dpsim/core/noise"
)

// base is a valid scenario that the rejection cases edit.
const base = `{
 "name": "t",
 "seed": 5,
 "graph": {"kind": "ring", "n": 4},
 "weights": {"kind": "metropolis"},
 "problem": {"kind": "rendezvous", "params": {"dim": 2}},
 "algorithm": {"kind": "gt-dp", "params": {"alpha": 0.1, "gradient_bound": 10}},
 "noise": {"eta": {"dist": "laplace", "scale": 1}, "xi": {"dist": "laplace", "scale": 1}},
 "iterations": 10
}`

func load(text string) (*Built, error) {
	s, err := Parse([]byte(text))
	if err != nil {
		return nil, err
	}
	return Build(s)
}

func TestBaseIsValid(t *testing.T) {
	if _, err := load(base); err != nil {
		t.Fatal(err)
	}
}

func TestPresetsAreValid(t *testing.T) {
	ps := Presets()
	if len(ps) < 3 {
		t.Fatalf("only %d presets", len(ps))
	}
	found := false
	for _, p := range ps {
		s, err := PresetScenario(p.Name)
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		if s.Name != p.Name {
			t.Errorf("preset file %s holds scenario %q", p.Name, s.Name)
		}
		if _, err := Build(s); err != nil {
			t.Errorf("%s: %v", p.Name, err)
		}
		found = found || p.Name == DefaultPreset
	}
	if !found {
		t.Errorf("the default preset %q is missing", DefaultPreset)
	}
	if _, err := PresetJSON("../go.mod"); err == nil {
		t.Error("a preset name escaped the presets folder")
	}
}

// Every rejection names the field it is about.
func TestRejections(t *testing.T) {
	cases := []struct {
		name, from, to, field, rule string
	}{
		{"disconnected graph", `"graph": {"kind": "ring", "n": 4}`,
			`"graph": {"kind": "edges", "n": 4, "edges": [[0,1],[2,3]]}`, "graph", "not connected"},
		{"not doubly stochastic", `"weights": {"kind": "metropolis"}`,
			`"weights": {"kind": "matrix", "matrix": [[0.5,0.5,0,0],[0.5,0.4,0.1,0],[0,0.1,0.5,0.5],[0,0,0.5,0.5]]}`, "weights", "doubly-stochastic"},
		{"Laplacian weights for GT-DP", `"weights": {"kind": "metropolis"}`,
			`"weights": {"kind": "laplacian"}`, "weights", "Assumption 4"},
		{"negative step size", `"alpha": 0.1`, `"alpha": -0.1`, "algorithm.params.alpha", "must be in (0, 1e6] (got -0.1)"},
		{"NaN in the problem data", `"dim": 2}`,
			`"dim": 2, "targets": [[0,0],[1,1],[2,NaN],[3,3]]}`, "problem.params.targets[2][1]", "NaN"},
		{"unknown key", `"iterations": 10`, `"iterations": 10, "speed": 3`, "", `unknown key "speed"`},
		{"unknown nested key", `"kind": "ring", "n": 4`, `"kind": "ring", "n": 4, "radius2": 1`, "graph", `unknown key "radius2"`},
		{"unknown parameter", `"alpha": 0.1`, `"alpha": 0.1, "beta": 2`, "algorithm.params", `unknown key "beta"`},
		{"unknown key in a noise channel", `"eta": {"dist": "laplace", "scale": 1}`,
			`"eta": {"dist": "laplace", "scale": 1, "sigma": 2}`, "noise.eta", `unknown key "sigma"`},
		{"wrong type", `"n": 4`, `"n": "four"`, "graph.n", "must be a whole number, not the string"},
		{"wrong type in a list", `"dim": 2}`, `"dim": 2, "targets": [[0,0],[1,1],[2,"x"],[3,3]]}`, "problem.params.targets[2][1]", "must be a number, not the string"},
		{"number out of range", `"scale": 1}, "xi"`, `"scale": 1e400}, "xi"`, "noise.eta.scale", "out of range"},
		{"fractional count", `"iterations": 10`, `"iterations": 10.5`, "iterations", "whole number"},
		{"zero iterations", `"iterations": 10`, `"iterations": 0`, "iterations", "from 1"},
		{"missing noise channel", `, "xi": {"dist": "laplace", "scale": 1}`, ``, "noise.xi", "required"},
		{"extra noise channel", `"xi": {"dist": "laplace", "scale": 1}`, `"xi": {"dist": "laplace", "scale": 1}, "zeta": {"dist": "laplace", "scale": 1}`, "noise.zeta", "unknown channel"},
		{"Gaussian noise for GT-DP", `"eta": {"dist": "laplace"`, `"eta": {"dist": "gaussian"`, "noise.eta.dist", "laplace"},
		{"negative noise scale", `"scale": 1}, "xi"`, `"scale": -1}, "xi"`, "noise.eta.scale", "≥ 0"},
		{"unknown algorithm", `"kind": "gt-dp"`, `"kind": "gt-dpp"`, "algorithm.kind", "must be one of"},
		{"unknown graph", `"kind": "ring"`, `"kind": "torus"`, "graph.kind", "must be one of"},
		{"tiny ring", `"n": 4`, `"n": 1`, "graph.n", "from 2"},
		{"huge graph", `"n": 4`, `"n": 4000000`, "graph.n", "from 2 to 5000"},
		{"missing gradient bound", `, "gradient_bound": 10`, ``, "algorithm.params.gradient_bound", "required"},
		{"init with the wrong shape", `"iterations": 10`, `"iterations": 10, "init": {"x": [[0,0],[1,1]]}`, "init.x", "one row per agent"},
		{"init of an unknown variable", `"iterations": 10`, `"iterations": 10, "init": {"q": [[0,0],[1,1],[0,0],[1,1]]}`, "init.q", "unknown state variable"},
		{"checkpoint beyond the run", `"iterations": 10`, `"iterations": 10, "record": {"checkpoints": [11]}`, "record.checkpoints[0]", "from 0 to 10"},
		{"syntax error", `"iterations": 10`, `"iterations": 10,`, "", "line"},
		{"trailing data", base, base + "{}", "", "after the end"},
		{"empty", base, "", "", "empty"},
		{"bad name", `"name": "t"`, `"name": "a b"`, "name", "letters"},
		{"directed edges for GT-DP", `"graph": {"kind": "ring", "n": 4}`,
			`"graph": {"kind": "edges", "n": 4, "directed": true, "edges": [[0,1],[1,2],[2,3],[3,0]]}`, "", ""},
	}
	for _, c := range cases {
		text := strings.Replace(base, c.from, c.to, 1)
		if text == base && c.from != base {
			t.Fatalf("%s: the edit did not apply", c.name)
		}
		_, err := load(text)
		if err == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		msg := err.Error()
		if c.field != "" && !strings.HasPrefix(msg, c.field+": ") {
			t.Errorf("%s: %q does not start with the field %q", c.name, msg, c.field)
		}
		if !strings.Contains(msg, c.rule) {
			t.Errorf("%s: %q does not say %q", c.name, msg, c.rule)
		}
	}
}

func TestWarningsAreShown(t *testing.T) {
	b, err := load(strings.Replace(base, `"gradient_bound": 10`, `"gradient_bound": 0.5`, 1))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, w := range b.Warnings {
		found = found || (w.Field == "algorithm.params.gradient_bound" && strings.Contains(w.Message, "does not bound"))
	}
	if !found {
		t.Errorf("no warning about C below the initial gradient: %v", b.Warnings)
	}
}

// The pinned scenario replays the same problem: same graph, weights,
// targets and initial states, hence the same trace.
func TestPinnedReplays(t *testing.T) {
	s, _ := PresetScenario("gtdp-rendezvous-rgg")
	b, err := Build(s)
	if err != nil {
		t.Fatal(err)
	}
	p := b.Pinned()
	js := p.JSON()
	s2, err := Parse(js)
	if err != nil {
		t.Fatalf("the pinned scenario does not parse: %v\n%s", err, js)
	}
	b2, err := Build(s2)
	if err != nil {
		t.Fatalf("the pinned scenario does not build: %v", err)
	}
	for k := range 50 {
		x1, x2 := b.Algorithm.Advance().Estimates, b2.Algorithm.Advance().Estimates
		for i := range x1 {
			if x1[i] != x2[i] {
				t.Fatalf("iteration %d: the pinned scenario's trace differs", k+1)
			}
		}
	}
	if !bytes.Equal(js, b2.Pinned().JSON()) {
		t.Error("pinning a pinned scenario changed it")
	}
	var generic map[string]any
	if err := json.Unmarshal(js, &generic); err != nil {
		t.Fatal(err)
	}
	if g := generic["graph"].(map[string]any); g["kind"] != "edges" || g["positions"] == nil {
		t.Errorf("the pinned graph is not an explicit edge list with positions: %v", g["kind"])
	}
}

// The three ways of writing W — a builder, its nonzero entries, dense
// rows — give the same matrix, the pinned form is the entries, and a bad
// entry is an error naming weights.entries[k] and the rule.
func TestWeightsForms(t *testing.T) {
	// Metropolis on a ring of 4: 1/3 off the diagonal, 1 − 2/3 on it.
	const third, diag = `0.3333333333333333`, `0.33333333333333337`
	entries := `"weights": {"kind": "entries", "entries": [
	  [3,3,` + diag + `],[3,2,` + third + `],[3,0,` + third + `],[2,3,` + third + `],[2,2,` + diag + `],[2,1,` + third + `],
	  [1,2,` + third + `],[1,1,` + diag + `],[1,0,` + third + `],[0,3,` + third + `],[0,1,` + third + `],[0,0,` + diag + `]]}`
	matrix := `"weights": {"kind": "matrix", "matrix": [[` + diag + `,` + third + `,0,` + third + `],[` + third + `,` + diag + `,` + third + `,0],
	  [0,` + third + `,` + diag + `,` + third + `],[` + third + `,0,` + third + `,` + diag + `]]}`
	mh := `"weights": {"kind": "metropolis"}`
	var want [][]float64
	for _, form := range []string{mh, entries, matrix} {
		b, err := load(strings.Replace(base, mh, form, 1))
		if err != nil {
			t.Fatalf("%s: %v", form, err)
		}
		got := b.Env.Weights.Rows()
		if want == nil {
			want = got
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: W = %v, want %v", form, got, want)
		}
		p := b.Pinned()
		if p.Weights.Kind != "entries" || p.Weights.Matrix != nil || len(p.Weights.Entries) != 12 {
			t.Errorf("%s: pinned weights %+v", form, p.Weights)
		}
	}

	edit := func(list string) string {
		return strings.Replace(base, mh, `"weights": {"kind": "entries", "entries": `+list+`}`, 1)
	}
	for _, c := range []struct{ name, text, field, rule string }{
		{"pair", edit(`[[0,0,1],[1,1]]`), "weights.entries[1]", "exactly three numbers"},
		{"empty triple", edit(`[[]]`), "weights.entries[0]", "(got 0)"},
		{"fractional index", edit(`[[0,0.5,1]]`), "weights.entries[0]", "column index must be a whole number from 0 to 3 (got 0.5)"},
		{"index beyond the agents", edit(`[[0,0,1],[4,0,1]]`), "weights.entries[1]", "row index must be a whole number from 0 to 3 (got 4)"},
		{"negative index", edit(`[[-1,0,1]]`), "weights.entries[0]", "row index"},
		{"duplicate", edit(`[[0,0,1],[1,1,1],[0,0,1]]`), "weights.entries[2]", "listed twice, here and at weights.entries[0]"},
		{"not a number", edit(`[[0,0,"1"]]`), "weights.entries[0][2]", "must be a number, not the string"},
		{"not a list", edit(`[1, 2, 3]`), "weights.entries[0]", ""},
		{"no entries", edit(`[]`), "weights.entries", "is required"},
		{"entries for a builder", strings.Replace(base, mh, `"weights": {"kind": "metropolis", "entries": [[0,0,1]]}`, 1),
			"weights.entries", `kind "metropolis" does not read it (it reads no key besides kind; kind "entries" reads entries)`},
		{"rows for entries", strings.Replace(base, mh, `"weights": {"kind": "entries", "matrix": [[1]]}`, 1),
			"weights.matrix", `kind "entries" does not read it (its keys: entries; kind "matrix" reads matrix)`},
		// A valid matrix that breaks GT-DP's assumptions: the diagonal only.
		{"identity", edit(`[[0,0,1],[1,1,1],[2,2,1],[3,3,1]]`), "weights", "sparsity"},
	} {
		_, err := load(c.text)
		if err == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		if msg := err.Error(); !strings.HasPrefix(msg, c.field+": ") || !strings.Contains(msg, c.rule) {
			t.Errorf("%s: %q, want field %q and a rule containing %q", c.name, msg, c.field, c.rule)
		}
	}
}

// Building a clone leaves the original as it was, so that a sweep can
// build one clone per run of a template parsed once.
func TestCloneIsolatesBuild(t *testing.T) {
	s, err := PresetScenario("dpdgt-ieee14")
	if err != nil {
		t.Fatal(err)
	}
	s.Noise["xi"].Decay = noise.Schedule{}               // Build fills in the default
	s.Record = Record{Checkpoints: s.Record.Checkpoints} // every left out: Build fills in 1
	before := string(s.JSON())
	for range 2 {
		c := s.Clone()
		c.Noise["zeta"].Scale = 0.5
		if _, err := Build(c); err != nil {
			t.Fatal(err)
		}
	}
	if after := string(s.JSON()); after != before {
		t.Errorf("building clones changed the original:\n%s\n---\n%s", before, after)
	}
}
