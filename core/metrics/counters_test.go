package metrics

import (
	"encoding/json"
	"math"
	"slices"
	"testing"

	"dpsim/core/sim"
)

// Counters count per-link messages, releases and activations; a step
// without Active activates everyone, the initial step nobody.
func TestCounters(t *testing.T) {
	c := NewCounters(3)
	rel := func(from int, to ...int) sim.Release { return sim.Release{From: from, To: to} }
	for _, s := range []sim.Step{
		{Iter: 0},
		{Iter: 1, Releases: []sim.Release{rel(0, 1, 2), rel(1, 0), rel(2, 0, 1)}},
		{Iter: 2, Releases: []sim.Release{rel(2, 0)}, Active: []int{2}},
		{Iter: 3, Releases: []sim.Release{rel(2, 1)}, Active: []int{2}},
		{Iter: 4, Active: []int{}},
	} {
		c.Add(&s)
	}
	if a, n := c.MaxActivations(); a != 2 || n != 3 {
		t.Errorf("MaxActivations before Sync: agent %d, %d", a, n)
	}
	d := c.Clone()
	if !slices.Equal(d.Activations, []int64{1, 1, 3}) || d.Messages != 7 || d.Releases != 5 {
		t.Errorf("counters %+v; want activations [1 1 3], 7 messages, 5 releases", d)
	}
	if a, n := NewCounters(2).MaxActivations(); a != 0 || n != 0 {
		t.Errorf("ties go to the lowest agent: %d, %d", a, n)
	}
}

// Float writes a finite value as encoding/json writes a float64, NaN as
// null and ±Inf as "Inf" and "-Inf", and reads each back (issue 28: an
// infinity written as null came back as NaN).
func TestFloatJSON(t *testing.T) {
	for _, v := range []float64{0, 1e-7, 1.5, 3e21, -2.25e-300} {
		a, _ := json.Marshal(Float(v))
		b, _ := json.Marshal(v)
		if string(a) != string(b) {
			t.Errorf("%v: %s, encoding/json %s", v, a, b)
		}
	}
	for _, c := range []struct {
		v    float64
		text string
	}{{math.Inf(-1), `"-Inf"`}, {math.Inf(1), `"Inf"`}, {math.NaN(), "null"}} {
		b, err := json.Marshal(Float(c.v))
		if err != nil || string(b) != c.text {
			t.Errorf("%v: %s, %v; want %s", c.v, b, err, c.text)
		}
		var f Float
		if err := json.Unmarshal(b, &f); err != nil || !sameFloat(float64(f), c.v) {
			t.Errorf("%s read as %v, %v", b, f, err)
		}
	}
	var f Float
	if err := json.Unmarshal([]byte(`"NaN"`), &f); err == nil {
		t.Error(`"NaN" was read`)
	}
}

// sameFloat reports whether a and b are the same number, NaN equal to NaN.
func sameFloat(a, b float64) bool { return a == b || (math.IsNaN(a) && math.IsNaN(b)) }
