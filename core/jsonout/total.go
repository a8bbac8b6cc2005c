package jsonout

import (
	"encoding"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// Non-finite numbers. encoding/json refuses NaN and ±Inf ("json:
// unsupported value"), so a run that ends with one in a plain float64
// field — a ledger input that overflowed, say — used to end with nothing
// written. Marshal never fails on a number: when encoding/json refuses
// one, the value is encoded again through a copy whose float fields write
// NaN as null and ±Inf as the strings "Inf" and "-Inf", the convention of
// every dpsim export (metrics.Floats, the sweeps' experiment.FI; R, NumPy
// and pandas read those strings as numbers). A value without a
// non-finite number is encoded by encoding/json alone, byte for byte as
// before.

// float64Total is a float64 that encodes as encoding/json encodes a
// float64 when it is finite, NaN as null and ±Inf as "Inf" and "-Inf".
type float64Total float64

// MarshalJSON implements json.Marshaler.
func (f float64Total) MarshalJSON() ([]byte, error) {
	if b := nonFinite(float64(f)); b != nil {
		return b, nil
	}
	return json.Marshal(float64(f))
}

// float32Total is float64Total for a float32 (whose shortest form
// encoding/json writes).
type float32Total float32

// MarshalJSON implements json.Marshaler.
func (f float32Total) MarshalJSON() ([]byte, error) {
	if b := nonFinite(float64(f)); b != nil {
		return b, nil
	}
	return json.Marshal(float32(f))
}

// nonFinite is how a non-finite v is written, or nil for a finite one.
func nonFinite(v float64) []byte {
	switch {
	case math.IsNaN(v):
		return []byte("null")
	case math.IsInf(v, 1):
		return []byte(`"Inf"`)
	case math.IsInf(v, -1):
		return []byte(`"-Inf"`)
	}
	return nil
}

// isUnsupported reports whether err is encoding/json's refusal of a NaN
// or an infinity (or of another unsupported value), however wrapped.
func isUnsupported(err error) bool {
	var ue *json.UnsupportedValueError
	return errors.As(err, &ue)
}

// total returns a copy of v in which every float, in struct fields,
// lists, maps, pointers and interfaces, is a float64Total (encoding/json's
// bytes when finite; null, "Inf", "-Inf" otherwise), and ok. Values of types
// with their own MarshalJSON or MarshalText are kept as they are (they
// write their numbers themselves), and so is what lies deeper than
// maxDepth (a cycle): ok is then false.
func total(v any) (out any, ok bool) {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() {
		return v, true
	}
	p := planOf(rv.Type())
	if !p.walk {
		return v, true
	}
	c := &copier{ok: true}
	res := c.value(rv, p, 0)
	return res.Interface(), c.ok
}

// maxDepth bounds the nesting total follows, so a cyclic value cannot
// loop (encoding/json refuses cycles too, as unsupported values).
const maxDepth = 1000

// plan says how values of one type are copied.
type plan struct {
	to reflect.Type // the copy's type; the type itself when nothing changes
	// walk: values hold floats or interfaces, so they must be copied.
	walk bool
	// dynamic: the type refers to itself (a scenario's weights hold
	// weights by role), which reflect cannot build: the copy holds it in
	// an interface (to is `any`), planned by its own type at run time;
	// encoding/json writes an interface as the value in it, and a nil
	// one as a nil pointer, slice or map: null (or nothing, omitempty).
	dynamic bool
	fields  []fieldPlan // structs: the copy's fields
	elem    *plan       // pointers, slices, arrays, maps
}

// fieldPlan is one field of a struct's copy: where it is read in the
// original (an index path through embedded structs) and how it is copied.
type fieldPlan struct {
	index []int
	// viaPointer: the path crosses an embedded pointer, which may be nil
	// (encoding/json then omits the field); the copy's field is then a
	// pointer, nil where the original has none.
	viaPointer bool
	omitEmpty  bool
	plan       *plan
}

var (
	plans        sync.Map // reflect.Type → *plan
	marshalerT   = reflect.TypeFor[json.Marshaler]()
	textMarshalT = reflect.TypeFor[encoding.TextMarshaler]()
	floatT       = reflect.TypeFor[float64Total]()
	anyT         = reflect.TypeFor[any]()
	float32T     = reflect.TypeFor[float32Total]()
)

// planOf returns the plan of t.
func planOf(t reflect.Type) *plan {
	if p, ok := plans.Load(t); ok {
		return p.(*plan)
	}
	p := build(t, map[reflect.Type]bool{})
	plans.Store(t, p)
	return p
}

// selfMarshaled reports whether encoding/json hands t's values to their
// own methods.
func selfMarshaled(t reflect.Type) bool {
	if t.Kind() != reflect.Pointer {
		pt := reflect.PointerTo(t)
		if pt.Implements(marshalerT) || pt.Implements(textMarshalT) {
			return true
		}
	}
	return t.Implements(marshalerT) || t.Implements(textMarshalT)
}

// build makes t's plan; busy holds the types being built, so that a
// type met again inside itself is planned as dynamic rather than looping.
func build(t reflect.Type, busy map[reflect.Type]bool) *plan {
	same := &plan{to: t}
	if selfMarshaled(t) {
		return same
	}
	if busy[t] {
		return &plan{to: anyT, walk: true, dynamic: true}
	}
	busy[t] = true
	defer delete(busy, t)
	switch t.Kind() {
	case reflect.Float64:
		return &plan{to: floatT, walk: true}
	case reflect.Float32:
		return &plan{to: float32T, walk: true}
	case reflect.Interface:
		return &plan{to: t, walk: true}
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 {
			return same // []byte: base64
		}
		e := build(t.Elem(), busy)
		if e.dynamic {
			return e
		}
		if !e.walk {
			return same
		}
		p := &plan{walk: true, elem: e}
		switch t.Kind() {
		case reflect.Pointer:
			p.to = reflect.PointerTo(e.to)
		case reflect.Slice:
			p.to = reflect.SliceOf(e.to)
		case reflect.Array:
			p.to = reflect.ArrayOf(t.Len(), e.to)
		case reflect.Map:
			p.to = reflect.MapOf(t.Key(), e.to)
		}
		return p
	case reflect.Struct:
		return buildStruct(t, busy)
	}
	return same
}

// candidate is one JSON field of a struct, embedded structs flattened.
type candidate struct {
	name       string
	tagged     bool
	depth      int
	index      []int
	viaPointer bool
	tag        string // the options after the name
	typ        reflect.Type
}

// buildStruct plans a struct: its JSON fields as encoding/json finds them
// (embedded structs' fields promoted, by its rules of depth and tags), in
// a new struct type whose float fields are Floats.
func buildStruct(t reflect.Type, busy map[reflect.Type]bool) *plan {
	var cands []candidate
	collect(t, nil, 0, false, &cands, busy)
	// encoding/json's dominance: for each name, the shallowest fields;
	// among several, the one tagged; otherwise none.
	byName := map[string][]int{}
	for i, c := range cands {
		byName[c.name] = append(byName[c.name], i)
	}
	keep := make([]bool, len(cands))
	for _, idx := range byName {
		best := []int{}
		for _, i := range idx {
			switch {
			case len(best) == 0 || cands[i].depth < cands[best[0]].depth:
				best = []int{i}
			case cands[i].depth == cands[best[0]].depth:
				best = append(best, i)
			}
		}
		if len(best) > 1 {
			var tagged []int
			for _, i := range best {
				if cands[i].tagged {
					tagged = append(tagged, i)
				}
			}
			best = tagged
		}
		if len(best) == 1 {
			keep[best[0]] = true
		}
	}
	p := &plan{}
	var fields []reflect.StructField
	for i, c := range cands {
		if !keep[i] {
			continue
		}
		fp := build(c.typ, busy)
		p.walk = p.walk || fp.walk
		typ := fp.to
		if strings.Contains(c.tag, ",string") || strings.Contains(c.tag, ",omitzero") {
			// Kept as declared: ",string" quotes numbers, and ",omitzero"
			// may ask the type's own IsZero.
			fp, typ = &plan{to: c.typ}, c.typ
		}
		tag := c.tag
		if c.viaPointer {
			// nil where encoding/json omits the field (a nil embedded
			// pointer on the way, or omitempty of an empty value).
			typ, tag = reflect.PointerTo(typ), tag+",omitempty"
		}
		fields = append(fields, reflect.StructField{
			Name: "F" + strconv.Itoa(len(fields)),
			Type: typ,
			Tag:  reflect.StructTag(`json:"` + c.name + tag + `"`),
		})
		p.fields = append(p.fields, fieldPlan{index: c.index, viaPointer: c.viaPointer,
			omitEmpty: strings.Contains(c.tag, ",omitempty"), plan: fp})
	}
	if !p.walk {
		return &plan{to: t}
	}
	p.to = reflect.StructOf(fields)
	return p
}

// collect lists t's JSON fields into cands, following embedded structs
// (through pointers) as encoding/json does.
func collect(t reflect.Type, index []int, depth int, viaPtr bool, cands *[]candidate, busy map[reflect.Type]bool) {
	if depth > 16 {
		return
	}
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		opts = "," + opts // kept even when empty: `json:"-,"` names a field "-"
		idx := append(append([]int(nil), index...), i)
		if f.Anonymous {
			ft := f.Type
			ptr := ft.Kind() == reflect.Pointer
			if ptr {
				ft = ft.Elem()
			}
			if !f.IsExported() && ft.Kind() != reflect.Struct {
				continue
			}
			if name == "" && ft.Kind() == reflect.Struct && !selfMarshaled(f.Type) {
				collect(ft, idx, depth+1, viaPtr || ptr, cands, busy)
				continue
			}
		} else if !f.IsExported() {
			continue
		}
		tagged := name != ""
		if !tagged {
			name = f.Name
		}
		*cands = append(*cands, candidate{name: name, tagged: tagged, depth: depth, index: idx, viaPointer: viaPtr, tag: opts, typ: f.Type})
	}
}

