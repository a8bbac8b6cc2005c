package experiment

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// edit returns small["field"] with key path set to value (JSON), or
// deleted when value is "".
func edit(t *testing.T, path, value string) string {
	t.Helper()
	tr, err := decodeTree([]byte(small["field"]))
	if err != nil {
		t.Fatal(err)
	}
	if value == "" {
		steps, _ := parsePath(path)
		var cur any = tr
		for _, s := range steps[:len(steps)-1] {
			if s.key != "" {
				cur = cur.(map[string]any)[s.key]
			} else {
				cur = cur.([]any)[s.index]
			}
		}
		delete(cur.(map[string]any), steps[len(steps)-1].key)
	} else if err := setPath(tr, path, json.RawMessage(value)); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(tr)
	return string(b)
}

// TestValidation: every broken rule is an error that names its field.
func TestValidation(t *testing.T) {
	for _, c := range []struct {
		path, value string
		want        string // the error starts with this
	}{
		{"format", `"dpsim-experiment/0"`, `format: must be "dpsim-experiment/1"`},
		{"name", `"a b"`, "name: must be 1–64 letters"},
		{"title", "", "title: is required"},
		{"base.scenario", `{"name":"x"}`, `base: give either "preset" or "scenario"`},
		{"base.preset", `"nope"`, `base.preset: no preset named "nope"`},
		{"runs", `0`, "runs: must be"},
		{"runs", `1.5`, "runs: must be a whole number"},
		{"seed", `9007199254740993`, "seed: must be at most 2^53"},
		{"statistic", `"mode"`, `statistic: must be one of ["mean" "median"]`},
		{"x.kind", `"time"`, `x.kind: must be one of`},
		{"x.label", "", "x.label: is required"},
		{"x.scale", `"ln"`, `x.scale: must be one of ["linear" "log"]`},
		{"x.values", `[]`, "x.values: must list 1–1000 values"},
		{"x.fields", `[]`, "x.fields: is required"},
		{"series[0].sweep", `{"values":[1]}`, "series[0].sweep.fields: is required"},
		{"x.fields", `["noise..scale"]`, `x.fields[0]: is not a field path`},
		{"x.fields", `["seeds.noise"]`, `x.fields[0]: the engine sets`},
		{"series", `[]`, "series: must list 1–64 series"},
		{"series[1].name", `"a"`, `series[1].name: "a" names two series`},
		{"series[0].set", `{"noise":{},"noise.eta.scale":1}`, `series[0].set["noise.eta.scale"]: lies inside "noise"`},
		{"series[0].set", `{"seed":3}`, `series[0].set["seed"]: the engine sets`},
		{"series[0].hook", `{"name":"calibrate"}`, `series[0].hook.name: must be one of the registered hooks`},
		{"metrics", `[]`, "metrics: must list 1–16 metrics"},
		{"metrics[0].name", `"re gret"`, `metrics[0].name: must be a metric name`},
		{"metrics[1].id", `"optimality"`, `metrics[1].id: "optimality" names two metrics`},
		{"metrics[1].last", `0`, `metrics[1].last: must be`},
		{"metrics[0].reduce", `"max"`, `metrics[0].reduce: must be one of`},
		{"quantities", `["budget"]`, `quantities[0]: must be one of the quantities`},
		{"figure.y.metric", `"consensus"`, `figure.y.metric: must be one of the metrics' ids`},
		{"figure.y2.quantity", `"eps"`, `figure.y2.quantity: must be one of the quantities`},
		{"expectations[0].series", `"c"`, `expectations[0].series: must name a series`},
		{"expectations[0].kind", `"rises"`, `expectations[0].kind: must be one of`},
		{"expectations[1].than", `"a"`, `expectations[1].than: must name a series other than "a"`},
		{"expectations[2].value", "", `expectations[2].value: is required`},
		{"expectations[0].at", `"last"`, `expectations[0].at: does not apply`},
		{"expectations[0].margin", `1`, `expectations[0].margin: must be between 2 and 10`},
		{"expectations[0].test", `"t"`, `expectations[0].test: must be one of`},
		{"figure.y.unit", `3`, `figure.y.unit: `},
		{"metrics[0].name", `"optimalty"`, `metrics[0].name: "optimalty" is not one of the metrics`},
		{"x.fields", `["noise.eta.scale", "noise.eta.scale"]`, `x.fields[1]: repeats x.fields[0]`},
		{"surprise", `1`, `unknown key "surprise"`},
	} {
		_, err := Parse([]byte(edit(t, c.path, c.value)))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s = %s: got error %v, want one starting %q", c.path, c.value, err, c.want)
		}
	}
}

