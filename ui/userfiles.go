//go:build js && wasm

package ui

import (
	"encoding/json"
	"errors"
	"strings"
	"syscall/js"

	"dpsim/core/data"
	"dpsim/core/scenario"
	"dpsim/ui/datafiles"
)

// The user's data files in the page: public/userdata.js reads a file the
// user picks or drops with the File API (nothing is uploaded) and hands
// its bytes to provideUserFile (datafiles.ProvideUserJS), which keeps them in this program's
// memory (core/data) for the session; a reload forgets them
// (docs/data.md, "Your own data").

// checkUserFiles refuses to build s while a file its data names is not
// at hand, saying how to give it.
func checkUserFiles(s *scenario.Scenario) error {
	return datafiles.UserReportOf(s).Missing("scenario")
}

// scenarioArg parses the page's ("preset", name) or ("text", JSON).
func scenarioArg(args []js.Value) (*scenario.Scenario, error) {
	if len(args) < 2 || args[0].Type() != js.TypeString || args[1].Type() != js.TypeString {
		return nil, errors.New(`needs ("preset", name) or ("text", scenario JSON)`)
	}
	switch args[0].String() {
	case "preset":
		return scenario.PresetScenario(args[1].String())
	case "text":
		return scenario.Parse([]byte(args[1].String()))
	}
	return nil, errors.New(`the first argument must be "preset" or "text"`)
}

// registerUserFiles adds the user-file calls to window.dpsim
// (docs/bridge.md).
func (a *App) registerUserFiles(fn func(name string, f func(args []js.Value) any)) {
	// userNeeds(kind, arg): the files a scenario names, and those the
	// session lacks. A scenario that does not parse needs nothing:
	// loading it reports the error.
	fn("userNeeds", func(args []js.Value) any {
		r := datafiles.UserReportOf()
		s, err := scenarioArg(args)
		switch {
		case len(args) < 2 || args[0].Type() != js.TypeString || args[1].Type() != js.TypeString:
			r.Error = "userNeeds: " + err.Error()
		case err == nil:
			r = datafiles.UserReportOf(s)
		}
		out, _ := json.Marshal(r)
		return string(out)
	})
	// provideUserFile(name, Uint8Array, pin): keeps the file under name
	// for the session; with pin (a sha256 the scenario names) other
	// content is refused naming both hashes.
	fn("provideUserFile", func(args []js.Value) any { return datafiles.ProvideUserJS(args) })
	// trainOn(name): the current scenario's learning problem on the
	// user's file name, as scenario text for the page to load ({ok,
	// text, error}).
	fn("trainOn", func(args []js.Value) any {
		o := js.Global().Get("Object").New()
		o.Set("ok", false)
		switch {
		case len(args) < 1 || args[0].Type() != js.TypeString:
			o.Set("error", "trainOn needs a file name")
		case a.scen == nil:
			o.Set("error", "no scenario is loaded")
		default:
			s, err := scenario.TrainOn(a.scen, args[0].String())
			if err != nil {
				o.Set("error", err.Error())
				break
			}
			o.Set("ok", true)
			o.Set("text", string(s.JSON()))
		}
		return o
	})
	// userFileBytes(name, pin): the file the session holds for a source
	// naming name and pinning pin ("" for none), for the Experiments
	// panel to hand its workers, as loadRemote hands a run's Worker:
	// {ok, bytes, sha256, error}; error is data.UserBytes's (not
	// provided, or another file under the name than the pin).
	fn("userFileBytes", func(args []js.Value) any {
		o := js.Global().Get("Object").New()
		o.Set("ok", false)
		if len(args) < 2 || args[0].Type() != js.TypeString || args[1].Type() != js.TypeString {
			o.Set("error", "userFileBytes needs a file name and a sha256 (or \"\")")
			return o
		}
		b, sha, err := data.UserBytes(args[0].String(), args[1].String())
		if err != nil {
			o.Set("error", err.Error())
			return o
		}
		o.Set("ok", true)
		o.Set("bytes", bytesJS(b))
		o.Set("sha256", sha)
		return o
	})
	// userFileSHA(name): the sha256 of the file the session holds under
	// name, or "".
	fn("userFileSHA", func(args []js.Value) any {
		if len(args) < 1 || args[0].Type() != js.TypeString {
			return ""
		}
		sha, _ := data.UserSHA256(strings.TrimSpace(args[0].String()))
		return sha
	})
}
