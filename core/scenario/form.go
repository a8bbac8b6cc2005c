package scenario

import (
	"encoding/json"
	"maps"
	"slices"

	"dpsim/core/check"

	"dpsim/core/method"
	"dpsim/core/noise"
	"dpsim/core/param"
)

// FormCatalog is Plugins with what a scenario form needs beyond the
// parameters: the fields of the scenario itself, each algorithm's noise
// channels and weight roles and the form of problem it solves, each
// problem's form, and the fields of a noise channel. The page's builder
// walks it, so a plug-in registered in registry.go gets its form with no
// page change.
type FormCatalog struct {
	Algorithms []AlgorithmForm `json:"algorithms"`
	Problems   []ProblemForm   `json:"problems"`
	// Graphs are the graph kinds (their parameters sit beside
	// graph.kind); Weights the weight builders (beside weights.kind).
	Graphs  []Plugin `json:"graphs"`
	Weights []Plugin `json:"weights"`
	// Noise are the fields of one noise channel (noise.<channel>).
	Noise []param.Field `json:"noise"`
	// Scenario are the scenario's own fields, by their JSON keys
	// (objects for record, calibrate, samples and stop).
	Scenario []param.Field `json:"scenario"`
}

// AlgorithmForm describes an algorithm for a form.
type AlgorithmForm struct {
	Plugin
	// Solves is the form of problem it solves: "minimisation" or
	// "allocation" (method.Factory.Solves); a problem of the other form
	// is refused.
	Solves string `json:"solves"`
	// Prox reports a proximal step (needed by composite problems).
	Prox bool `json:"prox,omitempty"`
	// Channels are its noise channels, each a key of the noise section.
	Channels []ChannelForm `json:"channels"`
	// Roles are its weight matrices by role (weights.pull, weights.push);
	// empty for an algorithm that mixes with the one weights section.
	Roles []RoleForm `json:"roles,omitempty"`
	// Preset names the preset a form starts the algorithm from (Choose):
	// its noise defaults come from there; "" when no preset runs it.
	Preset string `json:"preset,omitempty"`
}

// ChannelForm is one noise channel of an algorithm.
type ChannelForm struct {
	Name string `json:"name"`
	// Dist is the distribution the paper uses; the scenario may not
	// change it.
	Dist string `json:"dist"`
	Doc  string `json:"doc"`
	// Default is the channel's section in the algorithm's preset, or no
	// noise (scale 0) when no preset runs it.
	Default *noise.Spec `json:"default"`
}

// RoleForm is one weight matrix of an algorithm that mixes with several.
type RoleForm struct {
	Role string `json:"role"`
	// Default is the weights kind built when the scenario gives none.
	Default string `json:"default"`
	Doc     string `json:"doc"`
}

// ProblemForm describes a problem for a form.
type ProblemForm struct {
	Plugin
	// Form is "minimisation" or "allocation" (objective.Factory.Allocation).
	Form string `json:"form"`
	// Preset names the preset a form starts the problem from (Choose).
	Preset string `json:"preset,omitempty"`
}

// Words for method.Form in a FormCatalog.
const (
	FormMinimisation = "minimisation"
	FormAllocation   = "allocation"
)

func formWord(f method.Form) string {
	if f == method.Allocation {
		return FormAllocation
	}
	return FormMinimisation
}

