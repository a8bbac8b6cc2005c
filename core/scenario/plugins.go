package scenario

import (
	"reflect"

	"dpsim/core/param"
)

// Plugin describes one registered plug-in — an algorithm, a problem, a
// graph kind or a weight builder — with the parameters it reads, so that
// the page can draw its form and `dpsim plugins` can list it.
type Plugin struct {
	// Name is the key a scenario names it by.
	Name string `json:"name"`
	// Title is the name shown to people.
	Title string `json:"title"`
	// Doc is one line: what it is, or the paper it comes from.
	Doc string `json:"doc"`
	// Params are its parameters with their defaults (param.Describe).
	Params []param.Field `json:"params"`
	// Required lists the parameters a scenario must give (graph kinds
	// and weight builders; their defaults only fill a form).
	Required []string `json:"required,omitempty"`
}

// Catalog lists every registered plug-in, in the sections of a scenario
// that name them: algorithm.kind, problem.kind, graph.kind, weights.kind.
type Catalog struct {
	Algorithms []Plugin `json:"algorithms"`
	Problems   []Plugin `json:"problems"`
	// Graphs are the graph kinds; every kind also reads the scenario's
	// graph.positions, and its parameters are keys beside graph.kind.
	Graphs []Plugin `json:"graphs"`
	// Weights are the weight builders; their parameters are keys beside
	// weights.kind (or a role's kind).
	Weights []Plugin `json:"weights"`
}

// Plugins describes every registered plug-in.
func Plugins() Catalog {
	var c Catalog
	for _, f := range Factories() {
		c.Algorithms = append(c.Algorithms, describePlugin(f.Name, f.Title, f.Paper, f.NewParams()))
	}
	for _, f := range Problems() {
		c.Problems = append(c.Problems, describePlugin(f.Name, f.Title, f.Source, f.NewParams()))
	}
	for _, k := range GraphKinds() {
		c.Graphs = append(c.Graphs, describePlugin(k.Name, k.Title, k.Doc, k.NewParams()))
	}
	for _, b := range WeightKinds() {
		c.Weights = append(c.Weights, describePlugin(b.Name, b.Title, b.Doc, b.NewParams()))
	}
	return c
}

func describePlugin(name, title, doc string, params any) Plugin {
	p := Plugin{Name: name, Title: title, Doc: doc, Params: param.Describe(params)}
	if p.Params == nil {
		p.Params = []param.Field{} // "params": [] rather than null
	}
	t := reflect.TypeOf(params).Elem()
	for i := range t.NumField() {
		if k := param.Key(t.Field(i)); k != "" && t.Field(i).Tag.Get("required") == "true" {
			p.Required = append(p.Required, k)
		}
	}
	return p
}
