//go:build js && wasm

package render

import (
	"math"
	"syscall/js"

	"github.com/hajimehoshi/ebiten/v2"

	"dpsim/render/scene"
)

// Source hands the view its pictures. The page's simulator is one (Bridge,
// through window.dpsim); the view draws nothing of its own.
type Source interface {
	// Ready reports whether the source can be asked for pictures yet.
	Ready() bool
	// Update advances the run by one tick of wall-clock time.
	Update()
	// Frame asks for the picture of a w×h canvas with ratio canvas pixels
	// per CSS pixel. changed false: the picture is the one on screen,
	// leave it. Otherwise the picture is in b (empty: the background
	// only).
	Frame(w, h int, ratio float64, b *Buffers) (changed bool)
}

// Buffers hold a picture as ebiten draws it: the vertices, the triangles'
// indices, and the spans (one DrawTriangles32 call each, of at most
// scene.DefaultBatch vertices). They are reused from frame to frame.
type Buffers struct {
	Vertices []ebiten.Vertex
	Indices  []uint32
	Spans    []scene.Span
}

// size sets the lengths of b's vertices and indices, growing them with a
// quarter to spare so that a slowly growing picture seldom reallocates.
func (b *Buffers) size(nv, ni int) {
	if cap(b.Vertices) < nv {
		b.Vertices = make([]ebiten.Vertex, nv, nv+nv/4)
	}
	if cap(b.Indices) < ni {
		b.Indices = make([]uint32, ni, ni+ni/4)
	}
	b.Vertices, b.Indices = b.Vertices[:nv], b.Indices[:ni]
}

// Game is the ebiten.Game of the page's view: Update and Draw ask the
// first of its sources that is ready (the simulator, else the snapshot of
// the scenario's first frame); an unchanged picture is not drawn again.
type Game struct {
	srcs  []Source
	buf   Buffers
	view  View
	ratio float64
	// OnDraw (may be nil) is called after each Draw that drew a picture,
	// with the source it came from.
	OnDraw func(Source)
}

// NewGame returns a game drawing the pictures of the first ready source,
// in the order given.
func NewGame(srcs ...Source) *Game { return &Game{srcs: srcs, ratio: 1} }

// source returns the first ready source, or nil.
func (g *Game) source() Source {
	for _, s := range g.srcs {
		if s.Ready() {
			return s
		}
	}
	return nil
}

// Update implements ebiten.Game.
func (g *Game) Update() error {
	if s := g.source(); s != nil {
		s.Update()
	}
	return nil
}

// Draw implements ebiten.Game. An unchanged picture leaves the screen as
// it is: with the screen not cleared every frame, ebiten then stops
// presenting it, and an idle page costs no GPU work.
func (g *Game) Draw(screen *ebiten.Image) {
	src := g.source()
	if src == nil {
		return
	}
	b := screen.Bounds()
	if !src.Frame(b.Dx(), b.Dy(), g.ratio, &g.buf) {
		return
	}
	if len(g.buf.Spans) == 0 {
		screen.Fill(scene.Background)
	} else {
		g.view.Draw(screen, &g.buf)
	}
	if g.OnDraw != nil {
		g.OnDraw(src)
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
