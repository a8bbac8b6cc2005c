package scenario

import (
	"bytes"
	"encoding/json"
	"fmt"
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

// sectionKeys records which keys the graph and weights sections of a
// scenario's text give, so that a key given with its zero value
// ("radius": 0) is known to be present although the flat struct cannot
// tell it from an absent one.
type sectionKeys struct {
	Graph   keyList     `json:"graph"`
	Weights weightsKeys `json:"weights"`
}

// keyList is the keys of one JSON object, in the order given.
type keyList []string

// UnmarshalJSON implements json.Unmarshaler: it keeps the keys and skips
// the values without copying them.
func (k *keyList) UnmarshalJSON(b []byte) error {
	var m map[string]skipValue
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	*k = make(keyList, 0, len(m))
	for key := range m {
		*k = append(*k, key)
	}
	slices.Sort(*k)
	return nil
}

// skipValue accepts any JSON value and keeps nothing.
type skipValue struct{}

// UnmarshalJSON implements json.Unmarshaler.
func (*skipValue) UnmarshalJSON([]byte) error { return nil }

// weightsKeys is the keys of a weights section and of its role sections.
type weightsKeys struct {
	keys       keyList
	pull, push keyList
}

// UnmarshalJSON implements json.Unmarshaler.
func (w *weightsKeys) UnmarshalJSON(b []byte) error {
	var roles struct {
		Pull keyList `json:"pull"`
		Push keyList `json:"push"`
	}
	if err := json.Unmarshal(b, &w.keys); err != nil {
		return err
	}
	if err := json.Unmarshal(b, &roles); err != nil {
		return err
	}
	w.pull, w.push = roles.Pull, roles.Push
	return nil
}

// recordKeys notes in s which keys its graph and weights sections give in
// data, a text that jsonstrict has accepted as s.
func (s *Scenario) recordKeys(data []byte) error {
	var ks sectionKeys
	if err := json.Unmarshal(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")), &ks); err != nil {
		return check.Errorf("", "%v", err) // not reached: the strict pass accepted data
	}
	s.Graph.given = ks.Graph
	s.Weights.given = ks.Weights.keys
	if s.Weights.Pull != nil {
		s.Weights.Pull.given = ks.Weights.pull
	}
	if s.Weights.Push != nil {
		s.Weights.Push.given = ks.Weights.push
	}
	return nil
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
		key := jsonKey(sf)
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
		if jsonKey(t.Field(i)) == key {
			return i
		}
	}
	panic("scenario: no field " + key + " in " + t.Name()) // caught by TestKindKeysAreFlatKeys
}

func jsonKey(sf reflect.StructField) string {
	if !sf.IsExported() {
		return ""
	}
	name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
	if name == "-" {
		return ""
	}
	return name
}

// kindParams returns the parameters of kind (named name) read from
// section: its declared struct with the defaults, overwritten by every key
// the section gives. A key the kind does not read is refused, naming the
// kinds that do (readers); a required key left out is refused; whole
// numbers are checked against their declared ranges. The caller checks
// the rest (param.Validate, the kind's own checks).
func kindParams(prefix, name string, params any, section any, given, common []string, readers func(key string) []string) error {
	pv := reflect.ValueOf(params).Elem()
	pt := pv.Type()
	byKey := map[string]int{}
	var own []string
	for i := range pt.NumField() {
		if k := jsonKey(pt.Field(i)); k != "" {
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
		key := jsonKey(sf)
		if key == "" {
			continue
		}
		field := check.Join(prefix, key)
		if sf.Tag.Get("required") == "true" && !present[key] {
			return check.Errorf(field, "is required by kind %q: %s%s", name, sf.Tag.Get("doc"), rangeNote(sf))
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

// intBound is the whole number nearest inside an interval's end x
// (step +1 at the low end, −1 at the high end).
func intBound(x float64, open bool, step int) int {
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
				if jsonKey(t.Field(i)) == key {
					out = append(out, n)
					break
				}
			}
		}
		return out
	}
}
