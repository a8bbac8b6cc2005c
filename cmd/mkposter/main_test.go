package main

import (
	"encoding/xml"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"dpsim/core/scenario"
	"dpsim/render/scene"
)

// TestPosters checks that every preset renders a well-formed SVG poster
// with the picture's paths, and the dispatch preset its bus labels.
func TestPosters(t *testing.T) {
	for _, p := range scenario.Presets() {
		svg, _, err := poster(p.Name)
		if err != nil {
			t.Errorf("%s: %v", p.Name, err)
			continue
		}
		d := xml.NewDecoder(strings.NewReader(string(svg)))
		paths := 0
		for {
			tok, err := d.Token()
			if err != nil {
				if err.Error() != "EOF" {
					t.Errorf("%s: not well-formed: %v", p.Name, err)
				}
				break
			}
			if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "path" {
				paths++
			}
		}
		if paths < 5 {
			t.Errorf("%s: %d paths, want a picture", p.Name, paths)
		}
		if p.Name == "dpdgt-ieee14" && !strings.Contains(string(svg), ">load 40<") {
			t.Errorf("dpdgt-ieee14: the bus labels are missing")
		}
	}
}

// TestSnapshots checks that every preset's snapshot decodes and draws the
// simulator's first frame to the bit, at the page's sizes (projector,
// phone, a high pixel ratio): the view's first frame and the simulator's
// are the same picture.
func TestSnapshots(t *testing.T) {
	have := 0
	for _, p := range scenario.Presets() {
		_, snap, err := poster(p.Name)
		if err != nil || snap == nil {
			continue
		}
		have++
		var s scene.Snapshot
		if err := s.UnmarshalBinary(snap); err != nil {
			t.Errorf("%s: %v", p.Name, err)
			continue
		}
		want, err := firstModel(p.Name)
		if err != nil {
			t.Fatal(err)
		}
		got := s.Model()
		for _, c := range []struct {
			w, h  int
			ratio float64
		}{{816, 470, 1}, {358, 500, 1}, {1632, 940, 2}} {
			var a, b scene.Mesh
			want.Hold, want.PixelRatio = true, c.ratio
			got.PixelRatio = c.ratio
			a.Build(want.Frame(1, c.w, c.h))
			b.Build(got.Frame(1, c.w, c.h))
			if !slices.Equal(a.Vertices, b.Vertices) || !slices.Equal(a.Indices, b.Indices) || !slices.Equal(a.Spans, b.Spans) {
				t.Errorf("%s %d×%d: the snapshot's mesh differs from the model's", p.Name, c.w, c.h)
			}
		}
	}
	if have < len(scenario.Presets())/2 {
		t.Errorf("%d of %d presets have a snapshot", have, len(scenario.Presets()))
	}
}

// TestLandingPoster checks that the preset the page opens on — the one
// boot.js shows the poster and snapshot of before the simulator is up —
// is scenario.DefaultPreset, and that it has both: its first frame comes
// from the snapshot (docs/performance.md, start-up).
func TestLandingPoster(t *testing.T) {
	js, err := os.ReadFile(filepath.Join("..", "..", "public", "boot.js"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`const DEFAULT_PRESET = '([^']+)';`).FindSubmatch(js)
	if m == nil || string(m[1]) != scenario.DefaultPreset {
		t.Fatalf("public/boot.js opens on %q, the simulator on %q", m, scenario.DefaultPreset)
	}
	svg, snap, err := poster(scenario.DefaultPreset)
	if err != nil || len(svg) == 0 || len(snap) == 0 {
		t.Fatalf("%s: poster %d bytes, snapshot %d bytes, %v", scenario.DefaultPreset, len(svg), len(snap), err)
	}
}
