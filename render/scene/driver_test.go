package scene

import (
	"testing"
	"time"
)

// TestDriverDrawsOnlyChangedPictures checks the rule that keeps an idle
// page idle: a paused, unchanged picture is not rebuilt, while a new
// size, pixel ratio, iteration or a running player is; every Draw counts
// and calls onFrame, changed or not.
func TestDriverDrawsOnlyChangedPictures(t *testing.T) {
	frames := 0
	d := NewDriver(func() { frames++ })
	if m, changed := d.Draw(100, 80, 1); !changed || m != nil {
		t.Fatalf("first Draw without a model: mesh %v changed %v, want nil and true (the background)", m, changed)
	}
	if _, changed := d.Draw(100, 80, 1); changed {
		t.Fatal("second Draw of the empty picture: changed, want unchanged")
	}
	const n = 6
	f := &fakeStepper{}
	p := newTestPlayer(f)
	model := NewModel(ring(t, n), planeFor(n))
	model.Record(stepFor(n, 0))
	d.Set(p, model)
	if d.Frame() != nil {
		t.Fatal("Frame after Set: not nil")
	}
	for _, c := range []struct {
		name    string
		w, h    int
		ratio   float64
		prep    func()
		changed bool
	}{
		{"new model", 300, 200, 1, nil, true},
		{"same picture", 300, 200, 1, nil, false},
		{"resized", 320, 200, 1, nil, true},
		{"same again", 320, 200, 1, nil, false},
		{"new pixel ratio", 320, 200, 2, nil, true},
		{"new iteration", 320, 200, 2, func() { model.Record(stepFor(n, 1)) }, true},
		{"paused again", 320, 200, 2, nil, false},
		{"running", 320, 200, 2, func() { p.Play() }, true},
		{"still running", 320, 200, 2, nil, true},
	} {
		if c.prep != nil {
			c.prep()
		}
		m, changed := d.Draw(c.w, c.h, c.ratio)
		if changed != c.changed {
			t.Errorf("%s: changed %v, want %v", c.name, changed, c.changed)
		}
		if changed && (m == nil || len(m.Vertices) == 0 || len(m.Spans) == 0) {
			t.Errorf("%s: changed but no mesh (%v)", c.name, m)
		}
		if changed && (d.Frame() == nil || d.Frame().W != c.w || d.Frame().H != c.h) {
			t.Errorf("%s: the last frame is not %d×%d", c.name, c.w, c.h)
		}
		if changed && model.PixelRatio != c.ratio {
			t.Errorf("%s: the model's pixel ratio %v, want %v", c.name, model.PixelRatio, c.ratio)
		}
	}
	if want := 2 + 9; d.Draws() != want || frames != want {
		t.Errorf("Draws %d, onFrame calls %d, want %d each", d.Draws(), frames, want)
	}
}

// TestDriverUpdatePlaysByWallClock checks that Update advances a running
// player by the time between calls, and that the first call (no previous
// time) advances nothing.
func TestDriverUpdatePlaysByWallClock(t *testing.T) {
	f := &fakeStepper{}
	p := newTestPlayer(f)
	d := NewDriver(nil)
	d.Set(p, nil)
	p.SetSpeed(10)
	p.Play()
	t0 := time.Unix(100, 0)
	d.Update(t0)
	if f.n != 1 {
		t.Fatalf("after the first Update: %d iterations, want 1 (due at once)", f.n)
	}
	for k := 1; k <= 20; k++ { // one second in ticks of 50 ms
		d.Update(t0.Add(time.Duration(k) * 50 * time.Millisecond))
	}
	if got := f.n - 1; got < 9 || got > 11 {
		t.Errorf("one second at 10 iterations/s: %d iterations, want 10 ± 1", got)
	}
}

// TestPackVertices checks the ebiten.Vertex layout the view relies on:
// position, the white texel (1, 1), colour, four zeros.
func TestPackVertices(t *testing.T) {
	vs := []Vertex{{X: 1.5, Y: 2, R: 0.1, G: 0.2, B: 0.3, A: 0.4}, {X: -3, Y: 7, R: 1, G: 1, B: 1, A: 1}}
	got := PackVertices(make([]float32, 30), vs) // longer: the tail goes
	want := []float32{1.5, 2, 1, 1, 0.1, 0.2, 0.3, 0.4, 0, 0, 0, 0, -3, 7, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0}
	if len(got) != len(want) {
		t.Fatalf("%d floats, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("float %d: %v, want %v", i, got[i], want[i])
		}
	}
}
