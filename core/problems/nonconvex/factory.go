package nonconvex

import (
	"fmt"
	"math"
	"slices"

	"dpsim/core/check"
	"dpsim/core/data"
	"dpsim/core/objective"
	"dpsim/core/param"
	"dpsim/core/problems/internal/learn"
)

// Params are the scenario's parameters; the defaults are the paper's
// (N = 50 comes from the graph) with the spec's proposal for the data.
type Params struct {
	Samples int     `json:"samples" doc:"m: samples per agent (the paper: 200)" range:"[1, 100000]" unit:"samples per agent"`
	Dim     int     `json:"dim" doc:"d: features (the paper: 10)" range:"[1, 1000]" unit:"coordinates"`
	Lambda  float64 `json:"lambda" doc:"λ: the regulariser's weight (the paper: 0.001)" range:"[0, 1e6]"`
	Omega   float64 `json:"omega" doc:"ω: the regulariser's shape (the paper: 1)" range:"[0, 1e6]"`
	Scale   float64 `json:"scale" doc:"s: features z ~ N(0, s²I), labels ±1 at random (the paper's data are unstated; s ≈ 3.6 reproduces its M̄ ≈ 5.03)" range:"(0, 1e3]"`
	Seed    uint64  `json:"seed,omitempty" doc:"seed of the samples (0: the scenario's data seed; a pinned scenario writes the seed used)"`
	// Data is the user's samples, in place of the drawn ones.
	Data *data.UserData `json:"data,omitempty" doc:"your samples instead of drawn ones (samples, dim and scale are then not read): inline or from LIBSVM, CSV, .npy or .npz files, labels 0/1 or −1/+1, dealt in contiguous blocks or given per agent (docs/data.md, \"Your own data\")"`
	// Drawn is the drawn samples written out by a replay export.
	Drawn *Drawn `json:"drawn,omitempty" doc:"the drawn samples written out (a replay export writes them here; seed is then not read): samples × agents rows of dim features, agent i's sample j at row i·samples + j, and their labels ±1"`
}

// Drawn holds drawn samples by value, in float64 as drawn (a user's rows
// are read as float32), so that a replay rebuilds the problem bit for bit.
type Drawn struct {
	Features [][]float64 `json:"features" jsonstrict:"max=1000000"`
	Labels   []float64   `json:"labels" jsonstrict:"max=1000000"`
}

// MaxDrawnValues is the most values of drawn samples Rows copies out: a
// replay export holds at most 2,000,000 values (scenario.MaxReplayValues),
// and the classifier may hold 5·10⁷.
const MaxDrawnValues = 2_000_000

// fieldDrawn names the drawn samples in errors.
const fieldDrawn = "problem.params.drawn"

// samples returns the drawn samples as the classifier holds them (z
// agent-major, d each; y), checked against n agents of m samples of d
// features: one line naming the first entry that breaks a rule.
func (w *Drawn) samples(n, m, d int) (z, y []float64, err error) {
	rows := n * m
	if len(w.Features) != rows || len(w.Labels) != rows {
		return nil, nil, check.Errorf(fieldDrawn, "holds %d rows and %d labels; %d agents × %d samples need %d of each", len(w.Features), len(w.Labels), n, m, rows)
	}
	z, y = make([]float64, 0, rows*d), make([]float64, rows)
	for k, row := range w.Features {
		if len(row) != d {
			return nil, nil, check.Errorf(fmt.Sprintf("%s.features[%d]", fieldDrawn, k), "has %d features; dim is %d", len(row), d)
		}
		for t, v := range row {
			field := fmt.Sprintf("%s.features[%d][%d]", fieldDrawn, k, t)
			if err := check.Finite(field, v); err != nil {
				return nil, nil, err
			}
			if math.Abs(v) > data.MaxUserMagnitude {
				return nil, nil, check.Errorf(field, "must be within ±%g, as your own data (got %g)", data.MaxUserMagnitude, v)
			}
		}
		z = append(z, row...)
		if l := w.Labels[k]; l != 1 && l != -1 {
			return nil, nil, check.Errorf(fmt.Sprintf("%s.labels[%d]", fieldDrawn, k), "must be −1 or +1, got %g", l)
		}
		y[k] = w.Labels[k]
	}
	return z, y, nil
}

// task is what labels the classifier takes.
var task = data.Task{Binary: true, MaxClasses: 2}

