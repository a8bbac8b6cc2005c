package jsonout

import (
	"bytes"
	"encoding/json"
	"testing"
)

type inner struct {
	Note string `json:"note"`
}

// escaped is a json.Marshaler that itself encodes through this package, as
// every MarshalJSON method in dpsim that writes user text must.
type escaped struct{ s string }

func (e escaped) MarshalJSON() ([]byte, error) { return Marshal(map[string]string{"s": e.s}) }

type outer struct {
	Name  string         `json:"name"`
	List  []inner        `json:"list"`
	Map   map[string]int `json:"map"`
	Mar   escaped        `json:"mar"`
	Float float64        `json:"float"`
}

func TestNoHTMLEscapes(t *testing.T) {
	v := outer{
		Name:  `a < b && c > "d" \u003c`,
		List:  []inner{{Note: "x<y"}, {Note: "é & ü"}},
		Map:   map[string]int{"<k>": 1, "&": 2},
		Mar:   escaped{"p & q"},
		Float: 1e-7,
	}
	for _, tc := range []struct {
		name           string
		prefix, indent string
	}{
		{"compact", "", ""},
		{"indented", "", " "},
		{"prefixed", "  ", "\t"},
	} {
		got, err := MarshalIndent(v, tc.prefix, tc.indent)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for _, esc := range []string{`\u003c`, `\u003e`, `\u0026`} {
			// The literal text `\u003c` in Name is written as `\\u003c`.
			if bytes.Contains(bytes.ReplaceAll(got, []byte(`\\u003c`), nil), []byte(esc)) {
				t.Errorf("%s: %s in %s", tc.name, esc, got)
			}
		}
		// The same bytes as encoding/json once its escapes are undone
		// (the input has no backslash before a u003c other than Name's).
		var want []byte
		if tc.indent == "" && tc.prefix == "" {
			want, err = json.Marshal(v)
		} else {
			want, err = json.MarshalIndent(v, tc.prefix, tc.indent)
		}
		if err != nil {
			t.Fatal(err)
		}
		var back, wantBack outer
		if err := json.Unmarshal(got, &back); err != nil {
			t.Fatalf("%s: does not parse: %v\n%s", tc.name, err, got)
		}
		if err := json.Unmarshal(want, &wantBack); err != nil {
			t.Fatal(err)
		}
		if back.Name != v.Name || back.List[0] != v.List[0] || back.List[1] != v.List[1] ||
			back.Map["<k>"] != 1 || back.Map["&"] != 2 || back.Float != v.Float {
			t.Errorf("%s: round trip gives %+v, want %+v", tc.name, back, v)
		}
		if len(got) >= len(want) {
			t.Errorf("%s: %d bytes, not fewer than encoding/json's %d escaped ones", tc.name, len(got), len(want))
		}
	}
}

func TestSameLayoutAsEncodingJSON(t *testing.T) {
	// Without <, > or &, the bytes are exactly encoding/json's.
	v := outer{Name: "plain", List: []inner{{"a"}, {"b"}}, Map: map[string]int{"z": 1, "a": 2}, Mar: escaped{"q"}, Float: 3.25}
	for _, indent := range []string{"", " ", "  "} {
		got, err := MarshalIndent(v, "", indent)
		if err != nil {
			t.Fatal(err)
		}
		var want []byte
		if indent == "" {
			want, _ = json.Marshal(v)
		} else {
			want, _ = json.MarshalIndent(v, "", indent)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("indent %q:\n got %s\nwant %s", indent, got, want)
		}
	}
}
