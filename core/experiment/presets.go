package experiment

import (
	"embed"
	"fmt"
	"path"
	"sort"
	"strings"
)

//go:embed presets/*.json
var presetFS embed.FS

// Preset is a built-in experiment.
type Preset struct {
	Name  string `json:"name"`
	Title string `json:"title"`
	// Reproduces names the paper figure, if the experiment reproduces one.
	Reproduces string `json:"reproduces,omitempty"`
	// Paper and Figure are Reproduces in two parts, so that a list of
	// paper figures (the page's gallery) can group them by paper.
	Paper  string `json:"paper,omitempty"`
	Figure string `json:"figure,omitempty"`
	// PaperTitle and PaperAuthors are the paper's title and authors
	// apart, when it is one of Papers.
	PaperTitle   string `json:"paper_title,omitempty"`
	PaperAuthors string `json:"paper_authors,omitempty"`
	// Claims are the experiment's expectations in words, in order.
	Claims []string `json:"claims,omitempty"`
}

// Presets lists the built-in experiments, sorted by name.
func Presets() []Preset {
	entries, _ := presetFS.ReadDir("presets")
	var ps []Preset
	for _, en := range entries {
		name := strings.TrimSuffix(en.Name(), ".json")
		p := Preset{Name: name, Title: name}
		if e, err := PresetExperiment(name); err == nil {
			p.Title = e.Title
			if e.Reproduces != nil {
				p.Reproduces = e.Reproduces.Paper + ", " + e.Reproduces.Figure
				p.Paper, p.Figure = e.Reproduces.Paper, e.Reproduces.Figure
				if pp, ok := PaperNamed(p.Paper); ok {
					p.PaperTitle, p.PaperAuthors = pp.Title, pp.Authors
				}
			}
			for _, x := range e.Expectations {
				p.Claims = append(p.Claims, x.Claim)
			}
		}
		ps = append(ps, p)
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i].Name < ps[j].Name })
	return ps
}

// IsPreset reports whether name is a built-in experiment.
func IsPreset(name string) bool {
	if strings.ContainsAny(name, "/\\") {
		return false
	}
	_, err := presetFS.ReadFile(path.Join("presets", name+".json"))
	return err == nil
}

// PresetJSON returns the text of a built-in experiment.
func PresetJSON(name string) ([]byte, error) {
	if !IsPreset(name) {
		var names []string
		for _, p := range Presets() {
			names = append(names, p.Name)
		}
		return nil, fmt.Errorf("no experiment preset named %q; the experiment presets are %v", name, names)
	}
	return presetFS.ReadFile(path.Join("presets", name+".json"))
}

// PresetExperiment parses a built-in experiment.
func PresetExperiment(name string) (*Experiment, error) {
	data, err := PresetJSON(name)
	if err != nil {
		return nil, err
	}
	return Parse(data)
}
