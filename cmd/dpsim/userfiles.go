package main

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"

	"dpsim/core/data"
	"dpsim/core/jsonstrict"
	"dpsim/core/scenario"
)

// provideFiles reads the user's data files scenario s names — each path
// relative to dir, the folder of the file that names it (a scenario, an
// export, an experiment), or as given when absolute — and hands them to
// core/data, which checks each against the sha256 the scenario pins when
// the scenario is built. Each file is read as every input is (a regular
// file, its size checked before a byte is read).
func provideFiles(s *scenario.Scenario, dir string) error {
	read := map[string]bool{}
	for _, f := range scenario.UserFiles(s) {
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
	return provideFiles(s, dirOf(path))
}

// provideBaseFiles reads the user's data files an experiment's base
// scenario names, relative to the experiment file's folder.
func provideBaseFiles(base json.RawMessage, arg string) error {
	if len(base) == 0 {
		return nil
	}
	s, err := scenario.Parse(base)
	if err != nil {
		return nil // the plan says what is wrong with it
	}
	return provideFiles(s, dirOf(arg))
}
