package graph

import (
	"fmt"
	"slices"
)

// Spanning trees of directed graphs.
//
// Push–pull methods (DP-DGT, DDGT) do not need a strongly connected
// network: their Assumption 2 asks that the pull graph and the transposed
// push graph each contain a spanning tree (an out-arborescence: one root
// from which every node can be reached along the links) and that some
// node be a root of both. The functions here find those roots, and when
// there are none they name two nodes that no root can serve, so an error
// can say which part of the network is cut off.

// StrongComponents returns the strongly connected components of g (links
// go both ways when g is undirected): comp[v] is v's component, numbered in
// reverse topological order of the condensation (a component's
// successors have smaller numbers), and count is how many there are.
func (g *Graph) StrongComponents() (comp []int, count int) {
	// Iterative Tarjan: no recursion, so 5000-node paths are fine.
	n := g.N
	index := make([]int, n)
	low := make([]int, n)
	onStack := make([]bool, n)
	comp = make([]int, n)
	for i := range index {
		index[i] = -1
	}
	var stack []int
	type frame struct{ v, next int }
	var call []frame
	counter := 0
	for s := range n {
		if index[s] >= 0 {
			continue
		}
		call = append(call, frame{s, 0})
		index[s], low[s] = counter, counter
		counter++
		stack = append(stack, s)
		onStack[s] = true
		for len(call) > 0 {
			f := &call[len(call)-1]
			v := f.v
			if f.next < len(g.out[v]) {
				w := g.out[v][f.next]
				f.next++
				switch {
				case index[w] < 0:
					index[w], low[w] = counter, counter
					counter++
					stack = append(stack, w)
					onStack[w] = true
					call = append(call, frame{w, 0})
				case onStack[w]:
					low[v] = min(low[v], index[w])
				}
				continue
			}
			// v is finished: pop it, close its component if it is a root.
			call = call[:len(call)-1]
			if len(call) > 0 {
				u := call[len(call)-1].v
				low[u] = min(low[u], low[v])
			}
			if low[v] == index[v] {
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					comp[w] = count
					if w == v {
						break
					}
				}
				count++
			}
		}
	}
	return comp, count
}

// SpanningRoots returns, in increasing order, the nodes from which every
// node of g can be reached along the links: the possible roots of a
// spanning tree. When there are none, apart holds two nodes in different
// source components (components no link enters from outside): no node
// reaches both. For an undirected connected graph every node is a root.
func (g *Graph) SpanningRoots() (roots []int, apart [2]int) {
	comp, count := g.StrongComponents()
	entered := make([]bool, count)
	for _, e := range g.Edges {
		if comp[e.From] != comp[e.To] {
			entered[comp[e.To]] = true
			if !g.Directed {
				entered[comp[e.From]] = true
			}
		}
	}
	// The first node of each source component, in node order.
	first := map[int]int{}
	var sources []int
	for v := range g.N {
		c := comp[v]
		if entered[c] {
			continue
		}
		if _, ok := first[c]; !ok {
			first[c] = v
			sources = append(sources, c)
		}
	}
	if len(sources) != 1 {
		// A finite graph has at least one source component, so there
		// are two or more here.
		return nil, [2]int{first[sources[0]], first[sources[1]]}
	}
	for v := range g.N {
		if comp[v] == sources[0] {
			roots = append(roots, v)
		}
	}
	return roots, [2]int{-1, -1}
}

// RootError explains why two directed graphs have no common spanning-tree
// root, naming a node that breaks the condition.
type RootError struct {
	// Which is the graph at fault: 0 for the first, 1 for the second,
	// 2 when each has roots but they share none.
	Which int
	// Apart holds two nodes no single node reaches (Which is 0 or 1).
	Apart [2]int
	// Node is a root of the first graph that is not a root of the second
	// (Which is 2).
	Node int
	// Roots holds each graph's roots (Which is 2).
	Roots [2][]int
}

// Error implements error.
func (e *RootError) Error() string {
	if e.Which < 2 {
		return fmt.Sprintf("graph %d has no spanning tree: no node reaches both node %d and node %d", e.Which+1, e.Apart[0], e.Apart[1])
	}
	return fmt.Sprintf("no node is a root of both spanning trees: node %d is a root of the first graph but not of the second (roots %v and %v)", e.Node, e.Roots[0], e.Roots[1])
}

// CommonRoots returns the nodes that are spanning-tree roots of both a and
// b (graphs on the same nodes), or a *RootError that names the offending
// nodes.
func CommonRoots(a, b *Graph) ([]int, error) {
	ra, apart := a.SpanningRoots()
	if ra == nil {
		return nil, &RootError{Which: 0, Apart: apart}
	}
	rb, apart := b.SpanningRoots()
	if rb == nil {
		return nil, &RootError{Which: 1, Apart: apart}
	}
	var common []int
	for _, v := range ra {
		if _, ok := slices.BinarySearch(rb, v); ok {
			common = append(common, v)
		}
	}
	if common == nil {
		return nil, &RootError{Which: 2, Node: ra[0], Roots: [2][]int{ra, rb}}
	}
	return common, nil
}
