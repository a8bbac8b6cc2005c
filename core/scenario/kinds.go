package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"dpsim/core/check"
	"dpsim/core/graph"
	"dpsim/core/param"
	"dpsim/core/weights"
)

// described is a registry of described kinds (graph kinds, weight
// builders) in the order they were registered, which is the order the
// error messages and `dpsim plugins` list them in.
type described[K any] struct {
	names  []string
	byName map[string]*K
}

// describe registers ks under their names; a name given twice is a
// programming error caught at start-up (and by TestRegistriesRefuseDuplicates).
func describe[K any](name func(*K) string, ks ...*K) described[K] {
	r := described[K]{byName: map[string]*K{}}
	for _, k := range ks {
		n := name(k)
		if _, dup := r.byName[n]; dup || n == "" {
			panic(fmt.Sprintf("scenario: the kind %q is registered twice (or has no name)", n))
		}
		r.names = append(r.names, n)
		r.byName[n] = k
	}
	return r
}

func (r described[K]) all() []*K {
	out := make([]*K, len(r.names))
	for i, n := range r.names {
		out[i] = r.byName[n]
	}
	return out
}

func graphKind(k *graph.Kind) string          { return k.Name }
func weightBuilder(b *weights.Builder) string { return b.Name }

// GraphKinds returns the graph kinds a scenario may name, described, in
// the order registry.go lists them.
func GraphKinds() []*graph.Kind { return graphKinds.all() }

// WeightKinds returns the weight builders a scenario may name, described,
// in the order registry.go lists them.
func WeightKinds() []*weights.Builder { return weightBuilders.all() }

// Keys that a section may hold whatever its kind: they are read by the
// scenario itself. Random graph kinds declare tries themselves.
var (
	graphCommonKeys   = []string{"kind", "positions"}
	weightsCommonKeys = []string{"kind", "pull", "push"}
)

// recordKeys notes in s which keys its graph and weights sections (and
// the weights' role sections) give in data, a text that jsonstrict has
// accepted as s, so that a key given with its zero value ("radius": 0)
// counts as given although the flat struct cannot tell it from an absent
// one. It walks the text once without decoding values: a pinned export
// holds megabytes of weight entries.
func (s *Scenario) recordKeys(data []byte) {
	d := bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	i := skipSpace(d, 0)
	if i >= len(d) || d[i] != '{' {
		return
	}
	eachKey(d, i, func(key string, v int) {
		switch key {
		case "graph":
			s.Graph.given = keysOf(d, v, nil)
		case "record":
			s.Record.given = keysOf(d, v, nil)
		case "stop":
			if s.Stop != nil {
				s.Stop.given = keysOf(d, v, nil)
			}
		case "weights":
			s.Weights.given = keysOf(d, v, func(role string, rv int) {
				if sec := s.Weights.Role(role); sec != nil {
					sec.given = keysOf(d, rv, nil)
				}
			})
		}
	})
}

// keysOf returns the keys of the object at d[v] (nil if it is not an
// object), calling each, if not nil, with every key and where its value
// starts.
func keysOf(d []byte, v int, each func(key string, at int)) []string {
	if v >= len(d) || d[v] != '{' {
		return nil
	}
	keys := []string{}
	eachKey(d, v, func(key string, at int) {
		keys = append(keys, key)
		if each != nil {
			each(key, at)
		}
	})
	return keys
}

// eachKey calls f with every key of the valid JSON object at d[i] and
// the index where its value starts; it returns the index after the
// object.
func eachKey(d []byte, i int, f func(key string, at int)) int {
	i++ // '{'
	for {
		i = skipSpace(d, i)
		if i >= len(d) || d[i] == '}' {
			return i + 1
		}
		end := skipString(d, i)
		if d[i] != '"' || end-1 <= i {
			return len(d) // not reached: the text is valid JSON
		}
		key := string(d[i+1 : end-1])
		if bytes.IndexByte(d[i:end], '\\') >= 0 {
			// An escaped key ("\u006e"): rare, so decoded the slow way.
			if err := json.Unmarshal(d[i:end], &key); err != nil {
				return len(d)
			}
		}
		i = skipSpace(d, end)
		i = skipSpace(d, i+1) // ':'
		f(key, i)
		i = skipSpace(d, skipValue(d, i))
		if i < len(d) && d[i] == ',' {
			i++
		}
	}
}