// Form describes every registered plug-in and the scenario's own fields
// for a form.
func Form() FormCatalog {
	c := Plugins()
	fc := FormCatalog{Graphs: c.Graphs, Weights: c.Weights, Noise: noiseFields(), Scenario: scenarioFields()}
	var presets []*Scenario
	for _, p := range Presets() {
		if s, err := PresetScenario(p.Name); err == nil {
			s.Name = p.Name
			presets = append(presets, s)
		}
	}
	exampleOf := func(about func(*Scenario) bool) *Scenario { return exampleIn(presets, about) }
	for i, f := range Factories() {
		a := AlgorithmForm{Plugin: c.Algorithms[i], Solves: formWord(f.Solves), Prox: f.Prox, Channels: []ChannelForm{}}
		ex := exampleOf(func(s *Scenario) bool { return s.Algorithm.Kind == f.Name })
		if ex != nil {
			a.Preset = ex.Name
		}
		for _, ch := range f.Channels {
			def := &noise.Spec{Dist: ch.Dist}
			if ex != nil && ex.Noise[ch.Name] != nil {
				def = ex.Noise[ch.Name]
			}
			a.Channels = append(a.Channels, ChannelForm{Name: ch.Name, Dist: ch.Dist, Doc: ch.Description, Default: def})
		}
		for _, r := range f.Matrices {
			a.Roles = append(a.Roles, RoleForm{Role: r.Role, Default: r.Default, Doc: r.Description})
		}
		fc.Algorithms = append(fc.Algorithms, a)
	}
	for i, pf := range Problems() {
		p := ProblemForm{Plugin: c.Problems[i], Form: FormMinimisation}
		if pf.Allocation {
			p.Form = FormAllocation
		}
		if ex := exampleOf(func(s *Scenario) bool { return s.Problem.Kind == pf.Name }); ex != nil {
			p.Preset = ex.Name
		}
		fc.Problems = append(fc.Problems, p)
	}
	return fc
}

// exampleIn returns the preset a form starts a plug-in from: the first
// of presets (in name order) that is about it, preferring one whose
// problem needs no dataset (nothing to fetch); nil when none is.
func exampleIn(presets []*Scenario, about func(*Scenario) bool) *Scenario {
	var first *Scenario
	for _, s := range presets {
		if !about(s) {
			continue
		}
		if needsData(s) {
			if first == nil {
				first = s
			}
			continue
		}
		return s
	}
	return first
}

// needsData reports whether s's problem loads a dataset.
func needsData(s *Scenario) bool {
	pf, params, err := decodeProblem(&s.Problem)
	return err == nil && pf.Datasets != nil && len(pf.Datasets(params)) > 0
}

// Compatible reports whether algorithm alg solves the form of problem
// prob, by their declarations (method.Factory.Solves,
// objective.Factory.Allocation).
func (fc FormCatalog) Compatible(alg, prob string) bool {
	i := slices.IndexFunc(fc.Algorithms, func(a AlgorithmForm) bool { return a.Name == alg })
	j := slices.IndexFunc(fc.Problems, func(p ProblemForm) bool { return p.Name == prob })
	return i >= 0 && j >= 0 && fc.Algorithms[i].Solves == fc.Problems[j].Form
}

// noiseFields describes a noise channel's section (noise.Spec).
func noiseFields() []param.Field {
	sched := param.Describe(&noise.Schedule{Kind: noise.Constant, C: 1})
	for i := range sched {
		if sched[i].Name == "kind" {
			sched[i].Options = []string{noise.Constant, noise.Geometric, noise.Polynomial}
		}
	}
	return []param.Field{
		{Name: "dist", Kind: "string", Doc: "the distribution: fixed by the algorithm's paper", Default: "", Options: []string{noise.Laplace, noise.Gaussian}},
		{Name: "scale", Kind: "number", Doc: "base scale of every agent's noise (Laplace b, Gaussian σ); 0: no noise", Default: 0.0, Range: "[0, 1e12]"},
		{Name: "decay", Kind: "object", Doc: "the factor the scale is multiplied by at iteration k (default: constant 1)", Default: nil, Fields: sched},
	}
}

