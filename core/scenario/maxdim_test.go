package scenario

import (
	"strings"
	"testing"

	"dpsim/core/check"
	"dpsim/core/objective"
)

// dimToy is a problem whose dimension follows from its parameter "width":
// Size declares it, and Build must never be reached when it is too large.
type dimToy struct {
	Width int `json:"width" doc:"the dimension"`
}

// TestMaxDim checks that a dimension beyond MaxDim is refused from the
// problem's Size, before the graph or the problem is built, naming the
// parameter that drives it.
func TestMaxDim(t *testing.T) {
	built := false
	problems["dim-toy"] = &objective.Factory{Name: "dim-toy", Title: "toy",
		NewParams: func() any { return &dimToy{Width: 2} },
		Size:      func(p any, agents int) (int, int64) { return p.(*dimToy).Width, 0 },
		Build: func(*objective.Env, any) (objective.Problem, []check.Warning, error) {
			built = true
			return nil, nil, check.Errorf("problem", "toy")
		},
	}
	defer delete(problems, "dim-toy")
	for _, c := range []struct {
		problem string
		want    string
	}{
		{`{"kind": "rendezvous", "params": {"dim": 100001}}`, "problem.params.dim: "},
		{`{"kind": "rendezvous", "params": {"dim": 0}}`, "problem.params.dim: "},
		{`{"kind": "dim-toy", "params": {"width": 1000000}}`, "problem.params.width: "},
	} {
		built = false
		// A graph of 10⁶ agents would be refused only after the dimension.
		js := `{"name": "big", "seed": 1, "iterations": 1, "graph": {"kind": "ring", "n": 1000000},
			"weights": {"kind": "metropolis"}, "problem": ` + c.problem + `,
			"algorithm": {"kind": "gt-dp"}, "noise": {"eta": {"scale": 0}, "xi": {"scale": 0}}}`
		s, err := Parse([]byte(js))
		if err != nil {
			t.Fatal(err)
		}
		_, err = Build(s)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || !strings.Contains(err.Error(), "[1, 100000]") {
			t.Errorf("%s: got %v, want an error starting %q that states the limit", c.problem, err, c.want)
		}
		if built {
			t.Errorf("%s: the problem was built before its dimension was checked", c.problem)
		}
	}
}
