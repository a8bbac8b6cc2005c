package datafiles

import (
	"fmt"

	"dpsim/core/data"
	"dpsim/core/scenario"
)

// The user's data files in a page (docs/data.md, "Your own data"): the
// page reads a file the user picks or drops and hands its bytes, with
// the sha256 a scenario pins, to core/data (data.ProvideUserPinned),
// which keeps them for the session. The main page's simulator (ui) and
// the Experiments panel's workers (wasm/solver) ask for, check and name
// them with the code below.

// UserNeed is one user's file a scenario names, for the page.
type UserNeed struct {
	data.FileNeed
	// Have: this program holds a file for it (under its name, or with
	// the content it pins).
	Have bool `json:"have"`
}

// UserReport is what the pages' userNeeds calls return (as JSON).
type UserReport struct {
	// Need lists the files this program lacks, Files every file the
	// scenarios name, each name and pin once. The lists are empty,
	// never null.
	Need  []UserNeed `json:"need"`
	Files []UserNeed `json:"files"`
	Error string     `json:"error,omitempty"`
}

// UserReportOf returns the user's files the scenarios name (an
// experiment's points name the same files many times: each is listed
// once, where first named) and those this program does not hold.
func UserReportOf(scs ...*scenario.Scenario) UserReport {
	r := UserReport{Need: []UserNeed{}, Files: []UserNeed{}}
	seen := map[data.FileNeed]bool{}
	for _, s := range scs {
		for _, f := range scenario.UserFiles(s) {
			key := data.FileNeed{Name: f.Name, SHA256: f.SHA256}
			if seen[key] {
				continue
			}
			seen[key] = true
			n := UserNeed{FileNeed: f, Have: data.HasUserFile(f.Name, f.SHA256)}
			r.Files = append(r.Files, n)
			if !n.Have {
				r.Need = append(r.Need, n)
			}
		}
	}
	return r
}

// Missing is the one-line error for building while a file r's scenarios
// name is not at hand (nil when none is missing): it names the field,
// the file and the sha256 it pins, and says how to give it. what is
// "scenario" or "experiment".
func (r UserReport) Missing(what string) error {
	if len(r.Need) == 0 {
		return nil
	}
	f := r.Need[0]
	pin := ""
	if f.SHA256 != "" {
		pin = " (sha256 " + f.SHA256 + ")"
	}
	more := ""
	if n := len(r.Need) - 1; n > 0 {
		more = fmt.Sprintf(" and %d more", n)
	}
	return fmt.Errorf("%s: the %s trains on your file %s%s%s: pick it or drop it on the page (it is read in this tab, never uploaded)", f.Field, what, f.Name, pin, more)
}
