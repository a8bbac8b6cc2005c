//go:build js && wasm

// Command view is the page's view (public/view.wasm): a thin ebiten
// program that draws the pictures the simulator (public/dpsim.wasm, a
// second Go program in the same page) hands it through the bridge
// (render.Bridge, docs/bridge.md). It holds no simulation, so that it is
// small. Until the simulator is up it draws the scenario's first frame
// from the snapshot the page fetched (render.SnapshotSource), so that the
// page shows the scenario before the simulator has even been fetched
// (docs/performance.md, start-up).
package main

import (
	"syscall/js"

	"github.com/hajimehoshi/ebiten/v2"

	"dpsim/render"
)

func main() {
	mark("dpsim-view-go-main")
	bridge, snap := render.Bridge{}, &render.SnapshotSource{}
	g := render.NewGame(bridge, snap)
	// The page learns of the view's first picture of each kind
	// (window.dpsimViewDrew("snapshot" or "simulator", the snapshot's
	// decode and first mesh in ms)): the first one is the page's first
	// frame, after which it loads the simulator.
	told := map[render.Source]bool{}
	g.OnDraw = func(src render.Source) {
		if told[src] {
			return
		}
		told[src] = true
		kind := "simulator"
		if src == render.Source(snap) {
			kind = "snapshot"
		}
		if f := js.Global().Get("dpsimViewDrew"); f.Type() == js.TypeFunction {
			f.Invoke(kind, float64(snap.Build.Microseconds())/1000)
		}
	}
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

// mark sets a performance mark, for bench/page/startup.sh.
func mark(name string) {
	if p := js.Global().Get("performance"); p.Truthy() && p.Get("mark").Truthy() {
		p.Call("mark", name)
	}
}
