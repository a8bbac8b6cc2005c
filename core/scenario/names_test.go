package scenario

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestAgentNames: the dispatch problem's agent names must be nonempty and
// distinct (both were accepted).
func TestAgentNames(t *testing.T) {
	s, err := PresetScenario("dpdgt-ieee14")
	if err != nil {
		t.Fatal(err)
	}
	b, err := Build(s)
	if err != nil {
		t.Fatal(err)
	}
	pinned := b.Pinned()
	var params map[string]any
	if err := json.Unmarshal(pinned.Problem.Params, &params); err != nil {
		t.Fatal(err)
	}
	names := params["names"].([]any)
	for _, c := range []struct {
		edit func([]any)
		want string
	}{
		{func(n []any) { n[3] = "" }, `problem.params.names[3]: must be a nonempty label (got "")`},
		{func(n []any) { n[5] = " " }, `problem.params.names[5]: must be a nonempty label`},
		{func(n []any) { n[7] = n[2] }, `problem.params.names[7]: repeats the name of agent 2`},
	} {
		n := append([]any(nil), names...)
		c.edit(n)
		params["names"] = n
		js, _ := json.Marshal(params)
		sc := pinned.Clone()
		sc.Problem.Params = js
		_, err := Build(sc)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("got %v, want %q", err, c.want)
		}
	}
	params["names"] = names
	js, _ := json.Marshal(params)
	sc := pinned.Clone()
	sc.Problem.Params = js
	if _, err := Build(sc); err != nil {
		t.Errorf("the pinned names: %v", err)
	}
}
