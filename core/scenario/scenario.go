// Package scenario holds dpsim's scenario files: a JSON document that
// describes a run completely (graph, weights, problem, algorithm and its
// parameters, noise, seeds, iterations, what to record), its strict
// validation, and the built-in presets.
//
// Every random choice can be pinned explicitly (edge list, weight matrix,
// problem data, initial states), and Pinned returns the scenario with all
// of them pinned, so that another implementation can replay exactly the
// same problem. The format is documented in docs/scenario.md.
package scenario

import (
	"encoding/json"

	"dpsim/core/check"
	"dpsim/core/graph"
	"dpsim/core/jsonout"
	"dpsim/core/jsonstrict"
	"dpsim/core/method"

	"dpsim/core/noise"
	"dpsim/core/rng"
)

// MaxBytes bounds the size of a scenario file. It is large enough for the
// pinned scenario of any export the memory estimate lets through (a
// complete graph of 1000 agents pins about 40 MB of weight entries).
const MaxBytes = 64 << 20

// Limits that keep a mistyped scenario from exhausting memory or time.
const (
	MaxIterations = 10_000_000
	MaxDim        = 100_000
	// MaxMagnitude bounds initial states and noise scales: squared
	// distances and sums over agents must stay far from float64's 1.8e308.
	MaxMagnitude   = 1e12
	MaxCheckpoints = 1000
	MaxTries       = graph.MaxTries
)

// Scenario is a complete description of a run.
type Scenario struct {
	// Name is a short identifier (letters, digits, - and _).
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	// Seed derives the four stream seeds (rng.FromOne) when Seeds is not
	// given; the page's seed box sets it.
	Seed *uint64 `json:"seed,omitempty"`
	// Seeds of the four random streams: problem data, graph, privacy noise,
	// algorithm-internal randomness.
	// All four must be given: a missing one would silently be 0.
	Seeds     *rng.Seeds             `json:"seeds,omitempty" jsonstrict:"allkeys"`
	Graph     Graph                  `json:"graph"`
	Weights   Weights                `json:"weights"`
	Problem   Problem                `json:"problem"`
	Algorithm Algorithm              `json:"algorithm"`
	Noise     map[string]*noise.Spec `json:"noise"`
	// Init pins initial states by variable name (e.g. "x", "s"), one row
	// per agent; a variable not listed starts at 0 or where the algorithm
	// derives it from the others. Pinned writes every state variable.
	Init       map[string][][]float64 `json:"init,omitempty" jsonstrict:"max=5000"`
	Iterations int                    `json:"iterations"`
	Record     Record                 `json:"record"`
	// Samples says how agents walk their sample shards, for problems
	// that serve samples (objective.Stochastic).
	Samples *Samples `json:"samples,omitempty"`
	// Stop ends the run early once a communication budget is spent.
	Stop *Stop `json:"stop,omitempty"`
	// Calibrate, when set, multiplies every noise scale by the one factor
	// that makes the algorithm's own accountant report a target ε: the
	// equal-privacy comparison of the papers.
	Calibrate *Calibrate `json:"calibrate,omitempty"`

	// noise, when set (WithNoise), replaces the noise stream's seed only.
	noiseSeed *uint64
}

// Calibrate asks for equal-privacy calibration: every noise channel's
// scale is multiplied by the factor λ at which the algorithm's accountant
// predicts ε = Epsilon for its most exposed agent after Iterations
// iterations. The scales written in the scenario are the starting point;
// only their common factor changes.
type Calibrate struct {
	// Epsilon is the target ε.
	Epsilon float64 `json:"epsilon"`
	// Iterations is the horizon the target holds at (default: the
	// scenario's iterations).
	Iterations int `json:"iterations,omitempty"`
}

// Graph describes the communication network: a kind (a described
// graph.Kind, registered in registry.go) and the parameters it reads, as
// flat keys beside it ({"kind": "ring", "n": 8}). A key the kind does not
// read is refused, even with its zero value.
type Graph struct {
	// Kind names the builder: one of GraphKinds().
	Kind string `json:"kind"`
	// N is the number of agents (all kinds but grid).
	N int `json:"n,omitempty"`
	// Rows and Cols size a grid.
	Rows int `json:"rows,omitempty"`
	Cols int `json:"cols,omitempty"`
	// Radius links random-geometric nodes within this distance.
	Radius float64 `json:"radius,omitempty"`
	// P is the Erdős–Rényi link probability.
	P float64 `json:"p,omitempty"`
	// Tries bounds the redraws until a random graph is connected
	// (default 100).
	Tries int `json:"tries,omitempty"`
	// Directed makes an edge list directed: [from, to] carries messages
	// from → to (see Reading).
	Directed bool `json:"directed,omitempty"`
	// Reading says how a directed edge list's pairs read: ReadFromTo (the
	// default) or ReadToFrom, the DP-DGT paper's convention, in which
	// (i, j) is a link from j to i.
	Reading string `json:"reading,omitempty"`
	// Edges is the explicit edge list of kind "edges".
	Edges [][2]int `json:"edges,omitempty"`
	// Positions optionally pins node coordinates in [0,1]² for drawing
	// (every kind reads it).
	Positions [][2]float64 `json:"positions,omitempty" jsonstrict:"max=5000"`

	// given lists the keys the parsed text gave, so that a key given
	// with its zero value counts as given (see presentKeys).
	given []string
}

