// Package graph holds communication networks: undirected and directed
// graphs, the builders the papers use (ring, path, star, complete, grid,
// random geometric, Erdős–Rényi, explicit edge lists) and connectivity
// checks.
//
// Each builder a scenario may name is a described Kind (kind_*.go, one
// file per kind): a name, a doc line, its parameters as a tagged struct
// (core/param), a check that runs before anything is allocated, and a
// Build function, registered in one line in core/scenario/registry.go. A
// new kind is a new file and that line (and, for a key no kind read
// before, a field of the flat scenario.Graph, which keeps the JSON flat).
package graph

import (
	"fmt"
	"math/rand/v2"
	"slices"
)

// MaxAgents bounds the number of nodes any builder accepts, so that a
// mistyped scenario cannot ask for gigabytes.
const MaxAgents = 5000

// Edge is a link. In an undirected graph From < To and the link goes both
// ways; in a directed graph it carries messages From → To.
type Edge struct {
	From, To int
}

// Graph is a communication network on nodes 0..N-1.
type Graph struct {
	N        int
	Directed bool
	// Edges lists every link once, sorted.
	Edges []Edge
	// Pos holds node coordinates in [0,1]² when the graph has a natural
	// embedding (random geometric graphs, grids); nil otherwise.
	Pos [][2]float64

	out, in [][]int
}

// New returns the graph on n nodes with the given links. Undirected links
// are normalised to From < To; duplicates are merged. Self-loops and
// out-of-range endpoints are errors.
func New(n int, edges []Edge, directed bool) (*Graph, error) {
	if n < 1 || n > MaxAgents {
		return nil, fmt.Errorf("the number of nodes must be from 1 to %d (got %d)", MaxAgents, n)
	}
	g := &Graph{N: n, Directed: directed}
	seen := make(map[Edge]bool, len(edges))
	for k, e := range edges {
		if e.From < 0 || e.From >= n || e.To < 0 || e.To >= n {
			return nil, fmt.Errorf("edge %d (%d, %d) has an endpoint outside 0..%d", k, e.From, e.To, n-1)
		}
		if e.From == e.To {
			return nil, fmt.Errorf("edge %d (%d, %d) is a self-loop; self-weights belong to the weight matrix", k, e.From, e.To)
		}
		if !directed && e.From > e.To {
			e.From, e.To = e.To, e.From
		}
		if !seen[e] {
			seen[e] = true
			g.Edges = append(g.Edges, e)
		}
	}
	slices.SortFunc(g.Edges, func(a, b Edge) int {
		if a.From != b.From {
			return a.From - b.From
		}
		return a.To - b.To
	})
	g.index()
	return g, nil
}

func (g *Graph) index() {
	g.out = make([][]int, g.N)
	g.in = make([][]int, g.N)
	for _, e := range g.Edges {
		g.out[e.From] = append(g.out[e.From], e.To)
		g.in[e.To] = append(g.in[e.To], e.From)
		if !g.Directed {
			g.out[e.To] = append(g.out[e.To], e.From)
			g.in[e.From] = append(g.in[e.From], e.To)
		}
	}
	for i := range g.out {
		slices.Sort(g.out[i])
		slices.Sort(g.in[i])
	}
}

// Out returns the nodes i sends to (all neighbours when undirected), in
// increasing order. The slice must not be modified.
func (g *Graph) Out(i int) []int { return g.out[i] }

// In returns the nodes i receives from (all neighbours when undirected),
// in increasing order. The slice must not be modified.
func (g *Graph) In(i int) []int { return g.in[i] }

// Neighbors returns the neighbours of i in an undirected graph (Out).
func (g *Graph) Neighbors(i int) []int { return g.out[i] }

// Degree returns the number of neighbours of i (out-degree if directed).
func (g *Graph) Degree(i int) int { return len(g.out[i]) }

// HasLink reports whether i sends to j.
func (g *Graph) HasLink(i, j int) bool {
	_, ok := slices.BinarySearch(g.out[i], j)
	return ok
}

// Links returns the number of directed links: twice the edge count of an
// undirected graph.
func (g *Graph) Links() int {
	if g.Directed {
		return len(g.Edges)
	}
	return 2 * len(g.Edges)
}

// Connected reports whether every node can reach every other, ignoring
// directions.
func (g *Graph) Connected() bool {
	return g.reach(0, true) == g.N
}

// StronglyConnected reports whether every node can reach every other
// along the links' directions. For an undirected graph it equals
// Connected.
func (g *Graph) StronglyConnected() bool {
	if !g.Directed {
		return g.Connected()
	}
	if g.reach(0, false) != g.N {
		return false
	}
	// Reverse reachability: walk the in-lists.
	seen := make([]bool, g.N)
	stack := []int{0}
	seen[0] = true
	count := 1
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, u := range g.in[v] {
			if !seen[u] {
				seen[u] = true
				count++
				stack = append(stack, u)
			}
		}
	}
	return count == g.N
}

