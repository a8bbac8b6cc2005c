package softmax

import (
	"dpsim/core/check"
	"dpsim/core/data"
	"dpsim/core/objective"
	"dpsim/core/param"
	"dpsim/core/problems/internal/learn"
)

// Params are the scenario's parameters of the softmax problem.
type Params struct {
	Dataset    string  `json:"dataset" doc:"the training data: a committed dataset (mnist: 10 digits), synthetic (seeded, drawn here), or user (your rows, given in data)" options:"synthetic|mnist|mushrooms|ijcnn1|mnist-01|fmnist-tshirt-trouser|cifar10-catdog|user"`
	Rows       int     `json:"rows" doc:"synthetic: training samples, dealt to the agents" range:"[1, 200000]" unit:"samples"`
	Features   int     `json:"features" doc:"synthetic: features per sample, each in [0, 1]" range:"[1, 3072]" unit:"features per sample"`
	Classes    int     `json:"classes" doc:"synthetic: classes" range:"[2, 100]"`
	TestRows   int     `json:"test_rows" doc:"synthetic: test samples for the test accuracy (0: none)" range:"[0, 200000]" unit:"samples"`
	LabelNoise float64 `json:"label_noise" doc:"synthetic: Gumbel noise on the planted model's scores (0: separable labels)" range:"[0, 100]"`
	L2         float64 `json:"l2" doc:"λ > 0: the ℓ2 term (λ/2)‖W‖² in every agent's loss" range:"(0, 1e6]"`
	Shards     string  `json:"shards" doc:"how the training rows are dealt to agents: equal contiguous blocks in stored order, or after a seeded shuffle" options:"contiguous|shuffled"`
	TestSplit  bool    `json:"test_accuracy" doc:"evaluate the test accuracy on the dataset's test split (every record.eval_every iterations)"`
	Seed       uint64  `json:"seed,omitempty" doc:"seed of the synthetic data and the shuffled shards (0: the scenario's data seed; a pinned scenario writes the seed used)"`
	// Data is the user's rows, read with Dataset "user".
	Data *data.UserData `json:"data,omitempty" doc:"dataset user: your rows, inline or from LIBSVM, CSV, .npy or .npz files, with labels 0 … K−1 (docs/data.md, \"Your own data\")"`
	// Deal is the shuffled deal written out (learn.Indices).
	Deal [][]int `json:"deal,omitempty" doc:"each agent's row indices into the training rows, in the order it holds them (a replay export writes the shuffled deal here; shards and seed are then not read)"`
}

// task is what labels softmax regression takes: up to 100 classes, as
// the synthetic sets.
var task = data.Task{MaxClasses: 100}

const fieldDataset = "problem.params.dataset"

// loadSet is data.Load, a variable so that tests can stand in for it.
var loadSet = data.Load

// Factory builds the softmax problem from a scenario.
var Factory = objective.Factory{
	Datasets: datasets,
	Name:     "softmax",
	Title:    "Multinomial softmax regression on a dataset (ℓ2)",
	Source:   "Chen & Wang, LDP online, Sec. VI-B (MNIST), with the unstated CNN replaced by softmax regression (spec §7.5, proposal)",
	NewParams: func() any {
		return &Params{Dataset: "synthetic", Rows: 300, Features: 6, Classes: 3, TestRows: 150, LabelNoise: 0.1,
			L2: 0.01, Shards: learn.Contiguous, TestSplit: true}
	},
	Size: func(params any, agents int) (int, int64) {
		p := params.(*Params)
		if p.Dataset == learn.User {
			return userSize(p, agents)
		}
		if p.Dataset == "synthetic" {
			rows, cols := int64(max(p.Rows, 0)+max(p.TestRows, 0)), int64(max(p.Features, 0))
			return p.Features * p.Classes, rows*(4*cols+1) + 8*rows + 8*20*2*cols*int64(max(p.Classes, 0))
		}
		d, err := data.Info(p.Dataset)
		if err != nil || len(d.Splits) == 0 {
			return 0, 0
		}
		dim := d.Cols * len(d.Classes)
		rows, cols, k := int64(d.Splits[0].Rows), int64(d.Cols), int64(len(d.Classes))
		// The shard permutation and room for 40 weight vectors (x* and
		// the solver's), and what the solver for x* holds at its peak and
		// drops once x* is found: its sparse view of the rows (a column
		// index and a value, 6 bytes, per nonzero; every entry counted),
		// one Gram matrix per shard and their sum, and the class
		// probabilities of every row. The shared dataset is counted by
		// the scenario's estimate.
		solver := 6*rows*cols + 8*int64(max(agents, 1)+1)*cols*cols + 8*rows*k
		return dim, 8*rows + 8*40*int64(dim) + solver
	},
	Build: build,
	Pinned: func(pr objective.Problem, params any) any {
		q := *params.(*Params)
		q.Seed = pr.(*Model).seedUsed
		if u := pr.(*Model).userData; u != nil {
			q.Data = u
		}
		return &q
	},
	Rows: func(pr objective.Problem, params any) (any, int64) {
		p := params.(*Params)
		m, ok := pr.(*Model)
		if !ok {
			return nil, 0 // a neighbour (an audit's changed f_i) writes nothing
		}
		rows, deal, n := learn.Drawn(p.Dataset, p.Shards, p.Deal, m.shards, m.test, m.userData)
		if rows == nil && deal == nil {
			return nil, 0
		}
		// The seed stays as Pinned writes it: neither rows per agent nor
		// a deal read it.
		q := *p
		q.Seed, q.Deal, q.Data = m.seedUsed, deal, m.userData
		if rows != nil {
			q.Dataset, q.Data = learn.User, rows
		}
		return &q, n
	},
	UserData: func(params any) *data.UserData { return params.(*Params).Data },
	Reads: func(params any) objective.Reads {
		p := params.(*Params)
		random := p.Dataset == "synthetic" || p.Shards == learn.Shuffled && p.Deal == nil
		return objective.Reads{DataSeed: random && p.Seed == 0}
	},
	Words: words,
}

