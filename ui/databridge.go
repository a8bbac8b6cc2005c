//go:build js && wasm

package ui

import (
	"encoding/json"
	"errors"
	"syscall/js"
	"time"

	"github.com/norunners/vert"

	"dpsim/core/scenario"
)

// dataNeeds is what dpsim.dataNeeds returns (as JSON): the files to
// fetch before building a scenario, and every file it uses (for the note
// shown beside its results, fetched or not).
type dataNeeds struct {
	Need  []DataFile `json:"need"`
	Uses  []DataFile `json:"uses"`
	Error string     `json:"error,omitempty"`
}

// provideResult is what dpsim.provideData returns.
type provideResult struct {
	OK    bool   `js:"ok"`
	Error string `js:"error"`
	// Ms is how long the check and decode took, in milliseconds: Go runs
	// on the page's main thread, so this is how long the page was busy.
	Ms float64 `js:"ms"`
}

// needs returns the dataset files scenario s needs that the page has not
// provided, and all it uses.
func (a *App) needs(s *scenario.Scenario) dataNeeds {
	// Empty lists, not null, for the page.
	r := dataNeeds{Need: []DataFile{}, Uses: []DataFile{}}
	need, err := Needs(s, a.data.Has)
	r.Need = append(r.Need, need...)
	if err != nil {
		r.Error = err.Error()
		return r
	}
	uses, _ := Needs(s, nil)
	r.Uses = append(r.Uses, uses...)
	return r
}

// checkData refuses to build s while a dataset file it needs is missing,
// with an error saying so (instead of core/data's "no data source").
func (a *App) checkData(s *scenario.Scenario) error {
	r := a.needs(s)
	if r.Error != "" {
		return errors.New(r.Error)
	}
	if len(r.Need) > 0 {
		return missingData(r.Need)
	}
	return nil
}

// registerData adds the dataset calls to window.dpsim (docs/bridge.md).
func (a *App) registerData(fn func(name string, f func(args []js.Value) any)) {
	fn("dataNeeds", func(args []js.Value) any {
		var r dataNeeds
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
		out, _ := json.Marshal(r)
		return string(out)
	})
	fn("provideData", func(args []js.Value) any {
		r := provideResult{}
		if len(args) < 2 || args[0].Type() != js.TypeString || !args[1].InstanceOf(js.Global().Get("Uint8Array")) {
			r.Error = "provideData needs a file name and a Uint8Array"
			return vert.ValueOf(r).JSValue()
		}
		b := make([]byte, args[1].Get("length").Int())
		js.CopyBytesToGo(b, args[1])
		t0 := time.Now()
		err := a.data.Provide(args[0].String(), b)
		r.Ms = float64(time.Since(t0).Microseconds()) / 1000
		if err != nil {
			r.Error = err.Error()
		} else {
			r.OK = true
		}
		return vert.ValueOf(r).JSValue()
	})
	fn("deferredQuery", func([]js.Value) any {
		if a.deferred == nil {
			return ""
		}
		out, _ := json.Marshal(a.deferred)
		a.deferred = nil
		return string(out)
	})
}

// deferredQuery is a URL's preset (and seed) whose datasets the page
// must fetch first: ApplyQuery runs before the page can fetch anything,
// so it leaves the preset to the page (dpsim.deferredQuery).
type deferredQuery struct {
	Preset string  `json:"preset"`
	Seed   *uint64 `json:"seed,omitempty"`
}

// presetNeedsData reports whether the named preset needs a dataset file
// the page has not fetched.
func (a *App) presetNeedsData(name string) bool {
	s, err := scenario.PresetScenario(name)
	return err == nil && len(a.needs(s).Need) > 0
}
