package jsonstrict

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"

	"dpsim/core/check"
)

// FuzzDecode checks the decoder against encoding/json on arbitrary bytes:
// whatever it accepts, encoding/json accepts with the same result; it never
// panics; every error is a *check.Error of bounded length; and no input
// takes more than a second (the pass is linear and depth-limited; see
// tooSlow).
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"name": "a", "n": 1, "edges": [[0, 1]], "in": {"kind": "k"}, "raw": {"x": [1, null]}}`,
		`{"n": null}`, `{"n": 1, "n": 2}`, `{"NAME": 1}`, `{"edges": [[0, 1, 2]]}`,
		"\xef\xbb\xbf{}", "{\"name\": \"\xff\"}", `{"name": "\ud800"}`, `[[[[[[]]]]]]`,
		`{"any": {"a": [1e400, -0, 1.5e-300, "\u0000"]}}`, `{"all": {"kind": "k"}}`,
		`{"x": NaN}`, `{"im": {"1": "a", "01": "b"}}`, `{"m": {"a": {"kind": "", "c": 1e308}}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if took, slow := tooSlow(func() {
			var d doc
			Decode(data, &d, "p")
			var v any
			Decode(data, &v, "")
		}); slow {
			t.Fatalf("%d bytes took %v", len(data), took)
		}
		var d doc
		err := Decode(data, &d, "p")
		checkErr(t, err)
		if err == nil {
			var want doc
			if jerr := json.Unmarshal(bytes.TrimPrefix(data, bom), &want); jerr != nil {
				t.Fatalf("accepted what encoding/json refuses (%v)", jerr)
			}
			if !reflect.DeepEqual(d, want) {
				t.Fatalf("got %+v, encoding/json %+v", d, want)
			}
		}
		var v any
		err = Decode(data, &v, "")
		checkErr(t, err)
		if err == nil {
			var want any
			if jerr := json.Unmarshal(bytes.TrimPrefix(data, bom), &want); jerr != nil {
				t.Fatalf("accepted what encoding/json refuses (%v)", jerr)
			}
			if !reflect.DeepEqual(v, want) {
				t.Fatalf("got %#v, encoding/json %#v", v, want)
			}
		}
		if (Valid(data) == nil) != (err == nil) {
			t.Fatalf("Valid and Decode into any disagree: %v", err)
		}
	})
}

// tooSlow reports whether f takes more than a second, twice in a row: a
// stall of a loaded machine does not repeat, a slow input does.
func tooSlow(f func()) (time.Duration, bool) {
	var d time.Duration
	for range 2 {
		start := time.Now()
		f()
		if d = time.Since(start); d <= time.Second {
			return d, false
		}
	}
	return d, true
}

func checkErr(t *testing.T, err error) {
	t.Helper()
	if err == nil {
		return
	}
	var ce *check.Error
	if !errors.As(err, &ce) {
		t.Fatalf("not a *check.Error: %T %v", err, err)
	}
	if ce.Rule == "" || len(err.Error()) > 600 {
		t.Fatalf("a message of %d bytes: %q", len(err.Error()), err)
	}
	if strings.Contains(ce.Rule, "json:") {
		t.Fatalf("encoding/json's words: %q", err)
	}
}