// Readings of a directed edge list's pairs.
const (
	// ReadFromTo: [a, b] is a link a → b (a sends to b).
	ReadFromTo = graph.ReadFromTo
	// ReadToFrom: [a, b] is a link b → a (a receives from b), the DP-DGT
	// paper's convention for its IEEE 14-bus digraph.
	ReadToFrom = graph.ReadToFrom
)

// Weights describes the weight (mixing) matrix, or, for an algorithm that
// mixes with several (method.Factory.Matrices), one matrix per role.
type Weights struct {
	// Kind names the builder (a described weights.Builder, registered
	// in registry.go): one of WeightKinds(), "entries" or "matrix" for an
	// explicit matrix. Empty for an algorithm with roles. A key the
	// builder does not read is refused, even with its zero value.
	Kind string `json:"kind,omitempty"`
	// C is the edge weight of "ldp-laplacian" (W = −c·L).
	C float64 `json:"c,omitempty"`
	// Entries is the explicit matrix of kind "entries": every nonzero
	// entry, diagonal included, as [i, j, w] with i and j whole numbers
	// from 0 to n−1. Its size grows with the links, not with n², so it is
	// the form pinned scenarios and exports write.
	Entries [][]float64 `json:"entries,omitempty"`
	// Matrix is the explicit matrix of kind "matrix", one row of n numbers
	// per agent; still read, for small hand-written matrices.
	Matrix [][]float64 `json:"matrix,omitempty" jsonstrict:"max=5000"`
	// R, and D or RhoW, are the parameters of kind "ring-rd", the GT-DP
	// paper's W(r, d): ρ(W_o) = r, and ρ_w = 1 − 2r·min(d, 1−d), so a
	// target RhoW sets d = (1 − ρ_w)/(2r).
	R    float64 `json:"r,omitempty"`
	D    float64 `json:"d,omitempty"`
	RhoW float64 `json:"rho_w,omitempty"`
	// Pull and Push are the sections of the roles method.RolePull (DP-DGT's
	// R) and method.RolePush (its C), for algorithms that declare them; a
	// role left out gets the algorithm's default kind.
	Pull *Weights `json:"pull,omitempty"`
	Push *Weights `json:"push,omitempty"`

	// given lists the keys the parsed text gave (see presentKeys).
	given []string
}

// Role returns the section of role (method.RolePull or method.RolePush), nil
// when the scenario does not give it.
func (w *Weights) Role(role string) *Weights {
	switch role {
	case method.RolePull:
		return w.Pull
	case method.RolePush:
		return w.Push
	}
	return nil
}

// setRole sets the section of role.
func (w *Weights) setRole(role string, sec *Weights) {
	switch role {
	case method.RolePull:
		w.Pull = sec
	case method.RolePush:
		w.Push = sec
	default:
		panic("scenario: unknown weight role " + role)
	}
}

// Roles lists the weight roles a scenario's weights section may hold.
func Roles() []string { return []string{method.RolePull, method.RolePush} }

// Problem names the problem kind and holds its parameters, decoded
// strictly by the problem's own parameter struct (see core/objective).
type Problem struct {
	Kind   string          `json:"kind"`
	Params json.RawMessage `json:"params,omitempty"`

	// paramsAt is where params starts in the text Parse read, so that
	// errors about the parameters give the file's lines and columns.
	paramsAt jsonstrict.Pos
}

// Algorithm names the algorithm and holds its parameters, decoded strictly
// by the algorithm's own parameter struct.
type Algorithm struct {
	Kind   string          `json:"kind"`
	Params json.RawMessage `json:"params,omitempty"`
	// Draws pins the algorithm's internal random draws by the names its
	// factory declares (method.Factory.Draws), e.g. {"eta": [0.3, 0.7]};
	// the values are used in order and cycle. A draw not listed comes
	// from the algorithm seed.
	Draws map[string][]float64 `json:"draws,omitempty"`

	// paramsAt is where params starts in the text Parse read, so that
	// errors about the parameters give the file's lines and columns.
	paramsAt jsonstrict.Pos
}