// reach counts the nodes reachable from s (following out-links, or all
// links when undirected is true).
func (g *Graph) reach(s int, undirected bool) int {
	seen := make([]bool, g.N)
	stack := []int{s}
	seen[s] = true
	count := 1
	for len(stack) > 0 {
		v := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		next := g.out[v]
		if undirected {
			next = append(slices.Clip(next), g.in[v]...)
		}
		for _, u := range next {
			if !seen[u] {
				seen[u] = true
				count++
				stack = append(stack, u)
			}
		}
	}
	return count
}

// Components returns the number of connected components (ignoring
// directions), for error messages.
func (g *Graph) Components() int {
	seen := make([]bool, g.N)
	c := 0
	for s := range g.N {
		if seen[s] {
			continue
		}
		c++
		stack := []int{s}
		seen[s] = true
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, list := range [][]int{g.out[v], g.in[v]} {
				for _, u := range list {
					if !seen[u] {
						seen[u] = true
						stack = append(stack, u)
					}
				}
			}
		}
	}
	return c
}

// Ring returns the cycle 0–1–…–(n−1)–0 (a single edge for n = 2).
func Ring(n int) (*Graph, error) {
	if n < 2 {
		return nil, fmt.Errorf("a ring needs at least 2 nodes (got %d)", n)
	}
	var es []Edge
	for i := range n {
		es = append(es, Edge{i, (i + 1) % n})
	}
	return New(n, es, false)
}

// Path returns the path 0–1–…–(n−1).
func Path(n int) (*Graph, error) {
	var es []Edge
	for i := 0; i+1 < n; i++ {
		es = append(es, Edge{i, i + 1})
	}
	return New(n, es, false)
}

// Star returns the star with centre 0.
func Star(n int) (*Graph, error) {
	var es []Edge
	for i := 1; i < n; i++ {
		es = append(es, Edge{0, i})
	}
	return New(n, es, false)
}

// Complete returns the complete graph on n nodes.
func Complete(n int) (*Graph, error) {
	if n > 1000 {
		return nil, fmt.Errorf("a complete graph is limited to 1000 nodes (got %d)", n)
	}
	var es []Edge
	for i := range n {
		for j := i + 1; j < n; j++ {
			es = append(es, Edge{i, j})
		}
	}
	return New(n, es, false)
}

// Grid returns the rows×cols lattice, node r*cols+c at row r, column c.
func Grid(rows, cols int) (*Graph, error) {
	if rows < 1 || cols < 1 || rows*cols > MaxAgents {
		return nil, fmt.Errorf("a grid needs rows, cols ≥ 1 and rows·cols ≤ %d (got %d×%d)", MaxAgents, rows, cols)
	}
	var es []Edge
	for r := range rows {
		for c := range cols {
			v := r*cols + c
			if c+1 < cols {
				es = append(es, Edge{v, v + 1})
			}
			if r+1 < rows {
				es = append(es, Edge{v, v + cols})
			}
		}
	}
	g, err := New(rows*cols, es, false)
	if err != nil {
		return nil, err
	}
	g.Pos = make([][2]float64, g.N)
	for v := range g.N {
		r, c := v/cols, v%cols
		g.Pos[v] = [2]float64{(float64(c) + 0.5) / float64(max(rows, cols)), (float64(r) + 0.5) / float64(max(rows, cols))}
	}
	return g, nil
}

// RandomGeometric draws n points uniformly in the unit square and links
// every pair within distance radius, redrawing (up to tries times) until
// the graph is connected.
func RandomGeometric(n int, radius float64, tries int, r *rand.Rand) (*Graph, error) {
	if !(radius > 0) || radius > 2 {
		return nil, fmt.Errorf("the radius must be in (0, 2] (got %v)", radius)
	}
	for range tries {
		pos := make([][2]float64, n)
		for i := range pos {
			pos[i] = [2]float64{r.Float64(), r.Float64()}
		}
		var es []Edge
		for i := range n {
			for j := i + 1; j < n; j++ {
				dx, dy := pos[i][0]-pos[j][0], pos[i][1]-pos[j][1]
				if float64(dx*dx)+float64(dy*dy) <= radius*radius {
					es = append(es, Edge{i, j})
				}
			}
		}
		g, err := New(n, es, false)
		if err != nil {
			return nil, err
		}
		if g.Connected() {
			g.Pos = pos
			return g, nil
		}
	}
	return nil, fmt.Errorf("no connected random geometric graph with n = %d and radius %v in %d draws; raise the radius", n, radius, tries)
}

// ErdosRenyi links every pair independently with probability p, redrawing
// (up to tries times) until the graph is connected.
func ErdosRenyi(n int, p float64, tries int, r *rand.Rand) (*Graph, error) {
	if !(p > 0 && p <= 1) {
		return nil, fmt.Errorf("the link probability must be in (0, 1] (got %v)", p)
	}
	for range tries {
		var es []Edge
		for i := range n {
			for j := i + 1; j < n; j++ {
				if r.Float64() < p {
					es = append(es, Edge{i, j})
				}
			}
		}
		g, err := New(n, es, false)
		if err != nil {
			return nil, err
		}
		if g.Connected() {
			return g, nil
		}
	}
	return nil, fmt.Errorf("no connected Erdős–Rényi graph with n = %d and p = %v in %d draws; raise p", n, p, tries)
}
