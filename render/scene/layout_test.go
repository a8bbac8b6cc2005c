package scene

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"dpsim/core/graph"
)

func must(t *testing.T) func(*graph.Graph, error) *graph.Graph {
	return func(g *graph.Graph, err error) *graph.Graph {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return g
	}
}

// edges pairs up its arguments as links.
func edges(ends ...int) []graph.Edge {
	var es []graph.Edge
	for k := 0; k+1 < len(ends); k += 2 {
		es = append(es, graph.Edge{From: ends[k], To: ends[k+1]})
	}
	return es
}

func testGraphs(t *testing.T) map[string]*graph.Graph {
	gs := map[string]*graph.Graph{}
	add := func(name string, g *graph.Graph, err error) { gs[name] = must(t)(g, err) }
	g, err := graph.Ring(8)
	add("ring8", g, err)
	g, err = graph.Ring(2)
	add("ring2", g, err)
	g, err = graph.Path(6)
	add("path6", g, err)
	g, err = graph.Star(7)
	add("star7", g, err)
	g, err = graph.Complete(6)
	add("complete6", g, err)
	g, err = graph.Grid(3, 4)
	add("grid3x4", g, err)
	g, err = graph.RandomGeometric(60, 0.3, 50, rand.New(rand.NewPCG(1, 2)))
	add("rgg60", g, err)
	g, err = graph.ErdosRenyi(40, 0.15, 50, rand.New(rand.NewPCG(3, 4)))
	add("er40", g, err)
	// A lollipop: a triangle with a tail; irregular.
	g, err = graph.New(6, edges(0, 1, 1, 2, 0, 2, 2, 3, 3, 4, 4, 5), false)
	add("lollipop", g, err)
	// A directed ring with one chord.
	g, err = graph.New(5, edges(0, 1, 1, 2, 2, 3, 3, 4, 4, 0, 2, 0), true)
	add("dirchord", g, err)
	g, err = graph.New(1, nil, false)
	add("single", g, err)
	g, err = graph.New(4, edges(0, 1, 2, 3), false)
	add("twocomponents", g, err)
	return gs
}

func checkInsideDistinct(t *testing.T, name string, pos [][2]float64) {
	t.Helper()
	const eps = 1e-9
	for i, p := range pos {
		for d := range 2 {
			if !(p[d] >= LayoutMargin-eps && p[d] <= 1-LayoutMargin+eps) {
				t.Errorf("%s: node %d at %v is outside the margins", name, i, p)
			}
		}
		for j := range i {
			if math.Hypot(p[0]-pos[j][0], p[1]-pos[j][1]) < 1e-3 {
				t.Errorf("%s: nodes %d and %d coincide at %v", name, j, i, p)
			}
		}
	}
}

func TestLayoutInsideAndDistinct(t *testing.T) {
	for name, g := range testGraphs(t) {
		pos := Layout(g)
		if len(pos) != g.N {
			t.Fatalf("%s: %d positions for %d nodes", name, len(pos), g.N)
		}
		checkInsideDistinct(t, name, pos)
		again := Layout(g)
		for i := range pos {
			if pos[i] != again[i] {
				t.Fatalf("%s: layout is not deterministic at node %d: %v then %v", name, i, pos[i], again[i])
			}
		}
	}
}

func TestRingOnCircleInCycleOrder(t *testing.T) {
	// An explicit cycle whose node order is not the index order.
	g := must(t)(graph.New(6, edges(0, 3, 3, 1, 1, 5, 5, 2, 2, 4, 4, 0), false))
	pos := Layout(g)
	r := 0.5 - LayoutMargin
	for i, p := range pos {
		if d := math.Hypot(p[0]-0.5, p[1]-0.5); math.Abs(d-r) > 1e-9 {
			t.Errorf("node %d is at distance %v from the centre, want %v", i, d, r)
		}
	}
	side := float64(2 * r * math.Sin(math.Pi/6))
	for _, e := range g.Edges {
		a, b := pos[e.From], pos[e.To]
		if d := math.Hypot(a[0]-b[0], a[1]-b[1]); math.Abs(d-side) > 1e-9 {
			t.Errorf("edge %v spans %v, want neighbours on the circle (%v)", e, d, side)
		}
	}
	if pos[0][1] > 0.5-r+1e-9 {
		t.Errorf("node 0 is not at the top: %v", pos[0])
	}
}

func TestStarAndPathShapes(t *testing.T) {
	star := must(t)(graph.Star(9))
	pos := Layout(star)
	if pos[0] != [2]float64{0.5, 0.5} {
		t.Errorf("star centre at %v", pos[0])
	}
	for i := 1; i < star.N; i++ {
		if d := math.Hypot(pos[i][0]-0.5, pos[i][1]-0.5); math.Abs(d-(0.5-LayoutMargin)) > 1e-9 {
			t.Errorf("leaf %d off the circle: %v", i, d)
		}
	}
	// A path given in scrambled order: 2–0–3–1.
	path := must(t)(graph.New(4, edges(2, 0, 0, 3, 3, 1), false))
	pos = Layout(path)
	// It starts from the lowest-numbered end, so it reads 1–3–0–2.
	order := []int{1, 3, 0, 2}
	for k, v := range order {
		if pos[v][1] != 0.5 {
			t.Errorf("path node %d off the line: %v", v, pos[v])
		}
		if k > 0 && !(pos[v][0] > pos[order[k-1]][0]) {
			t.Errorf("path order broken at node %d: %v", v, pos)
		}
	}
}

func TestForceLayoutLargeIsQuick(t *testing.T) {
	g := must(t)(graph.ErdosRenyi(500, 0.012, 100, rand.New(rand.NewPCG(5, 6))))
	start := time.Now()
	pos := Layout(g)
	el := time.Since(start)
	checkInsideDistinct(t, "er500", pos)
	if el > 5*time.Second {
		t.Errorf("layout of 500 nodes took %v", el)
	}
	t.Logf("force layout of %d nodes, %d edges: %v", g.N, len(g.Edges), el)

	// Neighbours end up closer than non-neighbours on average.
	var dn, dall float64
	for _, e := range g.Edges {
		dn += math.Hypot(pos[e.From][0]-pos[e.To][0], pos[e.From][1]-pos[e.To][1])
	}
	dn /= float64(len(g.Edges))
	for i := 0; i < g.N; i += 7 {
		for j := 1; j < g.N; j += 11 {
			dall += math.Hypot(pos[i][0]-pos[j][0], pos[i][1]-pos[j][1])
		}
	}
	dall /= float64(((g.N + 6) / 7) * ((g.N - 1 + 10) / 11))
	if !(dn < 0.7*dall) {
		t.Errorf("mean edge length %v is not clearly below the mean distance %v", dn, dall)
	}
}
