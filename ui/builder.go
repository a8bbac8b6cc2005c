//go:build js && wasm

package ui

import (
	"dpsim/core/jsonout"
	"encoding/json"
	"syscall/js"

	"dpsim/core/scenario"
)

// registerBuilder adds the scenario builder's calls to window.dpsim
// (docs/builder.md):
//
//	builderCatalog()            the JSON of scenario.Form(): every plug-in
//	                            with its parameters, and the scenario's own
//	                            fields, for public/builder.js to draw
//	validate(text)              the JSON of scenario.CheckAll for the page:
//	                            every error and warning with its field path
//	builderChoose(text, section, kind)
//	                            {"json": text with the section switched to
//	                            kind (scenario.Choose)} or {"error": …}
//
// A scenario whose dataset the page has not fetched is checked section by
// section but not built (Report.Note says why): the builder's Build
// button fetches it, as the editor's Load does.
func (a *App) registerBuilder(fn func(name string, f func(args []js.Value) any)) {
	fn("builderCatalog", func([]js.Value) any {
		out, err := jsonout.Marshal(scenario.Form())
		if err != nil {
			a.lastErr = "builderCatalog: " + err.Error()
			return ""
		}
		return string(out)
	})
	fn("validate", func(args []js.Value) any {
		var r scenario.Report
		if len(args) == 0 || args[0].Type() != js.TypeString {
			r = scenario.Report{Errors: []scenario.FieldError{{Msg: "validate needs the scenario's JSON text"}}, Warnings: []scenario.FieldError{}}
		} else {
			r = scenario.CheckAll([]byte(args[0].String()), scenario.Page, a.checkBuild)
		}
		out, _ := jsonout.Marshal(r)
		return string(out)
	})
	fn("builderChoose", func(args []js.Value) any {
		fail := func(msg string) any {
			out, _ := jsonout.Marshal(map[string]string{"error": msg})
			return string(out)
		}
		if len(args) < 3 || args[0].Type() != js.TypeString || args[1].Type() != js.TypeString || args[2].Type() != js.TypeString {
			return fail("builderChoose needs (scenario JSON, section, kind)")
		}
		text, err := scenario.Choose([]byte(args[0].String()), args[1].String(), args[2].String(), scenario.Page, a.checkBuild)
		if err != nil {
			return fail(err.Error())
		}
		out, _ := jsonout.Marshal(map[string]json.RawMessage{"json": text})
		return string(out)
	})
}
