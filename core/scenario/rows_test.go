package scenario

import (
	"reflect"
	"strconv"
	"strings"
	"testing"

	"dpsim/core/graph"
	"dpsim/core/noise"
)

// Every list with one row per agent is bounded by graph.MaxAgents in its
// jsonstrict tag, so that a file with millions of rows is refused at row
// MaxAgents+1 while it is read, not after decoding it all.
func TestRowListsBoundedByMaxAgents(t *testing.T) {
	want := "max=" + strconv.Itoa(graph.MaxAgents)
	for _, c := range []struct {
		t     reflect.Type
		field string
	}{
		{reflect.TypeFor[Scenario](), "Init"},
		{reflect.TypeFor[Graph](), "Positions"},
		{reflect.TypeFor[Weights](), "Matrix"},
		{reflect.TypeFor[Samples](), "Order"},
		{reflect.TypeFor[noise.Spec](), "Scales"},
		{reflect.TypeFor[noise.Spec](), "Decays"},
	} {
		sf, ok := c.t.FieldByName(c.field)
		if !ok {
			t.Fatalf("%s has no field %s", c.t, c.field)
		}
		if got := sf.Tag.Get("jsonstrict"); got != want {
			t.Errorf("%s.%s: jsonstrict tag %q, want %q (graph.MaxAgents)", c.t, c.field, got, want)
		}
	}

	// Three million initial rows: refused at row 5001, naming the field.
	var b strings.Builder
	b.WriteString(`{"name": "big", "seed": 1, "iterations": 1, "graph": {"kind": "ring", "n": 8},
		"weights": {"kind": "metropolis"}, "problem": {"kind": "rendezvous"}, "algorithm": {"kind": "gt-dp"},
		"noise": {"eta": {"dist": "laplace", "scale": 0}, "xi": {"dist": "laplace", "scale": 0}}, "init": {"x": [`)
	for i := range 3_000_000 {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("[0.1,0.2]")
	}
	b.WriteString("]}}")
	_, err := Parse([]byte(b.String()))
	if err == nil || !strings.HasPrefix(err.Error(), "init.x") || !strings.Contains(err.Error(), "at most 5000 entries") {
		t.Errorf("3,000,000 rows of init.x: got %v, want a refusal of init.x at 5000 entries", err)
	}
}
