//go:build js && wasm

package ui

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"syscall/js"
	"time"

	"dpsim/core/data"
	"dpsim/core/scenario"
)

// The user's data files in the page: public/userdata.js reads a file the
// user picks or drops with the File API (nothing is uploaded) and hands
// its bytes to provideUserFile, which keeps them in this program's
// memory (core/data) for the session; a reload forgets them
// (docs/data.md, "Your own data").

// userNeed is one file a scenario names, for the page.
type userNeed struct {
	data.FileNeed
	// Have: the session holds a file for it (under its name, or with
	// the content it pins).
	Have bool `json:"have"`
}

// userReport is what dpsim.userNeeds returns.
type userReport struct {
	// Need lists the files the session lacks, Files every file the
	// scenario names.
	Need  []userNeed `json:"need"`
	Files []userNeed `json:"files"`
	Error string     `json:"error,omitempty"`
}

func userReportOf(s *scenario.Scenario) userReport {
	r := userReport{Need: []userNeed{}, Files: []userNeed{}}
	for _, f := range scenario.UserFiles(s) {
		n := userNeed{FileNeed: f, Have: data.HasUserFile(f.Name, f.SHA256)}
		r.Files = append(r.Files, n)
		if !n.Have {
			r.Need = append(r.Need, n)
		}
	}
	return r
}

// checkUserFiles refuses to build s while a file its data names is not
// at hand, saying how to give it.
func checkUserFiles(s *scenario.Scenario) error {
	r := userReportOf(s)
	if len(r.Need) == 0 {
		return nil
	}
	f := r.Need[0]
	pin := ""
	if f.SHA256 != "" {
		pin = " (sha256 " + f.SHA256 + ")"
	}
	return fmt.Errorf("%s: the scenario trains on your file %s%s: pick it or drop it on the page (it is read in this tab, never uploaded)", f.Field, f.Name, pin)
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

// provideUserFileJS is provideUserFile(name, Uint8Array, pin), on the
// page and in a heavy run's Worker (ui/worker.go), which the page hands
// the files of the scenario it builds: it keeps the file under name for
// the session; with pin (a sha256 the scenario names) other content is
// refused naming both hashes. Returns {ok, sha256, bytes, ms, error}.
func provideUserFileJS(args []js.Value) any {
	o := js.Global().Get("Object").New()
	o.Set("ok", false)
	if len(args) < 2 || args[0].Type() != js.TypeString || !args[1].InstanceOf(js.Global().Get("Uint8Array")) {
		o.Set("error", "provideUserFile needs a file name and a Uint8Array")
		return o
	}
	name, n := args[0].String(), args[1].Get("length").Int()
	if n > data.MaxUserFileBytes {
		o.Set("error", fmt.Sprintf("%s: %d bytes: a data file may have at most %d (256 MiB)", name, n, data.MaxUserFileBytes))
		return o
	}
	pin := ""
	if len(args) > 2 && args[2].Type() == js.TypeString {
		pin = args[2].String()
	}
	b := make([]byte, n)
	js.CopyBytesToGo(b, args[1])
	t0 := time.Now()
	sha, err := data.ProvideUserPinned(name, b, pin)
	o.Set("ms", float64(time.Since(t0).Microseconds())/1000)
	if err != nil {
		o.Set("error", err.Error())
		return o
	}
	o.Set("ok", true)
	o.Set("sha256", sha)
	o.Set("bytes", n)
	return o
}

// registerUserFiles adds the user-file calls to window.dpsim
// (docs/bridge.md).
func (a *App) registerUserFiles(fn func(name string, f func(args []js.Value) any)) {
	// userNeeds(kind, arg): the files a scenario names, and those the
	// session lacks. A scenario that does not parse needs nothing:
	// loading it reports the error.
	fn("userNeeds", func(args []js.Value) any {
		r := userReport{Need: []userNeed{}, Files: []userNeed{}}
		s, err := scenarioArg(args)
		switch {
		case len(args) < 2 || args[0].Type() != js.TypeString || args[1].Type() != js.TypeString:
			r.Error = "userNeeds: " + err.Error()
		case err == nil:
			r = userReportOf(s)
		}
		out, _ := json.Marshal(r)
		return string(out)
	})
	// provideUserFile(name, Uint8Array, pin): keeps the file under name
	// for the session; with pin (a sha256 the scenario names) other
	// content is refused naming both hashes.
	fn("provideUserFile", provideUserFileJS)
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
