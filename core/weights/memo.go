package weights

import (
	"encoding/binary"
	"math"
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
	memo   = map[string]Report{}
)

// AnalyzeShared returns Analyze(m, g), remembering the report of small
// matrices under a key made of every entry of m and every link of g, so
// that equal inputs — bit for bit — share one analysis. The report's
// slices are shared between callers and must not be modified.
func AnalyzeShared(m *Matrix, g *graph.Graph) Report {
	m.valid()
	if len(m.Col) > memoMaxNNZ || m.N > MaxEigenN {
		return Analyze(m, g)
	}
	k := memoKey(m, g)
	memoMu.Lock()
	r, ok := memo[k]
	memoMu.Unlock()
	if ok {
		return r
	}
	r = Analyze(m, g)
	memoMu.Lock()
	if len(memo) >= memoMaxEntries {
		clear(memo)
	}
	memo[k] = r
	memoMu.Unlock()
	return r
}

// memoKey encodes m's layout and values and g's links exactly.
func memoKey(m *Matrix, g *graph.Graph) string {
	n := 8 * (3 + len(m.Diag) + len(m.Start) + 2*len(m.Col))
	if g != nil {
		n += 8 * (2 + 2*len(g.Edges))
	}
	b := make([]byte, 0, n)
	u := func(v uint64) { b = binary.LittleEndian.AppendUint64(b, v) }
	u(uint64(m.N))
	for _, v := range m.Diag {
		u(math.Float64bits(v))
	}
	for _, v := range m.Start {
		u(uint64(v))
	}
	for _, v := range m.Col {
		u(uint64(v))
	}
	for _, v := range m.Val {
		u(math.Float64bits(v))
	}
	if g == nil {
		u(math.MaxUint64)
		return string(b)
	}
	u(uint64(g.N))
	if g.Directed {
		u(1)
	} else {
		u(0)
	}
	for _, e := range g.Edges {
		u(uint64(e.From))
		u(uint64(e.To))
	}
	return string(b)
}
