package scenario

import (
	"strings"
	"testing"

	"dpsim/core/algorithms/gtdp"
	"dpsim/core/check"
	"dpsim/core/objective"
	"dpsim/core/problems/rendezvous"
)

// elasticRendezvous is the rendezvous problem with an elastic-net
// regulariser: a composite problem for the test.
type elasticRendezvous struct {
	objective.Problem
	r objective.ElasticNet
}

func (p elasticRendezvous) Regularizer(x []float64) float64 { return p.r.Value(x) }

func (p elasticRendezvous) Prox(x []float64, step float64, out []float64) { p.r.Prox(x, step, out) }

var _ objective.Composite = elasticRendezvous{}

// An algorithm that declares no prox step is refused on a composite
// problem, naming itself; one that declares it builds.
func TestCompositeNeedsProx(t *testing.T) {
	composite := rendezvous.Factory
	composite.Name, composite.Title = "toy-composite", "rendezvous + elastic net"
	composite.Build = func(env *objective.Env, params any) (objective.Problem, []check.Warning, error) {
		p, w, err := rendezvous.Factory.Build(env, params)
		if err != nil {
			return nil, nil, err
		}
		return elasticRendezvous{p, objective.ElasticNet{L1: 0.5, L2: 1}}, w, nil
	}
	unp, err := RegisterProblemForTest(&composite)
	if err != nil {
		t.Fatal(err)
	}
	defer unp()
	withProx := gtdp.Factory
	withProx.Name, withProx.Prox = "toy-gtdp-prox", true
	una, err := RegisterForTest(&withProx)
	if err != nil {
		t.Fatal(err)
	}
	defer una()

	build := func(alg string) error {
		s, err := Parse([]byte(`{"name": "c", "seed": 1, "iterations": 2, "graph": {"kind": "ring", "n": 4},
			"weights": {"kind": "metropolis"}, "problem": {"kind": "toy-composite"},
			"algorithm": {"kind": "` + alg + `"}, "noise": {"eta": {"dist": "laplace", "scale": 0}, "xi": {"dist": "laplace", "scale": 0}}}`))
		if err != nil {
			t.Fatal(err)
		}
		_, err = Build(s)
		return err
	}
	err = build("gt-dp")
	if err == nil || !strings.HasPrefix(err.Error(), "algorithm.kind: ") || !strings.Contains(err.Error(), "no proximal step") || !strings.Contains(err.Error(), `"gt-dp"`) {
		t.Errorf("gt-dp on a composite problem: got %v, want a one-line refusal naming algorithm.kind and gt-dp", err)
	}
	if err := build("toy-gtdp-prox"); err != nil {
		t.Errorf("an algorithm with a prox step is refused: %v", err)
	}
}
