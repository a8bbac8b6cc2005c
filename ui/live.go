package ui

import (
	"fmt"
	"math"
	"sort"

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

// Outcomes of a run that ended above its start (Live.Outcome).
const (
	// OutcomeWorse: the headline error ended above its start.
	OutcomeWorse = "worse"
	// OutcomeDiverged: it ended more than DivergedFactor times above its
	// start, or the estimates stopped being finite.
	OutcomeDiverged = "diverged"
)

// DivergedFactor is how many times its start a run's headline error
// must end above to read "diverged" rather than "worse than its start":
// six orders of magnitude is no noise floor but growth without bound.
const DivergedFactor = 1e6

// RoundingShare is the share of its start below which a squared error
// is floating-point rounding: 10⁴ units in the last place of the start's
// distance, squared ((10⁴·2⁻⁵²)² ≈ 4.9·10⁻²⁴).
const RoundingShare = 1e4 * 0x1p-52 * 1e4 * 0x1p-52

// Ends returns the headline metric at the first and at the latest point
// of s (NaN when it has none).
func (l *Live) Ends(s *metrics.Series) (start, end float64) {
	l.bind(s)
	n := s.Len()
	if n == 0 {
		return math.NaN(), math.NaN()
	}
	head := func(p metrics.Point) float64 {
		if l.stat != nil {
			return l.Stationarity(p)
		}
		return p.Optimality
	}
	return head(s.At(0)), head(s.At(n - 1))
}

// Outcome says how the headline error ended against its start: "" when
// not above it, OutcomeWorse, or OutcomeDiverged past DivergedFactor
// times the start; why says it with the numbers.
func (l *Live) Outcome(s *metrics.Series) (outcome, why string) {
	start, end := l.Ends(s)
	if !(start >= 0) || !(end > start) {
		return "", ""
	}
	name, _ := l.Headline()
	why = fmt.Sprintf("the %s error ended at %.3g, above its start %.3g (×%.3g)", name, end, start, end/start)
	if end > DivergedFactor*start {
		return OutcomeDiverged, why + ": it grew without bound"
	}
	return OutcomeWorse, why
}

// Status returns the run's status for the page (docs/bridge.md):
// "diverged" with the error (or the growth of the headline error, by
// Outcome), "stopped" with the stop rule's reason, "worse" (the run
// ended above its start, with the numbers), "done", "running", "ready"
// (iteration 0) or "paused".
func Status(run *runner.Runner, running bool, l *Live) (status, reason string) {
	switch err := run.Err(); {
	case err != nil:
		return "diverged", err.Error()
	case run.Stopped() != "":
		return "stopped", run.Stopped()
	case run.Done():
		if o, why := l.Outcome(&run.Metrics.Series); o != "" {
			return o, why
		}
		return "done", ""
	case running:
		return "running", ""
	case run.Iter() == 0:
		return "ready", ""
	}
	return "paused", ""
}

// NoiseWarning says whether the privacy noise, not the algorithm, sets
// what the run reaches, comparing the headline error own of the run
// with the noise-free ghost's at the same iteration it (≥ 20): "" when
// own is within 100× of the ghost's. The ghost is compared with only
// where its error is above floor (floating-point rounding, RoundingShare
// of the start): below, a ratio would be one of rounding errors (the
// landing's 1.6·10²⁴×), and the warning says the ghost reached rounding.
func NoiseWarning(headline string, it int, own, ghost, floor float64) string {
	if it < 20 || !(own > 0) || !(ghost >= 0) || math.IsInf(own, 0) {
		return ""
	}
	what := fmt.Sprintf("its %s error (%.4g)", headline, own)
	if ghost > floor {
		if !(own > 100*ghost) {
			return ""
		}
		return fmt.Sprintf("This run is dominated by its noise: %s is %.4g× the noise-free run's (%.4g, the faint curve) at iteration %d. "+
			"The noise, not the algorithm, sets what it reaches: a larger ε (or no calibration) shows the algorithm at work.", what, own/ghost, ghost, it)
	}
	if !(own > 100*floor) {
		return ""
	}
	return fmt.Sprintf("This run is dominated by its noise: %s at iteration %d, while the noise-free run (the faint curve) has reached floating-point rounding "+
		"(%.3g, below %.3g), so no ratio between the two means anything. A larger ε (or no calibration) brings the run closer to it.", what, it, ghost, floor)
}

// NoiseAt returns the iteration the ghost g has reached (the latest the
// run s recorded at or before it) with the run's and the ghost's
// headline errors there; it is −1 when there is none yet.
func (l *Live) NoiseAt(s *metrics.Series, g *Ghost) (it int, own, ghost float64) {
	if g == nil {
		return -1, math.NaN(), math.NaN()
	}
	return l.noiseAt(s, g.Iter(), func(it float64) float64 { return g.At([]float64{it}, l.stat != nil)[0] })
}

// noiseAt is NoiseAt for a ghost that has reached iteration gi and whose
// headline error at an iteration is at (a Worker's: ui/remote.go).
func (l *Live) noiseAt(s *metrics.Series, gi int, at func(float64) float64) (it int, own, ghost float64) {
	if s.Len() == 0 {
		return -1, math.NaN(), math.NaN()
	}
	l.bind(s)
	n := s.Len()
	iterAt := func(j int) int { return s.At(j).Iter }
	if n == len(s.Iter) { // in memory, as on the page: no Point per probe
		iterAt = func(j int) int { return s.Iter[j] }
	}
	// The last point at or before the ghost's iteration (the run's points
	// are in iteration order; the ghost lags).
	k := sort.Search(n, func(j int) bool { return iterAt(j) > gi }) - 1
	if k < 0 {
		return -1, math.NaN(), math.NaN()
	}
	p := s.At(k)
	own = p.Optimality
	if l.stat != nil {
		own = l.Stationarity(p)
	}
	return p.Iter, own, at(float64(p.Iter))
}
