package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"dpsim/core/data"
	"dpsim/core/experiment"
	"dpsim/core/jsonstrict"
	"dpsim/core/scenario"
)

// provideFiles reads the user's data files the scenarios name — each path
// relative to dir, the folder of the file that names it (a scenario, an
// export, an experiment), or as given when absolute — and hands them to
// core/data, which checks each against the sha256 the scenario pins when
// the scenario is built. Each file is read as every input is (a regular
// file, its size checked before a byte is read), once however many
// scenarios name it.
func provideFiles(dir string, scs ...*scenario.Scenario) error {
	read := map[string]bool{}
	for _, f := range userFiles(scs) {
		if read[f.Name] {
			continue // named twice (an .npz's train and test arrays)
		}
		read[f.Name] = true
		path := f.Name
		if !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
		}
		b, err := jsonstrict.ReadFile(path, data.MaxUserFileBytes)
		if err != nil {
			return fmt.Errorf("%s: %v (read relative to %s)", f.Field, err, dir)
		}
		if _, err := data.ProvideUser(f.Name, b); err != nil {
			return fmt.Errorf("%s: %v", f.Field, err)
		}
	}
	return nil
}

// dirOf is the folder a scenario's relative data paths start from: the
// folder of the file arg, or the working directory for standard input
// and presets.
func dirOf(arg string) string {
	if arg == "-" || strings.HasPrefix(arg, "preset:") {
		return "."
	}
	return filepath.Dir(arg)
}

// provideExportFiles reads the user's data files the pinned scenario of
// an export names, relative to the export's folder.
func provideExportFiles(export []byte, path string) error {
	var e struct {
		Scenario json.RawMessage `json:"scenario"`
	}
	if json.Unmarshal(export, &e) != nil || len(e.Scenario) == 0 {
		return nil // resuming says what is wrong with it
	}
	s, err := scenario.Parse(e.Scenario)
	if err != nil {
		return nil
	}
	return provideFiles(dirOf(path), s)
}

// provideExperimentFiles reads the user's data files every series and
// point of e names (experiment.PointsOf), relative to the experiment
// file's folder: a point may train on another file than the base
// scenario (a series' "set", a swept file), and the page's workers are
// handed the files of every point too (ui/datafiles.UserReportOf). A
// point that does not plan is refused here with planning's own error:
// going on without the files, the plan would fail on the first point
// that reads one, whatever was wrong. It returns the points, which
// planning takes rather than work them out again (experiment.NewPlanFrom).
func provideExperimentFiles(e *experiment.Experiment, arg string) (*experiment.Points, error) {
	ps, err := experiment.PointsOf(e)
	if err != nil {
		return nil, err
	}
	return ps, provideFiles(dirOf(arg), ps.Scenarios()...)
}

// userFiles lists the user's files the scenarios name, in order, each
// field's file as often as it is named (provideFiles reads each name once).
func userFiles(scs []*scenario.Scenario) []data.FileNeed {
	var out []data.FileNeed
	for _, s := range scs {
		out = append(out, scenario.UserFiles(s)...)
	}
	return out
}