// scenarioFields describes the scenario's own fields (Scenario), with
// the rules Build checks.
func scenarioFields() []param.Field {
	iters := "[1, 1e7]"
	return []param.Field{
		{Name: "name", Kind: "string", Doc: "a short identifier: letters, digits, '-', '_' or '.'", Default: "my-scenario"},
		{Name: "title", Kind: "string", Doc: "a title for people", Default: ""},
		{Name: "seed", Kind: "integer", Doc: "the seed all four random streams (data, graph, noise, algorithm) derive from", Default: 1, Range: "[0, 9007199254740992]"},
		{Name: "seeds", Kind: "object", Doc: "instead of seed: one seed per random stream, all four, so that one stream (say the noise) changes while the others keep the same data and graph", Fields: []param.Field{
			{Name: "data", Kind: "integer", Doc: "the seed of the data (synthetic samples, targets, shards)", Default: nil, Range: "[0, 9007199254740992]"},
			{Name: "graph", Kind: "integer", Doc: "the seed of random graphs and positions", Default: nil, Range: "[0, 9007199254740992]"},
			{Name: "noise", Kind: "integer", Doc: "the seed of the privacy noise", Default: nil, Range: "[0, 9007199254740992]"},
			{Name: "algorithm", Kind: "integer", Doc: "the seed of the algorithm's own draws (walks, η, sampling)", Default: nil, Range: "[0, 9007199254740992]"},
		}},
		{Name: "iterations", Kind: "integer", Doc: "the horizon: how many iterations the run takes", Default: 200, Range: iters, Unit: "iterations"},
		{Name: "record", Kind: "object", Doc: "what to record", Fields: []param.Field{
			{Name: "every", Kind: "integer", Doc: "record the metrics every this many iterations (default 1)", Default: 1, Range: iters, Unit: "iterations"},
			{Name: "eval_every", Kind: "integer", Doc: "evaluate the expensive metrics every this many iterations, a multiple of every (0: at every recorded point)", Default: 0, Range: "[0, 1e7]", Unit: "iterations"},
		}},
		{Name: "calibrate", Kind: "object", Doc: "equal-privacy calibration: scale every noise channel so that the algorithm's accountant reports this ε", Fields: []param.Field{
			{Name: "epsilon", Kind: "number", Doc: "the target ε (leave empty for no calibration)", Default: nil, Range: "(0, inf)"},
			{Name: "iterations", Kind: "integer", Doc: "the horizon the target holds at (0: the scenario's iterations)", Default: 0, Range: "[0, 1e7]", Unit: "iterations"},
		}},
		{Name: "samples", Kind: "object", Doc: "how agents walk their sample shards (problems that serve samples)", Fields: []param.Field{
			{Name: "mode", Kind: "string", Doc: "shuffle every epoch, draw with replacement, or in order", Default: "", Options: []string{"", method.Shuffle, method.Replace, method.InOrder}},
		}},
		{Name: "stop", Kind: "object", Doc: "end the run early once a communication budget is spent", Fields: []param.Field{
			{Name: "max_activations", Kind: "integer", Doc: "stop once some agent has been active this many times (0: never)", Default: 0, Range: "[0, 9007199254740992]", Unit: "activations"},
			{Name: "max_messages", Kind: "integer", Doc: "stop once this many per-link messages were sent (0: never)", Default: 0, Range: "[0, 9007199254740992]", Unit: "messages"},
		}},
	}
}

