// Command mkposter renders each preset's first frame as an SVG poster
// (public/posters/<preset>.svg), with the scene code the page's simulator
// draws with: the page shows the poster at once, before the simulator's
// first frame replaces it. build.sh runs it.
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
	type head struct {
		Title       string `json:"title"`
		Description string `json:"description"`
	}
	index := map[string]head{}
	for _, p := range scenario.Presets() {
		if s, err := scenario.PresetScenario(p.Name); err == nil {
			index[p.Name] = head{s.Title, s.Description}
		}
		svg, err := poster(p.Name)
		if err != nil {
			fmt.Fprintf(os.Stderr, "mkposter: %s skipped: %v\n", p.Name, err)
			continue
		}
		path := filepath.Join(*out, p.Name+".svg")
		if err := os.WriteFile(path, svg, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "mkposter:", err)
			os.Exit(1)
		}
		n++
		total += len(svg)
	}
	js, err := json.Marshal(index)
	if err == nil {
		err = os.WriteFile(filepath.Join(*out, "index.json"), js, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "mkposter:", err)
		os.Exit(1)
	}
	fmt.Printf("mkposter: %d poster(s), %d bytes, in %s\n", n, total, *out)
}

// poster builds the preset as the page does (ui.App.install) and renders
// its iteration-0 frame.
func poster(name string) ([]byte, error) {
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
	var buf bytes.Buffer
	if err := scene.WriteSVG(&buf, model.Frame(1, width, height)); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
