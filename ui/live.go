package ui

import (
	"math"

	"dpsim/core/metrics"
	"dpsim/core/runner"
	"dpsim/core/scenario"
)

// Live is what the page's live plot and readout show of one run: the
// decimated history of its metrics and which metric is the headline.
// It holds no syscall/js, so that it is tested natively.
//
// A problem without a known optimum records no ‖x − x*‖ (its optimality
// is NaN) but a stationarity column (metrics.ColStationarity): that is
// then the headline, and Desc.Note says why.
type Live struct {
	// Desc says what the metrics are for this problem and algorithm
	// (metrics.Describe).
	Desc metrics.Description
	// statCol is the index of the stationarity column among the series'
	// extra columns, −1 when it is not recorded.
	statCol int
	hist    *metrics.History
	// stat decimates the stationarity column in its optimality slot:
	// metrics.History keeps three quantities, and fed the same points it
	// keeps the same buckets, so both histories share one iteration axis.
	stat *metrics.History
	from int // next series index to feed
}

// HistoryBuckets bounds the live plot's history: at most twice this many
// points per series reach the page, however long the run.
const HistoryBuckets = 1024

// Headline names of the plot's first curve (Live.Headline).
const (
	HeadlineOptimality   = "optimality"
	HeadlineStationarity = "stationarity"
)

// NewLive returns the live view of a run of b, with a history of at most
// 2·buckets points per series.
func NewLive(b *scenario.Built, buckets int) *Live {
	return newLiveOf(metrics.Describe(b.Env.Problem, b.Factory.Output != ""), buckets)
}

// newLiveOf is NewLive from the metrics' description (a run in a Worker:
// ui/remote.go).
func newLiveOf(desc metrics.Description, buckets int) *Live {
	l := &Live{
		Desc:    desc,
		statCol: -1,
		hist:    metrics.NewHistory(buckets),
	}
	if l.Desc.Stationarity != "" {
		l.stat = metrics.NewHistory(buckets)
	}
	return l
}

// bind finds the stationarity column in s, once the recorder has named
// its columns.
func (l *Live) bind(s *metrics.Series) {
	if l.stat == nil || l.statCol >= 0 {
		return
	}
	for k, n := range s.ExtraNames {
		if n == metrics.ColStationarity {
			l.statCol = k
		}
	}
}

// Feed adds the points of s recorded since the last call.
func (l *Live) Feed(s *metrics.Series) {
	l.bind(s)
	for ; l.from < s.Len(); l.from++ {
		p := s.At(l.from)
		l.hist.Add(p)
		if l.stat != nil {
			l.stat.Add(metrics.Point{Iter: p.Iter, Optimality: l.Stationarity(p),
				Consensus: math.NaN(), Objective: math.NaN()})
		}
	}
}

// Revision changes whenever the history does.
func (l *Live) Revision() int { return l.hist.Revision }

// Stationarity returns p's stationarity, NaN when it is not recorded.
func (l *Live) Stationarity(p metrics.Point) float64 {
	if l.statCol < 0 || l.statCol >= len(p.Extra) {
		return math.NaN()
	}
	return p.Extra[l.statCol]
}

// Headline returns which metric the plot draws first and what it is, in
// symbols: stationarity for a problem without a known optimum,
// optimality otherwise.
func (l *Live) Headline() (name, label string) {
	if l.Desc.Stationarity != "" {
		return HeadlineStationarity, l.Desc.Stationarity
	}
	return HeadlineOptimality, l.Desc.Optimality
}

// Points returns the decimated history: the iterations, then one value
// per iteration for each metric; stationarity is nil when it is not
// recorded. The slices are new.
func (l *Live) Points() (iter, optimality, consensus, objective, stationarity []float64) {
	iter, optimality, consensus, objective = l.hist.Points()
	if l.stat != nil {
		_, stationarity, _, _ = l.stat.Points()
	}
	return iter, optimality, consensus, objective, stationarity
}

// StationarityColumn returns the stationarity of the points of s from
// index from on, nil when it is not recorded.
func (l *Live) StationarityColumn(s *metrics.Series, from int) []float64 {
	l.bind(s)
	if l.stat == nil || l.statCol < 0 {
		return nil
	}
	var out []float64
	for i := from; i < s.Len(); i++ {
		out = append(out, l.Stationarity(s.At(i)))
	}
	return out
}

// Status returns the run's status for the page (docs/bridge.md):
// "diverged" with the error, "stopped" with the stop rule's reason,
// "done", "running", "ready" (iteration 0) or "paused".
func Status(run *runner.Runner, running bool) (status, reason string) {
	switch err := run.Err(); {
	case err != nil:
		return "diverged", err.Error()
	case run.Stopped() != "":
		return "stopped", run.Stopped()
	case run.Done():
		return "done", ""
	case running:
		return "running", ""
	case run.Iter() == 0:
		return "ready", ""
	}
	return "paused", ""
}
