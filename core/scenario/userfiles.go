package scenario

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"dpsim/core/check"
	"dpsim/core/data"
	"dpsim/core/jsonout"
	"dpsim/core/jsonstrict"
	"dpsim/core/param"
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
	s.Problem.paramsAt = jsonstrict.Pos{} // the text moved
}

func sourcesOf(list []data.Source) []*data.Source {
	out := make([]*data.Source, len(list))
	for i := range list {
		out[i] = &list[i]
	}
	return out
}

// TrainOn returns a copy of s whose learning problem trains on the
// user's file name (its rows dealt by the problem's shard rule, no test
// rows): "dataset": "user" where the problem has a dataset, and "data"
// naming the file. The page's "train on this file". A problem that
// reads no user data is refused naming the ones that do.
func TrainOn(s *Scenario, name string) (*Scenario, error) {
	pf, params, err := decodeProblem(&s.Problem)
	if err != nil {
		return nil, err
	}
	if pf.UserData == nil {
		var kinds []string
		for _, k := range ProblemKinds() {
			if problems[k].UserData != nil {
				kinds = append(kinds, k)
			}
		}
		return nil, check.Errorf("problem.kind", "%s reads no data of yours: choose a learning problem (%s) (got %q)", pf.Title, strings.Join(kinds, ", "), pf.Name)
	}
	raw := map[string]json.RawMessage{}
	if len(s.Problem.Params) > 0 {
		if err := json.Unmarshal(s.Problem.Params, &raw); err != nil {
			return nil, check.Errorf("problem.params", "%v", err)
		}
	}
	if slices.ContainsFunc(param.Describe(params), func(f param.Field) bool { return f.Name == "dataset" }) {
		raw["dataset"] = json.RawMessage(`"user"`)
	}
	src, _ := jsonout.Marshal(data.UserData{Train: &data.Source{File: name}})
	raw["data"] = src
	out := s.Clone()
	if out.Problem.Params, err = jsonout.Marshal(raw); err != nil {
		return nil, err
	}
	out.Name = strings.TrimSuffix(s.Name, "-user")
	if len(out.Name) > 59 {
		out.Name = out.Name[:59]
	}
	out.Name += "-user"
	out.Problem.paramsAt = jsonstrict.Pos{} // the text is new
	title := strings.TrimSpace(s.Title)
	if title == "" {
		title = s.Name
	}
	out.Title = fmt.Sprintf("%s, on %s", title, name)
	return out, nil
}
