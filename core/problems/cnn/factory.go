package cnn

import (
	"fmt"
	"slices"
	"strings"

	"dpsim/core/check"
	"dpsim/core/data"
	"dpsim/core/nn"
	"dpsim/core/objective"
	"dpsim/core/param"
	"dpsim/core/problems/internal/learn"
	"dpsim/core/rng"
)

// Params are the scenario's parameters of the CNN problem.
type Params struct {
	Dataset   string  `json:"dataset" doc:"the images: mnist (10 digits, 28×28 grey; 30,000 training images), cifar10-catdog (cat vs dog, 32×32 colour; only 777 training and 189 test images: the complete CIFAR-10 was not available, so results are not comparable with the paper's), or the two-class 28×28 sets; or user: your images, given in data" options:"mnist|cifar10-catdog|mnist-01|fmnist-tshirt-trouser|user"`
	TrainRows int     `json:"train_rows" doc:"training images used: the first this many of the training split, dealt to the agents (0: all). A full gradient reads an agent's whole shard, so algorithms without minibatches want few" range:"[0, 1000000]" unit:"images"`
	EvalRows  int     `json:"eval_rows" doc:"images the expensive metrics read: the first this many of the training images used and of the test split (0: all); every evaluation is a forward pass over them" range:"[0, 1000000]" unit:"images"`
	Shards    string  `json:"shards" doc:"how the training images are dealt to agents: equal contiguous blocks in stored order, or after a seeded shuffle" options:"contiguous|shuffled"`
	L2        float64 `json:"l2" doc:"λ ≥ 0: weight decay (λ/2)‖θ‖² on the network's parameters θ = θ⁰ + x in every agent's loss" range:"[0, 1e3]"`
	Seed      uint64  `json:"seed,omitempty" doc:"seed of the initialisation θ⁰ and of the shuffled shards (0: the scenario's data seed; a pinned scenario writes the seed used)"`
	// Data is the user's images, read with Dataset "user".
	Data *data.UserData `json:"data,omitempty" doc:"dataset user: your images, 28×28 grey (784 values a row) or 32×32 colour (3072: three planes, or (N, 32, 32, 3) arrays), labels 0 … K−1, inline or from LIBSVM, CSV, .npy or .npz files (docs/data.md, \"Your own data\")"`
	// Deal is the shuffled deal written out (learn.Indices).
	Deal [][]int `json:"deal,omitempty" doc:"each agent's image indices into the training images used (the first train_rows), in the order it holds them (a replay export writes the shuffled deal here; shards and seed are then not read for it)"`
	// InitialWeights is θ⁰ written out (Model.Init): float32, which
	// encoding/json writes in the shortest form that reads back to the
	// same float32.
	InitialWeights []float32 `json:"initial_weights,omitempty" doc:"θ⁰: the network's initial weights, one number per parameter in core/nn's layout (a replay export writes the seeded He initialisation here; the seed is then not read for it)"`
}

// task is what labels the CNN takes.
var task = data.Task{MaxClasses: data.MaxUserClasses}

// Fields named in errors.
const (
	fieldDataset = "problem.params.dataset"
	fieldWeights = "problem.params.initial_weights"
)

// loadSet is data.Load, a variable so that tests can stand in for it.
var loadSet = data.Load

// Factory builds the CNN problem from a scenario.
var Factory = objective.Factory{
	Name:   "cnn",
	Title:  "CNN image classifier (conv 5×5×8 → pool → conv 5×5×16 → pool → dense → softmax) on MNIST or CIFAR-10 cat/dog",
	Source: "Chen & Wang, LDP online, Sec. VI-B (MNIST) and VI-C (CIFAR-10); the paper gives no architecture: this one is issue 19's choice (docs/cnn.md)",
	NewParams: func() any {
		return &Params{Dataset: "mnist", TrainRows: 1000, EvalRows: 1000, Shards: learn.Shuffled}
	},
	Size: func(params any, agents int) (int, int64) {
		p := params.(*Params)
		net, rows, held, ok := sized(p, agents)
		if !ok {
			return 1, 0 // Build says why
		}
		if p.TrainRows > 0 {
			rows = min(rows, int64(p.TrainRows))
		}
		// θ⁰ and the shard permutation; the scratches are Scratch's, the
		// dataset its loader's.
		return net.Size(), 4*int64(net.Size()) + 8*rows + held
	},
	// One scratch per gradient running at once (the network's workspace,
	// θ and a gradient in float32, a chunk of images and labels): each
	// call of the run's pool takes its own.
	Scratch: func(params any) int64 {
		net, _, _, ok := sized(params.(*Params), 1)
		if !ok {
			return 0
		}
		return scratchBytes(net)
	},
	UserData: func(params any) *data.UserData { return params.(*Params).Data },
	Build:    build,
	Pinned: func(pr objective.Problem, params any) any {
		q := *params.(*Params)
		q.Seed = pr.(*Model).seedUsed
		if u := pr.(*Model).userData; u != nil {
			q.Data = u
		}
		return &q
	},
	Rows: drawn,
	Reads: func(params any) objective.Reads {
		// The seed draws θ⁰ and a shuffled deal; given both (a replay
		// export), or θ⁰ and shards not drawn, nothing is.
		p := params.(*Params)
		dealt := p.Shards != learn.Shuffled || p.Deal != nil || p.Data != nil && len(p.Data.Agents) > 0
		random := p.InitialWeights == nil || !dealt
		return objective.Reads{DataSeed: random && p.Seed == 0}
	},
	Datasets: func(params any) []string {
		if p, ok := params.(*Params); ok {
			return learn.Splits(p.Dataset, true)
		}
		return nil
	},
	Words: words,
}

