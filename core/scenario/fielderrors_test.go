package scenario

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// edited returns the preset gtdp-rendezvous with edit applied to its
// decoded JSON.
func edited(t *testing.T, edit func(m map[string]any)) []byte {
	t.Helper()
	return presetJSONEdited(t, "gtdp-rendezvous", edit)
}

// presetJSONEdited returns preset name with edit applied to its decoded
// JSON.
func presetJSONEdited(t *testing.T, name string, edit func(m map[string]any)) []byte {
	t.Helper()
	data, err := PresetJSON(name)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	out, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sub(m map[string]any, keys ...string) map[string]any {
	for _, k := range keys {
		m = m[k].(map[string]any)
	}
	return m
}

// TestCheckAll: every error of a scenario at once, each with its field's
// path, where Build stops at the first; and no error exactly when Build
// succeeds.
func TestCheckAll(t *testing.T) {
	for _, c := range []struct {
		name  string
		text  []byte
		paths []string // every error's path, in order
		warn  string   // a warning's path, if any
	}{
		{"valid", edited(t, func(map[string]any) {}), nil, ""},
		{"three sections", edited(t, func(m map[string]any) {
			m["iterations"] = 0
			sub(m, "algorithm", "params")["alpha"] = -1
			sub(m, "noise", "eta")["scale"] = -2
		}), []string{"iterations", "algorithm.params.alpha", "noise.eta.scale"}, ""},
		{"three parameters and the name", edited(t, func(m map[string]any) {
			m["name"] = "a b"
			sub(m, "algorithm", "params")["alpha"] = 0
			sub(m, "problem", "params")["dim"] = 0
			sub(m, "graph")["n"] = 1
		}), []string{"name", "algorithm.params.alpha", "problem.params.dim", "graph.n"}, ""},
		{"keys that do not decode", edited(t, func(m map[string]any) {
			m["iterationz"] = 3
			sub(m, "record")["every"] = "often"
			m["seed"] = -1
		}), []string{"", "record.every", "seed"}, ""}, // an unknown key is the document's
		{"missing sections", []byte(`{"name": "x", "seed": 1, "iterations": 5}`),
			[]string{"algorithm.kind", "problem.kind", "graph.kind"}, ""},
		{"a warning", edited(t, func(m map[string]any) {
			sub(m, "algorithm", "params")["alpha"] = 0.9
		}), nil, "algorithm.params.alpha"},
	} {
		r := CheckAll(c.text, CLI, nil)
		var paths []string
		for _, e := range r.Errors {
			paths = append(paths, e.Path)
			if e.Msg == "" || strings.HasPrefix(e.Msg, e.Path+":") {
				t.Errorf("%s: message %q should be the rule alone", c.name, e.Msg)
			}
		}
		slices.Sort(paths)
		want := slices.Clone(c.paths)
		slices.Sort(want)
		if !slices.Equal(paths, want) {
			t.Errorf("%s: error paths %v, want %v (%+v)", c.name, paths, want, r.Errors)
		}
		s, err := Parse(c.text)
		if err == nil {
			_, err = Build(s)
		}
		if (err == nil) != (len(r.Errors) == 0) || (err == nil) != r.Built {
			t.Errorf("%s: Build says %v, CheckAll %+v", c.name, err, r)
		}
		if err != nil && !slices.ContainsFunc(r.Errors, func(e FieldError) bool {
			return strings.HasPrefix(err.Error(), e.Path+": ") || e.Path == "" && err.Error() == e.Msg
		}) {
			t.Errorf("%s: Build's error %v is not among CheckAll's %+v", c.name, err, r.Errors)
		}
		if c.warn != "" && !slices.ContainsFunc(r.Warnings, func(w FieldError) bool { return w.Path == c.warn }) {
			t.Errorf("%s: no warning on %s: %+v", c.name, c.warn, r.Warnings)
		}
	}
}

// TestCheckAllPositions: an error after a key that does not decode keeps
// the line and column of the user's text.
func TestCheckAllPositions(t *testing.T) {
	text := []byte("{\n  \"name\": 5,\n  \"seed\": 1,\n  \"algorithm\": {\"kind\": \"gt-dp\", \"params\": {\"alpha\": \"x\"}}\n}")
	r := CheckAll(text, CLI, nil)
	var got []string
	for _, e := range r.Errors {
		got = append(got, e.Path+": "+e.Msg)
	}
	all := strings.Join(got, "\n")
	for _, want := range []string{"name: ", "(line 2, column 11)", "algorithm.params.alpha: ", "(line 4, column"} {
		if !strings.Contains(all, want) {
			t.Errorf("errors do not contain %q:\n%s", want, all)
		}
	}
}

// TestCheckAllSyntax: text that is not JSON gets one error with its line
// and column, and nothing else is checked.
func TestCheckAllSyntax(t *testing.T) {
	r := CheckAll([]byte("{\n  \"name\": \"x\",\n  \"seed\": 1,,\n}"), CLI, nil)
	if len(r.Errors) != 1 || !strings.Contains(r.Errors[0].Msg, "line 3") {
		t.Errorf("errors %+v, want one at line 3", r.Errors)
	}
}

// TestCheckAllPresets: every preset checks with no error and is built.
func TestCheckAllPresets(t *testing.T) {
	for _, p := range Presets() {
		data, err := PresetJSON(p.Name)
		if err != nil {
			t.Fatal(err)
		}
		if r := CheckAll(data, CLI, nil); len(r.Errors) > 0 || !r.Built {
			t.Errorf("%s: %+v", p.Name, r)
		}
	}
}
