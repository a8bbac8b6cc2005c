// Package jsonout encodes the JSON that dpsim writes for people to read
// and keep (run exports, experiment results, sweeps and their merges, the
// page's downloads): encoding/json's bytes, except that <, > and & are
// written as themselves rather than as \u003c, \u003e and \u0026.
//
// encoding/json escapes them by default so that JSON can be pasted into
// HTML; dpsim's files are never embedded in a page, and a scenario named
// "a < b & c" should read as such in a file, a diff or a terminal. Every
// user-facing encoder goes through this package, so the CLI and the page
// give the same bytes (docs/exports.md).
package jsonout

import (
	"bytes"
	"encoding/json"
	"io"
)

// Marshal is json.Marshal without HTML escaping, and total on numbers:
// where encoding/json refuses a NaN or an infinity, it is written as null,
// "Inf" or "-Inf" (see total), so an export never fails on a number.
func Marshal(v any) ([]byte, error) {
	b, err := encode(v)
	if err != nil && isUnsupported(err) {
		if t, ok := total(v); ok {
			return encode(t)
		}
	}
	return b, err
}

// encode is json.Marshal without HTML escaping.
func encode(v any) ([]byte, error) {
	var c capture
	if err := NewEncoder(&c).Encode(v); err != nil {
		return nil, err
	}
	return c.b, nil
}

// MarshalIndent is json.MarshalIndent without HTML escaping: the same
// layout, byte for byte, for the same value, and about the same
// allocations (the run export's memory estimate counts them).
func MarshalIndent(v any, prefix, indent string) ([]byte, error) {
	b, err := Marshal(v)
	if err != nil || (prefix == "" && indent == "") {
		return b, err
	}
	var buf bytes.Buffer
	buf.Grow(2 * len(b)) // as json.MarshalIndent
	if err := json.Indent(&buf, b, prefix, indent); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// capture keeps a copy of the one Write an Encoder makes per value,
// without its final newline.
type capture struct{ b []byte }

func (c *capture) Write(p []byte) (int, error) {
	c.b = bytes.Clone(bytes.TrimSuffix(p, []byte{'\n'}))
	return len(p), nil
}

// Encode writes v to w as MarshalIndent(v, prefix, indent) and a newline:
// the bytes of NewEncoder(w) with SetIndent(prefix, indent), but total on
// numbers as Marshal is.
func Encode(w io.Writer, v any, prefix, indent string) error {
	b, err := MarshalIndent(v, prefix, indent)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// NewEncoder returns a json.Encoder writing to w without HTML escaping.
// Unlike Marshal it fails on a NaN or an infinity: exports use Marshal,
// MarshalIndent or Encode.
func NewEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc
}
