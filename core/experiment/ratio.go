package experiment

import (
	"math"
	"slices"

	"dpsim/core/metrics"
)

// ErrorRatio is the metric "error_ratio": a run's headline error — the
// optimality error, or the stationarity where the problem has no known
// optimum (the curve the page plots first) — divided by its own value at
// iteration 0. "The run learns" reads error_ratio ≤ 0.1 at its last
// iteration: the tour's criterion (docs/tour.md), on every problem alike.
const ErrorRatio = "error_ratio"

func init() {
	RegisterMetric(MetricDef{Name: ErrorRatio,
		Title: "the headline error (optimality; stationarity where the problem has no known optimum) divided by its value at iteration 0",
		Curve: errorRatio})
}

// errorRatio is ErrorRatio's curve: NaN throughout when the start's
// error is 0 or not a number (there is nothing to learn from).
func errorRatio(r *Run) ([]int, []float64) {
	iters, vals := metricDef("optimality").Curve(r)
	if len(vals) == 0 || math.IsNaN(vals[0]) {
		// No known optimum: the stationarity column stands for it.
		iters, vals = columnMetric(metrics.ColStationarity, "").Curve(r)
	}
	vals = slices.Clone(vals)
	start := math.NaN()
	if len(vals) > 0 && iters[0] == 0 {
		start = vals[0]
	}
	for i := range vals {
		if start > 0 && !math.IsInf(start, 0) {
			vals[i] /= start
		} else {
			vals[i] = math.NaN()
		}
	}
	return iters, vals
}
