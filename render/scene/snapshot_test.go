package scene

import (
	"slices"
	"strings"
	"testing"

	"dpsim/core/sim"
)

// meshOf returns the mesh of m's frame at phase 1, paused, on a w×h
// canvas: the simulator's first frame.
func meshOf(m *Model, w, h int) Mesh {
	m.Hold, m.PixelRatio = true, 1
	var mesh Mesh
	mesh.Build(m.Frame(1, w, h))
	return mesh
}

// TestSnapshotRoundTrip checks that a decoded snapshot draws the model's
// picture to the bit, at several canvas sizes (landscape, phone).
func TestSnapshotRoundTrip(t *testing.T) {
	const n = 7
	quiet := func(iter int) *sim.Step {
		s := stepFor(n, iter)
		s.Releases = nil
		return s
	}
	withActive := quiet(0)
	withActive.Active = []int{1, 4}
	withPrices := quiet(0)
	withPrices.Prices = []float64{}
	for _, c := range []struct {
		name  string
		plane *Plane
		step  *sim.Step
	}{
		{"plane", planeFor(n), quiet(0)},
		{"no plane", nil, quiet(3)},
		{"active agents", planeFor(n), withActive},
		{"empty prices", nil, withPrices},
	} {
		m := NewModel(ring(t, n), c.plane)
		m.Record(c.step)
		s, err := SnapshotOf(m)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		data, err := s.MarshalBinary()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var back Snapshot
		if err := back.UnmarshalBinary(data); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		m2 := back.Model()
		for _, sz := range [][2]int{{840, 560}, {390, 600}, {1280, 500}} {
			a, b := meshOf(m, sz[0], sz[1]), meshOf(m2, sz[0], sz[1])
			if !slices.Equal(a.Vertices, b.Vertices) || !slices.Equal(a.Indices, b.Indices) || !slices.Equal(a.Spans, b.Spans) {
				t.Errorf("%s %v: the snapshot's mesh differs (%d vs %d vertices)", c.name, sz, len(a.Vertices), len(b.Vertices))
			}
		}
	}
}

// TestSnapshotRefuses checks that a step with messages has no snapshot,
// and that damaged bytes are refused with an error, never a panic.
func TestSnapshotRefuses(t *testing.T) {
	const n = 5
	m := NewModel(ring(t, n), planeFor(n))
	if _, err := SnapshotOf(m); err == nil {
		t.Error("a model with no step: snapshot taken")
	}
	m.Record(stepFor(n, 0))
	if _, err := SnapshotOf(m); err == nil || !strings.Contains(err.Error(), "message") {
		t.Errorf("a step with messages: err %v, want one about its messages", err)
	}
	st := stepFor(n, 0)
	st.Releases = nil
	m.Record(st)
	s, err := SnapshotOf(m)
	if err != nil {
		t.Fatal(err)
	}
	data, err := s.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var back Snapshot
	for k := range len(data) { // every truncation
		if err := back.UnmarshalBinary(data[:k]); err == nil {
			t.Fatalf("truncated to %d of %d bytes: accepted", k, len(data))
		}
	}
	for k := range len(data) { // every single damaged byte: an error or a valid snapshot
		bad := slices.Clone(data)
		bad[k] ^= 0xff
		if err := back.UnmarshalBinary(bad); err == nil {
			back.Model().Frame(1, 300, 200)
		}
	}
	if err := back.UnmarshalBinary(append(slices.Clone(data), 0)); err == nil || !strings.Contains(err.Error(), "after the end") {
		t.Errorf("a trailing byte: err %v", err)
	}
	huge := append([]byte(snapshotMagic), 0x80, 0x80, 0x80, 0x80, 0x07) // n = 2^31-ish
	if err := back.UnmarshalBinary(huge); err == nil {
		t.Error("a huge node count: accepted")
	}
}
