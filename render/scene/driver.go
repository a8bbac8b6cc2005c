package scene

import (
	"sync"
	"time"
)

// UpdateBudget is the wall-clock time Driver.Update spends running
// iterations per tick, so the page never freezes.
const UpdateBudget = 6 * time.Millisecond

// MaxPixelRatio caps the device scale factor used for the canvas: beyond
// 2 the extra pixels cost more than they show.
const MaxPixelRatio = 2

// LargeFPS is the frame rate fast-forward keeps on a large network
// (Model.Large), giving up iterations for it; the budget never drops
// below LargeMinBudget.
const (
	LargeFPS       = 36
	LargeMinBudget = 2 * time.Millisecond
)

// Driver plays a run and draws it, without any graphics library: Update
// advances the player by wall-clock time, Draw builds the Frame and its
// Mesh when the picture changed. The page's simulator owns one and hands
// its meshes to the view program (wasm/view), which only draws them. The
// player and model can be swapped at any time (Set), for instance when
// the page loads another scenario.
type Driver struct {
	mu      sync.Mutex
	player  *Player
	model   *Model
	onFrame func()
	frame   *Frame
	mesh    Mesh
	last    time.Time
	draws   int
	shown   picture // the picture last drawn
	pacer   FramePacer
}

// NewDriver returns a driver with nothing to play. onFrame (may be nil)
// is called after every Draw, changed or not; the bridge uses it to count
// frames and publish the state.
func NewDriver(onFrame func()) *Driver {
	return &Driver{onFrame: onFrame,
		pacer: FramePacer{Target: time.Second / LargeFPS, Min: LargeMinBudget}}
}

// Set swaps the player and the model (either may be nil: nothing plays or
// nothing is drawn but the background).
func (d *Driver) Set(p *Player, m *Model) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.player, d.model, d.frame = p, m, nil
	d.pacer.Reset()
}

// Player returns the current player.
func (d *Driver) Player() *Player {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.player
}

// Model returns the current model.
func (d *Driver) Model() *Model {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.model
}

// Frame returns the last frame built (nil before the first, or right
// after Set). It is reused by the next Draw: read it in onFrame.
func (d *Driver) Frame() *Frame {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.frame
}

// Draws returns the number of Draw calls so far.
func (d *Driver) Draws() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.draws
}

// Update advances the player by the wall-clock time since the previous
// Update (now is the current time), within UpdateBudget.
func (d *Driver) Update(now time.Time) {
	d.mu.Lock()
	defer d.mu.Unlock()
	var dt time.Duration
	if !d.last.IsZero() {
		dt = now.Sub(d.last)
	}
	d.last = now
	if d.player == nil {
		return
	}
	if d.model != nil && d.model.Large() && d.player.Fast() && d.player.Running() {
		// The large picture is for watching: fast-forward's iterations
		// take what the frame leaves of 1/LargeFPS s.
		d.player.SetFastBudget(d.pacer.Budget(dt))
	} else {
		d.pacer.Reset()
		d.player.SetFastBudget(0)
	}
	d.player.Update(dt, UpdateBudget)
}

// picture identifies what a frame shows: an unchanged picture is not
// drawn again.
type picture struct {
	model   *Model
	iter    int
	phase   float64
	w, h    int
	ratio   float64
	running bool
}

// Draw is one frame of a w×h canvas with ratio canvas pixels per CSS
// pixel. changed is false when the frame would show the same picture as
// the last one (paused, no packet in flight, same size): the view then
// leaves its screen as it is, and an idle page costs no GPU work. When
// changed, mesh is the new picture, or nil when there is no model (the
// view fills the canvas with Background). The mesh is reused by the next
// Draw.
func (d *Driver) Draw(w, h int, ratio float64) (mesh *Mesh, changed bool) {
	d.mu.Lock()
	pic := picture{model: d.model, phase: 1, w: w, h: h, ratio: ratio}
	if d.player != nil {
		pic.phase, pic.running = d.player.Phase(), d.player.Running()
	}
	if d.model != nil {
		pic.iter = d.model.Iter()
	}
	if pic != d.shown || pic.running {
		d.shown, changed = pic, true
		if d.model != nil {
			d.model.PixelRatio = ratio
			// A paused picture keeps the latest step's messages on screen.
			d.model.Hold = !pic.running
			d.frame = d.model.Frame(pic.phase, w, h)
			d.mesh.Build(d.frame)
			mesh = &d.mesh
		}
	}
	d.draws++
	onFrame := d.onFrame
	d.mu.Unlock()
	if onFrame != nil {
		onFrame()
	}
	return mesh, changed
}
