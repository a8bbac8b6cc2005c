package scenario

import (
	"slices"

	"dpsim/core/data"
	"dpsim/core/jsonout"
)

// dataField is the field of a learning problem's user data.
const dataField = "problem.params.data"

// UserFiles returns the user's data files s's problem names (each with
// the sha256 it pins, or ""), so that the CLI can read them and the page
// ask for them before building. A scenario whose problem does not decode
// names none (building it says why).
func UserFiles(s *Scenario) []data.FileNeed {
	u := userData(s)
	if u == nil {
		return nil
	}
	return u.Files(dataField)
}

// userData returns s's problem's user data, or nil.
func userData(s *Scenario) *data.UserData {
	pf, params, err := decodeProblem(&s.Problem)
	if err != nil || pf.UserData == nil {
		return nil
	}
	return pf.UserData(params)
}

// PinFiles writes into s's problem parameters the sha256 of every user
// file its data names without pinning one, from the files provided
// (data.ProvideUser), so that the scenario the page keeps — its editor
// text, its links — names each file by its content, as an export does.
// Only the value of "data" changes in the parameters' text; nothing
// changes when every file is pinned or one is missing (building says
// so).
func PinFiles(s *Scenario) {
	u := userData(s)
	if u == nil {
		return
	}
	changed := false
	pin := func(name string, sha *string) {
		if name != "" && *sha == "" {
			if h, ok := data.UserSHA256(name); ok {
				*sha, changed = h, true
			}
		}
	}
	for _, src := range append(append([]*data.Source{u.Train}, sourcesOf(u.Agents)...), u.Test) {
		if src != nil {
			pin(src.File, &src.SHA256)
			pin(src.LabelsFile, &src.LabelsSHA256)
		}
	}
	if !changed {
		return
	}
	js, err := jsonout.Marshal(u)
	if err != nil {
		return
	}
	raw := s.Problem.Params
	at, end := -1, -1
	if i := skipSpace(raw, 0); i < len(raw) && raw[i] == '{' {
		eachKey(raw, i, func(key string, v int) {
			if key == "data" {
				at, end = v, skipValue(raw, v)
			}
		})
	}
	if at < 0 {
		return
	}
	s.Problem.Params = slices.Concat(raw[:at], js, raw[end:])
}

func sourcesOf(list []data.Source) []*data.Source {
	out := make([]*data.Source, len(list))
	for i := range list {
		out[i] = &list[i]
	}
	return out
}
