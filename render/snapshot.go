//go:build js && wasm

package render

import (
	"syscall/js"
	"time"
	"unsafe"

	"dpsim/render/scene"
)

// SnapshotSource is the Source of a scenario's first frame before the
// simulator is up: it decodes the scene.Snapshot the page puts in
// window.dpsimSnapshot (a Uint8Array of posters/<preset>.snap) and draws
// it, paused, at the canvas's real size. It plays nothing.
type SnapshotSource struct {
	tried  bool
	driver *scene.Driver
	// Build is the time the snapshot took to decode and draw its first
	// mesh (the scenario's build, in the start-up breakdown).
	Build time.Duration
	built bool
}

// Ready implements Source: the snapshot has arrived and decoded. Bad
// bytes are reported on the console once and to the page
// (window.dpsimViewNoSnapshot); the view then waits for the simulator.
func (s *SnapshotSource) Ready() bool {
	if s.driver != nil {
		return true
	}
	if s.tried {
		return false
	}
	v := js.Global().Get("dpsimSnapshot")
	if !v.Truthy() || v.Get("byteLength").Type() != js.TypeNumber {
		return false
	}
	s.tried = true
	t0 := time.Now()
	defer func() { s.Build += time.Since(t0) }()
	b := make([]byte, v.Get("byteLength").Int())
	js.CopyBytesToGo(b, v)
	var snap scene.Snapshot
	if err := snap.UnmarshalBinary(b); err != nil {
		js.Global().Get("console").Call("warn", "dpsim view: the scenario's snapshot: "+err.Error())
		// The page then loads its scripts and the simulator at once
		// (public/boot.js).
		if f := js.Global().Get("dpsimViewNoSnapshot"); f.Type() == js.TypeFunction {
			f.Invoke()
		}
		return false
	}
	s.driver = scene.NewDriver(nil)
	s.driver.Set(nil, snap.Model())
	return true
}

// Update implements Source: a snapshot does not play.
func (s *SnapshotSource) Update() {}

// Frame implements Source, packing the mesh straight into b's vertices.
func (s *SnapshotSource) Frame(w, h int, ratio float64, b *Buffers) bool {
	if !s.built {
		s.built = true
		t0 := time.Now()
		defer func() { s.Build += time.Since(t0) }()
	}
	mesh, changed := s.driver.Draw(w, h, ratio)
	if !changed {
		return false
	}
	b.Spans = b.Spans[:0]
	if mesh == nil {
		return true
	}
	nv := len(mesh.Vertices)
	b.size(nv, len(mesh.Indices))
	if nv > 0 {
		// ebiten.Vertex is scene.VertexFloats float32s (checked in
		// bridge.go): pack in place.
		fl := unsafe.Slice((*float32)(unsafe.Pointer(&b.Vertices[0])), nv*scene.VertexFloats)
		scene.PackVertices(fl[:0], mesh.Vertices)
	}
	copy(b.Indices, mesh.Indices)
	b.Spans = append(b.Spans, mesh.Spans...)
	publishLabels(s.driver.Frame(), ratio)
	return true
}

// publishLabels puts the frame's labels in window.dpsimSnapshotLabels, as
// the simulator's dpsimState.labels has them (positions as fractions of
// the canvas, sizes in CSS pixels): the page writes them over the
// snapshot's picture as it does over the simulator's.
func publishLabels(f *scene.Frame, ratio float64) {
	if f == nil || f.W <= 0 || f.H <= 0 || !(ratio > 0) {
		return
	}
	list := make([]any, len(f.Labels))
	for i, l := range f.Labels {
		list[i] = map[string]any{"x": l.X / float64(f.W), "y": l.Y / float64(f.H), "text": l.Text,
			"align": l.Align, "valign": l.Valign, "size": l.Size / ratio, "cls": l.Class}
	}
	js.Global().Set("dpsimSnapshotLabels", list)
}
