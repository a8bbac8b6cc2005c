//go:build js && wasm

package render

import (
	"math"
	"sync"
	"syscall/js"
	"time"

	"github.com/hajimehoshi/ebiten/v2"

	"dpsim/render/scene"
)

// UpdateBudget is the wall-clock time Update spends running iterations
// per tick, so the page never freezes.
const UpdateBudget = 6 * time.Millisecond

// MaxPixelRatio caps the device scale factor used for the canvas: beyond
// 2 the extra pixels cost more than they show.
const MaxPixelRatio = 2

// Game is the ebiten.Game of the lab: Update plays the run, Draw draws the
// model at the player's phase. The player and model can be swapped at any
// time (Set), for instance when the page loads another scenario.
type Game struct {
	mu      sync.Mutex
	player  *scene.Player
	model   *scene.Model
	onFrame func()
	view    View
	frame   *scene.Frame
	last    time.Time
	ratio   float64
	draws   int
	shown   picture // the picture on the screen
	pacer   scene.FramePacer
}

// LargeFPS is the frame rate fast-forward keeps on a large network
// (scene.Model.Large), giving up iterations for it; the budget never
// drops below LargeMinBudget.
const (
	LargeFPS       = 36
	LargeMinBudget = 2 * time.Millisecond
)

// NewGame returns a game playing p and drawing m. onFrame (may be nil) is
// called after every frame is drawn; the bridge uses it to count frames
// and publish the state.
func NewGame(p *scene.Player, m *scene.Model, onFrame func()) *Game {
	return &Game{player: p, model: m, onFrame: onFrame, ratio: 1,
		pacer: scene.FramePacer{Target: time.Second / LargeFPS, Min: LargeMinBudget}}
}

// Set swaps the player and the model (either may be nil: nothing plays or
// nothing is drawn but the background).
func (g *Game) Set(p *scene.Player, m *scene.Model) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.player, g.model, g.frame = p, m, nil
	g.pacer.Reset()
}

// Player returns the current player.
func (g *Game) Player() *scene.Player {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.player
}

// Model returns the current model.
func (g *Game) Model() *scene.Model {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.model
}

// Frame returns the last frame drawn (nil before the first, or right
// after Set). It is reused by the next Draw: read it in onFrame.
func (g *Game) Frame() *scene.Frame {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.frame
}

// Draws returns the number of frames drawn.
func (g *Game) Draws() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.draws
}

// View returns the game's view (for its AntiAlias switch and counters).
func (g *Game) View() *View { return &g.view }

// Update implements ebiten.Game: it advances the player by the wall-clock
// time since the previous Update, within UpdateBudget.
func (g *Game) Update() error {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := time.Now()
	var dt time.Duration
	if !g.last.IsZero() {
		dt = now.Sub(g.last)
	}
	g.last = now
	if g.player != nil {
		if g.model != nil && g.model.Large() && g.player.Fast() && g.player.Running() {
			// The large picture is for watching: fast-forward's iterations
			// take what the frame leaves of 1/LargeFPS s.
			g.player.SetFastBudget(g.pacer.Budget(dt))
		} else {
			g.pacer.Reset()
			g.player.SetFastBudget(0)
		}
		g.player.Update(dt, UpdateBudget)
	}
	return nil
}

// picture identifies what a frame shows: an unchanged picture is not
// drawn again.
type picture struct {
	model   *scene.Model
	iter    int
	phase   float64
	w, h    int
	ratio   float64
	running bool
}

// Draw implements ebiten.Game. A frame that would show the same picture
// as the last one (paused, no packet in flight, same size) leaves the
// screen as it is: with the screen not cleared every frame, ebiten then
// stops presenting it, and an idle page costs no GPU work.
func (g *Game) Draw(screen *ebiten.Image) {
	g.mu.Lock()
	b := screen.Bounds()
	pic := picture{model: g.model, phase: 1, w: b.Dx(), h: b.Dy(), ratio: g.ratio}
	if g.player != nil {
		pic.phase, pic.running = g.player.Phase(), g.player.Running()
	}
	if g.model != nil {
		pic.iter = g.model.Iter()
	}
	if pic != g.shown || pic.running {
		g.shown = pic
		if g.model != nil {
			g.model.PixelRatio = g.ratio
			// A paused picture keeps the latest step's messages on screen.
			g.model.Hold = !pic.running
			g.frame = g.model.Frame(pic.phase, b.Dx(), b.Dy())
			g.view.Draw(screen, g.frame)
		} else {
			screen.Fill(scene.Background)
		}
	}
	g.draws++
	onFrame := g.onFrame
	g.mu.Unlock()
	if onFrame != nil {
		onFrame()
	}
}

// Layout implements ebiten.Game: the canvas has the outside size times
// the device scale factor (capped at MaxPixelRatio), for crisp lines.
// The picture's pixel ratio also counts the page's canvas scale.
func (g *Game) Layout(outsideWidth, outsideHeight int) (int, int) {
	s := 1.0
	if m := ebiten.Monitor(); m != nil {
		s = m.DeviceScaleFactor()
	}
	s = min(MaxPixelRatio, max(1, s))
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
	g.mu.Lock()
	g.ratio = s * k
	g.mu.Unlock()
	return max(1, int(math.Ceil(float64(outsideWidth)*s))), max(1, int(math.Ceil(float64(outsideHeight)*s)))
}