// copier copies values by their plans.
type copier struct{ ok bool }

// value returns the copy of v (of a type planned by p).
func (c *copier) value(v reflect.Value, p *plan, depth int) reflect.Value {
	if depth > maxDepth {
		c.ok = false // a cycle: Marshal reports encoding/json's error
		return reflect.Zero(p.to)
	}
	if !p.walk {
		return v
	}
	if p.dynamic {
		out := reflect.New(p.to).Elem()
		switch v.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Map, reflect.Interface:
			if v.IsNil() {
				return out // null, as the nil value is written
			}
		}
		out.Set(c.value(v, planOf(v.Type()), depth+1))
		return out
	}
	switch v.Kind() {
	case reflect.Float64, reflect.Float32:
		out := reflect.New(p.to).Elem()
		out.SetFloat(v.Float())
		return out
	case reflect.Interface:
		if v.IsNil() {
			return v
		}
		inner := v.Elem()
		cp := c.value(inner, planOf(inner.Type()), depth+1)
		out := reflect.New(p.to).Elem()
		if cp.Type().AssignableTo(p.to) {
			out.Set(cp)
		} else {
			out.Set(inner)
		}
		return out
	case reflect.Pointer:
		if v.IsNil() {
			return reflect.Zero(p.to)
		}
		out := reflect.New(p.to.Elem())
		out.Elem().Set(c.value(v.Elem(), p.elem, depth+1))
		return out
	case reflect.Slice:
		if v.IsNil() {
			return reflect.Zero(p.to)
		}
		out := reflect.MakeSlice(p.to, v.Len(), v.Len())
		for i := range v.Len() {
			out.Index(i).Set(c.value(v.Index(i), p.elem, depth+1))
		}
		return out
	case reflect.Array:
		out := reflect.New(p.to).Elem()
		for i := range v.Len() {
			out.Index(i).Set(c.value(v.Index(i), p.elem, depth+1))
		}
		return out
	case reflect.Map:
		if v.IsNil() {
			return reflect.Zero(p.to)
		}
		out := reflect.MakeMapWithSize(p.to, v.Len())
		for it := v.MapRange(); it.Next(); {
			out.SetMapIndex(it.Key(), c.value(it.Value(), p.elem, depth+1))
		}
		return out
	case reflect.Struct:
		out := reflect.New(p.to).Elem()
		for k, f := range p.fields {
			src, present := v, true
			for _, i := range f.index {
				if src.Kind() == reflect.Pointer {
					if src.IsNil() {
						present = false
						break
					}
					src = src.Elem()
				}
				src = src.Field(i)
			}
			if !present || ((f.viaPointer || f.plan.dynamic) && f.omitEmpty && isEmpty(src)) {
				continue // encoding/json does not write the field
			}
			cp := c.value(src, f.plan, depth+1)
			dst := out.Field(k)
			if f.viaPointer {
				ptr := reflect.New(dst.Type().Elem())
				ptr.Elem().Set(cp)
				dst.Set(ptr)
				continue
			}
			dst.Set(cp)
		}
		return out
	}
	return v
}

// isEmpty is encoding/json's test for omitempty.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Interface, reflect.Pointer:
		return v.IsZero()
	}
	return false
}
