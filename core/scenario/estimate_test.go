package scenario

import (
	"strings"
	"testing"
)

// Scenarios within every per-field limit but too big together are refused
// before anything is allocated, naming the fields that drive the size.
func TestBudgetRefusesBeforeAllocating(t *testing.T) {
	for _, c := range []struct {
		name, graph, dim string
		page             bool
		field            string
	}{
		// 5000 × 100 000 states: 32 GB, and the targets alone 4 GB.
		{"huge states", `{"kind":"ring","n":5000}`, "100000", false, "graph.n"},
		{"complete graph in the page", `{"kind":"complete","n":1000}`, "2", true, "graph.n"},
		{"many recorded points in the page", `{"kind":"ring","n":8}`, "2", true, "iterations"},
	} {
		s, err := Parse([]byte(`{"name":"big","seed":1,"graph":` + c.graph + `,"weights":{"kind":"metropolis"},
		 "problem":{"kind":"rendezvous","params":{"dim":` + c.dim + `}},
		 "algorithm":{"kind":"gt-dp","params":{"alpha":0.1,"gradient_bound":1}},
		 "noise":{"eta":{"dist":"laplace","scale":0},"xi":{"dist":"laplace","scale":0}},
		 "iterations":10000000}`))
		if err != nil {
			t.Fatal(err)
		}
		place := CLI
		if c.page {
			place = Page
		}
		_, err = BuildFor(s, place)
		if err == nil || !strings.HasPrefix(err.Error(), c.field+": this scenario needs about") {
			t.Errorf("%s: error %v, want one naming %s and the estimate", c.name, err, c.field)
		}
	}
	// The same complete graph is fine for the CLI, whose metrics spill.
	s, _ := PresetScenario("gtdp-rendezvous")
	s.Graph = Graph{Kind: "complete", N: 300}
	s.Iterations = 10_000_000
	s.Record.Checkpoints = nil
	if _, err := BuildFor(s, CLI); err != nil {
		t.Errorf("complete graph of 300, 10⁷ iterations in the CLI: %v", err)
	}
}

func TestEstimateParts(t *testing.T) {
	s, _ := PresetScenario("gtdp-rendezvous")
	e := EstimateOf(s, factories["gt-dp"], 2, 256, true)
	if e.Agents != 8 || e.Links != 16 || e.Total <= 0 || len(e.Parts) < 4 {
		t.Fatalf("estimate %+v", e)
	}
	for i := 1; i < len(e.Parts); i++ {
		if e.Parts[i].Bytes > e.Parts[i-1].Bytes {
			t.Fatalf("parts not sorted: %v", e)
		}
	}
	if !strings.Contains(e.String(), "algorithm state") {
		t.Errorf("String() = %q", e)
	}
}

// The fuzzer's find: a valid scenario whose pinned copy would be too big
// to read back is refused, so every export can be replayed.
func TestPinnedScenarioMustBeReplayable(t *testing.T) {
	s, _ := PresetScenario("gtdp-rendezvous")
	s.Graph = Graph{Kind: "ring", N: 20}
	s.Problem.Params = []byte(`{"dim": 100000}`)
	s.Init = nil
	s.Record.Checkpoints = nil
	_, err := Build(s)
	if err == nil || !strings.Contains(err.Error(), "could not be replayed") {
		t.Fatalf("error %v, want the replay limit", err)
	}
	s.Problem.Params = []byte(`{"dim": 10000}`)
	if _, err := Build(s); err != nil {
		t.Fatalf("dim 10 000 on 5 agents: %v", err)
	}
}
