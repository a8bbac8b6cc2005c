// Package scene is the pure half of the renderer: it lays out a network,
// drives playback of a run (Player), keeps what the picture needs from the
// step stream (Model) and turns it into plain geometry (Frame, Mesh) that a
// thin ebiten adapter (package render) hands to DrawTriangles.
//
// Nothing here imports ebiten or syscall/js, so everything is tested
// natively and under js/wasm.
package scene

import (
	"math"
	"slices"

	"dpsim/core/graph"
)

// LayoutMargin is the empty border Layout leaves inside the unit square.
const LayoutMargin = 0.08

// Layout returns node positions in [0,1]² with a margin of LayoutMargin.
//
//   - g.Pos when the graph has coordinates (fitted into the margins,
//     aspect ratio kept);
//   - a star (node 0 adjacent to all, every other node a leaf) with its
//     centre in the middle and the leaves on a circle;
//   - a path (all degrees ≤ 2, connected, not a cycle) on a horizontal line
//     in path order;
//   - a cycle in cycle order, and any other regular graph (complete, …) in
//     index order, on a circle starting at the top, clockwise;
//   - every other graph with a deterministic force-directed layout.
//
// Directions are ignored. The result is deterministic.
func Layout(g *graph.Graph) [][2]float64 {
	n := g.N
	pos := make([][2]float64, n)
	if n == 0 {
		return pos
	}
	if len(g.Pos) == n {
		copy(pos, g.Pos)
		fit(pos)
		return pos
	}
	if n == 1 {
		pos[0] = [2]float64{0.5, 0.5}
		return pos
	}
	adj := undirected(g)
	connected := g.Connected()
	minDeg, maxDeg := n, 0
	for _, a := range adj {
		minDeg = min(minDeg, len(a))
		maxDeg = max(maxDeg, len(a))
	}
	switch {
	case n >= 4 && isStar(adj):
		pos[0] = [2]float64{0.5, 0.5}
		circle(pos[1:], identity(n-1))
	case connected && maxDeg <= 2 && minDeg == 1: // a path (n = 2 included)
		order := walk(adj, endpoint(adj))
		for k, v := range order {
			pos[v] = [2]float64{LayoutMargin + (1-2*LayoutMargin)*float64(k)/float64(n-1), 0.5}
		}
	case connected && minDeg == 2 && maxDeg == 2: // a cycle
		circle(pos, walk(adj, 0))
	case minDeg == maxDeg:
		circle(pos, identity(n))
	default:
		force(pos, adj)
		fit(pos)
	}
	return pos
}

// undirected returns the sorted neighbour sets, ignoring directions.
func undirected(g *graph.Graph) [][]int {
	adj := make([][]int, g.N)
	for _, e := range g.Edges {
		adj[e.From] = append(adj[e.From], e.To)
		adj[e.To] = append(adj[e.To], e.From)
	}
	for i, a := range adj {
		// Directed graphs may hold both i→j and j→i: merge them.
		slices.Sort(a)
		out := a[:0]
		for _, v := range a {
			if len(out) == 0 || out[len(out)-1] != v {
				out = append(out, v)
			}
		}
		adj[i] = out
	}
	return adj
}

func isStar(adj [][]int) bool {
	if len(adj[0]) != len(adj)-1 {
		return false
	}
	for _, a := range adj[1:] {
		if len(a) != 1 {
			return false
		}
	}
	return true
}

func identity(n int) []int {
	o := make([]int, n)
	for i := range o {
		o[i] = i
	}
	return o
}

func endpoint(adj [][]int) int {
	for i, a := range adj {
		if len(a) == 1 {
			return i
		}
	}
	return 0
}

// walk follows a path or cycle (all degrees ≤ 2) from s.
func walk(adj [][]int, s int) []int {
	order := []int{s}
	prev, cur := -1, s
	for len(order) < len(adj) {
		next := -1
		for _, v := range adj[cur] {
			if v != prev && v != s {
				next = v
				break
			}
		}
		if next < 0 {
			break
		}
		order = append(order, next)
		prev, cur = cur, next
	}
	return order
}

