//go:build js && wasm

package ui

import (
	"fmt"
	"syscall/js"

	"github.com/hajimehoshi/ebiten/v2"

	"dpsim/core/scenario"
)

// Run is the page's program: it loads the default preset, registers the
// bridge, applies the URL's query and runs the ebiten view until the page
// closes. wasm/app calls it, and so do the test programs that register a
// test-only plug-in first (ui/internal/*/app).
func Run(title string) {
	// Start-up marks for bench/page/startup.sh: Go's runtime and package
	// initialisation end here; the default scenario's build follows.
	mark("dpsim-go-main")
	app := New()
	if err := app.LoadPreset(scenario.DefaultPreset); err != nil {
		// The embedded default is tested; this would be a build error.
		panic(fmt.Sprintf("the default scenario does not load: %v", err))
	}
	mark("dpsim-scenario-built")
	app.Register()
	app.ApplyQuery()
	ebiten.SetRunnableOnUnfocused(true)
	// One Update per frame: the player paces the run by wall-clock time, and
	// at a low frame rate (a software GPU) ebiten would otherwise call
	// Update several times per frame to keep 60 ticks a second, each one
	// spending the player's budget, and stretch the frame.
	ebiten.SetTPS(ebiten.SyncWithFPS)
	// The view repaints the whole canvas when it draws, and draws only
	// when the picture changed (render.Game.Draw): an idle page is idle.
	ebiten.SetScreenClearedEveryFrame(false)
	ebiten.SetWindowTitle(title)
	// The page keeps keyboard focus on its controls (docs/bridge.md).
	if err := ebiten.RunGameWithOptions(app.Game(), &ebiten.RunGameOptions{InitUnfocused: true}); err != nil {
		panic(err)
	}
}

// mark sets a performance mark (nothing where the page has no
// performance API).
func mark(name string) {
	if p := js.Global().Get("performance"); p.Truthy() && p.Get("mark").Truthy() {
		p.Call("mark", name)
	}
}
