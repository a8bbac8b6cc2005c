package scenario

import (
	"cmp"
	"slices"

	"dpsim/core/jsonstrict"
	"dpsim/core/method"
)

// Assumptions decides, for this run, every assumption of its
// algorithm's source (method.Words.Assumptions): on the built
// environment (calibrated noise included) and the algorithm's
// parameters as the scenario gives them.
func (b *Built) Assumptions() []method.Checked {
	params := b.Factory.NewParams()
	if len(b.Scenario.Algorithm.Params) > 0 {
		// Build decoded the same text without error.
		if err := jsonstrict.Decode(b.Scenario.Algorithm.Params, params, "algorithm.params"); err != nil {
			return nil
		}
	}
	return b.Factory.CheckAssumptions(b.Env, params)
}

// PresetGroup is the presets of one paper, for the page's preset menu.
type PresetGroup struct {
	// Paper is the name of the paper's own algorithm (method.Words:
	// a paper's algorithm is a baseline of none).
	Paper string `json:"paper"`
	// Label names the group: the paper's algorithm and its authors.
	Label string `json:"label"`
	// Presets are the paper's algorithm's presets first, then its
	// baselines', each algorithm's by name.
	Presets []Preset `json:"presets"`
}

// PresetMenu groups the presets by the paper they belong to, from the
// plug-ins' words: a paper's own algorithm's presets form its group;
// a baseline's preset goes to the first paper of its BaselineOf whose
// problem that paper poses (objective.Words.Papers), else to the first.
// The group of DefaultPreset comes first, then the others in the order
// of the Tour (TourPresets), any other by its label; within a group the
// default preset and the Tour's lesson lead, then the paper's algorithm.
func PresetMenu() []PresetGroup {
	groups := map[string]*PresetGroup{}
	var order []string
	for _, p := range Presets() {
		paper := paperOf(p)
		g, ok := groups[paper]
		if !ok {
			g = &PresetGroup{Paper: paper, Label: paperLabel(paper)}
			groups[paper] = g
			order = append(order, paper)
		}
		g.Presets = append(g.Presets, p)
	}
	// rank: the default's group 0, the Tour's k+1, any other after.
	rank := map[string]int{}
	tours := TourPresets()
	for _, p := range Presets() {
		if p.Name == DefaultPreset {
			rank[paperOf(p)] = 0
		} else if k := slices.Index(tours, p.Name); k >= 0 {
			if _, ok := rank[paperOf(p)]; !ok {
				rank[paperOf(p)] = k + 1
			}
		}
	}
	rankOf := func(paper string) int {
		if r, ok := rank[paper]; ok {
			return r
		}
		return len(tours) + 1
	}
	slices.SortFunc(order, func(a, b string) int {
		return cmp.Or(cmp.Compare(rankOf(a), rankOf(b)), cmp.Compare(groups[a].Label, groups[b].Label))
	})
	out := make([]PresetGroup, 0, len(order))
	for _, name := range order {
		g := groups[name]
		slices.SortStableFunc(g.Presets, func(a, b Preset) int {
			// The paper's own algorithm first, then the baselines by title;
			// the default preset leads its group.
			ka, kb := presetKey(a, g.Paper), presetKey(b, g.Paper)
			return cmp.Or(cmp.Compare(ka, kb), cmp.Compare(a.Name, b.Name))
		})
		out = append(out, *g)
	}
	return out
}

// presetKey orders a group's presets: the default preset, the Tour's
// lesson, the paper's algorithm, then the baselines by their titles.
func presetKey(p Preset, paper string) string {
	switch {
	case p.Name == DefaultPreset:
		return "0"
	case slices.Contains(TourPresets(), p.Name):
		return "1"
	case p.Algorithm == paper:
		return "2"
	}
	title := p.Algorithm
	if f, ok := factories[p.Algorithm]; ok {
		title = f.Title
	}
	return "3" + title
}

// paperOf is the paper a preset belongs to: its algorithm's own, or,
// for a baseline, the paper that poses its problem among those that
// compare with it.
func paperOf(p Preset) string {
	f, ok := factories[p.Algorithm]
	if !ok || len(f.Words.BaselineOf) == 0 {
		return p.Algorithm
	}
	var posers []string
	if pf, ok := problems[p.Problem]; ok {
		posers = pf.Words.Papers
	}
	for _, b := range f.Words.BaselineOf {
		if slices.Contains(posers, b) {
			return b
		}
	}
	return f.Words.BaselineOf[0]
}

// paperLabel names the group of the paper whose algorithm is name.
func paperLabel(name string) string {
	f, ok := factories[name]
	if !ok {
		return name
	}
	if f.Words.Authors == "" {
		return f.Title
	}
	return f.Title + " — " + f.Words.Authors
}
