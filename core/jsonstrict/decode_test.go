package jsonstrict

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"dpsim/core/check"
)

type inner struct {
	Kind string  `json:"kind"`
	C    float64 `json:"c,omitempty"`
}

type Embedded struct {
	Deep string `json:"deep,omitempty"`
}

// doc exercises every kind of target the decoder knows.
type doc struct {
	Name  string            `json:"name"`
	N     int               `json:"n,omitempty"`
	U8    uint8             `json:"u8,omitempty"`
	Seed  *uint64           `json:"seed,omitempty"`
	X     float64           `json:"x,omitempty"`
	F32   float32           `json:"f32,omitempty"`
	B     bool              `json:"b,omitempty"`
	Edges [][2]int          `json:"edges,omitempty"`
	Pos   [][2]float64      `json:"pos,omitempty"`
	Rows  [][]float64       `json:"rows,omitempty"`
	In    inner             `json:"in"`
	M     map[string]*inner `json:"m,omitempty"`
	IM    map[int]string    `json:"im,omitempty"`
	Raw   json.RawMessage   `json:"raw,omitempty"`
	Any   any               `json:"any,omitempty"`
	All   *inner            `json:"all,omitempty" jsonstrict:"allkeys"`
	Skip  string            `json:"-"`
	Plain string
	Embedded
}

func decodeDoc(text string) (*doc, error) {
	var d doc
	err := Decode([]byte(text), &d, "")
	return &d, err
}

func TestDecodeAccepts(t *testing.T) {
	text := `{"name": "a\u00e9\ud83d\ude00", "n": -3, "u8": 255, "seed": 9007199254740992, "x": 1.5e3,
	  "f32": 1e38, "b": true, "edges": [[0, 1], [1, 2]], "pos": [[0.5, 1]], "rows": [[], [1, 2, 3]],
	  "in": {"kind": "k", "c": 2}, "m": {"a": {"kind": "z"}}, "im": {"-4": "x"},
	  "raw": {"alpha": [1, null]}, "any": [null, {"a": null}], "all": {"kind": "q", "c": 0},
	  "Plain": "p", "deep": "d"}`
	for _, prefix := range []string{"", "\xef\xbb\xbf"} { // a BOM is skipped
		got, err := decodeDoc(prefix + text)
		if err != nil {
			t.Fatalf("BOM %t: %v", prefix != "", err)
		}
		var want doc
		if err := json.Unmarshal([]byte(text), &want); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(*got, want) {
			t.Errorf("got %+v\nwant %+v", *got, want)
		}
	}
	// Defaults set before decoding stay where a key is left out.
	d := doc{N: 7}
	if err := Decode([]byte(`{"name": "x", "in": {"kind": "k"}}`), &d, ""); err != nil || d.N != 7 {
		t.Errorf("defaults: %v, n = %d", err, d.N)
	}
	// MaxDepth levels are fine.
	deep := strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth)
	var v any
	if err := Decode([]byte(deep), &v, ""); err != nil {
		t.Errorf("depth %d: %v", MaxDepth, err)
	}
}

