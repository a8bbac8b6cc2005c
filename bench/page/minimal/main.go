//go:build js && wasm

// Command minimal is the smallest ebiten program: it fills its screen
// once and marks its first frame (performance.mark "minimal-first-frame").
// bench/page/startup.sh loads it beside the dpsim page, so that the
// simulator's start-up is measured against ebiten's own floor in the same
// browser.
package main

import (
	"image/color"
	"syscall/js"

	"github.com/hajimehoshi/ebiten/v2"
)

type game struct{ drawn bool }

func (g *game) Update() error { return nil }

func (g *game) Draw(screen *ebiten.Image) {
	screen.Fill(color.RGBA{0xf7, 0xf8, 0xfb, 0xff})
	if !g.drawn {
		g.drawn = true
		js.Global().Get("performance").Call("mark", "minimal-first-frame")
	}
}

func (g *game) Layout(w, h int) (int, int) { return w, h }

func main() {
	js.Global().Get("performance").Call("mark", "minimal-go-start")
	if err := ebiten.RunGame(&game{}); err != nil {
		panic(err)
	}
}