// circle places the nodes listed in order on the circle inscribed in the
// margins; pos is indexed by the values of order.
func circle(pos [][2]float64, order []int) {
	r := 0.5 - LayoutMargin
	k := float64(len(order))
	for idx, v := range order {
		a := -math.Pi/2 + 2*math.Pi*float64(idx)/k
		pos[v] = [2]float64{0.5 + float64(r*math.Cos(a)), 0.5 + float64(r*math.Sin(a))}
	}
}

// fit scales pos uniformly (keeping the aspect ratio) and centres it in
// [LayoutMargin, 1−LayoutMargin]². Non-finite coordinates become the centre.
func fit(pos [][2]float64) {
	lo := [2]float64{math.Inf(1), math.Inf(1)}
	hi := [2]float64{math.Inf(-1), math.Inf(-1)}
	for i, p := range pos {
		for d := range 2 {
			if math.IsNaN(p[d]) || math.IsInf(p[d], 0) {
				pos[i][d] = 0.5
			}
			lo[d] = min(lo[d], pos[i][d])
			hi[d] = max(hi[d], pos[i][d])
		}
	}
	ext := max(hi[0]-lo[0], hi[1]-lo[1])
	s := 0.0
	if ext > 0 {
		s = (1 - 2*LayoutMargin) / ext
	}
	for i := range pos {
		for d := range 2 {
			c := float64((lo[d] + hi[d]) / 2)
			pos[i][d] = 0.5 + float64((pos[i][d]-c)*s)
		}
	}
}

// force runs a bounded Fruchterman–Reingold layout from a sunflower
// placement (node i at radius √(i/n), golden-angle steps), so it needs no
// random numbers. The pair loop is O(n²) per sweep; the number of sweeps
// shrinks with n so that n = 500 stays well under a second in a browser.
func force(pos [][2]float64, adj [][]int) {
	n := len(pos)
	golden := math.Pi * (3 - math.Sqrt(5))
	for i := range pos {
		r := math.Sqrt((float64(i) + 0.5) / float64(n))
		a := float64(i) * golden
		pos[i] = [2]float64{r * math.Cos(a), r * math.Sin(a)}
	}
	k := math.Sqrt(math.Pi / float64(n)) // ideal edge length in the unit disc
	iters := int(min(300, max(40, 1.5e7/float64(n*n))))
	disp := make([][2]float64, n)
	temp := 0.1
	cool := math.Pow(0.005/temp, 1/float64(iters))
	for range iters {
		for i := range disp {
			// Gravity towards the origin keeps components together.
			disp[i] = [2]float64{-0.05 * pos[i][0] / k, -0.05 * pos[i][1] / k}
		}
		for i := range n {
			for j := i + 1; j < n; j++ {
				dx, dy := pos[i][0]-pos[j][0], pos[i][1]-pos[j][1]
				d2 := float64(dx*dx) + float64(dy*dy)
				if d2 < 1e-12 {
					// Coincident nodes: push apart along a fixed direction.
					dx, dy, d2 = 1e-6*float64(j-i), 1e-6, 1e-12
				}
				f := k * k / d2 // repulsion k²/d, as a factor on (dx, dy)/d
				disp[i][0] += float64(dx * f)
				disp[i][1] += float64(dy * f)
				disp[j][0] -= float64(dx * f)
				disp[j][1] -= float64(dy * f)
			}
		}
		for i, a := range adj {
			for _, j := range a {
				if j <= i {
					continue
				}
				dx, dy := pos[i][0]-pos[j][0], pos[i][1]-pos[j][1]
				d := math.Sqrt(float64(dx*dx) + float64(dy*dy))
				f := d / k // attraction d²/k, as a factor on (dx, dy)/d
				disp[i][0] -= float64(dx * f)
				disp[i][1] -= float64(dy * f)
				disp[j][0] += float64(dx * f)
				disp[j][1] += float64(dy * f)
			}
		}
		for i := range pos {
			dx, dy := disp[i][0], disp[i][1]
			d := math.Sqrt(float64(dx*dx) + float64(dy*dy))
			if d > 0 {
				s := min(d, temp) / d
				pos[i][0] += float64(dx * s)
				pos[i][1] += float64(dy * s)
			}
		}
		temp *= cool
	}
}
