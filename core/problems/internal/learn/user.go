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
// train_rows; not applied to data given per agent).
func UserShards(u *data.UserData, n int, task data.Task, rule string, seed uint64, first int) ([]Rows, *data.UserSets, error) {
	sets, err := u.Load(FieldData, n, task)
	if err != nil {
		return nil, nil, err
	}
	if sets.Counts != nil {
		return deal(Rows{Set: sets.Train}, sets.Counts), sets, nil
	}
	train := sets.Train
	if first > 0 && first < train.Rows {
		train = train.Head(first)
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
