package jsonout

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"
)

type Embedded struct {
	E      float64 `json:"e"`
	Shadow float64 // hidden by the outer Shadow
	Both   float64 `json:"both"`
}

type Other struct {
	Both float64 `json:"both"` // conflicts with Embedded.Both: both dropped
	O    float32
}

type hidden struct {
	H float64 `json:"h"`
}

type selfWritten struct{ v float64 }

func (s selfWritten) MarshalJSON() ([]byte, error) { return []byte(`"self"`), nil }

type ptrWritten struct{ v float64 }

func (s *ptrWritten) MarshalJSON() ([]byte, error) { return []byte(`"ptr"`), nil }

type sample struct {
	Embedded
	*Other
	hidden
	Shadow   float64            `json:"Shadow"`
	F        float64            `json:"f"`
	F32      float32            `json:"f32"`
	Omit     float64            `json:"omit,omitempty"`
	Str      float64            `json:"str,string"`
	Skip     float64            `json:"-"`
	Dash     float64            `json:"-,"`
	List     []float64          `json:"list"`
	Nil      []float64          `json:"nil"`
	Arr      [2]float64         `json:"arr"`
	Map      map[string]float64 `json:"map"`
	Ptr      *float64           `json:"ptr"`
	Any      any                `json:"any"`
	Anys     []any              `json:"anys"`
	Bytes    []byte             `json:"bytes"`
	Self     selfWritten        `json:"self"`
	PtrSelf  ptrWritten         `json:"ptr_self"`
	Rows     []struct{ X float64 }
	unexport float64
	Int      int `json:"int,omitempty"`
}

// fill returns a sample whose floats are v (finite or not) where a
// non-finite value may go.
func fill(v float64, other bool) *sample {
	p := v
	s := &sample{Embedded: Embedded{E: v, Shadow: 1, Both: 2}, hidden: hidden{H: v}, Shadow: v, F: v, F32: float32(v),
		Omit: v, Str: 3, Dash: v, List: []float64{1, v}, Arr: [2]float64{v, 4}, Map: map[string]float64{"b": v, "a": 5},
		Ptr: &p, Any: v, Anys: []any{v, "x", map[string]any{"k": v}}, Bytes: []byte("hi"), Rows: []struct{ X float64 }{{v}}}
	if other {
		s.Other = &Other{Both: 7, O: float32(v)}
	}
	return s
}

// The copy that writes non-finite numbers encodes a value without them
// exactly as encoding/json does: struct tags, omitempty, embedded fields
// (promoted, shadowed, conflicting, through a nil pointer), interfaces,
// maps, arrays, []byte and types that write themselves.
func TestTotalCopyIsEncodingJSON(t *testing.T) {
	for _, v := range []float64{0, 1.5, -2.5e-300, 1e21, 1e-7} {
		for _, other := range []bool{false, true} {
			for _, val := range []any{fill(v, other), *fill(v, other), []any{fill(v, other)}, map[string]*sample{"s": fill(v, other)}} {
				want, err := encode(val)
				if err != nil {
					t.Fatal(err)
				}
				c, ok := total(val)
				got, err := encode(c)
				if !ok || err != nil || !bytes.Equal(got, want) {
					t.Fatalf("%v (other %v, %T): ok %v, %v\ncopy:  %s\njson:  %s", v, other, val, ok, err, got, want)
				}
			}
		}
	}
}

// Marshal writes NaN as null and ±Inf as "Inf" and "-Inf" wherever a
// float is, instead of failing; the rest is the finite value's bytes.
func TestMarshalNonFinite(t *testing.T) {
	finite, err := Marshal(fill(9.75, true))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		v    float64
		text string
	}{{math.NaN(), "null"}, {math.Inf(1), `"Inf"`}, {math.Inf(-1), `"-Inf"`}} {
		if _, err := encode(fill(c.v, true)); err == nil {
			t.Fatal("encoding/json accepted a non-finite number")
		}
		got, err := Marshal(fill(c.v, true))
		if err != nil {
			t.Fatalf("%v: %v", c.v, err)
		}
		want := strings.ReplaceAll(string(finite), "9.75", c.text)
		if string(got) != want {
			t.Errorf("%v:\n got %s\nwant %s", c.v, got, want)
		}
		var buf bytes.Buffer
		if err := Encode(&buf, fill(c.v, true), "", " "); err != nil || !json.Valid(buf.Bytes()) || !strings.HasSuffix(buf.String(), "}\n") {
			t.Errorf("%v: Encode: %v %q", c.v, err, buf.String())
		}
	}
	// A bare number, and a cycle: still encoding/json's refusal.
	if b, err := Marshal(math.Inf(1)); err != nil || string(b) != `"Inf"` {
		t.Errorf("Inf: %s, %v", b, err)
	}
	type node struct {
		Next *node
		V    float64
	}
	n := &node{V: math.NaN()}
	n.Next = n
	if _, err := Marshal(n); err == nil {
		t.Error("a cycle was encoded")
	}
}

// tree refers to itself, as a scenario's weights do (by role).
type tree struct {
	V    float64 `json:"v"`
	Kids []tree  `json:"kids,omitempty"`
	Left *tree   `json:"left,omitempty"`
	Up   *tree   `json:"up"`
	Many []*tree `json:"many"`
}

// A recursive type is copied too, its nil and empty parts written as
// encoding/json writes them.
func TestTotalRecursive(t *testing.T) {
	mk := func(v float64) *tree {
		return &tree{V: v, Kids: []tree{{V: v, Kids: []tree{}}}, Left: &tree{V: 2, Many: []*tree{nil, {V: v}}}, Many: []*tree{}}
	}
	want, err := encode(mk(1.25))
	if err != nil {
		t.Fatal(err)
	}
	c, ok := total(mk(1.25))
	if got, err := encode(c); !ok || err != nil || !bytes.Equal(got, want) {
		t.Fatalf("copy %s, %v\njson %s", got, err, want)
	}
	got, err := Marshal(mk(math.Inf(1)))
	if err != nil || string(got) != strings.ReplaceAll(string(want), "1.25", `"Inf"`) {
		t.Fatalf("Inf: %s, %v", got, err)
	}
}
