//go:build js && wasm

package main

import (
	"fmt"
	"syscall/js"

	"dpsim/core/data"
	"dpsim/core/experiment"
	"dpsim/core/scenario"
	"dpsim/ui/datafiles"
)

// The user's data files in a sweep (docs/experiments.md, "The page"): an
// experiment whose scenarios train on files of the user's (a dropped
// experiment naming them by sha256, or the page's current scenario
// swept) is planned only once each worker holds them. The page's
// simulator holds the files the user picked or dropped; the panel hands
// each worker those the experiment names (provideUserFile, the page
// simulator's own call: datafiles.ProvideUserJS), and a file the page
// does not hold is asked for in one line (datafiles.UserReport.Missing)
// before anything is planned.

// userPoints works out every series and point of e once and refuses to
// plan it while this worker lacks a file they name, in one line naming
// the field, the file and its pin. A point that does not work out is
// refused with its own error: listing no files and planning anyway
// would fail on the first series for want of its data file instead
// (dpsim sweep's provideExperimentFiles does the same).
func userPoints(e *experiment.Experiment) (*experiment.Points, error) {
	ps, err := experiment.PointsOf(e)
	if err != nil {
		return nil, err
	}
	if err := datafiles.UserReportOf(ps.Scenarios()...).Missing("experiment"); err != nil {
		return nil, err
	}
	return ps, nil
}

// userNeedsJS is userNeeds(kind, arg): the user's files the experiment
// (kind "preset": a name, the page's own included; "experiment": its
// JSON, or a comparison's: needScenarios) names, as JSON {need, files,
// missing, missing_count, error}: need those this worker lacks, missing
// the one-line request for them, missing_count how many files it asks
// for (the page says "it" or "them" by it). An experiment that does not
// parse names none: planning it reports the error.
func userNeedsJS(a []js.Value) any {
	if len(a) < 2 || a[0].Type() != js.TypeString || a[1].Type() != js.TypeString {
		return errValue(fmt.Errorf(`userNeeds needs ("preset", name) or ("experiment", JSON)`))
	}
	scs, err := needScenarios(a[0].String(), a[1].String())
	if err != nil {
		return errValue(fmt.Errorf("userNeeds: %w", err))
	}
	r := datafiles.UserReportOf(scs...)
	// Missing is the one line a page shows while it asks for them.
	out := struct {
		datafiles.UserReport
		Missing string `json:"missing,omitempty"`
		// MissingCount is how many files Missing asks for.
		MissingCount int `json:"missing_count"`
	}{UserReport: r, MissingCount: len(r.Need)}
	if err := r.Missing("experiment"); err != nil {
		out.Missing = err.Error()
	}
	return jsonString(out)
}

// fromScenarioJS is fromScenario(scenarioJSON, field, values, runs): the
// sweep of one scenario (experiment.FromScenario; values as typed,
// "0.1, 1, 10"), kept under its name as a dropped experiment is
// (define), and returned as {name, title, json}.
func fromScenarioJS(a []js.Value) any {
	if len(a) < 4 || a[0].Type() != js.TypeString || a[1].Type() != js.TypeString || a[2].Type() != js.TypeString || a[3].Type() != js.TypeNumber {
		return errValue(fmt.Errorf("fromScenario needs the scenario's JSON, a field, its values and the runs per point"))
	}
	s, err := scenario.Parse([]byte(a[0].String()))
	if err != nil {
		return errValue(fmt.Errorf("scenario: %w", err))
	}
	values, err := experiment.ParseValues(a[2].String())
	if err != nil {
		return errValue(err)
	}
	e, err := experiment.FromScenario(s, a[1].String(), values, a[3].Int())
	if err != nil {
		return errValue(err)
	}
	keep(e)
	return jsonString(struct {
		Name  string `json:"name"`
		Title string `json:"title"`
		// JSON is the experiment's text, which the page's other workers
		// are given (define).
		JSON string `json:"json"`
	}{e.Name, e.Title, string(e.JSON())})
}

// provideUserJS is provideUserFile(name, bytes, pin), the page
// simulator's call; a file that replaces other content under its name
// drops the plans built so far, whose problems may hold the old rows.
func provideUserJS(a []js.Value) any {
	before := ""
	if len(a) > 0 && a[0].Type() == js.TypeString {
		before, _ = data.UserSHA256(a[0].String())
	}
	o := datafiles.ProvideUserJS(a)
	if o.Get("ok").Bool() && before != "" && o.Get("sha256").String() != before {
		clear(plans)
	}
	return o
}

func init() {
	extra["userNeeds"] = userNeedsJS
	extra["provideUserFile"] = provideUserJS
	extra["fromScenario"] = fromScenarioJS
}