// sized returns the network p trains for agents agents, the training rows
// it reads and the bytes of a user's data it holds; ok is false when the
// params do not build (Build says why).
func sized(p *Params, agents int) (net *nn.Net, rows, held int64, ok bool) {
	var err error
	if p.Dataset == learn.User {
		sets := learn.UserSized(p.Data, agents, task)
		if sets == nil {
			return nil, 0, 0, false
		}
		if net, err = netOf(sets.Train); err != nil {
			return nil, 0, 0, false
		}
		return net, int64(sets.Train.Rows), sets.Bytes(), true
	}
	if net, err = netFor(p.Dataset); err != nil {
		return nil, 0, 0, false
	}
	d, _ := data.Info(p.Dataset)
	return net, int64(d.Splits[0].Rows), 0, true
}

// scratchBytes is the bytes of one scratch (Model.get): the network's
// workspace, θ and a gradient in float32, a chunk of images and labels.
func scratchBytes(net *nn.Net) int64 {
	return net.WorkspaceBytes() + int64(4*(2*net.Size()+chunk*net.Input())+chunk)
}

// netFor returns the network for a dataset's image shape and classes.
func netFor(dataset string) (*nn.Net, error) {
	d, err := data.Info(dataset)
	if err != nil {
		return nil, err
	}
	c, h, w, err := Shape(d.Cols)
	if err != nil {
		return nil, check.Errorf(fieldDataset, "%q %v", dataset, err)
	}
	return nn.New(c, h, w, len(d.Classes))
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
	if p.Dataset == learn.User {
		return buildUser(env, p, seed)
	}
	train, err := loadSet(p.Dataset, "train")
	if err != nil {
		return nil, nil, check.Errorf(fieldDataset, "%v", err)
	}
	test, err := loadSet(p.Dataset, "test")
	if err != nil {
		return nil, nil, check.Errorf(fieldDataset, "%v", err)
	}
	if train.Pixels == nil || test.Pixels == nil {
		return nil, nil, check.Errorf(fieldDataset, "%q is not an image set", p.Dataset)
	}
	net, err := netOf(train)
	if err != nil {
		return nil, nil, check.Errorf(fieldDataset, "%q %v", p.Dataset, err)
	}
	used := train.Head(p.TrainRows)
	if used.Rows < env.Agents() {
		return nil, nil, check.Errorf("problem.params.train_rows", "must give each of the %d agents an image (got %d)", env.Agents(), used.Rows)
	}
	shards, err := learn.Shards(used, env.Agents(), p.Shards, seed, p.Deal, fieldDataset)
	if err != nil {
		return nil, nil, err
	}
	theta0, err := initial(net, p.InitialWeights, seed)
	if err != nil {
		return nil, nil, err
	}
	m, err := New(net, shards, learn.Rows{Set: used.Head(p.EvalRows)}, &learn.Rows{Set: test.Head(p.EvalRows)}, theta0, p.L2)
	if err != nil {
		return nil, nil, check.Errorf(fieldDataset, "%v", err)
	}
	m.seedUsed = seed
	return m, rowWarnings(p, train.Rows, used.Rows, test.Rows), nil
}

