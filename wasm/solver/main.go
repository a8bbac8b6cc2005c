//go:build js && wasm

// Command solver is the page's sweep engine (public/solver.wasm): the
// experiment engine and the figure code, without ebiten, run in Web
// Workers (public/sweep-worker.js), one per core. It produces the same
// JSON, CSV, SVG and PNG bytes as "dpsim sweep".
//
// It sets self.dpsimSolver, an object of synchronous functions (a worker
// may block: the page's thread never waits on it):
//
//	presets()                        JSON [{name, title, reproduces}]
//	plan(name, runs)                 JSON {name, title, description, tasks, runs, series: [{name, label, first, points}]}
//	runTask(name, runs, t[, report]) JSON of task t's run record; report(done, total) hears the iterations as it runs
//	assemble(name, runs, records)    {json, csv, figure} from a JSON array of run records (any order, any subset)
//	figure(resultJSON, format)       "svg" → string, "png" → Uint8Array
//	figureData(figureJSON, format)   the same from a figure's data (assemble's figure), without the plan or its datasets
//	dataNeeds(kind, arg)             JSON {need, uses, error}: the dataset files the experiment (kind "preset": a name; "experiment": its JSON, or a comparison's, as experimentFromJSON takes it) trains on, need those not provided yet
//	provideData(file, bytes)         {ok, error, ms}: hands over a fetched dataset file (checked against the manifest, decoded, kept for the worker's life)
//	attack(dataset, optionsJSON)     JSON attack.Report: the gradient-leakage attack on DP-RECAL's baton
//	experimentFromJSON(text)         JSON {name, title, json}: registers an experiment given as JSON (or a comparison, dpsim-compare/1, as its privacy–utility experiment, experiment.FromComparison) under its name, which plan, runTask, assemble and dataNeeds("preset", name) then accept like a preset's
//	define(experimentJSON)           JSON {name, title}: keeps an experiment of the page's (a dropped file) under its name, for plan, runTask, assemble and dataNeeds (wasm/solver/custom.go)
//	userNeeds(kind, arg)             JSON {need, files, missing, missing_count, error}: the user's data files the experiment (as dataNeeds) names, need those not provided yet, missing the one line asking for them and missing_count how many it asks for (wasm/solver/userfiles.go)
//	provideUserFile(name, bytes, pin) {ok, sha256, bytes, ms, error}: hands over a file of the user's the page holds, with the sha256 it read (the page simulator's call, datafiles.ProvideUserJS)
//	fromScenario(json, field, values, runs) JSON {name, title, json}: keeps the sweep of one scenario (experiment.FromScenario) under its name, as define
//	settings()                       JSON [param.Field]: the panel's Workers setting as declared (experiment.PageSettings: default, range, unit, doc)
//	workers(name, runs, text, cores) JSON {workers, auto, note, setting, hint, said}: how many Workers run the sweep or audit for the Workers field's text on a machine of cores cores (experiment.CheckPageWorkers, Plan.PageWorkers: the engine's memory refusal, naming the field, is the error); name "" checks the text alone
//
// An experiment whose problem trains on a committed dataset can be
// planned (plan, runTask, assemble, figure) only once its files are
// provided: the page fetches each once and hands the bytes to every
// worker (public/experiments.js), with the checks and messages of the
// main page (ui/datafiles, public/datafetch.js). One that trains on the
// user's files is planned once the page has handed them over
// (provideUserFile); plan refuses it before, in one line naming the
// file.
//
// runs replaces the experiment's runs per point, as "dpsim sweep --runs"
// does (0: the preset's own). Errors are returned as {error: "..."}.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"syscall/js"
	"time"

	"dpsim/core/attack"
	"dpsim/core/data"
	"dpsim/core/experiment"
	"dpsim/core/jsonout"
	"dpsim/core/param"
	"dpsim/core/scenario"
	"dpsim/render/figure"
	"dpsim/ui/datafiles"
)

var plans = map[string]*experiment.Plan{}

// extra holds the calls other files of this program add to
// self.dpsimSolver (userfiles.go), by name.
var extra = map[string]func(args []js.Value) any{}

// provided is this worker's cache of the dataset files handed over.
var provided datafiles.Provided

// dataNeeds reports the dataset files of an experiment given by preset
// name or as JSON. An experiment that does not parse needs nothing:
// planning it reports the error.
func dataNeeds(kind, arg string) datafiles.Report {
	scs, err := needScenarios(kind, arg)
	if err != nil {
		return datafiles.Report{Need: []datafiles.DataFile{}, Uses: []datafiles.DataFile{},
			Error: "dataNeeds: " + err.Error()}
	}
	return provided.Report(scs...)
}