// TestPlanErrors: overrides that break the scenario name the series, the
// point and the scenario field.
func TestPlanErrors(t *testing.T) {
	for _, c := range []struct {
		path, value string
		want        string
	}{
		{"series[1].set", `{"algorithm.params.alpah":0.1}`, `series[1] (b), x value 1: scenario field algorithm.params: unknown key "alpah"`},
		{"series[0].set", `{"algorithm.params.alpha":-1}`, `series[0] (a), x value 1: scenario field algorithm.params.alpha: must be in (0, 1e6]`},
		{"series[0].set", `{"graph.n.k":3}`, `series[0] (a), x value 1: series.set["graph.n.k"]: scenario field "graph.n" is not an object`},
		{"series[0].set", `{"problem.params.targets[0]":[1,2]}`, `series[0] (a), x value 1: series.set["problem.params.targets[0]"]: scenario field "problem.params.targets" does not exist`},
		{"x.values", `[1,-2]`, `series[0] (a), x value -2: scenario field noise.eta.scale: must be`},
		{"set", `{"iterations":0}`, `series[0] (a), x value 1: scenario field iterations: must be`},
		// No line and column of the engine's re-encoded scenario.
		{"set", `{"iterations":1.5}`, `series[0] (a), x value 1: scenario field iterations: must be a whole number, written without a decimal point or exponent (got 1.5)$`},
		{"metrics[1].name", `"regret"`, `series[0] (a), x value 1: metrics[1].name: must be one of the metrics ["activations" "consensus" "error_ratio" "messages" "objective" "optimality" "releases" "stationarity"] or one the problem records [] (got "regret")`},
	} {
		e, err := Parse([]byte(edit(t, c.path, c.value)))
		if err != nil {
			t.Fatalf("%s: %v", c.path, err)
		}
		_, err = NewPlan(e)
		want, whole := strings.CutSuffix(c.want, "$")
		if err == nil || !strings.HasPrefix(err.Error(), want) || whole && err.Error() != want {
			t.Errorf("%s = %s: got error %v, want one starting %q", c.path, c.value, err, c.want)
		}
	}
}

// TestReferenceSeries: a series' own sweep with no fields draws the same
// scenario at each of its values (a flat reference line), and its
// canonical form keeps the empty list.
func TestReferenceSeries(t *testing.T) {
	e := mustParse(t, []byte(edit(t, "series[1].sweep", `{"fields":[],"values":[1,0.1]}`)))
	if !bytes.Contains(e.JSON(), []byte(`"fields":[]`)) || string(e.JSON()) != string(mustParse(t, e.JSON()).JSON()) {
		t.Fatalf("canonical JSON loses the empty field list or does not round-trip: %s", e.JSON())
	}
	p, err := NewPlan(e)
	if err != nil {
		t.Fatal(err)
	}
	ref, swept := p.series[1].points, p.series[0].points
	if len(ref) != 2 || !bytes.Equal(ref[0].template, ref[1].template) {
		t.Errorf("the reference series' points differ")
	}
	if bytes.Equal(swept[0].template, swept[1].template) {
		t.Errorf("the swept series' points are the same")
	}
}

