// Package jsonstrict decodes JSON documents strictly — unknown keys,
// trailing data and mistyped values are errors — and explains every error
// in the user's words, naming the field path (and line and column for
// syntax errors) so that a scenario or experiment file can be fixed
// without reading code.
package jsonstrict

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"dpsim/core/check"
)

// Decode decodes data into v, refusing unknown keys, trailing data and
// mistyped values. Every error names the JSON path it is about, prefixed
// by prefix.
func Decode(data []byte, v any, prefix string) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		if _, terr := dec.Token(); terr != io.EOF {
			return check.Errorf(prefix, "unexpected data after the end of the JSON value")
		}
		return nil
	}
	return explain(data, err, prefix)
}

// explain turns an encoding/json error into one that names the field.
func explain(data []byte, err error, prefix string) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.Is(err, io.EOF):
		return check.Errorf(prefix, "is empty: a scenario is a JSON object")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return check.Errorf(prefix, "the JSON text ends too early (an unclosed { or [ ?)")
	case errors.As(err, &se):
		path := pathAtError(data, se.Offset)
		line, col := lineCol(data, se.Offset)
		msg := se.Error()
		if r := restAt(data, se.Offset); strings.HasPrefix(r, "NaN") || strings.HasPrefix(r, "Inf") || strings.HasPrefix(r, "-Inf") {
			msg = "NaN and Infinity are not numbers in JSON; every value must be a finite number"
		}
		return check.Errorf(join(prefix, path), "%s (line %d, column %d)", msg, line, col)
	case errors.As(err, &te):
		path := pathEndingAt(data, te.Offset)
		if path == "" {
			path = te.Field
		}
		got := te.Value
		if got == "number" || strings.HasPrefix(got, "number ") {
			lit := strings.TrimPrefix(got, "number ")
			if te.Type.Kind().String() == "float64" {
				return check.Errorf(join(prefix, path), "the number %s is out of range", lit)
			}
			return check.Errorf(join(prefix, path), "must be a whole number in range for %s (got %s)", te.Type, lit)
		}
		return check.Errorf(join(prefix, path), "expected %s, got %s", describe(te.Type.Kind().String()), got)
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		key := strings.TrimPrefix(err.Error(), "json: unknown field ")
		var k string
		_ = json.Unmarshal([]byte(key), &k)
		parent := pathOfKey(data, k)
		return check.Errorf(join(prefix, parent), "unknown key %s", key)
	}
	return check.Errorf(prefix, "%v", err)
}

func describe(kind string) string {
	switch kind {
	case "float64", "float32":
		return "a number"
	case "int", "int64", "uint64", "int32", "uint32", "uint":
		return "a whole number"
	case "string":
		return "a string"
	case "bool":
		return "true or false"
	case "slice", "array":
		return "a list"
	case "struct", "map":
		return "an object"
	}
	return kind
}

func join(prefix, path string) string {
	switch {
	case path == "":
		return prefix
	case prefix == "":
		return path
	case strings.HasPrefix(path, "["):
		return prefix + path
	}
	return prefix + "." + path
}

func restAt(data []byte, off int64) string {
	// The syntax error offset points just past the offending byte.
	i := int(off) - 1
	if i < 0 {
		i = 0
	}
	if i > len(data) {
		i = len(data)
	}
	end := min(i+8, len(data))
	return string(data[i:end])
}

func lineCol(data []byte, off int64) (int, int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	line, col := 1, 1
	for _, b := range data[:max(off-1, 0)] {
		if b == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}

// frame is one open object or array during a token walk.
type frame struct {
	object bool
	key    string // current key in an object
	index  int    // current index in an array (−1 before the first)
	keyed  bool   // the next string token in an object is a value
}

func pathOf(stack []frame) string {
	var b strings.Builder
	for i, f := range stack {
		if f.object {
			if f.key == "" {
				continue
			}
			if i > 0 || b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(f.key)
		} else if f.index >= 0 {
			fmt.Fprintf(&b, "[%d]", f.index)
		}
	}
	return strings.TrimPrefix(b.String(), ".")
}

// walk visits every value of data in order, calling visit with the value's
// path and its end offset. It stops at the first syntax error and returns
// the path at that point.
func walk(data []byte, visit func(path string, end int64, key string) bool) string {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber() // so that out-of-range numbers do not stop the walk
	var stack []frame
	for {
		// Before reading a value inside an array, advance its index.
		tok, err := dec.Token()
		if err != nil {
			if len(stack) > 0 {
				top := &stack[len(stack)-1]
				if !top.object {
					top.index++
				}
			}
			return pathOf(stack)
		}
		if len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.object && !top.keyed {
				if d, ok := tok.(json.Delim); ok && d == '}' {
					stack = stack[:len(stack)-1]
					if visit(pathOf(stack), dec.InputOffset(), "") {
						return ""
					}
					afterValue(stack)
					continue
				}
				top.key, top.keyed = tok.(string), true
				if visit(pathOf(stack), dec.InputOffset(), top.key) {
					return ""
				}
				continue
			}
			if !top.object {
				if d, ok := tok.(json.Delim); ok && d == ']' {
					stack = stack[:len(stack)-1]
					if visit(pathOf(stack), dec.InputOffset(), "") {
						return ""
					}
					afterValue(stack)
					continue
				}
				top.index++
			}
		}
		if d, ok := tok.(json.Delim); ok {
			stack = append(stack, frame{object: d == '{', index: -1})
			continue
		}
		if visit(pathOf(stack), dec.InputOffset(), "") {
			return ""
		}
		afterValue(stack)
	}
}

func afterValue(stack []frame) {
	if len(stack) > 0 && stack[len(stack)-1].object {
		stack[len(stack)-1].keyed = false
	}
}

// pathAtError returns the path of the value where a syntax error stops
// the walk.
func pathAtError(data []byte, _ int64) string {
	return walk(data, func(string, int64, string) bool { return false })
}

// pathEndingAt returns the path of the value that ends at offset end.
func pathEndingAt(data []byte, end int64) string {
	found := ""
	walk(data, func(path string, e int64, key string) bool {
		if key == "" && e == end {
			found = path
			return true
		}
		return false
	})
	return found
}

// pathOfKey returns the path of the object holding the first occurrence
// of key.
func pathOfKey(data []byte, key string) string {
	found, ok := "", false
	walk(data, func(path string, _ int64, k string) bool {
		if k == key {
			found, ok = path, true
			return true
		}
		return false
	})
	if !ok {
		return ""
	}
	// path ends with the key itself; the parent is what precedes it.
	if i := strings.LastIndex(found, "."); i >= 0 && strings.HasSuffix(found, "."+key) {
		return found[:i]
	}
	if found == key {
		return ""
	}
	return found
}
