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

// Marshal is json.Marshal without HTML escaping.
func Marshal(v any) ([]byte, error) {
	return MarshalIndent(v, "", "")
}

// MarshalIndent is json.MarshalIndent without HTML escaping: the same
// layout, byte for byte, for the same value.
func MarshalIndent(v any, prefix, indent string) ([]byte, error) {
	var buf bytes.Buffer
	enc := NewEncoder(&buf)
	enc.SetIndent(prefix, indent)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	// Encode ends every value with a newline; Marshal does not.
	return bytes.TrimSuffix(buf.Bytes(), []byte{'\n'}), nil
}

// NewEncoder returns a json.Encoder writing to w without HTML escaping.
func NewEncoder(w io.Writer) *json.Encoder {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc
}
