package scenario

import (
	"reflect"

	"dpsim/core/glossary"
	"dpsim/core/method"
	"dpsim/core/objective"
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
	// Words is what the page says about an algorithm or a problem
	// (method.Words, objective.Words); nil for graph kinds and weight
	// builders.
	Words *PluginWords `json:"words,omitempty"`
}

// PluginWords is an algorithm's or a problem's words, as JSON.
type PluginWords struct {
	// Messages says what a link carries (algorithms).
	Messages string `json:"messages,omitempty"`
	// Picture, Nodes and Curve say what the picture beside the network,
	// its nodes and the error plot show (problems).
	Picture string `json:"picture,omitempty"`
	Nodes   string `json:"nodes,omitempty"`
	Curve   string `json:"curve,omitempty"`
	// Symbols are the plug-in's glossary entries.
	Symbols []glossary.Term `json:"symbols"`
	// Assumptions name the source's hypotheses (algorithms); a run's
	// theory card says which hold.
	Assumptions []Hypothesis `json:"assumptions,omitempty"`
	Authors     string       `json:"authors,omitempty"`
	// BaselineOf (algorithms) and Papers (problems) name the papers'
	// algorithms they belong to.
	BaselineOf []string `json:"baseline_of,omitempty"`
	Papers     []string `json:"papers,omitempty"`
	// FreeMessages says why the accountant counts the first messages as
	// free (algorithms; "" when it does not).
	FreeMessages string `json:"free_messages,omitempty"`
	// Attack says what the gradient-leakage attack panel shows against
	// the algorithm ("" when it does not apply).
	Attack string `json:"attack,omitempty"`
}

// Hypothesis is an assumption's name and where its source states it.
type Hypothesis struct {
	Name   string `json:"name"`
	Source string `json:"source"`
}

func algorithmWords(w method.Words) *PluginWords {
	pw := &PluginWords{Messages: w.Messages, Symbols: w.Symbols, Authors: w.Authors, BaselineOf: w.BaselineOf,
		FreeMessages: w.FreeMessages, Attack: w.Attack}
	for _, a := range w.Assumptions {
		pw.Assumptions = append(pw.Assumptions, Hypothesis{Name: a.Name, Source: a.Source})
	}
	return pw
}

func problemWords(w objective.Words) *PluginWords {
	return &PluginWords{Picture: w.Picture, Nodes: w.Nodes, Curve: w.Curve, Symbols: w.Symbols, Papers: w.Papers}
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
		p := describePlugin(f.Name, f.Title, f.Paper, f.NewParams())
		p.Words = algorithmWords(f.Words)
		c.Algorithms = append(c.Algorithms, p)
	}
	for _, f := range Problems() {
		p := describePlugin(f.Name, f.Title, f.Source, f.NewParams())
		p.Words = problemWords(f.Words)
		c.Problems = append(c.Problems, p)
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
