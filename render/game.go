//go:build js && wasm

package render

import (
	"math"
	"syscall/js"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"dpsim/render/scene"
)

// Game is an ebiten.Game over a scene.Driver: Update plays the run, Draw
// draws the driver's mesh when the picture changed.
type Game struct {
	*scene.Driver
	view  View
	ratio float64
}

// NewGame returns a game with nothing to play; onFrame (may be nil) is
// called after every frame, as scene.NewDriver says.
func NewGame(onFrame func()) *Game {
	return &Game{Driver: scene.NewDriver(onFrame), ratio: 1}
}

// View returns the game's view (for its AntiAlias switch and counters).
func (g *Game) View() *View { return &g.view }

// Update implements ebiten.Game.
func (g *Game) Update() error {
	g.Driver.Update(time.Now())
	return nil
}

// Draw implements ebiten.Game. An unchanged picture leaves the screen as
// it is: with the screen not cleared every frame, ebiten then stops
// presenting it, and an idle page costs no GPU work.
func (g *Game) Draw(screen *ebiten.Image) {
	b := screen.Bounds()
	mesh, changed := g.Driver.Draw(b.Dx(), b.Dy(), g.ratio)
	switch {
	case !changed:
	case mesh == nil:
		screen.Fill(scene.Background)
	default:
		g.view.Draw(screen, mesh)
	}
}

// Layout implements ebiten.Game: the canvas has the outside size times
// the device scale factor (capped at scene.MaxPixelRatio), for crisp
// lines. The picture's pixel ratio also counts the page's canvas scale.
func (g *Game) Layout(outsideWidth, outsideHeight int) (int, int) {
	s := 1.0
	if m := ebiten.Monitor(); m != nil {
		s = m.DeviceScaleFactor()
	}
	s = min(scene.MaxPixelRatio, max(1, s))
	// The page may give ebiten a view smaller than the one shown, by
	// window.dpsimCanvasScale (public/page.js: a large network's picture
	// under a software GPU), and stretch the canvas: a canvas pixel is
	// then 1/(s·k) CSS pixels, which lines, dots and the inspector follow.
	k := 1.0
	if v := js.Global().Get("dpsimCanvasScale"); v.Type() == js.TypeNumber {
		if f := v.Float(); f >= 0.25 && f <= 1 {
			k = f
		}
	}
	g.ratio = s * k
	return max(1, int(math.Ceil(float64(outsideWidth)*s))), max(1, int(math.Ceil(float64(outsideHeight)*s)))
}
