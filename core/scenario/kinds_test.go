package scenario

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"dpsim/core/check"
	"dpsim/core/graph"
	"dpsim/core/param"
	"dpsim/core/rng"
	"dpsim/core/weights"
)

// withSection returns text with its top-level key replaced by sec.
func withSection(t *testing.T, text, key string, sec any) string {
	t.Helper()
	var doc map[string]any
	if err := json.Unmarshal([]byte(text), &doc); err != nil {
		t.Fatal(err)
	}
	doc[key] = sec
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// zeroJSON is the zero value of a parameter's Go type, as JSON.
func zeroJSON(t reflect.Type) any {
	switch t.Kind() {
	case reflect.Int, reflect.Float64:
		return 0
	case reflect.Bool:
		return false
	case reflect.String:
		return ""
	case reflect.Slice:
		return []any{}
	}
	panic("no zero for " + t.String())
}

// keyTypes returns every key the kinds' parameters declare, with its type.
func keyTypes(params []any) map[string]reflect.Type {
	out := map[string]reflect.Type{}
	for _, p := range params {
		t := reflect.TypeOf(p).Elem()
		for i := range t.NumField() {
			if k := param.Key(t.Field(i)); k != "" {
				out[k] = t.Field(i).Type
			}
		}
	}
	return out
}

func ownKeys(params any) []string {
	var ks []string
	for _, f := range param.Describe(params) {
		ks = append(ks, f.Name)
	}
	return ks
}

func allGraphParams() []any {
	var ps []any
	for _, k := range GraphKinds() {
		ps = append(ps, k.NewParams())
	}
	return ps
}

func allWeightParams() []any {
	var ps []any
	for _, b := range WeightKinds() {
		ps = append(ps, b.NewParams())
	}
	return ps
}

// asSection is kind plus its parameters as JSON keys: the section a
// scenario would give for them.
func asSection(t *testing.T, kind string, params any) map[string]any {
	t.Helper()
	b, _ := json.Marshal(params)
	sec := map[string]any{}
	if err := json.Unmarshal(b, &sec); err != nil {
		t.Fatal(err)
	}
	sec["kind"] = kind
	return sec
}

// Every graph kind refuses each key that another kind reads and it does
// not, also when the key is given with its zero value, with one line
// naming the field, the kind and the keys it reads.
func TestGraphKindsRefuseOtherKindsKeys(t *testing.T) {
	keys := keyTypes(allGraphParams())
	for _, k := range GraphKinds() {
		own := ownKeys(k.NewParams())
		for key, typ := range keys {
			if slices.Contains(own, key) {
				continue
			}
			sec := asSection(t, k.Name, k.NewParams())
			sec[key] = zeroJSON(typ)
			_, err := load(withSection(t, base, "graph", sec))
			want := `graph.` + key + `: kind "` + k.Name + `" does not read it (its keys: ` + strings.Join(append(own, "positions"), ", ")
			if err == nil || !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("%s with %s: 0: got %v, want %s…", k.Name, key, err, want)
			}
		}
	}
}

// The same for weight builders, in the single weights section and in a
// role's section (DP-DGT's pull and push).
func TestWeightBuildersRefuseOtherBuildersKeys(t *testing.T) {
	dpdgt, err := PresetJSON("dpdgt-ieee14")
	if err != nil {
		t.Fatal(err)
	}
	keys := keyTypes(allWeightParams())
	for _, b := range WeightKinds() {
		own := ownKeys(b.NewParams())
		for key, typ := range keys {
			if slices.Contains(own, key) {
				continue
			}
			sec := asSection(t, b.Name, b.NewParams())
			sec[key] = zeroJSON(typ)
			for _, c := range []struct{ text, field string }{
				{withSection(t, base, "weights", sec), "weights"},
				{withSection(t, string(dpdgt), "weights", map[string]any{"push": sec}), "weights.push"},
			} {
				_, err := load(c.text)
				want := c.field + "." + key + `: kind "` + b.Name + `" does not read it (`
				if err == nil || !strings.HasPrefix(err.Error(), want) || strings.Contains(err.Error(), "\n") {
					t.Errorf("%s with %s: 0: got %v, want %s…", b.Name, key, err, want)
				}
			}
		}
	}
}

