package logistic

import (
	"dpsim/core/check"
	"dpsim/core/data"
	"dpsim/core/problems/internal/learn"
)

// loadSet loads a committed dataset's split. It is data.Load once the
// data package offers it; until then every committed dataset is refused
// by name, and only synthetic sets build.
var loadSet = func(name, split string) (*data.Set, error) {
	return nil, check.Errorf(fieldDataset, "dataset %q is not available in this build (only synthetic)", name)
}

// shapes are the committed datasets' training rows and features, for
// Size, which must answer before anything is loaded.
var shapes = map[string][2]int64{
	"mushrooms":             {8124, 112},
	"ijcnn1":                {49990, 22},
	"mnist-01":              {12665, 784},
	"fmnist-tshirt-trouser": {12000, 784},
	"cifar10-catdog":        {777, 3072},
}

func shape(name string) (rows int64, cols int, ok bool) {
	s, ok := shapes[name]
	return s[0], int(s[1]), ok
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
		return nil, nil, err
	}
	if p.TestSplit {
		if test, err = loadSet(p.Dataset, "test"); err != nil {
			return nil, nil, err
		}
	}
	return train, test, nil
}
