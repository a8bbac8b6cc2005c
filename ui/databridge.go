//go:build js && wasm

package ui

import (
	"dpsim/core/jsonout"
	"errors"
	"syscall/js"

	"dpsim/core/scenario"
	"dpsim/ui/datafiles"
)

// needs returns the dataset files scenario s needs that the page has not
// provided, and all it uses.
func (a *App) needs(s *scenario.Scenario) datafiles.Report { return a.data.Report(s) }

// checkData refuses to build s while a dataset file it needs is missing,
// with an error saying so (instead of core/data's "no data source"), or
// a file of the user's it names (ui/userfiles.go).
func (a *App) checkData(s *scenario.Scenario) error {
	r := a.needs(s)
	if r.Error != "" {
		return errors.New(r.Error)
	}
	if len(r.Need) > 0 {
		return datafiles.Missing(r.Need)
	}
	// The page keeps the files it fetched without decoding them (a heavy
	// run decodes them in its Worker): a run of the page's own decodes
	// them here, now.
	if err := a.data.Ready(s); err != nil {
		return err
	}
	return checkUserFiles(s)
}

// checkBuild is the scenario builder's gate (ui/builder.go): checkData,
// and no build here of a scenario whose build takes long (heavyBuild) —
// its sections are checked, and it is built, off the page's thread, when
// loaded.
func (a *App) checkBuild(s *scenario.Scenario) error {
	if why := heavyBuild(s); why != "" {
		return errors.New("it is built in a background thread when loaded (" + why + ")")
	}
	return a.checkData(s)
}

// registerData adds the dataset calls to window.dpsim (docs/bridge.md).
func (a *App) registerData(fn func(name string, f func(args []js.Value) any)) {
	fn("dataNeeds", func(args []js.Value) any {
		var r datafiles.Report
		var s *scenario.Scenario
		var err error
		switch {
		case len(args) < 2 || args[0].Type() != js.TypeString || args[1].Type() != js.TypeString:
			r.Error = `dataNeeds needs ("preset", name) or ("text", scenario JSON)`
		case args[0].String() == "preset":
			s, err = scenario.PresetScenario(args[1].String())
		case args[0].String() == "text":
			s, err = scenario.Parse([]byte(args[1].String()))
		default:
			r.Error = `dataNeeds: the first argument must be "preset" or "text"`
		}
		// A scenario that does not parse needs nothing: loading it
		// reports the error.
		if s != nil && err == nil {
			r = a.needs(s)
		}
		out, _ := jsonout.Marshal(r)
		return string(out)
	})
	// The bytes are kept, not decoded: decoding a dataset takes the
	// thread for a while, and the runs that train on one build in a
	// Worker, which decodes them there (ui/remote.go).
	fn("provideData", func(args []js.Value) any { return a.data.KeepJS(args) })
	// The dataset files decoded on the page's thread (a run of the
	// page's own, a comparison): JSON, in name order. A run computed in
	// a Worker decodes its files there only.
	fn("dataDecoded", func([]js.Value) any {
		out, _ := jsonout.Marshal(a.data.Decoded())
		return string(out)
	})
	a.registerUserFiles(fn)
	fn("deferredQuery", func([]js.Value) any {
		if a.deferred == nil {
			return ""
		}
		out, _ := jsonout.Marshal(a.deferred)
		a.deferred = nil
		return string(out)
	})
}

// deferredQuery is a URL's preset (and seed) whose datasets the page
// must fetch first: ApplyQuery runs before the page can fetch anything,
// so it leaves the preset to the page (dpsim.deferredQuery).
type deferredQuery struct {
	Preset string `json:"preset,omitempty"`
	// Scenario is the URL's scenario text, when it gave one instead of a
	// preset (ui/share.go).
	Scenario string   `json:"scenario,omitempty"`
	Seed     *uint64  `json:"seed,omitempty"`
	Epsilon  *float64 `json:"epsilon,omitempty"`
}

// presetNeedsData reports whether the named preset needs a dataset file
// the page has not fetched.
func (a *App) presetNeedsData(name string) bool {
	s, err := scenario.PresetScenario(name)
	return err == nil && len(a.needs(s).Need) > 0
}
