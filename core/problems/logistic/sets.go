package logistic

import (
	"dpsim/core/check"
	"dpsim/core/data"
	"dpsim/core/problems/internal/learn"
)

// loadSet loads a committed dataset's split: data.Load, a variable so
// that tests can stand in for it.
var loadSet = data.Load

// shape returns a committed dataset's training rows and features from
// the manifest, for Size, which must answer before anything is loaded.
func shape(name string) (rows int64, cols int, ok bool) {
	d, err := data.Info(name)
	if err != nil || len(d.Splits) == 0 {
		return 0, 0, false
	}
	return int64(d.Splits[0].Rows), d.Cols, true
}

// sets returns the training split and, when p asks for the test
// accuracy, the test split (else nil).
func sets(p *Params, seed uint64) (train, test *data.Set, err error) {
	if p.Dataset == "synthetic" {
		train = learn.Synthetic(seed, "train", p.Rows, p.Features, 2, p.LabelNoise)
		if p.TestSplit && p.TestRows > 0 {
			test = learn.Synthetic(seed, "test", p.TestRows, p.Features, 2, p.LabelNoise)
		}
		return train, test, nil
	}
	if train, err = loadSet(p.Dataset, "train"); err != nil {
		return nil, nil, check.Errorf(fieldDataset, "%v", err)
	}
	if p.TestSplit {
		if test, err = loadSet(p.Dataset, "test"); err != nil {
			return nil, nil, check.Errorf(fieldDataset, "%v", err)
		}
	}
	return train, test, nil
}

// datasets names the dataset splits Build loads for p (objective.Factory.Datasets).
func datasets(params any) []string {
	if p, ok := params.(*Params); ok {
		return learn.Splits(p.Dataset, p.TestSplit)
	}
	return nil
}