// Every rejection names the path, says what was expected and what came,
// gives the line and column, and never names a Go type.
func TestDecodeRejects(t *testing.T) {
	cases := []struct {
		name, text, field, rule string
	}{
		// Row 8 of the robustness issue: silently accepted before.
		{"null for a number", `{"n": null}`, "n", "must be a whole number, not null; leave the key out to use the default (line 1, column 7)"},
		{"null for a pointer", `{"seed": null}`, "seed", "must be a whole number, not null"},
		{"null in a list", `{"rows": [[0, null]]}`, "rows[0][1]", "must be a number, not null (line 1, column 15)"},
		{"null for an object", `{"in": null}`, "in", "must be an object {…}, not null"},
		{"null for a map value", `{"m": {"a": null}}`, "m.a", "must be an object {…}, not null"},
		{"null for raw parameters", `{"raw": null}`, "raw", "must not be null; leave the key out to use the default"},
		{"duplicate key", "{\"n\": 1,\n \"n\": 2}", "", `the key "n" is given twice (first at line 1, column 2); give each key once (line 2, column 2)`},
		{"duplicate nested key", `{"in": {"kind": "a", "kind": "b"}}`, "in", `the key "kind" is given twice`},
		{"duplicate key in a map", `{"m": {"a": {"kind": "x"}, "a": {"kind": "y"}}}`, "m", `the key "a" is given twice`},
		{"duplicate key in raw parameters", `{"raw": {"alpha": 1, "beta": {"c": 1, "c": 2}}}`, "raw.beta", `the key "c" is given twice`},
		{"duplicate key spelt with an escape", `{"raw": {"a": 1, "\u0061": 2}}`, "raw", `the key "a" is given twice`},
		{"duplicate key in a large object", `{"any": {"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":0,"k11":1,"k12":2,"k13":3,"k14":4,"k15":5,"k16":6,"k3":7}}`, "any", `the key "k3" is given twice`},
		{"upper-case key", `{"NAME": "x"}`, "", `unknown key "NAME": keys are case-sensitive; did you mean "name"?`},
		{"capitalised nested key", `{"in": {"Kind": "x"}}`, "in", `did you mean "kind"?`},
		{"unknown key", `{"speed": 3}`, "", `unknown key "speed"; the keys here are "name", "n"`},
		{"ignored field by name", `{"Skip": "x"}`, "", `unknown key "Skip"`},
		{"edge with three entries", `{"edges": [[0, 1, 5]]}`, "edges[0]", "must be a list of exactly 2 whole numbers, but it has more entries (line 1, column 12)"},
		{"edge with one entry", `{"edges": [[0]]}`, "edges[0]", "must be a list of exactly 2 whole numbers, but it has 1"},
		{"position with three entries", `{"pos": [[0.5, 0.5, 0.5]]}`, "pos[0]", "must be a list of exactly 2 numbers"},
		{"not all keys", `{"all": {"kind": "x"}}`, "all", `missing key "c": give all of "kind", "c"`},
		{"invalid UTF-8", "{\"name\": \"a\xffb\"}", "name", "invalid UTF-8 (byte 0xFF): save the file as UTF-8 (line 1, column 12)"},
		{"invalid UTF-8 outside a string", "{\"name\": \xff}", "name", "not UTF-8"},
		{"lone surrogate", `{"name": "\ud800x"}`, "name", "half of a UTF-16 surrogate pair"},
		{"low surrogate first", `{"name": "\udc00\ud800"}`, "name", "half of a UTF-16 surrogate pair"},
		// Row 10: messages in the user's words.
		{"a number for a string", `{"name": 5}`, "name", "must be a string, not the number 5 (line 1, column 10)"},
		{"a number for an object", `{"in": 5}`, "in", "must be an object {…}, not the number 5"},
		{"a number for the document", `42`, "", "the document must be an object {…}, not the number 42 (line 1, column 1)"},
		{"a string for a number", `{"n": "four"}`, "n", `must be a whole number, not the string "four"`},
		{"a list for a string", `{"name": [1]}`, "name", "must be a string, not a list"},
		{"an object for a list", `{"rows": {}}`, "rows", "must be a list […], not an object"},
		{"a string for a bool", `{"b": "yes"}`, "b", `must be true or false, not the string "yes"`},
		{"a bool for a number", `{"x": true}`, "x", "must be a number, not true"},
		{"fraction for a whole number", `{"n": 2.5}`, "n", "must be a whole number, written without a decimal point or exponent (got 2.5)"},
		{"exponent for a whole number", `{"n": 1e3}`, "n", "written without a decimal point"},
		{"whole number out of range", `{"u8": 256}`, "u8", "must be a whole number from 0 to 255 (got 256)"},
		{"negative for unsigned", `{"seed": -1}`, "seed", "must be a whole number from 0 to 18446744073709551615 (got -1)"},
		{"number out of range", `{"x": 1e400}`, "x", "the number 1e400 is out of range"},
		{"float32 out of range", `{"f32": 1e39}`, "f32", "the number 1e39 is out of range"},
		{"map key not a number", `{"im": {"x": "y"}}`, "im", `the key "x" must be a whole number`},
		// Syntax.
		{"empty", ``, "", "the text is empty: expected an object {…}"},
		{"only spaces", " \n\t ", "", "the text is empty"},
		{"trailing data", `{} {}`, "", "unexpected data after the end of the JSON value"},
		{"trailing comma in an object", `{"n": 1,}`, "", "a trailing comma before '}' is not allowed in JSON (line 1, column 9)"},
		{"trailing comma in a list", `{"rows": [[1],]}`, "rows", "a trailing comma before ']'"},
		{"missing comma", `{"n": 1 "x": 2}`, "n", `expected ',' or '}' after the value of "n", found '"' (a comma missing?)`},
		{"missing colon", `{"n" 1}`, "n", `expected ':' after the key "n", found '1'`},
		{"unquoted key", `{n: 1}`, "", "expected a key in double quotes, found 'n'"},
		{"single quotes", `{'n': 1}`, "", "keys need double quotes"},
		{"single-quoted value", `{"name": 'x'}`, "name", "strings need double quotes"},
		{"comment", "{\"n\": 1 // one\n}", "n", "comments are not allowed in JSON (line 1, column 9)"},
		{"comment as a value", "{\"n\": // one\n1}", "n", "comments are not allowed in JSON"},
		{"NaN", `{"x": NaN}`, "x", "NaN and Infinity are not numbers in JSON"},
		{"Infinity", `{"x": -Infinity}`, "x", "NaN and Infinity are not numbers in JSON"},
		{"misspelt literal", `{"b": tru}`, "b", `found "tru"`},
		{"capitalised literal", `{"b": True}`, "b", `found "True"`},
		{"literal run on", `{"b": truex}`, "b", `found "truex"`},
		{"leading zero", `{"n": 01}`, "n", "a number cannot start with 0 followed by more digits"},
		{"bare minus", `{"n": -}`, "n", "a digit must follow '-'"},
		{"bare point", `{"x": 1.}`, "x", "digits must follow the decimal point"},
		{"bare exponent", `{"x": 1e}`, "x", "digits must follow the exponent"},
		{"plus sign", `{"x": +1}`, "x", "expected a value"},
		{"hex number", `{"n": 0x10}`, "n", `invalid number "0x10"`},
		{"unclosed object", "{\"in\": {\"kind\": \"x\"", "in", "the text ends too early: the { at line 1, column 8 is never closed"},
		{"unclosed string", `{"name": "abc`, "name", "a string is never closed"},
		{"control character in a string", "{\"name\": \"a\tb\"}", "name", "a raw control character (U+0009) inside a string"},
		{"bad escape", `{"name": "a\qb"}`, "name", `invalid escape "\\q"`},
		{"short unicode escape", `{"name": "\u12"}`, "name", `\u needs four hexadecimal digits`},
		{"stray closer", `{"n": ]}`, "n", "expected a value, found ']'"},
		{"no-break space", "{\"n\":\u00a01}", "n", "found '\u00a0' (U+00A0)"},
		{"too deep", `{"any": ` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}`, "any" + strings.Repeat("[0]", MaxDepth-1), "nested more than 64 levels deep"},
		// Paths.
		{"path through lists and objects", `{"raw": {"a": [1, 2, {"c": NaN}]}}`, "raw.a[2].c", "NaN"},
		{"path with an odd key", `{"m": {"a b": 5}}`, `m["a b"]`, "must be an object"},
		{"huge key is cut", `{"` + strings.Repeat("k", 1000) + `": 1}`, "", `unknown key "kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk"…`},
	}
	for _, c := range cases {
		_, err := decodeDoc(c.text)
		var ce *check.Error
		if !errors.As(err, &ce) {
			t.Errorf("%s: got %v, want a *check.Error", c.name, err)
			continue
		}
		if ce.Field != c.field || !strings.Contains(ce.Rule, c.rule) {
			t.Errorf("%s:\n got  %q: %q\n want %q: …%q…", c.name, ce.Field, ce.Rule, c.field, c.rule)
		}
		if !strings.Contains(ce.Rule, "(line ") && !strings.Contains(ce.Rule, "never closed") && !strings.Contains(ce.Rule, "is empty") {
			t.Errorf("%s: %q gives no line and column", c.name, ce.Rule)
		}
		for _, goWord := range []string{"jsonstrict.", "for string", "int64", "float64", "struct", "json:", "Go "} {
			if strings.Contains(ce.Rule, goWord) {
				t.Errorf("%s: %q speaks Go (%q)", c.name, ce.Rule, goWord)
			}
		}
		if len(err.Error()) > 400 {
			t.Errorf("%s: a message of %d bytes", c.name, len(err.Error()))
		}
	}
}

// Row 1 of the robustness issue: 100 000 nested lists took 817 s to reject;
// the depth limit stops the pass at level 65.
func TestDeepNestingIsRejectedAtTheLimit(t *testing.T) {
	for _, open := range []string{"[", `{"a":`} {
		text := strings.Repeat(open, 100_000)
		var v any
		err := Decode([]byte(text), &v, "")
		if err == nil || !strings.Contains(err.Error(), "nested more than 64 levels deep") {
			t.Errorf("%q × 100000: %v", open, err)
		}
	}
}

func TestPrefixAndPositions(t *testing.T) {
	type params struct {
		Alpha float64 `json:"alpha"`
	}
	doc := "{\n  \"algorithm\": {\"params\": {\"alpha\": 1,\n    \"beta\": 2}}}"
	at, ok := Locate([]byte(doc), "algorithm", "params")
	if !ok || at != (Pos{Line: 2, Col: 27}) {
		t.Fatalf("Locate: %v %v", at, ok)
	}
	frag := `{"alpha": 1,
    "beta": 2}`
	var p params
	err := DecodeAt([]byte(frag), &p, "algorithm.params", at)
	want := `algorithm.params: unknown key "beta"; the keys here are "alpha" (line 3, column 5)`
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
	err = DecodeAt([]byte(`{"alpha": "x"}`), &p, "algorithm.params", at)
	if err == nil || !strings.HasSuffix(err.Error(), "(line 2, column 37)") {
		t.Errorf("first-line position: %v", err)
	}
	err = Decode([]byte(`[{"alpha": 1}]`), &[]params{}, "runs")
	if err != nil {
		t.Error(err)
	}
	err = Decode([]byte(`[{"alpha": null}]`), &[]params{}, "runs")
	if err == nil || !strings.HasPrefix(err.Error(), "runs[0].alpha: must be a number, not null") {
		t.Errorf("prefix with a list: %v", err)
	}
	for _, path := range [][]string{{"algorithm", "nope"}, {"algorithm", "params", "alpha", "x"}} {
		if _, ok := Locate([]byte(doc), path...); ok {
			t.Errorf("Locate(%v) found something", path)
		}
	}
	if _, ok := Locate([]byte(`{"a": `), "a"); ok {
		t.Error("Locate in broken JSON")
	}
}

func TestValid(t *testing.T) {
	for text, ok := range map[string]bool{
		`{"a": [1, null, "x"]}`: true,
		`{"a": 1, "a": 2}`:      false,
		"\"\xff\"":              false,
		`[1,]`:                  false,
	} {
		if err := Valid([]byte(text)); (err == nil) != ok {
			t.Errorf("Valid(%q) = %v", text, err)
		}
	}
}

func TestNotAPointer(t *testing.T) {
	var d doc
	if err := Decode([]byte(`{}`), d, ""); err == nil {
		t.Error("a non-pointer was accepted")
	}
	if err := Decode([]byte(`{}`), (*doc)(nil), ""); err == nil {
		t.Error("a nil pointer was accepted")
	}
}