// Factory builds the problem from a scenario.
var Factory = objective.Factory{
	Name:   "nonconvex-classifier",
	Title:  "Binary classifier with a nonconvex regulariser on synthetic data (DPP², Sec. VI)",
	Source: "Ou, Wang, Liu, Lu, DPP², Sec. VI; the data distribution is the spec's proposal (§3.6)",
	NewParams: func() any {
		return &Params{Samples: 200, Dim: 10, Lambda: 0.001, Omega: 1, Scale: 3.6}
	},
	Size: func(params any, agents int) (int, int64) {
		p := params.(*Params)
		if p.Data != nil {
			sets := learn.UserSized(p.Data, agents, task)
			if sets == nil {
				return 1, 0 // Build says why
			}
			// The parsed set and its float64 copy.
			rows, cols := int64(sets.Train.Rows), int64(sets.Train.Cols)
			return int(cols), sets.Bytes() + 8*rows*(cols+1)
		}
		return p.Dim, 8 * int64(agents) * int64(max(p.Samples, 0)) * int64(max(p.Dim, 0)+1)
	},
	UserData: func(params any) *data.UserData { return params.(*Params).Data },
	Build: func(env *objective.Env, params any) (objective.Problem, []check.Warning, error) {
		p := params.(*Params)
		if err := param.Validate("problem.params", p); err != nil {
			return nil, nil, err
		}
		n := env.Agents()
		if int64(n)*int64(p.Samples)*int64(p.Dim) > 50_000_000 {
			return nil, nil, check.Errorf("problem.params.samples", "agents × samples × dim must be at most 5e7 (got %d × %d × %d)", n, p.Samples, p.Dim)
		}
		seed := p.Seed
		if seed == 0 {
			seed = env.Seeds.Data
		}
		if p.Data != nil {
			if p.Drawn != nil {
				return nil, nil, check.Errorf(fieldDrawn, "is not read with your own samples (%s)", learn.FieldData)
			}
			return fromUser(p, n, seed)
		}
		var z, y []float64
		if p.Drawn != nil {
			var err error
			if z, y, err = p.Drawn.samples(n, p.Samples, p.Dim); err != nil {
				return nil, nil, err
			}
		} else {
			z, y = Draw(seed, n, p.Samples, p.Dim, p.Scale)
		}
		c, err := New(n, p.Samples, p.Dim, z, y, p.Lambda, p.Omega, p.Scale)
		if err != nil {
			return nil, nil, check.Errorf("problem.params", "%v", err)
		}
		c.seedUsed = seed
		return c, nil, nil
	},
	Pinned: func(pr objective.Problem, params any) any {
		q := *params.(*Params)
		q.Seed = pr.(*Classifier).seedUsed
		if u := pr.(*Classifier).userData; u != nil {
			q.Data = u
		}
		return &q
	},
	Rows: func(pr objective.Problem, params any) (any, int64) {
		p := params.(*Params)
		c, ok := pr.(*Classifier)
		if !ok || p.Data != nil || p.Drawn != nil {
			// A neighbour (an audit's tilted f_i), nothing drawn, or
			// written already (Pinned keeps it).
			return nil, 0
		}
		n := int64(len(c.z) + len(c.y))
		if n > MaxDrawnValues {
			// Counted, not copied: beyond what any replay export holds,
			// so it is off by default and refused when asked for.
			return nil, n
		}
		w := &Drawn{Features: make([][]float64, len(c.y)), Labels: slices.Clone(c.y)}
		for k := range w.Features {
			w.Features[k] = slices.Clone(c.z[k*c.d : (k+1)*c.d])
		}
		q := *p
		// The seed stays as Pinned writes it: drawn samples read none.
		q.Seed, q.Drawn = c.seedUsed, w
		return &q, n
	},
	Reads: func(params any) objective.Reads {
		p := params.(*Params)
		return objective.Reads{DataSeed: p.Seed == 0 && p.Data == nil && p.Drawn == nil}
	},
	Words: words,
}

// fromUser builds the classifier on the user's samples: class 1 is
// y = +1, class 0 y = −1; contiguous blocks of the rows, or each agent's
// own rows.
func fromUser(p *Params, n int, seed uint64) (objective.Problem, []check.Warning, error) {
	if p.Data.Test != nil {
		return nil, nil, check.Errorf(learn.FieldData+".test", "the classifier has no test metric: its metrics are stationarity, consensus and Ŵ")
	}
	shards, sets, err := learn.UserShards(p.Data, n, task, learn.Contiguous, seed, 0, nil)
	if err != nil {
		return nil, nil, err
	}
	d := sets.Train.Cols
	counts := make([]int, n)
	z := make([]float64, 0, sets.Train.Rows*d)
	y := make([]float64, 0, sets.Train.Rows)
	row := make([]float64, 0, d)
	for i, s := range shards {
		counts[i] = s.Len()
		for k := range s.Len() {
			row = sets.Train.RowTo(row, s.Row(k))
			z = append(z, row...)
			y = append(y, float64(2*s.Label(k)-1))
		}
	}
	c, err := NewCounts(counts, d, z, y, p.Lambda, p.Omega, 0)
	if err != nil {
		return nil, nil, check.Errorf(learn.FieldData, "%v", err)
	}
	c.seedUsed, c.userData = seed, sets.Pinned
	return c, nil, nil
}