// Keys set by a program (not parsed) count when they are not zero, and
// the scenario's own keys stay allowed for every kind.
func TestKeysSetByAProgram(t *testing.T) {
	s, err := Parse([]byte(base))
	if err != nil {
		t.Fatal(err)
	}
	s.Graph.Radius = 0.5
	_, err = Build(s)
	if err == nil || err.Error() != `graph.radius: kind "ring" does not read it (its keys: n, positions; kind "random-geometric" reads radius)` {
		t.Errorf("got %v", err)
	}
	s.Graph = Graph{Kind: "ring", N: 4, Positions: [][2]float64{{0, 0}, {0, 1}, {1, 1}, {1, 0}}}
	s.Weights = Weights{Kind: "metropolis", C: 2}
	_, err = Build(s)
	if err == nil || !strings.HasPrefix(err.Error(), `weights.c: kind "metropolis" does not read it (it reads no key besides kind; kind "ldp-laplacian" reads c)`) {
		t.Errorf("got %v", err)
	}
	s.Weights = Weights{Kind: "metropolis"}
	if _, err := Build(s); err != nil {
		t.Errorf("positions on a ring: %v", err)
	}
}

// Errors about a kind's parameters name the field, the rule and the value.
func TestKindParameterErrors(t *testing.T) {
	for _, c := range []struct {
		name string
		sec  map[string]any
		key  string
		want string
	}{
		{"graph", map[string]any{"kind": "ring"}, "graph", `graph.n: is required by kind "ring": number of agents, an integer from 2 to 5000`},
		{"graph", map[string]any{"kind": "random-geometric", "n": 10}, "graph", `graph.radius: is required by kind "random-geometric": agents closer than this in the unit square are linked, in (0, 2]`},
		{"graph", map[string]any{"kind": "random-geometric", "n": 10, "radius": 2.5}, "graph", `graph.radius: must be in (0, 2] (got 2.5)`},
		{"graph", map[string]any{"kind": "erdos-renyi", "n": 10, "p": 0.5, "tries": 1001}, "graph", `graph.tries: must be an integer from 0 to 1000 (got 1001)`},
		{"graph", map[string]any{"kind": "erdos-renyi", "n": 2000, "p": 0.5, "tries": 30}, "graph", `graph.tries: at most 25 redraws for 2000 nodes`},
		{"graph", map[string]any{"kind": "grid", "rows": 100, "cols": 51}, "graph", `graph.cols: must be an integer from 1 to 50 (got 51)`},
		{"graph", map[string]any{"kind": "edges", "n": 4, "reading": "sideways", "edges": [][2]int{{0, 1}}}, "graph", `graph.reading: must be "from-to"`},
		{"graph", map[string]any{"kind": "edges", "n": 4}, "graph", `graph.edges: is required by kind "edges"`},
		{"graph", map[string]any{"kind": "ring", "n": 4, "directed": false}, "graph", `graph.directed: kind "ring" does not read it (its keys: n, positions; kind "edges" reads directed)`},
		{"graph", map[string]any{"kind": "ring", "n": 4, "tries": 0}, "graph", `graph.tries: kind "ring" does not read it (its keys: n, positions; kinds "random-geometric", "erdos-renyi" read tries)`},
		{"weights", map[string]any{"kind": "ldp-laplacian"}, "weights", `weights.c: is required by kind "ldp-laplacian": edge weight c of W = −c·L, in (0, ∞)`},
		{"weights", map[string]any{"kind": "ldp-laplacian", "c": -1}, "weights", `weights.c: must be in (0, ∞) (got -1)`},
		{"weights", map[string]any{"kind": "ring-rd", "r": 0.7, "d": 0.5}, "weights", `weights.r: must be in (0, 0.5] (got 0.7)`},
		{"weights", map[string]any{"kind": "ring-rd", "r": 0.3}, "weights", `weights.d: is required for kind "ring-rd" (or give rho_w`},
		{"weights", map[string]any{"kind": "ring-rd", "r": 0.3, "d": 0.5, "rho_w": 0.9}, "weights", `weights.d: give either d or rho_w, not both`},
		{"weights", map[string]any{"kind": "uniform"}, "weights", `weights.kind: must be one of "metropolis", "laplacian"`},
	} {
		_, err := load(withSection(t, base, c.key, c.sec))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%v: got %v\nwant %s…", c.sec, err, c.want)
		}
		var ce *check.Error
		if err != nil && !errorsAs(err, &ce) {
			t.Errorf("%v: %v is not a check.Error", c.sec, err)
		}
	}
}

func errorsAs(err error, ce **check.Error) bool {
	e, ok := err.(*check.Error)
	*ce = e
	return ok
}