// needScenarios returns the scenarios whose data an experiment given by
// kind ("preset": a name, the page's own included; "experiment": its
// JSON, or a comparison's, dpsim-compare/1, which experimentFromJSON
// turns into one by building its entries) trains on: none for one that
// does not parse (planning it reports the error). An unknown kind is the
// error.
func needScenarios(kind, arg string) ([]*scenario.Scenario, error) {
	var e *experiment.Experiment
	var err error
	switch kind {
	case "preset":
		e, err = lookup(arg)
	case "experiment":
		if compareFormat([]byte(arg)) {
			c, err := scenario.ParseComparison([]byte(arg))
			if err != nil {
				return nil, nil
			}
			var scs []*scenario.Scenario
			for i := range c.Compare {
				if s, err := c.EntryScenario(i); err == nil {
					scs = append(scs, s)
				}
			}
			return append(scs, c.BaseScenario()), nil
		}
		e, err = experiment.Parse([]byte(arg))
	default:
		return nil, fmt.Errorf(`the first argument must be "preset" or "experiment"`)
	}
	if err != nil {
		return nil, nil
	}
	scs, err := experiment.Scenarios(e)
	if err != nil {
		return nil, nil
	}
	return scs, nil
}

// compareFormat reports whether text is a comparison (dpsim-compare/1).
func compareFormat(text []byte) bool {
	var head struct {
		Format string `json:"format"`
	}
	_ = json.Unmarshal(text, &head)
	return head.Format == scenario.CompareFormat
}

// plan returns the plan of preset name with runs per point (0: the
// preset's), built once.
func plan(name string, runs int) (*experiment.Plan, error) {
	key := fmt.Sprintf("%s/%d", name, runs)
	if p, ok := plans[key]; ok {
		return p, nil
	}
	e, err := lookup(name)
	if err != nil {
		return nil, err
	}
	if runs != 0 {
		// As dpsim sweep --runs: the same validation, the same bytes.
		e.Runs = runs
		if e, err = experiment.Parse(e.JSON()); err != nil {
			return nil, fmt.Errorf("runs per point: %w", err)
		}
	}
	ps, err := userPoints(e) // the user's files first, in one line (userfiles.go)
	if err != nil {
		return nil, err
	}
	p, err := experiment.NewPlanFrom(context.Background(), e, ps)
	if err != nil {
		return nil, err
	}
	plans[key] = p
	return p, nil
}

// fromJSON parses an experiment, or a comparison's privacy–utility
// experiment, and registers it (dropping the plans of an earlier one of
// the same name).
func fromJSON(text []byte) (*experiment.Experiment, error) {
	var e *experiment.Experiment
	var err error
	if compareFormat(text) {
		var c *scenario.Comparison
		if c, err = scenario.ParseComparison(text); err != nil {
			return nil, err
		}
		e, err = experiment.FromComparison(c)
	} else {
		e, err = experiment.Parse(text)
	}
	if err != nil {
		return nil, err
	}
	keep(e)
	return e, nil
}

func errValue(err error) js.Value {
	o := js.Global().Get("Object").New()
	o.Set("error", err.Error())
	return o
}

func jsonString(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return errValue(err)
	}
	return string(b)
}

func bytesToJS(b []byte) js.Value {
	u8 := js.Global().Get("Uint8Array").New(len(b))
	js.CopyBytesToJS(u8, b)
	return u8
}

// fn wraps f so that a panic becomes an {error} value rather than killing
// the worker's Go program.
func fn(f func(args []js.Value) any) js.Func {
	return js.FuncOf(func(_ js.Value, args []js.Value) (out any) {
		defer func() {
			if r := recover(); r != nil {
				out = errValue(fmt.Errorf("solver: %v", r))
			}
		}()
		return f(args)
	})
}

