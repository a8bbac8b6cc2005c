package scenario

import (
	"embed"
	"encoding/json"
	"fmt"
	"path"
	"sort"
	"strings"
)

//go:embed presets/*.json
var presetFS embed.FS

// DefaultPreset is the scenario the page opens on: the Tour's first
// lesson, which learns at a meaningful ε.
const DefaultPreset = "tour-recal"

// TourPresets lists the presets of the page's Tour (core/tour), one per
// paper, in the order the Tour shows them: each at the smallest ε at
// which its paper's algorithm still learns. The preset menu puts each
// at the head of its paper's group and orders the groups as the Tour.
func TourPresets() []string {
	return []string{"tour-recal", "tour-gtdp", "tour-dpp2", "tour-dpdgt", "tour-ldp"}
}

// Preset is a built-in scenario.
type Preset struct {
	Name  string `json:"name"`
	Title string `json:"title"`
	// Algorithm and Problem are its algorithm.kind and problem.kind,
	// which group it by paper (PresetMenu).
	Algorithm string `json:"algorithm"`
	Problem   string `json:"problem"`
}

// Presets lists the built-in scenarios, sorted by name.
func Presets() []Preset {
	entries, _ := presetFS.ReadDir("presets")
	var ps []Preset
	for _, e := range entries {
		name := strings.TrimSuffix(e.Name(), ".json")
		// Only the title and the kinds are read: decoding and checking
		// all 36 presets took the page 0.1 s before its first frame. Each
		// preset is checked whole where it is used, and by the
		// conformance tests.
		var head struct {
			Title     string `json:"title"`
			Algorithm struct {
				Kind string `json:"kind"`
			} `json:"algorithm"`
			Problem struct {
				Kind string `json:"kind"`
			} `json:"problem"`
		}
		p := Preset{Name: name, Title: name}
		if data, err := presetFS.ReadFile(path.Join("presets", e.Name())); err == nil && json.Unmarshal(data, &head) == nil {
			if head.Title != "" {
				p.Title = head.Title
			}
			p.Algorithm, p.Problem = head.Algorithm.Kind, head.Problem.Kind
		}
		ps = append(ps, p)
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i].Name < ps[j].Name })
	return ps
}

// PresetJSON returns the text of a built-in scenario.
func PresetJSON(name string) ([]byte, error) {
	if strings.ContainsAny(name, "/\\") {
		return nil, fmt.Errorf("no preset named %q", name)
	}
	data, err := presetFS.ReadFile(path.Join("presets", name+".json"))
	if err != nil {
		var names []string
		for _, p := range Presets() {
			names = append(names, p.Name)
		}
		return nil, fmt.Errorf("no preset named %q; the presets are %v", name, names)
	}
	return data, nil
}

// PresetScenario parses a built-in scenario.
func PresetScenario(name string) (*Scenario, error) {
	data, err := PresetJSON(name)
	if err != nil {
		return nil, err
	}
	return Parse(data)
}