func build(env *objective.Env, params any) (objective.Problem, []check.Warning, error) {
	p := params.(*Params)
	if err := param.Validate("problem.params", p); err != nil {
		return nil, nil, err
	}
	seed := p.Seed
	if seed == 0 {
		seed = env.Seeds.Data
	}
	if err := learn.CheckUser(p.Dataset, p.Data); err != nil {
		return nil, nil, err
	}
	if err := learn.CheckDeal(p.Dataset, p.Deal); err != nil {
		return nil, nil, err
	}
	var train, test *data.Set
	var shards []learn.Rows
	var user *data.UserData
	switch p.Dataset {
	case learn.User:
		var us *data.UserSets
		var err error
		if shards, us, err = learn.UserShards(p.Data, env.Agents(), task, p.Shards, seed, 0, p.Deal); err != nil {
			return nil, nil, err
		}
		train, user = us.Train, us.Pinned
		if p.TestSplit {
			test = us.Test
		}
	case "synthetic":
		train = learn.Synthetic(seed, "train", p.Rows, p.Features, p.Classes, p.LabelNoise)
		if p.TestSplit && p.TestRows > 0 {
			test = learn.Synthetic(seed, "test", p.TestRows, p.Features, p.Classes, p.LabelNoise)
		}
	default:
		var err error
		if train, err = loadSet(p.Dataset, "train"); err != nil {
			return nil, nil, check.Errorf(fieldDataset, "%v", err)
		}
		if p.TestSplit {
			if test, err = loadSet(p.Dataset, "test"); err != nil {
				return nil, nil, check.Errorf(fieldDataset, "%v", err)
			}
		}
	}
	if shards == nil {
		var err error
		if shards, err = learn.Shards(train, env.Agents(), p.Shards, seed, p.Deal, fieldDataset); err != nil {
			return nil, nil, err
		}
	}
	var tr *learn.Rows
	if test != nil {
		if test.Cols != train.Cols {
			return nil, nil, check.Errorf(fieldDataset, "%q: the test split has %d features, the training split %d", train.Name, test.Cols, train.Cols)
		}
		tr = &learn.Rows{Set: test}
	}
	m, err := New(shards, tr, p.L2)
	if err != nil {
		return nil, nil, err
	}
	m.seedUsed, m.userData = seed, user
	return m, nil, nil
}

// userSize is Size for the user's data: dimension K·d, the features and
// labels (held once), and what the problem and its solver hold, as for a
// committed dataset.
func userSize(p *Params, agents int) (int, int64) {
	sets := learn.UserSized(p.Data, agents, task)
	if sets == nil {
		return 1, 0
	}
	rows, cols, k := int64(sets.Train.Rows), int64(sets.Train.Cols), int64(len(sets.Train.Classes))
	dim := cols * k
	solver := 6*rows*cols + 8*int64(max(agents, 1)+1)*cols*cols + 8*rows*k
	return int(dim), sets.Bytes() + 8*rows + 8*40*dim + solver
}

// datasets names the dataset splits Build loads for p (objective.Factory.Datasets).
func datasets(params any) []string {
	if p, ok := params.(*Params); ok {
		return learn.Splits(p.Dataset, p.TestSplit)
	}
	return nil
}
