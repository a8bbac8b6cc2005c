package experiment

import (
	"encoding/json"
	"fmt"
	"strings"

	"dpsim/core/scenario"
)

// CompareRuns is the runs per point of the privacy–utility experiment
// generated from a comparison: enough for a mean that orders the curves,
// few enough that the page's Workers draw it in seconds.
const CompareRuns = 20

// compareFactors place the generated experiment's ε values around the
// comparison's target: a decade either side, five points.
var compareFactors = []float64{0.1, 0.3, 1, 3, 10}

// DefaultCompareEpsilon is the centre of the ε axis of a comparison with
// no calibration target.
const DefaultCompareEpsilon = 1000

// FromComparison returns the privacy–utility experiment of a comparison:
// the final optimality error against ε, every entry a series calibrated
// by its own accountant to each ε on the x-axis (as the
// gtdp-privacy-utility preset), on the comparison's base scenario and
// seeds. The ε values are the comparison's target (its own, else the
// base's, else DefaultCompareEpsilon) times 0.1, 0.3, 1, 3 and 10. An
// entry that cannot be calibrated to the target is left out, and the
// description says which and why; with fewer than one entry left it is
// an error.
func FromComparison(c *scenario.Comparison) (*Experiment, error) {
	base := c.BaseScenario().Clone()
	eps := float64(DefaultCompareEpsilon)
	horizon := 0
	switch {
	case c.Calibrate != nil:
		eps, horizon = c.Calibrate.Epsilon, c.Calibrate.Iterations
	case base.Calibrate != nil:
		eps, horizon = base.Calibrate.Epsilon, base.Calibrate.Iterations
	}
	target := &scenario.Calibrate{Epsilon: eps, Iterations: horizon}
	base.Calibrate = nil
	cb, err := scenario.BuildComparison(c.WithBase(base, target), scenario.CLI)
	if err != nil {
		return nil, err
	}
	type series struct {
		Name  string         `json:"name"`
		Label string         `json:"label"`
		Set   map[string]any `json:"set"`
	}
	var ss []series
	var left []string
	for i := range c.Compare {
		if n := cb.Notes[i]; n != "" {
			left = append(left, fmt.Sprintf("%s (%s)", cb.Labels[i], n))
			continue
		}
		s, err := c.EntryScenario(i)
		if err != nil {
			return nil, err
		}
		set := map[string]any{"algorithm": s.Algorithm, "noise": s.Noise}
		if s.Init != nil {
			set["init"] = s.Init
		}
		ss = append(ss, series{Name: fmt.Sprintf("e%d-%s", i+1, s.Algorithm.Kind), Label: cb.Labels[i], Set: set})
	}
	if len(ss) == 0 {
		return nil, fmt.Errorf("no entry of the comparison can be calibrated to ε = %g: %s", eps, strings.Join(left, "; "))
	}
	values := make([]float64, len(compareFactors))
	for i, f := range compareFactors {
		values[i] = eps * f
	}
	var names []string
	for _, s := range ss {
		names = append(names, s.Label)
	}
	desc := fmt.Sprintf("Final optimality error against ε for %s on the comparison's scenario (%s, %d iterations), every series calibrated by its own accountant to each ε on the x-axis. %d runs per point.",
		strings.Join(names, ", "), base.Name, base.Iterations, CompareRuns)
	if len(left) > 0 {
		desc += " Left out, not calibratable: " + strings.Join(left, "; ") + "."
	}
	title := "Privacy–utility of the comparison"
	if c.Title != "" {
		title += ": " + c.Title
	}
	calSet := map[string]any{"epsilon": eps}
	if horizon > 0 {
		calSet["iterations"] = horizon
	}
	seed := uint64(1)
	if base.Seed != nil {
		seed = *base.Seed
	}
	doc := map[string]any{
		"format":      FormatVersion,
		"name":        "compare-privacy-utility",
		"title":       title,
		"description": desc,
		"base":        map[string]any{"scenario": json.RawMessage(base.JSON())},
		"set":         map[string]any{"calibrate": calSet},
		"series":      ss,
		"x": map[string]any{"kind": "field", "fields": []string{"calibrate.epsilon"}, "values": values,
			"label": "privacy budget ε (every algorithm calibrated to it)", "unit": "", "scale": "log"},
		"runs":      CompareRuns,
		"seed":      seed,
		"metrics":   []map[string]string{{"name": "optimality"}},
		"statistic": "mean",
		"figure": map[string]any{
			"title": "Final optimality error against ε, every algorithm at equal ε",
			"y":     map[string]string{"metric": "optimality", "label": "final optimality error", "unit": "", "scale": "log"},
		},
	}
	text, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	return Parse(text)
}
