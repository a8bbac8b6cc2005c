package main

import (
	"encoding/xml"
	"strings"
	"testing"

	"dpsim/core/scenario"
)

// TestPosters checks that every preset renders a well-formed SVG poster
// with the picture's paths, and the dispatch preset its bus labels.
func TestPosters(t *testing.T) {
	for _, p := range scenario.Presets() {
		svg, err := poster(p.Name)
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
