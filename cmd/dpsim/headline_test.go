package main

import (
	"math"
	"testing"

	"dpsim/core/metrics"
)

// TestHeadline: the run summary never prints a bare NaN for a problem
// without a known optimum; it names its stationarity instead.
func TestHeadline(t *testing.T) {
	for _, c := range []struct {
		p     metrics.Point
		extra []string
		want  string
	}{
		{metrics.Point{Optimality: 0.5}, nil, "optimality 0.5"},
		{metrics.Point{Optimality: math.NaN(), Extra: []float64{1, 2e-9}}, []string{"loss", metrics.ColStationarity}, "stationarity 2e-09 (no known optimum)"},
		{metrics.Point{Optimality: math.NaN()}, nil, "optimality — (no known optimum)"},
	} {
		if got := headline(c.p, c.extra); got != c.want {
			t.Errorf("headline(%+v, %v) = %q, want %q", c.p, c.extra, got, c.want)
		}
	}
}