// Every graph kind and weight builder is described: a name, a title, a
// doc line, each parameter with a doc line, a range that parses, and
// defaults inside their ranges; each key is a key of the flat scenario
// section with the same type (the JSON stays flat: {"kind": "ring", "n": 8}).
func TestKindDescriptions(t *testing.T) {
	check := func(kind, title, doc string, params any, section reflect.Type) {
		if kind == "" || title == "" || doc == "" {
			t.Errorf("%q: name, title and doc are required (title %q, doc %q)", kind, title, doc)
		}
		pt := reflect.TypeOf(params).Elem()
		for i := range pt.NumField() {
			sf := pt.Field(i)
			key := param.Key(sf)
			if key == "" {
				continue
			}
			if sf.Tag.Get("doc") == "" {
				t.Errorf("%s.%s: no doc tag", kind, key)
			}
			if r := sf.Tag.Get("range"); r != "" {
				if _, err := param.ParseInterval(r); err != nil {
					t.Errorf("%s.%s: %v", kind, key, err)
				}
			}
			if slices.Contains(graphCommonKeys, key) || slices.Contains(weightsCommonKeys, key) {
				t.Errorf("%s.%s: the scenario reads this key itself", kind, key)
			}
			j := -1
			for k := range section.NumField() {
				if param.Key(section.Field(k)) == key {
					j = k
				}
			}
			if j < 0 || section.Field(j).Type != sf.Type {
				t.Errorf("%s.%s: the flat section %s has no key %q of type %s", kind, key, section.Name(), key, sf.Type)
			}
		}
		// Defaults inside their ranges.
		if err := param.Validate("x", params); err != nil {
			t.Errorf("%s: the defaults are outside their ranges: %v", kind, err)
		}
		for _, f := range param.Describe(params) {
			if f.Kind == "integer" && f.Range != "" {
				iv, _ := param.ParseInterval(f.Range)
				if !iv.Contains(float64(reflect.ValueOf(f.Default).Int())) {
					t.Errorf("%s.%s: default %v outside %s", kind, f.Name, f.Default, f.Range)
				}
			}
		}
	}
	for _, k := range GraphKinds() {
		check(k.Name, k.Title, k.Doc, k.NewParams(), reflect.TypeFor[Graph]())
	}
	for _, b := range WeightKinds() {
		check(b.Name, b.Title, b.Doc, b.NewParams(), reflect.TypeFor[Weights]())
	}
}

// The defaults of every graph kind build a connected network through a
// scenario (what the page's form gives before anyone edits it), and those
// of every weight builder build a matrix (ring-rd excepted: its d and
// rho_w are alternatives, and one must be given).
func TestKindDefaultsBuild(t *testing.T) {
	for _, k := range GraphKinds() {
		text := withSection(t, base, "graph", asSection(t, k.Name, k.NewParams()))
		if _, err := load(text); err != nil {
			t.Errorf("%s: %v", k.Name, err)
		}
	}
	ring, _ := graph.Ring(4)
	pair, _ := graph.Path(2)
	for _, b := range WeightKinds() {
		g := ring
		if b.Name == weights.KindMatrix || b.Name == weights.KindEntries {
			g = pair
		}
		_, err := b.Build(b.NewParams(), g)
		switch {
		case b.Name == weights.KindRingRD:
			if err == nil || !strings.HasPrefix(err.Error(), "weights.d: is required") {
				t.Errorf("%s: got %v", b.Name, err)
			}
		case err != nil:
			t.Errorf("%s: %v", b.Name, err)
		}
	}
}

// The registries refuse a name given twice.
func TestRegistriesRefuseDuplicates(t *testing.T) {
	for name, f := range map[string]func(){
		"graph":   func() { describe(graphKind, &graph.RingKind, &graph.PathKind, &graph.RingKind) },
		"weights": func() { describe(weightBuilder, &weights.MetropolisBuilder, &weights.MetropolisBuilder) },
	} {
		func() {
			defer func() {
				if r := recover(); r == nil || !strings.Contains(r.(string), "registered twice") {
					t.Errorf("%s: a duplicate name was accepted (%v)", name, r)
				}
			}()
			f()
		}()
	}
}

