package scene

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"dpsim/core/graph"
	"dpsim/core/sim"
)

// Snapshot is what a Model needs to draw a scenario's first frame without
// its run: the network and its layout, the plane or the allocation panel,
// and the latest recorded step's estimates, prices and active agents. The
// page's view program (wasm/view) decodes one written at build time
// (cmd/mkposter → posters/<preset>.snap) and draws the scenario at the
// canvas's real size before the simulator has loaded; it links neither
// the problem nor the algorithm.
type Snapshot struct {
	Graph  *graph.Graph
	Layout [][2]float64
	Plane  *Plane
	Alloc  *Allocation
	// Step holds Iter, Dim, Estimates, Prices and Active; it carries no
	// releases (a snapshot is taken before any message is sent).
	Step sim.Step
}

// SnapshotMaxEstimates is the most estimates a snapshot keeps for a model
// without a plane or an allocation panel, where they only colour a large
// network's nodes by their spread: a larger problem's snapshot keeps
// none, and draws every node at the median spread. A small network's
// picture does not use them, and its snapshot keeps none either.
const SnapshotMaxEstimates = 1 << 16

// SnapshotOf returns m's snapshot. It fails when m's latest step sent
// messages (a snapshot holds none) or when m has recorded no step.
func SnapshotOf(m *Model) (*Snapshot, error) {
	if m.last == nil {
		return nil, errors.New("the model has recorded no step")
	}
	if len(m.last.Releases) > 0 {
		return nil, fmt.Errorf("iteration %d sent %d message(s); a snapshot holds none", m.iter, len(m.last.Releases))
	}
	s := &Snapshot{Graph: m.g, Layout: m.pos, Plane: m.plane, Alloc: m.alloc}
	s.Step.Iter, s.Step.Dim, s.Step.Prices = m.iter, m.dim, m.prices
	if m.plane != nil || m.alloc != nil || (m.Large() && len(m.est) <= SnapshotMaxEstimates) {
		s.Step.Estimates = m.est
	} else {
		s.Step.Dim = 0
	}
	if m.hasActive {
		s.Step.Active = []int{}
		for i, on := range m.active {
			if on {
				s.Step.Active = append(s.Step.Active, i)
			}
		}
	}
	return s, nil
}

// Model returns a model of the snapshot with its step recorded, paused
// (Hold) as the simulator's first frame is.
func (s *Snapshot) Model() *Model {
	m := newModelAt(s.Graph, s.Layout, s.Plane)
	m.SetAllocation(s.Alloc)
	m.Hold = true
	m.Record(&s.Step)
	return m
}

// snapshotMagic starts every encoded snapshot; the digit is the format's
// version.
const snapshotMagic = "dpsim-snapshot/1\n"

// MarshalBinary encodes the snapshot: uvarints for counts and integers,
// little-endian float64 bits for numbers (exact), so that the view's
// picture is the simulator's to the bit.
func (s *Snapshot) MarshalBinary() ([]byte, error) {
	if s.Graph == nil || len(s.Layout) != s.Graph.N {
		return nil, errors.New("a snapshot needs a graph and one layout point per node")
	}
	var w snapWriter
	w.b = append(w.b, snapshotMagic...)
	g := s.Graph
	w.uint(g.N)
	w.bool(g.Directed)
	w.uint(len(g.Edges))
	for _, e := range g.Edges {
		w.uint(e.From)
		w.uint(e.To)
	}
	for _, p := range s.Layout {
		w.float(p[0])
		w.float(p[1])
	}
	w.bool(s.Plane != nil)
	if p := s.Plane; p != nil {
		w.uint(len(p.Targets))
		for _, t := range p.Targets {
			w.float(t[0])
			w.float(t[1])
		}
		w.float(p.Optimum[0])
		w.float(p.Optimum[1])
		w.bool(p.HasOptimum)
	}
	w.bool(s.Alloc != nil)
	if a := s.Alloc; a != nil {
		w.uint(len(a.Generator))
		for _, on := range a.Generator {
			w.bool(on)
		}
		w.floats(a.Optimum)
		w.floats(a.Capacity)
		w.floats(a.Demand)
		w.float(a.Price)
		w.uint(len(a.Names))
		for _, n := range a.Names {
			w.str(n)
		}
		w.str(a.Unit)
	}
	st := &s.Step
	w.uint(st.Iter)
	w.uint(st.Dim)
	w.floats(st.Estimates)
	w.bool(st.Prices != nil)
	w.floats(st.Prices)
	w.bool(st.Active != nil)
	w.uint(len(st.Active))
	for _, i := range st.Active {
		w.uint(i)
	}
	return w.b, nil
}