// Choose returns the scenario text with section ("algorithm", "problem",
// "graph", "weights", "weights.pull" or "weights.push") switched to kind,
// as the page's builder does when a kind is picked. A graph or weights
// section becomes the kind with its required parameters at their
// defaults. An algorithm or a problem starts from its preset (Form's
// Preset): its parameters (and an algorithm's noise channels) when the
// new pair is compatible (Compatible, and an algorithm's weight roles
// match) and the result passes CheckAll for place (gate as there), the
// preset's whole network, problem, algorithm and noise otherwise — the
// pairings a declaration does not capture (DPP² needs a Laplacian-type
// matrix, DPOP a bounded domain) — so that every kind picked on its own
// gives a scenario that runs. The rest — name, seeds, iterations, record, calibration — is
// kept; initial states, which belong to one algorithm and one size, are
// dropped.
func Choose(text []byte, section, kind string, place Place, gate func(*Scenario) error) ([]byte, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(text, &m); err != nil || m == nil {
		return nil, check.Errorf("", "the scenario must be a JSON object to choose %s %q in", section, kind)
	}
	fc := Form()
	kindOf := func(key string) string {
		var k struct {
			Kind string `json:"kind"`
		}
		_ = json.Unmarshal(m[key], &k)
		return k.Kind
	}
	rolesOf := func(alg string) bool {
		i := slices.IndexFunc(fc.Algorithms, func(a AlgorithmForm) bool { return a.Name == alg })
		return i >= 0 && len(fc.Algorithms[i].Roles) > 0
	}
	example := func(preset string) (map[string]json.RawMessage, error) {
		var ex map[string]json.RawMessage
		data, err := PresetJSON(preset)
		if err == nil {
			err = json.Unmarshal(data, &ex)
		}
		return ex, err
	}
	// clean is the scenario with the light change made, when it checks
	// without error.
	clean := func(light map[string]json.RawMessage) bool {
		delete(light, "init")
		b, err := json.Marshal(light)
		return err == nil && len(CheckAll(b, place, gate).Errors) == 0
	}
	whole := func(ex map[string]json.RawMessage) {
		for _, k := range []string{"graph", "weights", "problem", "algorithm", "noise", "samples"} {
			if v, ok := ex[k]; ok {
				m[k] = v
			} else {
				delete(m, k)
			}
		}
	}
	switch section {
	case "algorithm":
		i := slices.IndexFunc(fc.Algorithms, func(a AlgorithmForm) bool { return a.Name == kind })
		if i < 0 {
			return nil, check.Errorf("algorithm.kind", "must be one of %v (got %q)", AlgorithmNames(), kind)
		}
		a := fc.Algorithms[i]
		fits := fc.Compatible(kind, kindOf("problem")) && rolesOf(kind) == rolesOf(kindOf("algorithm"))
		if a.Preset == "" {
			m["algorithm"] = mustJSON(map[string]string{"kind": kind})
			nz := map[string]*noise.Spec{}
			for _, c := range a.Channels {
				nz[c.Name] = c.Default
			}
			m["noise"] = mustJSON(nz)
			break
		}
		ex, err := example(a.Preset)
		if err != nil {
			return nil, err
		}
		c := maps.Clone(m)
		c["algorithm"], c["noise"] = ex["algorithm"], ex["noise"]
		if fits && clean(c) {
			m = c
		} else {
			whole(ex)
		}
	case "problem":
		i := slices.IndexFunc(fc.Problems, func(p ProblemForm) bool { return p.Name == kind })
		if i < 0 {
			return nil, check.Errorf("problem.kind", "must be one of %v (got %q)", ProblemKinds(), kind)
		}
		p := fc.Problems[i]
		if p.Preset == "" {
			m["problem"] = mustJSON(map[string]string{"kind": kind})
			break
		}
		ex, err := example(p.Preset)
		if err != nil {
			return nil, err
		}
		c := maps.Clone(m)
		c["problem"] = ex["problem"]
		if v, ok := ex["samples"]; ok {
			c["samples"] = v
		}
		if fc.Compatible(kindOf("algorithm"), kind) && clean(c) {
			m = c
		} else {
			whole(ex)
		}
	case "graph":
		p, ok := pluginNamed(fc.Graphs, kind)
		if !ok {
			return nil, check.Errorf("graph.kind", "must be one of %v (got %q)", graphKinds.names, kind)
		}
		m["graph"] = mustJSON(requiredDefaults(p))
	case "weights", "weights." + method.RolePull, "weights." + method.RolePush:
		p, ok := pluginNamed(fc.Weights, kind)
		if !ok {
			return nil, check.Errorf(section+".kind", "must be one of %v (got %q)", weightBuilders.names, kind)
		}
		if section == "weights" {
			m["weights"] = mustJSON(requiredDefaults(p))
			break
		}
		var w map[string]json.RawMessage
		if json.Unmarshal(m["weights"], &w) != nil || w == nil {
			w = map[string]json.RawMessage{}
		}
		w[section[len("weights."):]] = mustJSON(requiredDefaults(p))
		m["weights"] = mustJSON(w)
	default:
		return nil, check.Errorf("", "cannot choose a kind for %q: the sections with kinds are algorithm, problem, graph, weights, weights.pull and weights.push", section)
	}
	delete(m, "init")
	return json.Marshal(m)
}

// requiredDefaults is a kind's section with the parameters it requires
// at their defaults (a form fills the others only when edited).
func requiredDefaults(p Plugin) map[string]any {
	sec := map[string]any{"kind": p.Name}
	for _, f := range p.Params {
		if slices.Contains(p.Required, f.Name) {
			sec[f.Name] = f.Default
		}
	}
	return sec
}

func pluginNamed(ps []Plugin, name string) (Plugin, bool) {
	i := slices.IndexFunc(ps, func(p Plugin) bool { return p.Name == name })
	if i < 0 {
		return Plugin{}, false
	}
	return ps[i], true
}

// mustJSON marshals plain data (maps of strings, numbers and specs).
func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic("scenario: " + err.Error())
	}
	return b
}