// docs/scenario.md documents every graph kind and weight builder and the
// keys each reads.
func TestDocsListEveryKind(t *testing.T) {
	doc, err := os.ReadFile("../../docs/scenario.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(doc)
	for _, p := range append(Plugins().Graphs, Plugins().Weights...) {
		if !strings.Contains(text, "`"+p.Name+"`") {
			t.Errorf("docs/scenario.md does not mention the kind `%s`", p.Name)
		}
		for _, f := range p.Params {
			if !strings.Contains(text, "`"+f.Name+"`") {
				t.Errorf("docs/scenario.md does not mention the key `%s` of kind %s", f.Name, p.Name)
			}
		}
	}
}

// Plugins describes every registered plug-in with a doc line, and each
// parameter of every algorithm and problem has a doc line too.
func TestPluginsDescribeEveryRegisteredName(t *testing.T) {
	c := Plugins()
	names := func(ps []Plugin) []string {
		var ns []string
		for _, p := range ps {
			ns = append(ns, p.Name)
			if p.Doc == "" {
				t.Errorf("%s: no doc line", p.Name)
			}
			for _, f := range p.Params {
				if f.Doc == "" {
					t.Errorf("%s.%s: no doc line", p.Name, f.Name)
				}
			}
		}
		return ns
	}
	for _, c := range []struct {
		got, want []string
	}{
		{names(c.Algorithms), AlgorithmNames()},
		{names(c.Problems), ProblemKinds()},
		{names(c.Graphs), graphKinds.names},
		{names(c.Weights), weightBuilders.names},
	} {
		if !slices.Equal(c.got, c.want) {
			t.Errorf("described %v, registered %v", c.got, c.want)
		}
	}
}

// recordKeys finds the keys of the graph and weights sections (and of
// the role sections) past strings holding braces, escaped keys and
// nested values, without decoding the values.
func TestRecordKeys(t *testing.T) {
	text := `{"title": "a {tricky\" [one]", "graph": {"kind": "ring", "\u006e": 4, "positions": [[0, 1], [1, 0]], "radius": 0},
	  "weights": {"pull": {"kind": "metropolis", "c": 0}, "push": {"kind": "entries", "entries": [[0, 0, 1e-3]]}},
	  "init": {"x": [[1]]}}`
	var s Scenario
	s.Weights.Pull, s.Weights.Push = &Weights{}, &Weights{}
	s.recordKeys([]byte("\xef\xbb\xbf" + text))
	for _, c := range []struct {
		got, want []string
	}{
		{s.Graph.given, []string{"kind", "n", "positions", "radius"}},
		{s.Weights.given, []string{"pull", "push"}},
		{s.Weights.Pull.given, []string{"kind", "c"}},
		{s.Weights.Push.given, []string{"kind", "entries"}},
	} {
		if !slices.Equal(c.got, c.want) {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

// The defaults of every registered algorithm and problem lie inside
// their declared ranges, as those of graph kinds and weight builders do.
func TestPluginDefaultsInsideRanges(t *testing.T) {
	for _, f := range Factories() {
		if err := param.Validate("algorithm.params", f.NewParams()); err != nil {
			t.Errorf("%s: %v", f.Name, err)
		}
	}
	for _, f := range Problems() {
		if err := param.Validate("problem.params", f.NewParams()); err != nil {
			t.Errorf("%s: %v", f.Name, err)
		}
	}
}

// Every graph kind declares its size for the memory estimate: the agents
// its defaults build, an upper bound on their links (for random kinds,
// the expected links, within a factor of 3 here), and keys it reads.
func TestKindSizes(t *testing.T) {
	for _, k := range GraphKinds() {
		p := k.NewParams()
		g, err := k.Build(p, rngFor(k))
		if err != nil {
			t.Fatalf("%s: %v", k.Name, err)
		}
		agents, links := k.Size(p)
		lo, hi := int64(g.Links()), int64(g.Links())
		if k.Random {
			lo, hi = lo/3, 3*hi
		}
		if agents != int64(g.N) || links < lo || (k.Random && links > hi) {
			t.Errorf("%s: Size says %d agents, %d links; the defaults build %d agents, %d links", k.Name, agents, links, g.N, g.Links())
		}
		if len(k.SizeKeys) == 0 {
			t.Errorf("%s: no SizeKeys", k.Name)
		}
		for _, key := range k.SizeKeys {
			if !slices.Contains(ownKeys(p), key) {
				t.Errorf("%s: size key %q is not one of its keys", k.Name, key)
			}
		}
	}
}

func rngFor(*graph.Kind) *rand.Rand { return rng.New(1, "graph") }
