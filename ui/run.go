//go:build js && wasm

package ui

import (
	"fmt"
	"syscall/js"

	"dpsim/core/scenario"
)

// Run is the page's simulator: it loads the default preset, registers the
// bridge, applies the URL's query and then serves the page's calls until
// it closes. It draws nothing: the view program (wasm/view) asks it for
// each picture through the bridge (ui/viewbridge.go). wasm/app calls it,
// and so do the test programs that register a test-only plug-in first
// (ui/internal/*/app); title names the program in its start-up errors.
//
// In the Web Worker of a heavy scenario (public/run-worker.js sets
// self.dpsimWorker) the same program serves the page's simulator
// instead (Serve), with the same plug-ins registered.
func Run(title string) {
	if js.Global().Get("dpsimWorker").Truthy() {
		Serve()
	}
	// Start-up marks for bench/page/startup.sh: Go's runtime and package
	// initialisation end here; the default scenario's build follows.
	mark("dpsim-go-main")
	app := New()
	if err := app.LoadPreset(scenario.DefaultPreset); err != nil {
		// The embedded default is tested; this would be a build error.
		panic(fmt.Sprintf("%s: the default scenario does not load: %v", title, err))
	}
	mark("dpsim-scenario-built")
	app.Register()
	app.ApplyQuery()
	select {} // the bridge's callbacks run the program from here on
}

// mark sets a performance mark (nothing where the page has no
// performance API).
func mark(name string) {
	if p := js.Global().Get("performance"); p.Truthy() && p.Get("mark").Truthy() {
		p.Call("mark", name)
	}
}