// Samples says in what order each agent visits its shard of samples:
// by Mode from the data seed, or in the Order the scenario pins.
type Samples struct {
	// Mode is method.Shuffle (a fresh random order every epoch; the
	// default), method.Replace (uniform draws with replacement) or
	// method.InOrder (0, 1, …, m−1, again and again).
	Mode string `json:"mode,omitempty"`
	// Order pins every agent's sample order: one nonempty list per agent
	// of indices into its shard, used in order and cycled.
	Order [][]int `json:"order,omitempty" jsonstrict:"max=5000"`
}

// Record says what to record.
type Record struct {
	// Every records the metrics every this many iterations (default 1);
	// iteration 0 and the last iteration are always recorded.
	Every int `json:"every,omitempty"`
	// EvalEvery evaluates the problem's expensive metrics
	// (metrics.Evaluated) every this many iterations, a multiple of Every;
	// 0 (the default) evaluates them at every recorded point. Iteration 0
	// and the last recorded iteration are always evaluated.
	EvalEvery int `json:"eval_every,omitempty"`
	// Checkpoints lists iterations at which the full state of every agent
	// is saved.
	Checkpoints []int `json:"checkpoints,omitempty"`
	// Replay writes every random choice of the run into the export's
	// scenario as plain arrays (algorithm.draws, samples.order,
	// noise.<channel>.draws), so that a run of that scenario draws
	// nothing from the seeds and gives the same export; nil (the
	// default) does so when the arrays are small (DefaultReplayValues).
	Replay *bool `json:"replay,omitempty"`

	// given lists the keys the parsed text gave, so that an explicit
	// "every": 0 is refused rather than read as the default.
	given []string
}

// Parse decodes and validates a scenario's JSON text. It does not build
// anything; Build does.
func Parse(data []byte) (*Scenario, error) {
	if len(data) > MaxBytes {
		return nil, check.Errorf("", "the scenario is %d bytes; the limit is %d", len(data), MaxBytes)
	}
	var s Scenario
	if err := jsonstrict.Decode(data, &s, ""); err != nil {
		return nil, RealRange(err)
	}
	s.recordKeys(data)
	if len(s.Algorithm.Params) > 0 {
		s.Algorithm.paramsAt, _ = jsonstrict.Locate(data, "algorithm", "params")
	}
	if len(s.Problem.Params) > 0 {
		s.Problem.paramsAt, _ = jsonstrict.Locate(data, "problem", "params")
	}
	return &s, nil
}

// Clone returns a copy of s that Build may change without touching s:
// Build fills in defaults (the record interval, the noise decays), so the
// parts it writes are copied; the rest (edge lists, positions, raw
// parameters, initial states), which it only reads, is shared. A sweep
// parses its template once and builds a clone per run instead of parsing
// the JSON thousands of times.
func (s *Scenario) Clone() *Scenario {
	c := *s
	if s.Seed != nil {
		v := *s.Seed
		c.Seed = &v
	}
	if s.Seeds != nil {
		v := *s.Seeds
		c.Seeds = &v
	}
	if s.Noise != nil {
		c.Noise = make(map[string]*noise.Spec, len(s.Noise))
		for k, v := range s.Noise {
			if v == nil {
				c.Noise[k] = nil
				continue
			}
			spec := *v
			c.Noise[k] = &spec
		}
	}
	c.Record.Checkpoints = append([]int(nil), s.Record.Checkpoints...)
	if s.Record.Replay != nil {
		v := *s.Record.Replay
		c.Record.Replay = &v
	}
	if s.Stop != nil {
		v := *s.Stop
		c.Stop = &v
	}
	c.Weights = s.Weights.clone()
	return &c
}

// clone copies the weights section's structure (its role sections are
// pointers that Build reads, but a copy keeps every Scenario its own).
func (w Weights) clone() Weights {
	if w.Pull != nil {
		p := w.Pull.clone()
		w.Pull = &p
	}
	if w.Push != nil {
		p := w.Push.clone()
		w.Push = &p
	}
	return w
}

// JSON returns the scenario as indented JSON.
func (s *Scenario) JSON() []byte {
	b, err := jsonout.MarshalIndent(s, "", "  ")
	if err != nil {
		// Every field is plain data validated to be finite.
		panic("scenario: " + err.Error())
	}
	return b
}

// StreamSeeds returns the four stream seeds: Seeds if given, else derived
// from Seed.
func (s *Scenario) StreamSeeds() rng.Seeds {
	var r rng.Seeds
	switch {
	case s.Seeds != nil:
		r = *s.Seeds
	case s.Seed != nil:
		r = rng.FromOne(*s.Seed)
	}
	if s.noiseSeed != nil {
		r.Noise = *s.noiseSeed
	}
	return r
}
