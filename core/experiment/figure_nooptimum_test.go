package experiment

import (
	"strings"
	"testing"

	"dpsim/core/check"
	"dpsim/core/metrics"
	"dpsim/core/objective"
	"dpsim/core/problems/rendezvous"
	"dpsim/core/scenario"
)

// hidden is the rendezvous problem with its optimum withheld: a problem
// that offers no optimum, for the figures' labels.
type hidden struct{ objective.Problem }

func (hidden) Optimum() []float64 { return nil }

var hiddenFactory = objective.Factory{
	Name: "rendezvous-hidden", Title: "rendezvous, optimum withheld", Source: "a test plug-in",
	NewParams: rendezvous.Factory.NewParams,
	Size:      rendezvous.Factory.Size,
	Build: func(env *objective.Env, params any) (objective.Problem, []check.Warning, error) {
		p, w, err := rendezvous.Factory.Build(env, params)
		if err != nil {
			return nil, nil, err
		}
		return hidden{p}, w, nil
	},
	Pinned: func(p objective.Problem, params any) any { return params },
}

// TestFigureNoOptimumLabel checks that an optimality figure of a problem
// without a known optimum does not define its y axis as a distance to
// x*: the note names the metric as metrics.Describe does and says why
// there is no ‖x − x*‖, and a stationarity figure's note does not.
func TestFigureNoOptimumLabel(t *testing.T) {
	un, err := scenario.RegisterProblemForTest(&hiddenFactory)
	if err != nil {
		t.Fatal(err)
	}
	defer un()
	text := strings.Replace(small["iteration"], `"base":{"preset":"gtdp-rendezvous"},"set":{`,
		`"base":{"preset":"gtdp-rendezvous"},"set":{"problem.kind":"rendezvous-hidden",`, 1)
	if text == small["iteration"] {
		t.Fatal("the variant of the experiment was not made")
	}
	f := plan(t, text).Figure(&Result{})
	if !strings.Contains(f.YNote, metrics.NoOptimumLabel) || !strings.Contains(f.YNote, metrics.NoOptimumNote) ||
		strings.Contains(f.YNote, metrics.OptimalityLabel) {
		t.Errorf("optimality: the note %q must say %q and %q", f.YNote, metrics.NoOptimumLabel, metrics.NoOptimumNote)
	}
	text = strings.NewReplacer(`"metrics":[{"name":"optimality"}]`, `"metrics":[{"name":"stationarity"}]`,
		`"y":{"metric":"optimality"`, `"y":{"metric":"stationarity"`).Replace(text)
	f = plan(t, text).Figure(&Result{})
	if !strings.Contains(f.YNote, "∇f_i") || strings.Contains(f.YNote, "x*") {
		t.Errorf("stationarity: the note %q", f.YNote)
	}
}