// UnmarshalBinary decodes a snapshot written by MarshalBinary. Bad bytes
// give an error, never a panic or an allocation beyond the input's size.
func (s *Snapshot) UnmarshalBinary(data []byte) error {
	if len(data) < len(snapshotMagic) || string(data[:len(snapshotMagic)]) != snapshotMagic {
		return errors.New("snapshot: not a dpsim snapshot (version 1)")
	}
	r := snapReader{b: data[len(snapshotMagic):]}
	n := r.count(0)
	directed := r.bool()
	edges := make([]graph.Edge, r.count(2))
	for k := range edges {
		edges[k] = graph.Edge{From: r.count(0), To: r.count(0)}
	}
	if r.err != nil {
		return r.err
	}
	g, err := graph.New(n, edges, directed)
	if err != nil {
		return fmt.Errorf("snapshot: %w", err)
	}
	lay := make([][2]float64, r.fit(n, 16))
	for i := range lay {
		lay[i] = [2]float64{r.float(), r.float()}
	}
	var plane *Plane
	if r.bool() {
		plane = &Plane{Targets: make([][2]float64, r.count(16))}
		for i := range plane.Targets {
			plane.Targets[i] = [2]float64{r.float(), r.float()}
		}
		plane.Optimum = [2]float64{r.float(), r.float()}
		plane.HasOptimum = r.bool()
	}
	var alloc *Allocation
	if r.bool() {
		alloc = &Allocation{Generator: make([]bool, r.count(1))}
		for i := range alloc.Generator {
			alloc.Generator[i] = r.bool()
		}
		alloc.Optimum, alloc.Capacity, alloc.Demand = r.floats(), r.floats(), r.floats()
		alloc.Price = r.float()
		if k := r.count(1); k > 0 {
			alloc.Names = make([]string, k)
			for i := range alloc.Names {
				alloc.Names[i] = r.str()
			}
		}
		alloc.Unit = r.str()
		if r.err == nil && (len(alloc.Generator) != n || len(alloc.Optimum) != n || len(alloc.Capacity) != n || len(alloc.Demand) != n) {
			return fmt.Errorf("snapshot: the allocation panel is not one entry per node (%d nodes)", n)
		}
	}
	var st sim.Step
	st.Iter, st.Dim = r.count(0), r.count(0)
	st.Estimates = r.floats()
	if r.bool() {
		st.Prices = r.floats()
		if st.Prices == nil {
			st.Prices = []float64{}
		}
	} else {
		r.floats()
	}
	hasActive := r.bool()
	if k := r.count(1); hasActive {
		st.Active = make([]int, k)
		for i := range st.Active {
			st.Active[i] = r.count(0)
		}
	}
	if r.err != nil {
		return r.err
	}
	if len(r.b) != 0 {
		return fmt.Errorf("snapshot: %d byte(s) after the end", len(r.b))
	}
	if plane != nil && len(plane.Targets) != n {
		return fmt.Errorf("snapshot: %d plane targets for %d nodes", len(plane.Targets), n)
	}
	if st.Dim > 0 && len(st.Estimates) != 0 && len(st.Estimates) != n*st.Dim {
		return fmt.Errorf("snapshot: %d estimates for %d nodes of dimension %d", len(st.Estimates), n, st.Dim)
	}
	for _, i := range st.Active {
		if i >= n {
			return fmt.Errorf("snapshot: active agent %d of %d", i, n)
		}
	}
	*s = Snapshot{Graph: g, Layout: lay, Plane: plane, Alloc: alloc, Step: st}
	return nil
}

type snapWriter struct{ b []byte }

func (w *snapWriter) uint(v int) { w.b = binary.AppendUvarint(w.b, uint64(v)) }
func (w *snapWriter) float(v float64) {
	w.b = binary.LittleEndian.AppendUint64(w.b, math.Float64bits(v))
}
func (w *snapWriter) bool(v bool) {
	if v {
		w.b = append(w.b, 1)
	} else {
		w.b = append(w.b, 0)
	}
}
func (w *snapWriter) floats(v []float64) {
	w.uint(len(v))
	for _, x := range v {
		w.float(x)
	}
}
func (w *snapWriter) str(v string) {
	w.uint(len(v))
	w.b = append(w.b, v...)
}

// snapReader reads what snapWriter wrote; the first error sticks and
// every later read returns zero.
type snapReader struct {
	b   []byte
	err error
}

var errSnapShort = errors.New("snapshot: truncated")

func (r *snapReader) fail(err error) {
	if r.err == nil {
		r.err = err
	}
	r.b = nil
}

// count reads a non-negative integer below 2^31; each item it counts
// takes at least size bytes (0: not a count), so that a bad count cannot
// allocate more than the input holds.
func (r *snapReader) count(size int) int {
	if r.err != nil {
		return 0
	}
	v, k := binary.Uvarint(r.b)
	if k <= 0 || v >= 1<<31 {
		r.fail(errSnapShort)
		return 0
	}
	r.b = r.b[k:]
	return r.fit(int(v), size)
}

// fit returns n when n items of size bytes can follow, 0 (and an error)
// otherwise.
func (r *snapReader) fit(n, size int) int {
	if r.err != nil {
		return 0
	}
	if size > 0 && n > len(r.b)/size {
		r.fail(errSnapShort)
		return 0
	}
	return n
}

func (r *snapReader) bool() bool {
	if r.err != nil || len(r.b) < 1 {
		r.fail(errSnapShort)
		return false
	}
	v := r.b[0]
	r.b = r.b[1:]
	if v > 1 {
		r.fail(fmt.Errorf("snapshot: a flag reads %d", v))
		return false
	}
	return v == 1
}

func (r *snapReader) float() float64 {
	if r.err != nil || len(r.b) < 8 {
		r.fail(errSnapShort)
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(r.b))
	r.b = r.b[8:]
	return v
}

func (r *snapReader) floats() []float64 {
	k := r.count(8)
	if k == 0 {
		return nil
	}
	out := make([]float64, k)
	for i := range out {
		out[i] = r.float()
	}
	return out
}

func (r *snapReader) str() string {
	k := r.count(1)
	if r.err != nil {
		return ""
	}
	s := string(r.b[:k])
	r.b = r.b[k:]
	return s
}
