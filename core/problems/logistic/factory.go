package logistic

import (
	"fmt"
	"slices"
	"sync"

	"dpsim/core/check"
	"dpsim/core/data"
	"dpsim/core/objective"
	"dpsim/core/param"
	"dpsim/core/problems/internal/learn"
)

// Params are the scenario's parameters of the logistic problem. A
// dataset-backed problem pins the dataset's name, the shard rule and the
// seed, never the data: the committed files are the data.
type Params struct {
	Dataset string `json:"dataset" doc:"the training data: a committed dataset, synthetic (seeded, drawn here), or user (your rows, given in data)" options:"synthetic|mushrooms|ijcnn1|mnist-01|fmnist-tshirt-trouser|cifar10-catdog|user"`
	// Rows, Features, TestRows and LabelNoise shape the synthetic set.
	Rows       int     `json:"rows" doc:"synthetic: training samples, dealt to the agents" range:"[1, 200000]" unit:"samples"`
	Features   int     `json:"features" doc:"synthetic: features per sample, each in [0, 1]" range:"[1, 3072]" unit:"features per sample"`
	TestRows   int     `json:"test_rows" doc:"synthetic: test samples for the test accuracy (0: none)" range:"[0, 200000]" unit:"samples"`
	LabelNoise float64 `json:"label_noise" doc:"synthetic: Gumbel noise on the planted model's scores (0: separable labels)" range:"[0, 100]"`
	Loss       string  `json:"loss" doc:"the loss: logistic log(1 + e^(−b·aᵀx)) or squares ½(aᵀx − b)², labels b ∈ {−1, +1}" options:"logistic|squares"`
	L2         float64 `json:"l2" doc:"λ: the ℓ2 term (λ/2)‖x‖² in every agent's loss" range:"[0, 1e6]"`
	// Regularizer "elastic-net" makes the problem composite (DP-RECAL).
	Regularizer string  `json:"regularizer" doc:"none, or elastic-net: the composite Σ_i f_i(x) + n·r(x) with r(x) = r_l1·‖x‖₁ + (r_l2/2)‖x‖² (DP-RECAL: ½, 1)" options:"none|elastic-net"`
	RL1         float64 `json:"r_l1" doc:"the ℓ1 weight of r (elastic-net only)" range:"[0, 1e6]"`
	RL2         float64 `json:"r_l2" doc:"the ℓ2 weight of r, as (r_l2/2)‖x‖² (elastic-net only)" range:"[0, 1e6]"`
	Shards      string  `json:"shards" doc:"how the training rows are dealt to agents: equal contiguous blocks in stored order, or after a seeded shuffle" options:"contiguous|shuffled"`
	TestSplit   bool    `json:"test_accuracy" doc:"evaluate the test accuracy on the dataset's test split (every record.eval_every iterations)"`
	Seed        uint64  `json:"seed,omitempty" doc:"seed of the synthetic data and the shuffled shards (0: the scenario's data seed; a pinned scenario writes the seed used)"`
	// Data is the user's rows, read with Dataset "user".
	Data *data.UserData `json:"data,omitempty" doc:"dataset user: your rows, inline or from LIBSVM, CSV, .npy or .npz files, with labels 0/1 or −1/+1 (docs/data.md, \"Your own data\")"`
	// Deal is the shuffled deal written out (learn.Indices).
	Deal [][]int `json:"deal,omitempty" doc:"each agent's row indices into the training rows, in the order it holds them (a replay export writes the shuffled deal here; shards and seed are then not read)"`
}

// task is what labels the binary models take.
var task = data.Task{Binary: true, MaxClasses: 2}

// Fields named in errors.
const (
	fieldDataset     = "problem.params.dataset"
	fieldLoss        = "problem.params.loss"
	fieldL2          = "problem.params.l2"
	fieldRegularizer = "problem.params.regularizer"
)

