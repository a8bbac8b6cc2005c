package diadsp_test

import (
	"slices"
	"strings"
	"testing"

	"dpsim/core/runner/runnertest"
	"dpsim/core/scenario"
)

// TestInitTracker checks that init.y is read as the initial tracker:
// pinning the y_0 the algorithm derives (∇f_i(x_{i,0})) changes nothing
// and warns of nothing, and any other y_0 starts there and warns.
func TestInitTracker(t *testing.T) {
	plain := runnertest.Preset(t, "diadsp-fig2", func(s *scenario.Scenario) { s.Calibrate = nil })
	y0 := runnertest.State(plain.Algorithm, "y")
	n, d := plain.Env.Problem.Agents(), plain.Env.Problem.Dim()
	rows := func(v []float64) [][]float64 {
		r := make([][]float64, n)
		for i := range r {
			r[i] = v[i*d : (i+1)*d]
		}
		return r
	}
	for _, c := range []struct {
		name string
		y    []float64
		warn bool
	}{
		{"derived", y0, false},
		{"shifted", func() []float64 { v := slices.Clone(y0); v[0] += 1; return v }(), true},
	} {
		b := runnertest.Preset(t, "diadsp-fig2", func(s *scenario.Scenario) {
			s.Calibrate = nil
			s.Init = map[string][][]float64{"y": rows(c.y)}
		})
		if got := runnertest.State(b.Algorithm, "y"); !slices.Equal(got, c.y) {
			t.Errorf("%s: y_0 = %v, want the pinned %v", c.name, got, c.y)
		}
		warned := false
		for _, w := range b.Warnings {
			warned = warned || strings.HasPrefix(w.Field, "init.y")
		}
		if warned != c.warn {
			t.Errorf("%s: warned about init.y %v, want %v (%v)", c.name, warned, c.warn, b.Warnings)
		}
	}
}
