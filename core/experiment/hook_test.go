package experiment

import (
	"encoding/json"
	"math"
	"testing"

	"dpsim/core/scenario"
)

// TestHook: a registered series hook rebuilds the scenario before each
// run (here: noise off), and its arguments are the experiment's.
func TestHook(t *testing.T) {
	RegisterHook("test-noise-off", func(b *scenario.Built, args json.RawMessage) (*scenario.Built, error) {
		var a struct{ Channels []string }
		if err := json.Unmarshal(args, &a); err != nil {
			return nil, err
		}
		s := *b.Scenario
		s.Noise = maps(s.Noise)
		for _, c := range a.Channels {
			spec := *s.Noise[c]
			spec.Scale = 0
			s.Noise[c] = &spec
		}
		return scenario.Build(&s)
	})
	defer delete(hooks, "test-noise-off")
	p := plan(t, `{"format":"dpsim-experiment/1","name":"hook","title":"T","base":{"preset":"gtdp-rendezvous"},
	 "set":{"iterations":50},
	 "series":[{"name":"plain"},{"name":"quiet","hook":{"name":"test-noise-off","args":{"channels":["eta","xi"]}}}],
	 "x":{"kind":"iteration","label":"k"},"runs":3,"seed":1,"metrics":[{"name":"optimality"}],"quantities":["epsilon"],
	 "statistic":"mean","figure":{"title":"T","y":{"metric":"optimality","label":"e"}}}`)
	recs, err := p.Execute(t.Context(), p.AllTasks(), 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range recs {
		eps := float64(r.Quantities["epsilon"])
		if r.Series == 0 && !(eps > 0 && !math.IsNaN(eps)) {
			t.Errorf("plain run %d: ε = %v, want a finite budget", r.Run, eps)
		}
		if r.Series == 1 && !math.IsInf(eps, 1) {
			t.Errorf("hooked run %d: ε = %v, want +Inf (no noise: ε = ∞, a value, not a missing one)", r.Run, eps)
		}
	}
}

func maps[V any](m map[string]V) map[string]V {
	out := make(map[string]V, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}