func main() {
	api := js.Global().Get("Object").New()
	api.Set("presets", fn(func([]js.Value) any { return jsonString(experiment.Presets()) }))
	api.Set("define", fn(defineJS))
	api.Set("plan", fn(func(a []js.Value) any {
		p, err := plan(a[0].String(), a[1].Int())
		if err != nil {
			return errValue(err)
		}
		type series struct {
			Name  string `json:"name"`
			Label string `json:"label"`
			// First is the series' first task; Points its x points.
			First  int `json:"first"`
			Points int `json:"points"`
		}
		info := struct {
			Name        string   `json:"name"`
			Title       string   `json:"title"`
			Description string   `json:"description"`
			Tasks       int      `json:"tasks"`
			Runs        int      `json:"runs"`
			Series      []series `json:"series"`
		}{Name: p.Exp.Name, Title: p.Exp.Title, Description: p.Exp.Description, Tasks: p.Tasks(), Runs: p.Exp.Runs}
		for i, s := range p.Exp.Series {
			l := s.Label
			if l == "" {
				l = s.Name
			}
			info.Series = append(info.Series, series{s.Name, l, p.TaskIndex(i, 0, 0), p.Points(i)})
		}
		return jsonString(info)
	}))
	api.Set("settings", fn(func([]js.Value) any { return jsonString(param.Describe(experiment.PageSettings{})) }))
	api.Set("workers", fn(func(a []js.Value) any {
		n, err := experiment.CheckPageWorkers(a[2].String(), a[3].Int())
		if err != nil {
			return errValue(err)
		}
		// Setting names the field, Hint says what auto means here (""
		// for a count), Said how many run and whose choice that is.
		out := struct {
			Workers int    `json:"workers"`
			Auto    bool   `json:"auto"`
			Note    string `json:"note"`
			Setting string `json:"setting"`
			Hint    string `json:"hint"`
			Said    string `json:"said"`
		}{Workers: n, Auto: n == 0, Setting: experiment.PageWorkersSetting}
		if out.Auto {
			out.Hint = experiment.PageWorkersAuto(a[3].Int())
		}
		if a[0].String() == "" {
			return jsonString(out)
		}
		p, err := plan(a[0].String(), a[1].Int())
		if err != nil {
			return errValue(err)
		}
		if out.Workers, out.Note, err = p.PageWorkers(n, a[3].Int()); err != nil {
			return errValue(err)
		}
		out.Said = experiment.PageWorkersSaid(out.Workers, out.Auto)
		return jsonString(out)
	}))
	api.Set("runTask", fn(func(a []js.Value) any {
		p, err := plan(a[0].String(), a[1].Int())
		if err != nil {
			return errValue(err)
		}
		t := a[2].Int()
		if t < 0 || t >= p.Tasks() {
			return errValue(fmt.Errorf("task %d does not exist (0 to %d)", t, p.Tasks()-1))
		}
		// An optional fourth argument, a function, hears how far the run
		// is — (done, total) iterations, at most five times a second — so
		// that one long run (a CNN) shows progress before its record.
		var report func(done, total int)
		if len(a) > 3 && a[3].Type() == js.TypeFunction {
			cb := a[3]
			last := time.Now()
			report = func(done, total int) {
				if now := time.Now(); now.Sub(last) >= 200*time.Millisecond {
					last = now
					cb.Invoke(done, total)
				}
			}
		}
		rec, err := p.RunTaskReporting(context.Background(), t, report)
		if err != nil {
			return errValue(err)
		}
		return jsonString(rec)
	}))
	api.Set("assemble", fn(func(a []js.Value) any {
		p, err := plan(a[0].String(), a[1].Int())
		if err != nil {
			return errValue(err)
		}
		var recs []experiment.RunRecord
		if err := json.Unmarshal([]byte(a[2].String()), &recs); err != nil {
			return errValue(err)
		}
		res, err := experiment.Assemble(p, recs, nil)
		if err != nil {
			return errValue(err)
		}
		fd, err := jsonout.Marshal(p.Figure(res))
		if err != nil {
			return errValue(err)
		}
		o := js.Global().Get("Object").New()
		o.Set("json", string(res.JSON()))
		o.Set("csv", string(p.CSV(res)))
		o.Set("figure", string(fd))
		return o
	}))
	api.Set("figure", fn(func(a []js.Value) any {
		res, p, err := experiment.ReadResult([]byte(a[0].String()))
		if err != nil {
			return errValue(err)
		}
		format := a[1].String()
		b, err := figure.Bytes(p.Figure(res), format)
		if err != nil {
			return errValue(err)
		}
		if format == figure.SVG {
			return string(b)
		}
		return bytesToJS(b)
	}))
	// figureData draws a figure from its FigureData JSON (a kept sweep's,
	// as assemble gave it): the same bytes as figure on the result, with
	// no plan, so no dataset is needed (the gallery's pictures).
	api.Set("figureData", fn(func(a []js.Value) any {
		var fd experiment.FigureData
		if err := json.Unmarshal([]byte(a[0].String()), &fd); err != nil {
			return errValue(fmt.Errorf("figure data: %v", err))
		}
		format := a[1].String()
		b, err := figure.Bytes(fd, format)
		if err != nil {
			return errValue(err)
		}
		if format == figure.SVG {
			return string(b)
		}
		return bytesToJS(b)
	}))
	api.Set("dataNeeds", fn(func(a []js.Value) any { return jsonString(dataNeeds(a[0].String(), a[1].String())) }))
	api.Set("provideData", fn(func(a []js.Value) any { return provided.ProvideJS(a) }))
	api.Set("attack", fn(func(a []js.Value) any {
		o := attack.DefaultOptions()
		if err := json.Unmarshal([]byte(a[1].String()), &o); err != nil {
			return errValue(fmt.Errorf("attack options: %v", err))
		}
		set, err := data.Load(a[0].String(), "train")
		if err != nil {
			return errValue(err)
		}
		rep, err := attack.FromDataset(set, o)
		if err != nil {
			return errValue(err)
		}
		return jsonString(rep)
	}))
	api.Set("experimentFromJSON", fn(func(a []js.Value) any {
		e, err := fromJSON([]byte(a[0].String()))
		if err != nil {
			return errValue(err)
		}
		// json is the experiment's own text: the page's other workers are
		// given it (define), so that none builds the comparison again —
		// which needs its data there first.
		return jsonString(map[string]string{"name": e.Name, "title": e.Title, "json": string(e.JSON())})
	}))
	for name, f := range extra {
		api.Set(name, fn(f))
	}
	js.Global().Set("dpsimSolver", api)
	select {}
}