func skipSpace(d []byte, i int) int {
	for i < len(d) && (d[i] == ' ' || d[i] == '\t' || d[i] == '\n' || d[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index after the string starting at d[i] ('"').
func skipString(d []byte, i int) int {
	for i++; i < len(d); i++ {
		switch d[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(d)
}

// skipValue returns the index after the valid JSON value starting at d[i].
func skipValue(d []byte, i int) int {
	if i >= len(d) {
		return i
	}
	switch d[i] {
	case '"':
		return skipString(d, i)
	case '{', '[':
		depth := 0
		for i < len(d) {
			switch d[i] {
			case '"':
				i = skipString(d, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return i
	}
	// A number or a literal.
	for ; i < len(d); i++ {
		switch d[i] {
		case ',', '}', ']', ' ', '\t', '\r', '\n':
			return i
		}
	}
	return i
}

// presentKeys returns the keys of section (a *Graph or *Weights) that are
// given: those the parsed text held (given), and those whose field is not
// zero (set by a program), in the struct's order.
func presentKeys(section any, given []string) []string {
	v := reflect.ValueOf(section).Elem()
	t := v.Type()
	var keys []string
	for i := range t.NumField() {
		sf := t.Field(i)
		key := param.Key(sf)
		if key == "" {
			continue
		}
		if slices.Contains(given, key) || !v.Field(i).IsZero() {
			keys = append(keys, key)
		}
	}
	return keys
}

// fieldOf returns the index of t's field with the JSON key key.
func fieldOf(t reflect.Type, key string) int {
	for i := range t.NumField() {
		if param.Key(t.Field(i)) == key {
			return i
		}
	}
	panic("scenario: no field " + key + " in " + t.Name()) // a kind's key missing from the flat section: caught by TestKindDescriptions
}

// kindParams fills params, the declared parameters of the kind named name
// holding their defaults, with every key section gives. A key the kind does not read is refused, naming the
// kinds that do (readers); a required key left out is refused; whole
// numbers are checked against their declared ranges. The caller checks
// the rest (param.Validate, the kind's own checks).
func kindParams(prefix, name string, params any, section any, given, common []string, readers func(key string) []string) error {
	pv := reflect.ValueOf(params).Elem()
	pt := pv.Type()
	byKey := map[string]int{}
	var own []string
	for i := range pt.NumField() {
		if k := param.Key(pt.Field(i)); k != "" {
			byKey[k] = i
			own = append(own, k)
		}
	}
	sv := reflect.ValueOf(section).Elem()
	st := sv.Type()
	present := map[string]bool{}
	for _, key := range presentKeys(section, given) {
		if slices.Contains(common, key) {
			continue
		}
		i, ok := byKey[key]
		if !ok {
			return unreadKey(prefix, name, key, own, common, readers(key))
		}
		present[key] = true
		pv.Field(i).Set(sv.Field(fieldOf(st, key)))
	}
	for i := range pt.NumField() {
		sf := pt.Field(i)
		key := param.Key(sf)
		if key == "" {
			continue
		}
		field := check.Join(prefix, key)
		if sf.Tag.Get("required") == "true" && !present[key] {
			return check.Errorf(field, "is required by kind %q: %s%s%s", name, sf.Tag.Get("doc"), rangeNote(sf), impliedBy(section, key))
		}
		if tag := sf.Tag.Get("range"); tag != "" && pv.Field(i).CanInt() {
			iv, err := param.ParseInterval(tag)
			if err != nil {
				panic(err) // a malformed tag: caught by TestKindDescriptions
			}
			if err := check.IntRange(field, int(pv.Field(i).Int()), intBound(iv.Lo, iv.LoOpen, 1), intBound(iv.Hi, iv.HiOpen, -1)); err != nil {
				return err
			}
		}
	}
	return nil
}

// impliedBy says what the rest of a section implies for a missing key:
// a graph's edges name agents up to some index, so n is at least one
// more (a bare "from 1" would mislead).
func impliedBy(section any, key string) string {
	g, ok := section.(*Graph)
	if !ok || key != "n" || len(g.Edges) == 0 {
		return ""
	}
	top := -1
	for _, e := range g.Edges {
		for _, v := range e {
			top = max(top, v)
		}
	}
	if top < 0 {
		return ""
	}
	return fmt.Sprintf("; the edges name agents up to %d, so n is at least %d", top, top+1)
}

// intBound is the whole number nearest inside an interval's end x
// (step +1 at the low end, −1 at the high end).
func intBound(x float64, open bool, step int) int {
	switch {
	case math.IsInf(x, 1):
		return math.MaxInt
	case math.IsInf(x, -1):
		return math.MinInt
	}
	b := int(x)
	if open {
		b += step
	}
	return b
}

// rangeNote is ", in (0, 2]" for a field with a range tag.
func rangeNote(sf reflect.StructField) string {
	if r := sf.Tag.Get("range"); r != "" {
		if iv, err := param.ParseInterval(r); err == nil {
			if sf.Type.Kind() == reflect.Int {
				return fmt.Sprintf(", an integer from %d to %d", intBound(iv.Lo, iv.LoOpen, 1), intBound(iv.Hi, iv.HiOpen, -1))
			}
			return ", in " + iv.String()
		}
	}
	if o := sf.Tag.Get("options"); o != "" {
		return ", one of " + strings.ReplaceAll(o, "|", ", ")
	}
	return ""
}

// unreadKey is the error for a key the chosen kind does not read, with
// the keys it does read and the kinds that read key.
func unreadKey(prefix, name, key string, own, common, readers []string) error {
	keys := append(slices.Clone(own), common...)
	keys = slices.DeleteFunc(keys, func(k string) bool { return k == "kind" || k == "pull" || k == "push" })
	reads := "its keys: " + strings.Join(keys, ", ")
	if len(keys) == 0 {
		reads = "it reads no key besides kind"
	}
	switch len(readers) {
	case 0:
	case 1:
		reads += fmt.Sprintf("; kind %q reads %s", readers[0], key)
	default:
		q := make([]string, len(readers))
		for i, r := range readers {
			q[i] = strconv.Quote(r)
		}
		reads += fmt.Sprintf("; kinds %s read %s", strings.Join(q, ", "), key)
	}
	return check.Errorf(check.Join(prefix, key), "kind %q does not read it (%s)", name, reads)
}

// readersOf returns, for a key, the names of the kinds whose parameters
// declare it.
func readersOf[K any](r described[K], params func(*K) any) func(string) []string {
	return func(key string) []string {
		var out []string
		for _, n := range r.names {
			t := reflect.TypeOf(params(r.byName[n])).Elem()
			for i := range t.NumField() {
				if param.Key(t.Field(i)) == key {
					out = append(out, n)
					break
				}
			}
		}
		return out
	}
}
