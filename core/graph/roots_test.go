package graph

import (
	"errors"
	"slices"
	"testing"
)

func mustNew(t *testing.T, n int, es []Edge, directed bool) *Graph {
	t.Helper()
	g, err := New(n, es, directed)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestSpanningRoots(t *testing.T) {
	for _, tc := range []struct {
		name     string
		n        int
		edges    []Edge
		directed bool
		roots    []int
		apart    [2]int
	}{
		{"directed path", 4, []Edge{{0, 1}, {1, 2}, {2, 3}}, true, []int{0}, [2]int{-1, -1}},
		{"directed cycle", 3, []Edge{{0, 1}, {1, 2}, {2, 0}}, true, []int{0, 1, 2}, [2]int{-1, -1}},
		// A cycle 1→2→3→1 feeding node 0: the cycle's nodes are roots.
		{"cycle feeding a sink", 4, []Edge{{1, 2}, {2, 3}, {3, 1}, {3, 0}}, true, []int{1, 2, 3}, [2]int{-1, -1}},
		// Two sources 0 and 3 both feed node 1: no node reaches both.
		{"two sources", 4, []Edge{{0, 1}, {3, 1}, {1, 2}}, true, nil, [2]int{0, 3}},
		{"isolated node", 3, []Edge{{0, 1}}, true, nil, [2]int{0, 2}},
		{"undirected path", 3, []Edge{{0, 1}, {1, 2}}, false, []int{0, 1, 2}, [2]int{-1, -1}},
		{"single node", 1, nil, true, []int{0}, [2]int{-1, -1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := mustNew(t, tc.n, tc.edges, tc.directed)
			roots, apart := g.SpanningRoots()
			if !slices.Equal(roots, tc.roots) || apart != tc.apart {
				t.Errorf("SpanningRoots = %v, %v; want %v, %v", roots, apart, tc.roots, tc.apart)
			}
		})
	}
}

func TestStrongComponentsLongPath(t *testing.T) {
	// 5000 nodes in one cycle: one component, without deep recursion.
	n := MaxAgents
	var es []Edge
	for i := range n {
		es = append(es, Edge{i, (i + 1) % n})
	}
	g := mustNew(t, n, es, true)
	if _, c := g.StrongComponents(); c != 1 {
		t.Fatalf("%d components, want 1", c)
	}
}

func TestCommonRoots(t *testing.T) {
	path := mustNew(t, 3, []Edge{{0, 1}, {1, 2}}, true) // root 0
	back := mustNew(t, 3, []Edge{{2, 1}, {1, 0}}, true) // root 2
	cycle := mustNew(t, 3, []Edge{{0, 1}, {1, 2}, {2, 0}}, true)
	split := mustNew(t, 3, []Edge{{0, 1}, {2, 1}}, true) // sources 0 and 2

	if r, err := CommonRoots(path, cycle); err != nil || !slices.Equal(r, []int{0}) {
		t.Errorf("path, cycle: %v, %v; want [0]", r, err)
	}
	var re *RootError
	_, err := CommonRoots(path, back)
	if !errors.As(err, &re) || re.Which != 2 || re.Node != 0 {
		t.Errorf("path, back: %v; want no common root naming node 0", err)
	}
	_, err = CommonRoots(cycle, split)
	if !errors.As(err, &re) || re.Which != 1 || re.Apart != [2]int{0, 2} {
		t.Errorf("cycle, split: %v; want graph 2 without a spanning tree, nodes 0 and 2", err)
	}
}