// Factory builds the logistic problem from a scenario.
var Factory = objective.Factory{
	Datasets: datasets,
	Name:     "logistic",
	Title:    "Binary linear model on a dataset: logistic regression or least squares, ℓ2 or DP-RECAL's elastic net",
	Source:   "Wang, Guo, Yang, Shi, DP-RECAL, Sec. VII (least squares and logistic with r = ½‖x‖² + ½‖x‖₁); Chen & Wang, LDP online, Sec. VI-A (logistic regression on mushrooms)",
	NewParams: func() any {
		return &Params{Dataset: "synthetic", Rows: 400, Features: 8, TestRows: 200, LabelNoise: 0.1,
			Loss: Logistic, L2: 0.01, Regularizer: "none", RL1: 0.5, RL2: 1, Shards: learn.Contiguous, TestSplit: true}
	},
	Size: func(params any, agents int) (int, int64) {
		p := params.(*Params)
		if p.Dataset == learn.User {
			return userSize(p, agents)
		}
		rows, cols, ok := shape(p.Dataset)
		if !ok {
			rows, cols = int64(max(p.Rows, 0)+max(p.TestRows, 0)), p.Features
			// The synthetic set's float32 features and labels, and the
			// training rows' packed copy (learn.Pack).
			return cols, rows*(4*int64(max(cols, 0))+1) + 8*rows + 8*int64(max(cols, 0))*int64(max(cols, 0)) +
				learn.PackBytes(int64(max(p.Rows, 0)), cols, agents)
		}
		// The shared dataset is counted once per process by its loader;
		// here: the shard permutation, for Newton the Hessian, and the
		// packed copy of float32 shards (learn.Pack; sparse ones, which it
		// skips, are counted too: an upper bound).
		pack := int64(0)
		if d, err := data.Info(p.Dataset); err == nil && d.Kind == "float32" {
			pack = learn.PackBytes(rows, cols, agents)
		}
		return cols, 8*rows + 8*int64(cols)*int64(min(cols, newtonMaxDim)) + pack
	},
	Build: build,
	Pinned: func(pr objective.Problem, params any) any {
		q := *params.(*Params)
		q.Seed = pinnedSeed(pr)
		if m := modelOf(pr); m != nil && m.userData != nil {
			q.Data = m.userData
		}
		return &q
	},
	Rows: func(pr objective.Problem, params any) (any, int64) {
		p := params.(*Params)
		m := modelOf(pr)
		if m == nil {
			return nil, 0
		}
		rows, deal, n := learn.Drawn(p.Dataset, p.Shards, p.Deal, m.shards, m.test, m.userData)
		if rows == nil && deal == nil {
			return nil, 0
		}
		// The seed stays as Pinned writes it: neither rows per agent nor
		// a deal read it.
		q := *p
		q.Seed, q.Deal, q.Data = pinnedSeed(pr), deal, m.userData
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

// seeds remembers the seed each built instance used, for Pinned.
type seeded interface{ seed() uint64 }

func pinnedSeed(p objective.Problem) uint64 {
	if s, ok := p.(seeded); ok {
		return s.seed()
	}
	return 0
}

func (m *Model) seed() uint64 { return m.seedUsed }

func build(env *objective.Env, params any) (objective.Problem, []check.Warning, error) {
	p := params.(*Params)
	if err := param.Validate("problem.params", p); err != nil {
		return nil, nil, err
	}
	seed := p.Seed
	if seed == 0 {
		seed = env.Seeds.Data
	}
	n := env.Agents()
	if err := learn.CheckUser(p.Dataset, p.Data); err != nil {
		return nil, nil, err
	}
	if err := learn.CheckDeal(p.Dataset, p.Deal); err != nil {
		return nil, nil, err
	}
	// A dataset-backed instance is fixed by its parameters, the seed and
	// n, and is read-only: several scenarios (the presets of one paper's
	// figures) share it instead of solving for x* again (seconds for
	// MNIST's 784 features).
	// Contiguous shards do not read the seed, so instances that differ
	// only in it share the data and x*; each keeps its own seed for
	// Pinned (a shallow copy), so an export never depends on what the
	// process built before.
	key := ""
	if p.Dataset != "synthetic" {
		q := *p
		q.Seed = seed
		if p.Shards == learn.Contiguous || p.Deal != nil {
			q.Seed = 0
		}
		q.Data = nil
		key = fmt.Sprintf("%+v|n=%d", q, n)
		if p.Data != nil {
			// The user's data by its content (the files' sha256 and how
			// they are read), not by where its params live.
			sets, err := p.Data.Load(learn.FieldData, n, task)
			if err != nil {
				return nil, nil, err
			}
			key += "|data=" + sets.Key
		}
		if prob, warns, ok := built.get(key); ok {
			return withSeed(prob, seed), warns, nil
		}
	}
	prob, warns, err := buildNew(p, seed, n)
	if err == nil && key != "" {
		built.put(key, prob, warns)
	}
	return prob, warns, err
}

// withSeed returns a shallow copy of a built instance that records seed
// as the one it was built from.
func withSeed(prob objective.Problem, seed uint64) objective.Problem {
	switch q := prob.(type) {
	case *Model:
		m := *q
		m.seedUsed = seed
		return &m
	case *Composite:
		m := *q.Model
		m.seedUsed = seed
		return &Composite{&m}
	}
	return prob
}

// memo keeps the last few dataset-backed instances a process built.
type memo struct {
	mu      sync.Mutex
	keys    []string
	entries map[string]memoEntry
}

type memoEntry struct {
	prob  objective.Problem
	warns []check.Warning
}

// memoSize bounds the instances kept: each holds only views of the
// process's shared decoded datasets, x* and its test rows.
const memoSize = 8

var built = &memo{entries: map[string]memoEntry{}}

func (m *memo) get(key string) (objective.Problem, []check.Warning, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.entries[key]
	return e.prob, slices.Clone(e.warns), ok
}

func (m *memo) put(key string, prob objective.Problem, warns []check.Warning) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.entries[key]; ok {
		return
	}
	if len(m.keys) == memoSize {
		delete(m.entries, m.keys[0])
		m.keys = m.keys[1:]
	}
	m.keys = append(m.keys, key)
	m.entries[key] = memoEntry{prob: prob, warns: slices.Clone(warns)}
}

// buildNew builds an instance from the data.
func buildNew(p *Params, seed uint64, n int) (objective.Problem, []check.Warning, error) {
	var shards []learn.Rows
	var train, test *data.Set
	var user *data.UserData
	if p.Dataset == learn.User {
		var sets *data.UserSets
		var err error
		if shards, sets, err = learn.UserShards(p.Data, n, task, p.Shards, seed, 0, p.Deal); err != nil {
			return nil, nil, err
		}
		train, user = sets.Train, sets.Pinned
		if p.TestSplit {
			test = sets.Test
		}
	} else {
		var err error
		if train, test, err = sets(p, seed); err != nil {
			return nil, nil, err
		}
		if shards, err = learn.Shards(train, n, p.Shards, seed, p.Deal, fieldDataset); err != nil {
			return nil, nil, err
		}
	}
	cfg := Config{Loss: p.Loss, L2: p.L2}
	if p.Regularizer == "elastic-net" {
		cfg.Reg = &objective.ElasticNet{L1: p.RL1, L2: p.RL2}
	}
	var tr *learn.Rows
	if test != nil {
		if test.Cols != train.Cols {
			return nil, nil, check.Errorf(fieldDataset, "%q: the test split has %d features, the training split %d", train.Name, test.Cols, train.Cols)
		}
		tr = &learn.Rows{Set: test}
	}
	prob, warns, err := New(shards, tr, cfg)
	if err != nil {
		return nil, nil, err
	}
	m := modelOf(prob)
	m.seedUsed, m.userData = seed, user
	return prob, warns, nil
}

// modelOf returns the Model of a built instance.
func modelOf(prob objective.Problem) *Model {
	switch q := prob.(type) {
	case *Model:
		return q
	case *Composite:
		return q.Model
	}
	return nil
}

// userSize is Size for the user's data: its features and labels (held
// once, shared by the instances built on it), the shard permutation,
// for Newton the Hessian, and the packed copy of the shards.
func userSize(p *Params, agents int) (int, int64) {
	sets := learn.UserSized(p.Data, agents, task)
	if sets == nil {
		return 1, 0
	}
	rows, cols := int64(sets.Train.Rows), sets.Train.Cols
	return cols, sets.Bytes() + 8*rows + 8*int64(cols)*int64(min(cols, newtonMaxDim)) + learn.PackBytes(rows, cols, agents)
}