func TestSetPath(t *testing.T) {
	base := `{"a":{"b":1,"l":[{"c":2},[3,4]]},"n":5}`
	for _, c := range []struct {
		path, value, want string
	}{
		{"a.b", `7`, `{"a":{"b":7,"l":[{"c":2},[3,4]]},"n":5}`},
		{"a.new.deep", `"x"`, `{"a":{"b":1,"l":[{"c":2},[3,4]],"new":{"deep":"x"}},"n":5}`},
		{"a.l[0].c", `{"k":1}`, `{"a":{"b":1,"l":[{"c":{"k":1}},[3,4]]},"n":5}`},
		{"a.l[1][0]", `9.5e-3`, `{"a":{"b":1,"l":[{"c":2},[9.5e-3,4]]},"n":5}`},
		{"a.l[2]", `1`, `error: scenario field "a.l" has 2 elements, so it has no element [2]`},
		{"n.x", `1`, `error: scenario field "n" is not an object, so it has no key "x"`},
		{"a[0]", `1`, `error: scenario field "a" is not a list, so it has no element [0]`},
		{"a.", `1`, `error: is not a field path: empty key in "a."`},
		{"a.l[x]", `1`, `error: is not a field path: "x" is not a list index`},
	} {
		tr, _ := decodeTree([]byte(base))
		got := ""
		if err := setPath(tr, c.path, json.RawMessage(c.value)); err != nil {
			got = "error: " + err.Error()
		} else {
			b, _ := json.Marshal(tr)
			got = string(b)
		}
		if got != c.want {
			t.Errorf("setPath(%q, %s):\n got %s\nwant %s", c.path, c.value, got, c.want)
		}
	}
}

func TestShardFromEnv(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want Shard
		ok   bool
		err  string
	}{
		{map[string]string{}, Shard{}, false, ""},
		{map[string]string{"JOB_COMPLETION_INDEX": "2", "DPSIM_SHARDS": "3"}, Shard{2, 3}, true, ""},
		{map[string]string{"JOB_COMPLETION_INDEX": "2"}, Shard{}, true, "DPSIM_SHARDS is not"},
		{map[string]string{"JOB_COMPLETION_INDEX": "3", "DPSIM_SHARDS": "3"}, Shard{}, true, "out of range"},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "4"}, Shard{0, 4}, true, ""},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "4", "SLURM_ARRAY_TASK_COUNT": "4", "SLURM_ARRAY_TASK_MIN": "1"}, Shard{3, 4}, true, ""},
		{map[string]string{"SLURM_ARRAY_TASK_ID": "x", "SLURM_ARRAY_TASK_COUNT": "4"}, Shard{}, true, "not a whole number"},
	} {
		sh, ok, err := ShardFromEnv(func(k string) string { return c.env[k] })
		if sh != c.want || ok != c.ok || (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("%v: got %v %v %v, want %v %v %q", c.env, sh, ok, err, c.want, c.ok, c.err)
		}
	}
	for _, c := range []struct {
		in string
		ok bool
	}{{"0/3", true}, {"2/3", true}, {"3/3", false}, {"-1/3", false}, {"1/0", false}, {"a/b", false}, {"1", false}, {"01/3", false}} {
		_, err := ParseShard(c.in)
		if (err == nil) != c.ok {
			t.Errorf("ParseShard(%q): %v", c.in, err)
		}
	}
}

func TestPresetsValid(t *testing.T) {
	if len(Presets()) < 3 {
		t.Fatalf("%d experiment presets", len(Presets()))
	}
	for _, p := range Presets() {
		e, err := PresetExperiment(p.Name)
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		if e.Name != p.Name {
			t.Errorf("preset file %s.json names itself %q", p.Name, e.Name)
		}
		if _, err := NewPlan(e); err != nil {
			t.Errorf("%s: %v", p.Name, err)
		}
		if string(e.JSON()) != string(mustParse(t, e.JSON()).JSON()) {
			t.Errorf("%s: canonical JSON does not round-trip", p.Name)
		}
	}
}

func mustParse(t testing.TB, b []byte) *Experiment {
	e, err := Parse(b)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestOnlyFinalKeepsEvalEvery: an experiment that records only the final
// point of a scenario with expensive metrics (record.eval_every) plans
// without the user restating eval_every: the engine moves it with every.
func TestOnlyFinalKeepsEvalEvery(t *testing.T) {
	b, err := PresetJSON("gtdp-logistic-mushrooms-noise")
	if err != nil {
		t.Fatal(err)
	}
	// The preset's base scenario sets record.eval_every = 50 itself.
	p, err := NewPlan(mustParse(t, b))
	if err != nil {
		t.Fatalf("plan: %v", err)
	}
	sc, err := p.Scenario(0)
	if err != nil {
		t.Fatal(err)
	}
	if sc.Record.Every != 200 || sc.Record.EvalEvery != 200 {
		t.Fatalf("record.every %d, eval_every %d; want 200 and 200", sc.Record.Every, sc.Record.EvalEvery)
	}
}
