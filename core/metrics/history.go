package metrics

import "math"

// History is a bounded, decimated copy of a metrics series for live
// plots: however long the run, it holds at most 2·Buckets points per
// series. Each bucket covers a run of consecutive points and keeps, per
// series, its minimum and maximum in the order they occurred (min/max
// decimation), so spikes survive; when the buckets are full, neighbours
// merge pairwise and every bucket covers twice as many points.
type History struct {
	buckets []bucket
	max     int
	width   int // points per full bucket
	points  int // points added
	// Revision counts changes, so a page can skip unchanged redraws.
	Revision int
}

// Series indexes the decimated quantities.
const (
	seriesOptimality = iota
	seriesConsensus
	seriesObjective
	nSeries
)

type extreme struct {
	lo, hi         float64 // min and max of the finite values, NaN if none
	loIter, hiIter int
}

type bucket struct {
	first, last int // iterations covered
	n           int // points in the bucket
	s           [nSeries]extreme
}

// NewHistory returns an empty history of at most 2·buckets points per
// series (buckets ≥ 2, rounded up to even).
func NewHistory(buckets int) *History {
	buckets = max(2, buckets+buckets%2)
	return &History{max: buckets, width: 1}
}

// Len returns the number of points added so far.
func (h *History) Len() int { return h.points }

// Add appends one point.
func (h *History) Add(p Point) {
	h.points++
	h.Revision++
	vals := [nSeries]float64{p.Optimality, p.Consensus, p.Objective}
	if n := len(h.buckets); n > 0 && h.buckets[n-1].n < h.width {
		b := &h.buckets[n-1]
		b.last, b.n = p.Iter, b.n+1
		for k, v := range vals {
			b.s[k].add(v, p.Iter)
		}
		return
	}
	if len(h.buckets) == h.max {
		h.halve()
	}
	b := bucket{first: p.Iter, last: p.Iter, n: 1}
	for k, v := range vals {
		b.s[k] = extreme{lo: math.NaN(), hi: math.NaN()}
		b.s[k].add(v, p.Iter)
	}
	h.buckets = append(h.buckets, b)
}

func (e *extreme) add(v float64, it int) {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return
	}
	if math.IsNaN(e.lo) || v < e.lo {
		e.lo, e.loIter = v, it
	}
	if math.IsNaN(e.hi) || v > e.hi {
		e.hi, e.hiIter = v, it
	}
}

func (e *extreme) merge(o extreme) {
	if !math.IsNaN(o.lo) {
		e.add(o.lo, o.loIter)
	}
	if !math.IsNaN(o.hi) {
		e.add(o.hi, o.hiIter)
	}
}

// halve merges the buckets pairwise and doubles the width.
func (h *History) halve() {
	out := h.buckets[:0]
	for i := 0; i < len(h.buckets); i += 2 {
		b := h.buckets[i]
		if i+1 < len(h.buckets) {
			o := h.buckets[i+1]
			b.last, b.n = o.last, b.n+o.n
			for k := range b.s {
				b.s[k].merge(o.s[k])
			}
		}
		out = append(out, b)
	}
	h.buckets = out
	h.width *= 2
}

// Points returns the decimated series for plotting: two points per bucket
// (one for a bucket of a single point), at the bucket's first and last
// iteration, holding the bucket's extremes in the order they occurred. A series without a
// finite value in a bucket gets NaN there. The slices are new.
func (h *History) Points() (iter []float64, optimality, consensus, objective []float64) {
	var ys [nSeries][]float64
	for _, b := range h.buckets {
		if b.n == 1 {
			iter = append(iter, float64(b.first))
			for k := range ys {
				ys[k] = append(ys[k], b.s[k].lo)
			}
			continue
		}
		// The x positions are the bucket's ends; each series places its
		// earlier extreme at the first and its later one at the second.
		iter = append(iter, float64(b.first), float64(b.last))
		for k := range ys {
			e := b.s[k]
			a, c := e.lo, e.hi
			if e.hiIter < e.loIter {
				a, c = c, a
			}
			ys[k] = append(ys[k], a, c)
		}
	}
	return iter, ys[seriesOptimality], ys[seriesConsensus], ys[seriesObjective]
}
