//go:build js && wasm

// Command app is the page's program (wasm/app) with the data toy
// registered: a problem that loads a committed dataset, which no built-in
// problem does yet. The end-to-end test e2e/data.test.js builds it and
// serves it in place of dpsim.wasm, to check how the page fetches a
// dataset on demand. It is never part of the site.
package main

import (
	"fmt"

	"github.com/hajimehoshi/ebiten/v2"

	"dpsim/core/scenario"
	"dpsim/ui"
	"dpsim/ui/internal/datatoy"
)

func main() {
	if _, err := datatoy.Register(); err != nil {
		panic(fmt.Sprintf("registering the data toy: %v", err))
	}
	app := ui.New()
	if err := app.LoadPreset(scenario.DefaultPreset); err != nil {
		panic(fmt.Sprintf("the default scenario does not load: %v", err))
	}
	app.Register()
	app.ApplyQuery()
	// As wasm/app: one Update per frame, no clearing, keyboard focus on
	// the page's controls.
	ebiten.SetRunnableOnUnfocused(true)
	ebiten.SetTPS(ebiten.SyncWithFPS)
	ebiten.SetScreenClearedEveryFrame(false)
	ebiten.SetWindowTitle("dpsim (data toy)")
	if err := ebiten.RunGameWithOptions(app.Game(), &ebiten.RunGameOptions{InitUnfocused: true}); err != nil {
		panic(err)
	}
}
