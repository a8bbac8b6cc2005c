package graph

import (
	"math/rand/v2"

	"dpsim/core/check"
)

// Readings of a directed edge list's pairs.
const (
	// ReadFromTo: [a, b] is a link a → b (a sends to b).
	ReadFromTo = "from-to"
	// ReadToFrom: [a, b] is a link b → a (a receives from b), the DP-DGT
	// paper's convention for its IEEE 14-bus digraph.
	ReadToFrom = "to-from"
)

// EdgesParams are the parameters of EdgesKind.
type EdgesParams struct {
	N        int    `json:"n" doc:"number of agents" range:"[1, 5000]" required:"true" unit:"agents"`
	Directed bool   `json:"directed" doc:"the pairs are directed links (see reading); otherwise each links both ways"`
	Reading  string `json:"reading" doc:"how a directed pair [a, b] reads: from-to (a → b) or to-from (b → a, the DP-DGT paper's convention)" options:"from-to|to-from"`
	// Edges lists each link once as [a, b], 0 ≤ a, b < n, a ≠ b.
	Edges [][2]int `json:"edges" doc:"the links, each once, as pairs [a, b] of agents from 0 to n − 1" required:"true"`
}

// EdgesKind is an explicit edge list, the form pinned scenarios write.
var EdgesKind = Kind{
	Name:  "edges",
	Title: "Edge list",
	Doc:   "an explicit list of links, undirected or directed: the form an export pins",
	NewParams: func() any {
		return &EdgesParams{N: 4, Reading: ReadFromTo, Edges: [][2]int{{0, 1}, {1, 2}, {2, 3}, {3, 0}}}
	},
	Check: func(params any) error {
		p := params.(*EdgesParams)
		switch p.Reading {
		case ReadFromTo, ReadToFrom:
		default:
			return check.Errorf("graph.reading", "must be %q ([a, b] is a link a → b) or %q ([a, b] is a link b → a, the DP-DGT paper's convention) (got %q)", ReadFromTo, ReadToFrom, p.Reading)
		}
		// The default reading reads the same either way; another one
		// means nothing for links that go both ways.
		if p.Reading != ReadFromTo && !p.Directed {
			return check.Errorf("graph.reading", "applies to directed edge lists only (set \"directed\": true)")
		}
		_, err := checkEdges(p)
		return err
	},
	Size: func(params any) (int64, int64) {
		p := params.(*EdgesParams)
		if p.Directed {
			return int64(p.N), int64(len(p.Edges))
		}
		return int64(p.N), 2 * int64(len(p.Edges))
	},
	SizeKeys: []string{"edges"},
	Build: func(params any, _ *rand.Rand) (*Graph, error) {
		// Check has vetted the list.
		p := params.(*EdgesParams)
		es := make([]Edge, len(p.Edges))
		for i, e := range p.Edges {
			es[i] = Edge{From: e[0], To: e[1]}
			if p.Reading == ReadToFrom {
				es[i] = Edge{From: e[1], To: e[0]}
			}
		}
		g, err := New(p.N, es, p.Directed)
		if err != nil {
			return nil, check.Errorf("graph.edges", "%v", err)
		}
		return g, nil
	},
}

// checkEdges checks an explicit edge list — endpoints are nodes, no
// self-loops, no edge given twice — naming the entry that breaks a rule, and
// returns it as graph edges.
func checkEdges(p *EdgesParams) ([]Edge, error) {
	es := make([]Edge, len(p.Edges))
	first := make(map[Edge]int, len(p.Edges))
	for i, e := range p.Edges {
		// The field's name is formatted only for an error: sweeps check
		// the same edge list thousands of times.
		field := func() string { return check.Index("graph.edges", i) }
		for j, v := range e {
			if v < 0 || v >= p.N {
				return nil, check.Errorf(check.Index(field(), j), "must be a node from 0 to %d (graph.n − 1) (got %d)", p.N-1, v)
			}
		}
		if e[0] == e[1] {
			return nil, check.Errorf(field(), "[%d, %d] links node %d to itself; an agent's weight on itself belongs to the weight matrix", e[0], e[1], e[0])
		}
		key := Edge{From: e[0], To: e[1]}
		if !p.Directed && key.From > key.To {
			key.From, key.To = key.To, key.From
		}
		if k, dup := first[key]; dup {
			how := ""
			if !p.Directed {
				how = " (an undirected edge links both ways)"
			}
			return nil, check.Errorf(field(), "[%d, %d] repeats graph.edges[%d]%s; give each edge once", e[0], e[1], k, how)
		}
		first[key] = i
		es[i] = Edge{From: e[0], To: e[1]}
	}
	return es, nil
}
