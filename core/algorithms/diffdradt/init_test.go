package diffdradt_test

import (
	"slices"
	"strings"
	"testing"

	"dpsim/core/runner/runnertest"
	"dpsim/core/scenario"
)

// TestInitStates checks that every state variable a pinned export writes
// is read back with its meaning: pinning the derived w_0 and y_0 changes
// nothing and warns of nothing; a pinned w_0 is the starting allocation
// (y_0 follows it as d − w_0); a y_0 off the supply–demand gap warns.
func TestInitStates(t *testing.T) {
	plain := runnertest.Preset(t, "diffdradt-ieee14", nil)
	n := plain.Env.Problem.Agents()
	col := func(v []float64) [][]float64 {
		r := make([][]float64, n)
		for i := range r {
			r[i] = v[i : i+1]
		}
		return r
	}
	w0, y0 := runnertest.State(plain.Algorithm, "w"), runnertest.State(plain.Algorithm, "y")
	shifted := slices.Clone(w0)
	shifted[0] += 5
	for _, c := range []struct {
		name   string
		init   map[string][][]float64
		w, y   []float64
		warnsY bool
	}{
		{"derived", map[string][][]float64{"w": col(w0), "y": col(y0)}, w0, y0, false},
		{"allocation", map[string][][]float64{"w": col(shifted)}, shifted,
			func() []float64 { v := slices.Clone(y0); v[0] -= 5; return v }(), false},
		{"tracker off the gap", map[string][][]float64{"y": col(shifted)}, w0, shifted, true},
	} {
		b := runnertest.Preset(t, "diffdradt-ieee14", func(s *scenario.Scenario) { s.Init = c.init })
		if got := runnertest.State(b.Algorithm, "w"); !slices.Equal(got, c.w) {
			t.Errorf("%s: w_0 = %v, want %v", c.name, got, c.w)
		}
		if got := runnertest.State(b.Algorithm, "y"); !slices.Equal(got, c.y) {
			t.Errorf("%s: y_0 = %v, want %v", c.name, got, c.y)
		}
		warned := false
		for _, w := range b.Warnings {
			warned = warned || strings.HasPrefix(w.Field, "init.y")
		}
		if warned != c.warnsY {
			t.Errorf("%s: warned about init.y %v, want %v", c.name, warned, c.warnsY)
		}
	}
}