// initial returns θ⁰: the weights given (initial_weights, one finite
// number per parameter of net), else the seeded He initialisation from
// the stream "cnn/init" of seed.
func initial(net *nn.Net, given []float32, seed uint64) ([]float32, error) {
	if given == nil {
		theta0 := make([]float32, net.Size())
		net.Init(theta0, rng.NewStream(seed, "cnn/init"))
		return theta0, nil
	}
	if len(given) != net.Size() {
		return nil, check.Errorf(fieldWeights, "must hold one weight per parameter of the network (%v), got %d numbers", net, len(given))
	}
	for k, v := range given {
		if err := check.Finite(check.Index(fieldWeights, k), float64(v)); err != nil {
			return nil, err
		}
	}
	return slices.Clone(given), nil
}

// drawn is the factory's Rows: for a replay export, the pinned parameters
// with what the problem drew written out — the shuffled deal
// (problem.params.deal, learn.DrawnDeal) and θ⁰
// (problem.params.initial_weights) — and their number of values; nil
// when both were given already.
func drawn(pr objective.Problem, params any) (any, int64) {
	p, m := params.(*Params), pr.(*Model)
	deal, n := learn.DrawnDeal(p.Shards, p.Deal, m.shards, m.userData)
	q := *p
	q.Seed = m.seedUsed
	if deal != nil {
		q.Deal = deal
	}
	if p.InitialWeights == nil {
		q.InitialWeights = m.Init()
		n += int64(len(q.InitialWeights))
	}
	if deal == nil && p.InitialWeights != nil {
		return nil, 0
	}
	if m.userData != nil {
		q.Data = m.userData
	}
	return &q, n
}

// netOf returns the network for a set's image shape and classes.
func netOf(set *data.Set) (*nn.Net, error) {
	c, h, w, err := Shape(set.Cols)
	if err != nil {
		return nil, err
	}
	return nn.New(c, h, w, len(set.Classes))
}

// buildUser builds the model on the user's images: train_rows and
// eval_rows as on a committed dataset (train_rows is not applied to
// images given per agent); no test accuracy without test images.
func buildUser(env *objective.Env, p *Params, seed uint64) (objective.Problem, []check.Warning, error) {
	n := env.Agents()
	shards, sets, err := learn.UserShards(p.Data, n, task, p.Shards, seed, p.TrainRows, p.Deal)
	if err != nil {
		return nil, nil, err
	}
	net, err := netOf(sets.Train)
	if err != nil {
		return nil, nil, check.Errorf(learn.FieldData, "%v", err)
	}
	used := shards[0].Set
	var warns []check.Warning
	if sets.Counts != nil && p.TrainRows > 0 && p.TrainRows < sets.Train.Rows {
		warns = append(warns, check.Warnf("problem.params.train_rows", "%d is not applied to images given per agent: the agents train on all %d", p.TrainRows, sets.Train.Rows))
	}
	if p.EvalRows > used.Rows {
		warns = append(warns, check.Warnf("problem.params.eval_rows", "%d is more than the %d training images used: the evaluations read them all (0 says all)", p.EvalRows, used.Rows))
	}
	var test *learn.Rows
	if sets.Test != nil {
		test = &learn.Rows{Set: sets.Test.Head(p.EvalRows)}
	}
	theta0, err := initial(net, p.InitialWeights, seed)
	if err != nil {
		return nil, nil, err
	}
	m, err := New(net, shards, learn.Rows{Set: used.Head(p.EvalRows)}, test, theta0, p.L2)
	if err != nil {
		return nil, nil, check.Errorf(learn.FieldData, "%v", err)
	}
	m.seedUsed, m.userData = seed, sets.Pinned
	return m, warns, nil
}

// rowWarnings says when train_rows or eval_rows ask for more images than
// there are, so that a count beyond the data is not silently cut: all of
// them are then used.
func rowWarnings(p *Params, train, used, test int) []check.Warning {
	var ws []check.Warning
	if p.TrainRows > train {
		ws = append(ws, check.Warnf("problem.params.train_rows", "%d is more than the %d training images of %s: all %d are used (0 says so)", p.TrainRows, train, p.Dataset, train))
	}
	var over []string
	if p.EvalRows > used {
		over = append(over, fmt.Sprintf("the %d training images used", used))
	}
	if p.EvalRows > test {
		over = append(over, fmt.Sprintf("the %d test images of %s", test, p.Dataset))
	}
	if len(over) > 0 {
		ws = append(ws, check.Warnf("problem.params.eval_rows", "%d is more than %s: the evaluations read %d training and %d test images (0 says all)", p.EvalRows, strings.Join(over, " and "), min(p.EvalRows, used), min(p.EvalRows, test)))
	}
	return ws
}
