package objective_test

import (
	"math"
	"testing"

	"dpsim/core/graph"
	"dpsim/core/objective"
	"dpsim/core/rng"
)

type keyParams struct {
	Dim   int                `json:"dim"`
	Scale float64            `json:"scale"`
	Rows  [][]float64        `json:"rows,omitempty"`
	Named map[string]float64 `json:"named,omitempty"`
}

// TestKey: two builds share a key exactly when the factory's declared
// inputs agree — kind, params (to the last bit), agents, and the data
// seed and the graph as Reads says.
func TestKey(t *testing.T) {
	mk := func(n int, edges []graph.Edge, pos [][2]float64) *graph.Graph {
		g, err := graph.New(n, edges, false)
		if err != nil {
			t.Fatal(err)
		}
		g.Pos = pos
		return g
	}
	links := func(pairs ...[2]int) []graph.Edge {
		var es []graph.Edge
		for _, p := range pairs {
			es = append(es, graph.Edge{From: p[0], To: p[1]})
		}
		return es
	}
	ring := mk(4, links([2]int{0, 1}, [2]int{1, 2}, [2]int{2, 3}, [2]int{3, 0}), nil)
	path := mk(4, links([2]int{0, 1}, [2]int{1, 2}, [2]int{2, 3}), nil)
	ringAt := mk(4, links([2]int{0, 1}, [2]int{1, 2}, [2]int{2, 3}, [2]int{3, 0}), [][2]float64{{0, 0}, {0, 1}, {1, 1}, {1, 0}})
	five := mk(5, links([2]int{0, 1}), nil)
	base := keyParams{Dim: 2, Scale: 0.1, Rows: [][]float64{{1, 2}}, Named: map[string]float64{"b": 1, "a": 2}}
	env := func(g *graph.Graph, data uint64) *objective.Env {
		return &objective.Env{Graph: g, Seeds: rng.Seeds{Data: data, Graph: 7, Noise: 8, Algorithm: 9}}
	}
	factory := func(name string, reads *objective.Reads) *objective.Factory {
		f := &objective.Factory{Name: name}
		if reads != nil {
			r := *reads
			f.Reads = func(any) objective.Reads { return r }
		}
		return f
	}
	key := func(f *objective.Factory, p keyParams, e *objective.Env) string {
		k, ok := f.Key(&p, e)
		if !ok {
			t.Fatalf("no key for %+v", p)
		}
		return k
	}
	nudged := base
	nudged.Scale = math.Nextafter(0.1, 1)
	rows := base
	rows.Rows = [][]float64{{1}, {2}}
	reordered := base
	reordered.Named = map[string]float64{"a": 2, "b": 1}
	other := base
	other.Scale = 0.2 // base's Scale is 0.1: not the same params

	none, seedOnly, graphOnly := &objective.Reads{}, &objective.Reads{DataSeed: true}, &objective.Reads{Graph: true}
	for _, c := range []struct {
		name       string
		f, g       *objective.Factory
		p, q       keyParams
		e1, e2     *objective.Env
		wantShared bool
	}{
		{"identical", factory("k", nil), factory("k", nil), base, base, env(ring, 1), env(ring, 1), true},
		{"map order is canonical", factory("k", nil), factory("k", nil), base, reordered, env(ring, 1), env(ring, 1), true},
		{"other kind", factory("k", none), factory("j", none), base, base, env(ring, 1), env(ring, 1), false},
		{"other params", factory("k", none), factory("k", none), base, other, env(ring, 1), env(ring, 1), false},
		{"params one ulp apart", factory("k", none), factory("k", none), base, nudged, env(ring, 1), env(ring, 1), false},
		{"rows split differently", factory("k", none), factory("k", none), base, rows, env(ring, 1), env(ring, 1), false},
		{"agents differ", factory("k", none), factory("k", none), base, base, env(ring, 1), env(five, 1), false},
		{"nil Reads: data seed", factory("k", nil), factory("k", nil), base, base, env(ring, 1), env(ring, 2), false},
		{"nil Reads: graph", factory("k", nil), factory("k", nil), base, base, env(ring, 1), env(path, 1), false},
		{"reads nothing: data seed ignored", factory("k", none), factory("k", none), base, base, env(ring, 1), env(ring, 2), true},
		{"reads nothing: graph ignored", factory("k", none), factory("k", none), base, base, env(ring, 1), env(path, 1), true},
		{"reads the seed: graph ignored", factory("k", seedOnly), factory("k", seedOnly), base, base, env(ring, 3), env(path, 3), true},
		{"reads the seed", factory("k", seedOnly), factory("k", seedOnly), base, base, env(ring, 3), env(ring, 4), false},
		{"reads the graph: seed ignored", factory("k", graphOnly), factory("k", graphOnly), base, base, env(ring, 3), env(ring, 4), true},
		{"reads the graph: links", factory("k", graphOnly), factory("k", graphOnly), base, base, env(ring, 3), env(path, 3), false},
		{"reads the graph: positions", factory("k", graphOnly), factory("k", graphOnly), base, base, env(ring, 3), env(ringAt, 3), false},
	} {
		a, b := key(c.f, c.p, c.e1), key(c.g, c.q, c.e2)
		if (a == b) != c.wantShared {
			t.Errorf("%s: keys %s and %s; shared = %v, want %v", c.name, a, b, a == b, c.wantShared)
		}
	}
	if nudged.Scale == base.Scale {
		t.Fatal("the nudged scale must differ from 0.1")
	}
	bad := &objective.Factory{Name: "k"}
	if _, ok := bad.Key(func() {}, env(ring, 1)); ok {
		t.Error("params that JSON cannot encode gave a key: such a problem must not be shared")
	}
}
