// Command mkposter renders each preset's first frame as an SVG poster
// (public/posters/<preset>.svg), with the scene code the page's simulator
// draws with, and writes the frame's inputs as a snapshot
// (public/posters/<preset>.snap, render/scene.Snapshot): the page's view
// program draws the snapshot at the canvas's size as its first frame,
// before the simulator has loaded, and shows the poster until then.
// build.sh runs it.
//
//	go run ./cmd/mkposter -out public/posters
//
// A preset that needs a dataset is rendered with the committed files; one
// that does not build is skipped with a note.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	_ "dpsim/core/data/files" // the committed datasets, for the presets that train on one
	"dpsim/core/runner"
	"dpsim/core/scenario"
	"dpsim/render/scene"
	"dpsim/render/sceneof"
)

// The poster's size in CSS pixels: the page's view at 1280×800, about.
const (
	width  = 840
	height = 560
)

func main() {
	out := flag.String("out", "public/posters", "directory to write <preset>.svg into")
	flag.Parse()
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "mkposter:", err)
		os.Exit(1)
	}
	n, total := 0, 0
	// index.json: every preset's title and description, so that the page
	// writes them beside the poster before the simulator is up.
	// Snapshot says that <preset>.snap exists.
	type head struct {
		Title       string `json:"title"`
		Description string `json:"description"`
		Snapshot    bool   `json:"snapshot,omitempty"`
	}
	index := map[string]head{}
	snaps, snapBytes := 0, 0
	for _, p := range scenario.Presets() {
		h := head{}
		if s, err := scenario.PresetScenario(p.Name); err == nil {
			h.Title, h.Description = s.Title, s.Description
		}
		svg, snap, err := poster(p.Name)
		if err != nil {
			fmt.Fprintf(os.Stderr, "mkposter: %s skipped: %v\n", p.Name, err)
			index[p.Name] = h
			continue
		}
		path := filepath.Join(*out, p.Name+".svg")
		if err := os.WriteFile(path, svg, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "mkposter:", err)
			os.Exit(1)
		}
		n++
		total += len(svg)
		if snap != nil {
			if err := os.WriteFile(filepath.Join(*out, p.Name+".snap"), snap, 0o644); err != nil {
				fmt.Fprintln(os.Stderr, "mkposter:", err)
				os.Exit(1)
			}
			h.Snapshot = true
			snaps++
			snapBytes += len(snap)
		}
		index[p.Name] = h
	}
	js, err := json.Marshal(index)
	if err == nil {
		err = os.WriteFile(filepath.Join(*out, "index.json"), js, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mkposter:", err)
		os.Exit(1)
	}
	fmt.Printf("mkposter: %d poster(s), %d bytes, and %d snapshot(s), %d bytes, in %s\n", n, total, snaps, snapBytes, *out)
}

// poster builds the preset as the page does (ui.App.install) and renders
// its iteration-0 frame, as SVG and as a snapshot (nil when the preset
// has none: its first step sends messages, which a snapshot does not
// hold; the page then shows the poster until the simulator draws).
func poster(name string) (svg, snap []byte, err error) {
	model, err := firstModel(name)
	if err != nil {
		return nil, nil, err
	}
	var buf bytes.Buffer
	if err := scene.WriteSVG(&buf, model.Frame(1, width, height)); err != nil {
		return nil, nil, err
	}
	if s, err := scene.SnapshotOf(model); err == nil {
		if snap, err = s.MarshalBinary(); err != nil {
			return nil, nil, err
		}
	} else {
		fmt.Fprintf(os.Stderr, "mkposter: %s has no snapshot: %v\n", name, err)
	}
	return buf.Bytes(), snap, nil
}

// firstModel builds the preset as the page does and records its first
// step.
func firstModel(name string) (*scene.Model, error) {
	s, err := scenario.PresetScenario(name)
	if err != nil {
		return nil, err
	}
	b, err := scenario.BuildFor(s, scenario.Page)
	if err != nil {
		return nil, err
	}
	model := scene.NewModel(b.Env.Graph, sceneof.Plane(b.Env.Problem))
	model.SetAllocation(sceneof.Allocation(b.Env.Problem))
	model.PixelRatio = 1
	r := runner.New(b, model)
	r.Start()
	return model, nil
}
