//go:build js && wasm

// Command view is the page's view (public/view.wasm): a thin ebiten
// program that draws the pictures the simulator (public/dpsim.wasm, a
// second Go program in the same page) hands it through the bridge
// (render.Bridge, docs/bridge.md). It holds no simulation, so that it is
// small: the page shows the scenario's first frame before the simulator
// has even been fetched (docs/performance.md, start-up).
package main

import (
	"github.com/hajimehoshi/ebiten/v2"

	"dpsim/render"
)

func main() {
	g := render.NewGame(render.Bridge{})
	ebiten.SetRunnableOnUnfocused(true)
	// One Update per frame: the simulator paces the run by wall-clock
	// time, and at a low frame rate (a software GPU) ebiten would
	// otherwise call Update several times per frame to keep 60 ticks a
	// second, each one spending the player's budget, and stretch the
	// frame.
	ebiten.SetTPS(ebiten.SyncWithFPS)
	// The view repaints the whole canvas when it draws, and draws only
	// when the picture changed (render.Game.Draw): an idle page is idle.
	ebiten.SetScreenClearedEveryFrame(false)
	// The page keeps keyboard focus on its controls (docs/bridge.md).
	if err := ebiten.RunGameWithOptions(g, &ebiten.RunGameOptions{InitUnfocused: true}); err != nil {
		panic(err)
	}
}
