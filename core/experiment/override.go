package experiment

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// A field path names one field of a scenario: object keys joined by dots,
// with [i] for a list element: "algorithm.params.alpha",
// "noise.eta.decay.p", "problem.params.targets[0][1]".

// step is one element of a path: a key, or an index when key is "".
type step struct {
	key   string
	index int
}

func parsePath(p string) ([]step, error) {
	if p == "" {
		return nil, fmt.Errorf("is not a field path: write keys joined by dots, e.g. \"algorithm.params.alpha\"")
	}
	var out []step
	for _, part := range strings.Split(p, ".") {
		key, rest, _ := strings.Cut(part, "[")
		if key == "" {
			return nil, fmt.Errorf("is not a field path: empty key in %q", p)
		}
		for _, c := range key {
			if !(c == '_' || c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
				return nil, fmt.Errorf("is not a field path: key %q may hold letters, digits, '_' and '-' only", key)
			}
		}
		out = append(out, step{key: key})
		if rest == "" && !strings.Contains(part, "[") {
			continue
		}
		rest = "[" + rest
		for rest != "" {
			if rest[0] != '[' {
				return nil, fmt.Errorf("is not a field path: expected '[' in %q", part)
			}
			end := strings.IndexByte(rest, ']')
			if end < 0 {
				return nil, fmt.Errorf("is not a field path: unclosed '[' in %q", part)
			}
			i, err := strconv.Atoi(rest[1:end])
			if err != nil || i < 0 || i > 1_000_000 {
				return nil, fmt.Errorf("is not a field path: %q is not a list index", rest[1:end])
			}
			out = append(out, step{index: i})
			rest = rest[end+1:]
		}
	}
	return out, nil
}

// blocked reports whether the engine owns path: the seeds, which the seed
// rule sets for every run.
func blocked(p string) bool {
	for _, own := range []string{"seed", "seeds"} {
		if p == own || isPrefix(own, p) {
			return true
		}
	}
	return false
}

// isPrefix reports whether path b lies inside path a.
func isPrefix(a, b string) bool {
	return len(b) > len(a) && strings.HasPrefix(b, a) && (b[len(a)] == '.' || b[len(a)] == '[')
}

// tree is a scenario decoded generically, numbers kept as written.
type tree = map[string]any

func decodeTree(data []byte) (tree, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var t tree
	if err := dec.Decode(&t); err != nil {
		return nil, err
	}
	return t, nil
}

// setPath sets path p of t to the JSON value v, creating missing objects
// on the way. A path through a value that is not an object or a list, or
// past the end of a list, is an error that names where it stops.
func setPath(t tree, p string, v json.RawMessage) error {
	steps, err := parsePath(p)
	if err != nil {
		return err
	}
	var cur any = t
	for i, s := range steps {
		last := i == len(steps)-1
		where := pathString(steps[:i])
		if s.key != "" {
			obj, ok := cur.(map[string]any)
			if !ok {
				return fmt.Errorf("scenario field %q is not an object, so it has no key %q", where, s.key)
			}
			if last {
				obj[s.key] = v
				return nil
			}
			next, ok := obj[s.key]
			if !ok || next == nil {
				if steps[i+1].key == "" {
					return fmt.Errorf("scenario field %q does not exist, so it has no element [%d]", pathString(steps[:i+1]), steps[i+1].index)
				}
				next = map[string]any{}
				obj[s.key] = next
			}
			if raw, ok := next.(json.RawMessage); ok {
				// A value set earlier: decode it so that a later path can
				// go inside it.
				dec, err := decodeAny(raw)
				if err != nil {
					return err
				}
				obj[s.key] = dec
				next = dec
			}
			cur = next
			continue
		}
		list, ok := cur.([]any)
		if !ok {
			return fmt.Errorf("scenario field %q is not a list, so it has no element [%d]", where, s.index)
		}
		if s.index >= len(list) {
			return fmt.Errorf("scenario field %q has %d elements, so it has no element [%d]", where, len(list), s.index)
		}
		if last {
			list[s.index] = v
			return nil
		}
		cur = list[s.index]
	}
	return nil
}

func decodeAny(raw json.RawMessage) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

func pathString(steps []step) string {
	var b strings.Builder
	for i, s := range steps {
		if s.key != "" {
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s.key)
		} else {
			fmt.Fprintf(&b, "[%d]", s.index)
		}
	}
	return b.String()
}

// sortedPaths returns the keys of o in sorted order, so that overrides
// apply in an order that does not depend on map iteration.
func (o Overrides) sortedPaths() []string {
	ps := make([]string, 0, len(o))
	for p := range o {
		ps = append(ps, p)
	}
	sort.Strings(ps)
	return ps
}
