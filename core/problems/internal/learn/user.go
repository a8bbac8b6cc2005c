package learn

import (
	"dpsim/core/check"
	"dpsim/core/data"
)

// User is the dataset option of the learning problems whose rows the
// user gives (problem.params.data, core/data's UserData).
const User = "user"

// FieldData is the field of a problem's user data.
const FieldData = "problem.params.data"

// FieldDeal is the field of a problem's deal written out (Indices).
const FieldDeal = "problem.params.deal"

// CheckDeal refuses a deal with synthetic data, whose replay export
// writes the rows themselves (InlineRows).
func CheckDeal(dataset string, deal [][]int) error {
	if deal != nil && dataset == "synthetic" {
		return check.Errorf(FieldDeal, "is read with a committed dataset or %q only (got %q: a replay export writes its rows in data)", User, dataset)
	}
	return nil
}

// DrawnDeal returns the deal a replay export writes for shards dealt by
// rule from a committed dataset or the user's rows (user: nil for a
// committed dataset): the row indices of every shard (Indices) and their
// number, or nil when nothing was drawn — contiguous blocks, rows given
// per agent, a deal given already (Pinned keeps it) — or the indices
// exceed data.MaxInlineValues (no committed dataset's do: ijcnn1's 49,990
// training rows are the most).
func DrawnDeal(rule string, given [][]int, shards []Rows, user *data.UserData) ([][]int, int64) {
	if rule != Shuffled || given != nil || user != nil && len(user.Agents) > 0 {
		return nil, 0
	}
	deal, n := Indices(shards)
	if n > data.MaxInlineValues {
		return nil, 0
	}
	return deal, n
}

// Drawn returns what a replay export writes of a learning problem's
// draws (objective.Factory.Rows) and the number of values: on synthetic
// data the rows themselves (InlineRows), else the deal when it was drawn
// (DrawnDeal); both nil when nothing is written.
func Drawn(dataset, rule string, given [][]int, shards []Rows, test *Rows, user *data.UserData) (rows *data.UserData, deal [][]int, n int64) {
	if dataset == "synthetic" {
		rows, n = InlineRows(shards, test)
		return rows, nil, n
	}
	deal, n = DrawnDeal(rule, given, shards, user)
	return nil, deal, n
}

// CheckUser refuses user data without "dataset": "user", and that
// dataset without data, naming the field.
func CheckUser(dataset string, u *data.UserData) error {
	switch {
	case dataset == User && u == nil:
		return check.Errorf(FieldData, "is required with \"dataset\": %q: the rows, inline or from a file (docs/data.md, \"Your own data\")", User)
	case dataset != User && u != nil:
		return check.Errorf(FieldData, "is read with \"dataset\": %q only (got %q)", User, dataset)
	}
	return nil
}

// UserShards loads the user's data for n agents and deals its training
// rows: each agent its own rows when the data is given per agent, else
// by rule (Contiguous or Shuffled, seeded by seed), as a committed
// dataset's — the first first rows only when first > 0 (the CNN's
// train_rows; not applied to data given per agent) — or, when given is
// not nil, as that deal written out, into the same first rows (Dealt;
// refused with data given per agent).
func UserShards(u *data.UserData, n int, task data.Task, rule string, seed uint64, first int, given [][]int) ([]Rows, *data.UserSets, error) {
	sets, err := u.Load(FieldData, n, task)
	if err != nil {
		return nil, nil, err
	}
	if sets.Counts != nil {
		if given != nil {
			return nil, nil, check.Errorf(FieldDeal, "is not read with rows given per agent (%s.agents): each agent holds its own", FieldData)
		}
		return deal(Rows{Set: sets.Train}, sets.Counts), sets, nil
	}
	// A deal indexes the rows used, as the shards it was written from.
	train := sets.Train.Head(first)
	if given != nil {
		shards, err := Dealt(train, n, given, FieldDeal)
		return shards, sets, err
	}
	shards, err := Split(train, n, rule, seed)
	if err != nil {
		return nil, nil, check.Errorf(FieldData, "%v", err)
	}
	return shards, sets, nil
}

// UserSized loads the user's data for a problem's Size, which must
// answer before anything is built: nil when there is none or it cannot
// be loaded (Build then says why).
func UserSized(u *data.UserData, agents int, task data.Task) *data.UserSets {
	if u == nil {
		return nil
	}
	sets, err := u.Load(FieldData, max(agents, 1), task)
	if err != nil {
		return nil
	}
	return sets
}

// InlineRows writes shards (one per agent, in agent order) and test (nil:
// none) as a user's inline data, one source per agent with each shard's
// rows in its order, labels as class indices: what a replay export
// writes for data a problem drew (objective.Factory.Rows), and the number
// of values written; nil when the rows exceed data.MaxInlineValues.
func InlineRows(shards []Rows, test *Rows) (*data.UserData, int64) {
	n := int64(0)
	src := func(r Rows) data.Source {
		s := data.Source{Features: make([][]float64, r.Len()), Labels: make([]float64, r.Len())}
		for k := range s.Features {
			i := r.Row(k)
			row := make([]float64, r.Set.Cols)
			for j := range row {
				row[j] = r.Set.At(i, j)
			}
			s.Features[k], s.Labels[k] = row, float64(r.Set.Y[i])
			n += int64(len(row) + 1)
		}
		return s
	}
	// Every class by its index, so that a class no training row holds
	// keeps its place.
	u := &data.UserData{}
	if len(shards) > 0 {
		for c := range shards[0].Set.Classes {
			u.Classes = append(u.Classes, float64(c))
		}
	}
	n += int64(len(u.Classes)) // written too: the replay arrays' count bounds what is
	for _, sh := range shards {
		u.Agents = append(u.Agents, src(sh))
	}
	if test != nil {
		t := src(*test)
		u.Test = &t
	}
	if n > data.MaxInlineValues {
		return nil, 0
	}
	return u, n
}
