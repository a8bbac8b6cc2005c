package experiment

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"dpsim/core/check"
	"dpsim/core/scenario"
)

// ScenarioRuns is the runs per point of the sweep generated from a
// scenario (FromScenario): enough for a band, few enough for the page's
// Workers to draw it in seconds on a small problem.
const ScenarioRuns = 20

// FromScenario returns the Monte Carlo sweep of one scenario, the page's
// "Sweep the current scenario" (docs/experiments.md, "The page"): its
// base is s inline (files of the user's named by their sha256 when s
// pins them), its seed s's, runs seeded runs per point (0: ScenarioRuns)
// of error_ratio, the headline error over its value at iteration 0 (so
// that every problem reads alike). With no field, the curve along the
// iterations, median with the 10–90 % band; with a field (a scenario
// field path, such as noise.eta.scale or calibrate.epsilon) and its
// values, the final value against the field's, mean with the 95 %
// interval. The overrides are checked when the experiment is planned.
func FromScenario(s *scenario.Scenario, field string, values []float64, runs int) (*Experiment, error) {
	if runs == 0 {
		runs = ScenarioRuns
	}
	field = strings.TrimSpace(field)
	base := s.Clone()
	name := "sweep-" + base.Name
	if base.Name == "" {
		name = "sweep-scenario"
	}
	if len(name) > 64 {
		name = name[:64]
	}
	title := strings.TrimSpace(base.Title)
	if title == "" {
		title = base.Name
	}
	seed := uint64(1)
	if base.Seed != nil {
		seed = *base.Seed
	}
	ratio := map[string]string{"metric": ErrorRatio, "label": "error relative to its start", "unit": "", "scale": "log"}
	doc := map[string]any{
		"format":  FormatVersion,
		"name":    name,
		"base":    map[string]any{"scenario": json.RawMessage(base.JSON())},
		"series":  []map[string]string{{"name": "scenario", "label": title}},
		"runs":    runs,
		"seed":    seed,
		"metrics": []map[string]string{{"name": ErrorRatio}},
	}
	if field == "" {
		if len(values) > 0 {
			return nil, check.Errorf("x.fields", "the values %v need a field to sweep (e.g. noise.eta.scale)", values)
		}
		doc["title"] = "Sweep of " + title
		doc["description"] = fmt.Sprintf("The headline error of %s (%d iterations) relative to its start: the median and 10–90 %% band of %d runs, each seeded.", title, base.Iterations, runs)
		doc["x"] = map[string]any{"kind": "iteration", "label": "iteration k", "unit": "iterations"}
		doc["statistic"] = "median"
	} else {
		if len(values) == 0 {
			return nil, check.Errorf("x.values", "%s: give the values to sweep it over (e.g. 0.1, 1, 10)", field)
		}
		scale := "linear"
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, v := range values {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
		if lo > 0 && hi/lo >= 10 {
			scale = "log"
		}
		doc["title"] = fmt.Sprintf("Sweep of %s over %s", title, field)
		doc["description"] = fmt.Sprintf("The final headline error of %s (%d iterations) relative to its start, against %s: the mean and 95 %% interval of %d runs per value, each seeded.", title, base.Iterations, field, runs)
		doc["x"] = map[string]any{"kind": "field", "fields": []string{field}, "values": values, "label": field, "unit": "", "scale": scale}
		doc["statistic"] = "mean"
		ratio["label"] = "final error relative to its start"
	}
	doc["figure"] = map[string]any{"title": doc["title"], "y": ratio}
	text, err := json.Marshal(doc)
	if err != nil {
		return nil, err
	}
	return Parse(text)
}

// ParseValues reads the values of a swept field as a person types them:
// numbers separated by commas or spaces ("0.1, 1, 10"). A word that is
// not a finite number is an error naming it.
func ParseValues(text string) ([]float64, error) {
	words := strings.FieldsFunc(text, func(r rune) bool { return r == ',' || r == ';' || r == ' ' || r == '\t' || r == '\n' })
	out := make([]float64, 0, len(words))
	for _, w := range words {
		v, err := strconv.ParseFloat(w, 64)
		if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
			return nil, check.Errorf("x.values", "must be finite numbers separated by commas (got %q)", w)
		}
		out = append(out, v)
	}
	return out, nil
}
