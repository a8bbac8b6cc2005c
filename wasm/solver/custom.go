//go:build js && wasm

package main

import (
	"fmt"
	"strings"
	"syscall/js"

	"dpsim/core/experiment"
)

// customs holds the experiments the page handed over as JSON (a file
// dropped on the page, public/export.js, or a comparison's privacy–utility
// experiment, experimentFromJSON), by name: plan, runTask, assemble and
// dataNeeds find them before the presets of the same name.
var customs = map[string]*experiment.Experiment{}

// lookup returns the experiment called name, a copy the caller may
// change: the page's own, else the preset.
func lookup(name string) (*experiment.Experiment, error) {
	if e, ok := customs[name]; ok {
		return experiment.Parse(e.JSON())
	}
	return experiment.PresetExperiment(name)
}

// define reads an experiment's JSON with the checks of "dpsim sweep FILE"
// (experiment.Parse: one-line errors naming the field, the rule and the
// value) and keeps it under its name, replacing an earlier one and its
// plans. Planning it (plan) checks the rest, once its datasets are here.
func define(text string) (*experiment.Experiment, error) {
	e, err := experiment.Parse([]byte(text))
	if err != nil {
		return nil, err
	}
	keep(e)
	return e, nil
}

// keep registers e under its name, replacing an earlier one and its plans.
func keep(e *experiment.Experiment) {
	customs[e.Name] = e
	for key := range plans {
		if strings.HasPrefix(key, e.Name+"/") {
			delete(plans, key)
		}
	}
}

// defineJS is self.dpsimSolver.define(json): {name, title} as JSON, or
// {error}.
func defineJS(a []js.Value) any {
	if len(a) == 0 || a[0].Type() != js.TypeString {
		return errValue(fmt.Errorf("define needs the experiment's JSON text"))
	}
	e, err := define(a[0].String())
	if err != nil {
		return errValue(fmt.Errorf("experiment: %w", err))
	}
	return jsonString(struct {
		Name  string `json:"name"`
		Title string `json:"title"`
	}{e.Name, e.Title})
}
