package weights

import (
	"math"
	"slices"
	"sync"

	"dpsim/core/graph"
)

// A sweep builds the same scenario thousands of times with different
// seeds; its weight matrix and graph do not change, and analysing them
// (eigenvalues, Perron vectors) would cost more than running a short run.
// AnalyzeShared remembers the reports of recent (matrix, graph) pairs.

// memoMaxNNZ bounds the matrices whose reports are remembered (by their
// stored entries): the key holds every entry, so bigger ones are analysed
// afresh, where the analysis dwarfs the key anyway.
const memoMaxNNZ = 1 << 14

// memoMaxEntries bounds the reports remembered; past it the memo is
// cleared and refilled.
const memoMaxEntries = 64

var (
	memoMu sync.Mutex
	memo   = map[uint64][]memoEntry{}
	memoN  int
)

// memoEntry is a remembered report with the inputs it is for, compared
// in full on a hash match (a hash alone could collide).
type memoEntry struct {
	m      *Matrix
	n      int
	dir    bool
	edges  []graph.Edge
	report Report
}

// AnalyzeShared returns Analyze(m, g), remembering the report of small
// matrices, so that equal inputs — every entry of m and every link of g,
// bit for bit — share one analysis. Looking a report up allocates
// nothing. The report's slices are shared between callers and must not
// be modified.
func AnalyzeShared(m *Matrix, g *graph.Graph) Report {
	m.valid()
	if len(m.Col) > memoMaxNNZ || m.N > MaxEigenN {
		return Analyze(m, g)
	}
	h := memoHash(m, g)
	memoMu.Lock()
	for _, e := range memo[h] {
		if e.matches(m, g) {
			memoMu.Unlock()
			return e.report
		}
	}
	memoMu.Unlock()
	r := Analyze(m, g)
	e := memoEntry{m: m.Clone(), report: r, n: -1}
	if g != nil {
		e.n, e.dir, e.edges = g.N, g.Directed, slices.Clone(g.Edges)
	}
	memoMu.Lock()
	if memoN >= memoMaxEntries {
		clear(memo)
		memoN = 0
	}
	memo[h] = append(memo[h], e)
	memoN++
	memoMu.Unlock()
	return r
}

func (e *memoEntry) matches(m *Matrix, g *graph.Graph) bool {
	if g == nil {
		if e.n != -1 {
			return false
		}
	} else if e.n != g.N || e.dir != g.Directed || !slices.Equal(e.edges, g.Edges) {
		return false
	}
	a := e.m
	return a.N == m.N && slices.Equal(a.Start, m.Start) && slices.Equal(a.Col, m.Col) &&
		bitsEqual(a.Diag, m.Diag) && bitsEqual(a.Val, m.Val)
}

// bitsEqual compares two float slices bit for bit (so that NaN equals
// itself and −0 differs from +0).
func bitsEqual(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}

// memoHash mixes m's layout and values and g's links (FNV-1a over 64-bit
// words).
func memoHash(m *Matrix, g *graph.Graph) uint64 {
	h := uint64(14695981039346656037)
	mix := func(v uint64) { h = (h ^ v) * 1099511628211 }
	mix(uint64(m.N))
	for _, v := range m.Diag {
		mix(math.Float64bits(v))
	}
	for _, v := range m.Start {
		mix(uint64(v))
	}
	for _, v := range m.Col {
		mix(uint64(v))
	}
	for _, v := range m.Val {
		mix(math.Float64bits(v))
	}
	if g != nil {
		mix(uint64(g.N))
		for _, e := range g.Edges {
			mix(uint64(e.From)<<32 | uint64(uint32(e.To)))
		}
	}
	return h
}
