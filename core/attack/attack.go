// Package attack is the gradient-leakage attack on the baton of RECAL and
// DP-RECAL (the DP-RECAL paper, Sec. VII-B and supplement App. A; spec
// algorithms.md §6.2): an eavesdropper who records the messages (ũ, x)
// passed to and from one agent recovers that agent's local gradients
// from consecutive messages, then rebuilds its training image from a
// gradient in the manner of DLG (Zhu, Liu and Han 2019).
//
// The setting is the paper's logistic model with one training image per
// agent: f_i(x) = ln(1 + e^(−b_i a_iᵀx)) and r(x) = ½‖x‖², so the gradient
// of f_i at y is −b_i·σ(−b_i a_iᵀy)·a_i, a multiple of the image. The
// adversary knows what Algorithm 1 starts from (y_i^1 = 0, λ_i^1 = 0,
// ũ^1 = 0, x^1) and α_i and β, as App. A assumes.
package attack

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"dpsim/core/algorithms/recal"
	"dpsim/core/check"
	"dpsim/core/data"
	"dpsim/core/graph"
	"dpsim/core/method"
	"dpsim/core/noise"
	"dpsim/core/num"
	"dpsim/core/objective"
	"dpsim/core/privacy"
	"dpsim/core/rng"
	"dpsim/core/sim"
)

// Config is one attack.
type Config struct {
	// Images holds one training image per agent, features in [0, 1].
	Images [][]float64
	// Labels holds each image's label, −1 or +1.
	Labels []float64
	// Target is the agent whose image is attacked.
	Target int
	// Params are DP-RECAL's parameters (recal.Defaults() and an α).
	Params *recal.Params
	// Sigma1 is the noise channel's scale σ_1 (0 runs RECAL); a
	// Params.TargetEpsilon > 0 calibrates it, as a scenario does
	// (method.Target), and needs it > 0.
	Sigma1 float64
	// Iterations bounds the baton iterations watched (the attack uses the
	// target's first activation).
	Iterations int
	// Steps is the number of DLG optimisation steps.
	Steps int
	// Seed seeds the walk, the noise and DLG's random start.
	Seed uint64
}

// Result is what the attack recovered.
type Result struct {
	// Truth is the attacked image, Reconstruction the attacker's.
	Truth, Reconstruction []float64
	// Label is the true label, LabelGuess the attacker's (iDLG's sign rule).
	Label, LabelGuess float64
	// Gradient is the true ∇f_i(y_i^k) at the attacked activation, Recovered
	// what the attacker computed from the messages.
	Gradient, Recovered []float64
	// GradientError is ‖Recovered − Gradient‖/‖Gradient‖.
	GradientError float64
	// Error is the reconstruction's mean squared error per pixel, and
	// RandomGuess that of an image drawn uniformly from [0, 1]^d (its
	// expectation, Σ_j (a_j² − a_j + 1/3)/d).
	Error, RandomGuess float64
	// Iteration is the iteration of the attacked activation, Sigma the
	// noise standard deviation σ_1 the run used.
	Iteration int
	Sigma     float64
}

// problem is the one-image-per-agent logistic model with r = ½‖x‖².
type problem struct {
	a [][]float64
	b []float64
	r objective.ElasticNet
}

func (p *problem) Kind() string       { return "attack-logistic" }
func (p *problem) Agents() int        { return len(p.a) }
func (p *problem) Dim() int           { return len(p.a[0]) }
func (p *problem) Optimum() []float64 { return nil }
func (p *problem) Value(i int, x []float64) float64 {
	return softplus(-p.b[i] * dot(p.a[i], x))
}
func (p *problem) Grad(i int, x, out []float64) { grad(p.a[i], p.b[i], x, out) }
func (p *problem) Objective(x []float64) float64 {
	s := 0.0
	for i := range p.a {
		s += p.Value(i, x)
	}
	return s + float64(float64(len(p.a))*p.r.Value(x))
}
func (p *problem) Regularizer(x []float64) float64               { return p.r.Value(x) }
func (p *problem) Prox(x []float64, step float64, out []float64) { p.r.Prox(x, step, out) }
func (p *problem) Smoothness() (mu, l float64) {
	l = 0
	for _, a := range p.a {
		l = math.Max(l, dot(a, a)/4)
	}
	return 0, l
}

// grad writes ∇ln(1 + e^(−b aᵀx)) = −b·σ(−b aᵀx)·a.
func grad(a []float64, b float64, x, out []float64) {
	s := -b * sigmoid(-b*dot(a, x))
	for j := range a {
		out[j] = s * a[j]
	}
}

func dot(a, b []float64) float64 {
	s := 0.0
	for j := range a {
		s += float64(a[j] * b[j])
	}
	return s
}

func sigmoid(t float64) float64 {
	if t >= 0 {
		return 1 / (1 + num.Exp(-t))
	}
	e := num.Exp(t)
	return e / (1 + e)
}

func softplus(t float64) float64 {
	if t > 0 {
		return t + num.Log(1+num.Exp(-t))
	}
	return num.Log(1 + num.Exp(t))
}

// maxSigma1 bounds DP-RECAL's σ_1 here, given or calibrated: far above any
// useful noise, far below float64's range.
const maxSigma1 = 1e100

// Check validates the configuration; errors name the field.
func (c *Config) Check() error {
	n := len(c.Images)
	if n < 2 {
		return check.Errorf("attack.images", "needs one image per agent and at least 2 agents (got %d)", n)
	}
	d := len(c.Images[0])
	for i, im := range c.Images {
		if len(im) != d || d == 0 {
			return check.Errorf(check.Index("attack.images", i), "must have %d pixels like image 0 (got %d)", d, len(im))
		}
		for j, v := range im {
			if !(v >= 0 && v <= 1) {
				return check.Errorf(check.Index(check.Index("attack.images", i), j), "must be in [0, 1] (got %v)", v)
			}
		}
	}
	if len(c.Labels) != n {
		return check.Errorf("attack.labels", "must give one label per image (%d), got %d", n, len(c.Labels))
	}
	for i, b := range c.Labels {
		if b != 1 && b != -1 {
			return check.Errorf(check.Index("attack.labels", i), "must be −1 or +1 (got %v)", b)
		}
	}
	if c.Target < 0 || c.Target >= n {
		return check.Errorf("attack.target", "must be an agent of 0..%d (got %d)", n-1, c.Target)
	}
	if c.Iterations < 1 || c.Iterations > 10_000_000 {
		return check.Errorf("attack.iterations", "must be in [1, 10⁷] (got %d)", c.Iterations)
	}
	if c.Steps < 1 || c.Steps > 1_000_000 {
		return check.Errorf("attack.steps", "must be in [1, 10⁶] (got %d)", c.Steps)
	}
	if !(c.Sigma1 >= 0 && c.Sigma1 <= maxSigma1) {
		return check.Errorf("attack.sigma1", "must be in [0, %g] (got %v)", maxSigma1, c.Sigma1)
	}
	if c.Params == nil {
		return check.Errorf("attack.params", "are required (recal.Defaults() with an α)")
	}
	if c.Params.TargetEpsilon > 0 && c.Sigma1 == 0 {
		return check.Errorf("attack.sigma1", "must be > 0 with a target ε: the target calibrates the noise scale, and a scale of 0 (RECAL) has no noise to calibrate (got 0)")
	}
	return nil
}

// Run runs DP-RECAL on a ring of len(Images) agents, eavesdrops on the
// target's first activation and reconstructs its image.
func Run(c Config) (*Result, error) {
	if err := c.Check(); err != nil {
		return nil, err
	}
	d := len(c.Images[0])
	alg, prob, err := c.build()
	if err != nil {
		return nil, err
	}
	t := c.Target
	alpha, beta := alg.Alphas()[t], alg.Beta()

	// The eavesdropper's view: the message that reached the holder
	// (initially the baton's start, ũ^1 = 0 and x^1) and the one it sends.
	st := alg.Initial()
	inU, inX := make([]float64, d), append([]float64(nil), st.Output...)
	// The adversary's replica of the target's state: y^1 = 0, λ^1 = 0.
	y, lam, yk := make([]float64, d), make([]float64, d), make([]float64, d)
	res := &Result{Truth: c.Images[t], Label: c.Labels[t], Sigma: alg.Sigma1(t)}
	for k := 1; k <= c.Iterations; k++ {
		yTrue := append([]float64(nil), alg.State()[3].Data[t*d:(t+1)*d]...)
		st = alg.Advance()
		rel := st.Releases[0]
		outU, outX := rel.Sent[:d], rel.Sent[d:]
		if rel.From == t {
			yk = append(yk[:0], y...)
			res.Recovered = recover(y, lam, inU, inX, outU, outX, alpha, beta)
			res.Gradient = make([]float64, d)
			prob.Grad(t, yTrue, res.Gradient)
			res.Iteration = k
			break
		}
		copy(inU, outU)
		copy(inX, outX)
	}
	if res.Recovered == nil {
		return nil, check.Errorf("attack.iterations", "agent %d never held the baton in %d iterations: watch longer", t, c.Iterations)
	}
	res.GradientError = dist(res.Recovered, res.Gradient) / math.Sqrt(dot(res.Gradient, res.Gradient))
	res.Reconstruction, res.LabelGuess = DLG(res.Recovered, yk, c.Steps, c.Seed)
	res.Error = mse(res.Reconstruction, res.Truth)
	for _, a := range res.Truth {
		res.RandomGuess += float64(a*a) - a + 1.0/3
	}
	res.RandomGuess /= float64(d)
	return res, nil
}

// build builds DP-RECAL on a ring of len(Images) agents, one image each.
func (c *Config) build() (*recal.Algorithm, *problem, error) {
	g, err := graph.Ring(len(c.Images))
	if err != nil {
		return nil, nil, err
	}
	prob := &problem{a: c.Images, b: c.Labels, r: objective.ElasticNet{L2: 1}}
	spec := &noise.Spec{Dist: noise.Gaussian, Scale: c.Sigma1, Decay: noise.Const(1)}
	env := &method.Env{Graph: g, Problem: prob, Noise: map[string]*noise.Spec{"u": spec},
		Seeds: rng.Seeds{Data: c.Seed, Graph: c.Seed, Noise: c.Seed + 1, Algorithm: c.Seed + 2}}
	p := *c.Params
	built, _, err := recal.Factory.Build(env, &p)
	if err != nil {
		return nil, nil, err
	}
	if t := built.Target; t != nil {
		// The target calibrates σ_1 as a scenario's build does, within
		// the range Check allows σ_1: beyond it the noise would be +Inf
		// and every reconstruction NaN.
		lim := privacy.Limits{MaxFactor: maxSigma1 / c.Sigma1, Scale: "σ_1 " + strconv.FormatFloat(c.Sigma1, 'g', 6, 64),
			Base: c.Sigma1, Bound: maxSigma1, Unit: t.Unit}
		cal, err := privacy.CalibrateWith(t.Predict, t.Horizon, t.Epsilon, "attack.epsilon", lim)
		if err != nil {
			return nil, nil, err
		}
		q := *c.Params
		if built, _, _, err = recal.Factory.Rescale(env, cal.Factor, &q); err != nil {
			return nil, nil, err
		}
	}
	return built.Algorithm.(*recal.Algorithm), prob, nil
}

// targetError says which of ε and the PLF a calibration that failed
// (err) is to blame on: the PLF when a smaller one meets ε (its limit,
// found by bisection over builds, which take microseconds), else ε.
func (c *Config) targetError(err error) error {
	fits := func(plf int) bool {
		cp := *c
		p := *c.Params
		p.PLF = plf
		cp.Params = &p
		_, _, err := cp.build()
		return err == nil
	}
	p := c.Params
	if !fits(1) {
		return check.Errorf("attack.epsilon", "is too small for DP-RECAL's calibration even over one activation: %v; raise ε (got %g)", err, p.TargetEpsilon)
	}
	lo, hi := 1, p.PLF // fits(lo), !fits(hi)
	for hi-lo > 1 {
		if mid := lo + (hi-lo)/2; fits(mid) {
			lo = mid
		} else {
			hi = mid
		}
	}
	return check.Errorf("attack.plf", "must be at most %d activations for ε = %g (R = %g): over more, the calibrated noise σ_1 leaves DP-RECAL's range (0, 1e100]; lower the PLF or raise ε (got %d)", lo, p.TargetEpsilon, p.Attenuation, p.PLF)
}

// recover is App. A's recursion for one activation of the target, from
// the message (ũ^k, x^k) it received and (ũ^{k+1}, x^{k+1}) it sent, with
// the replica y = y_i^k, lam = λ_i^k (advanced in place). It returns the
// gradient ∇f_i(y_i^k) it implies:
//
//	λ̂       = λ_i^k + β(x^k − y_i^k)
//	λ_i^{k+1} = ũ^{k+1} − ũ^k + λ_i^k
//	y_i^{k+1} = y_i^k + (x^{k+1} − x^k) + (λ̂ − λ_i^{k+1})/β
//	∇f_i(y_i^k) = (y_i^k − y_i^{k+1})/α_i + λ̂
//
// Exact on RECAL's messages; on DP-RECAL's, ũ carries the noise of this
// and the previous release, which the 1/(αβ) factors amplify.
func recover(y, lam, inU, inX, outU, outX []float64, alpha, beta float64) []float64 {
	g := make([]float64, len(y))
	for j := range y {
		lh := lam[j] + float64(beta*(inX[j]-y[j]))
		ln := outU[j] - inU[j] + lam[j]
		yn := y[j] + (outX[j] - inX[j]) + (lh-ln)/beta
		g[j] = (y[j]-yn)/alpha + lh
		y[j], lam[j] = yn, ln
	}
	return g
}

// DLG reconstructs an image a ∈ [0, 1]^d and its label from a gradient g
// of the logistic loss at the model y: the label by iDLG's rule (the
// gradient −b·σ(·)·a of a nonnegative image has the sign of −b), then the
// image by projected Adam on the gradient-matching loss
// ‖∇ℓ(y; a, b) − g‖² from a seeded uniform random start, as DLG does.
func DLG(g, y []float64, steps int, seed uint64) (img []float64, label float64) {
	d := len(g)
	sum := 0.0
	for _, v := range g {
		sum += v
	}
	label = 1
	if sum > 0 {
		label = -1
	}
	s := rng.NewStream(seed, "attack/dlg")
	a := make([]float64, d)
	for j := range a {
		a[j] = s.Float64()
	}
	m, v, r, gr := make([]float64, d), make([]float64, d), make([]float64, d), make([]float64, d)
	const lr, b1, b2, eps = 0.02, 0.9, 0.999, 1e-12
	p1, p2 := 1.0, 1.0
	for range steps {
		// r = ∇ℓ(y; a, b) − g;  ∇_a‖r‖² = 2(s·r + σ(z)(1 − σ(z))·(aᵀr)·y),
		// with z = −b·aᵀy and s = −b·σ(z).
		z := -label * dot(a, y)
		sg := sigmoid(z)
		sc := -label * sg
		for j := range a {
			r[j] = float64(sc*a[j]) - g[j]
		}
		ar := dot(a, r)
		for j := range a {
			gr[j] = 2 * (float64(sc*r[j]) + float64(sg*(1-sg)*ar*y[j]))
		}
		p1, p2 = float64(p1*b1), float64(p2*b2)
		for j := range a {
			m[j] = float64(b1*m[j]) + float64((1-b1)*gr[j])
			v[j] = float64(b2*v[j]) + float64((1-b2)*gr[j]*gr[j])
			a[j] -= lr * (m[j] / (1 - p1)) / (math.Sqrt(v[j]/(1-p2)) + eps)
			a[j] = math.Min(1, math.Max(0, a[j]))
		}
	}
	return a, label
}

func dist(a, b []float64) float64 {
	s := 0.0
	for j := range a {
		s += float64((a[j] - b[j]) * (a[j] - b[j]))
	}
	return math.Sqrt(s)
}

func mse(a, b []float64) float64 {
	s := 0.0
	for j := range a {
		s += float64((a[j] - b[j]) * (a[j] - b[j]))
	}
	return s / float64(len(a))
}

// String summarises a result in one line.
func (r *Result) String() string {
	return fmt.Sprintf("iteration %d, σ_1 = %.4g: gradient error %.3g, label %v (true %v), image MSE %.4g (random guess %.4g)",
		r.Iteration, r.Sigma, r.GradientError, r.LabelGuess, r.Label, r.Error, r.RandomGuess)
}

var _ sim.Algorithm = (*recal.Algorithm)(nil)

// Report is one attack on a dataset's image, run twice: on RECAL (no
// noise) and on DP-RECAL calibrated to ε; what dpsim attack --out writes
// and the page's attack panel draws.
type Report struct {
	Dataset string  `json:"dataset"`
	Width   int     `json:"width"` // image width in pixels (0: not a square grey image)
	Target  int     `json:"target"`
	Epsilon float64 `json:"epsilon"`
	Delta   float64 `json:"delta"`
	PLF     int     `json:"plf"`
	Note    string  `json:"note"`
	Clean   *Result `json:"recal"`
	Private *Result `json:"dp_recal"`
}

// Options are the inputs of FromDataset besides the data.
type Options struct {
	Target  int     `json:"target"`
	Epsilon float64 `json:"epsilon"`
	Alpha   float64 `json:"alpha"`
	PLF     int     `json:"plf"`
	Steps   int     `json:"steps"`
	Seed    uint64  `json:"seed"`
}

// DefaultOptions returns the CLI's and the page's defaults: agent 3, ε = 12
// at PLF 300, α = 0.5, 400 DLG steps, seed 7.
func DefaultOptions() Options {
	return Options{Target: 3, Epsilon: 12, Alpha: 0.5, PLF: 300, Steps: 400, Seed: 7}
}

// FromDataset gives the first eight training images of a binary dataset
// to eight agents on a ring (class 1 → label +1) and attacks agent
// o.Target on RECAL and on DP-RECAL at ε = o.Epsilon (δ = 1e-3, c = 1,
// R = 1.01, σ_1 calibrated for o.PLF activations).
func FromDataset(set *data.Set, o Options) (*Report, error) {
	if len(set.Classes) != 2 || set.Rows < 8 {
		return nil, check.Errorf("attack.dataset", "must be a binary dataset with at least 8 training rows (%s has %d classes, %d rows)", set.Name, len(set.Classes), set.Rows)
	}
	if !(o.Epsilon > 0 && o.Epsilon <= 1e6) {
		return nil, check.Errorf("attack.epsilon", "must be in (0, 1e6] (got %v)", o.Epsilon)
	}
	if !(o.Alpha > 0 && o.Alpha <= 1e6) {
		return nil, check.Errorf("attack.alpha", "must be in (0, 1e6] (got %v)", o.Alpha)
	}
	if o.PLF < 1 || o.PLF > 100_000_000 {
		return nil, check.Errorf("attack.plf", "must be in [1, 10⁸] (got %d)", o.PLF)
	}
	cfg := Config{Target: o.Target, Iterations: 100_000, Steps: o.Steps, Seed: o.Seed}
	for i := range 8 {
		cfg.Images = append(cfg.Images, set.RowTo(nil, i))
		cfg.Labels = append(cfg.Labels, 2*float64(set.Y[i])-1)
	}
	p := recal.Defaults()
	p.Alpha, p.PLF = o.Alpha, o.PLF
	cfg.Params = p
	clean, err := Run(cfg)
	if err != nil {
		return nil, err
	}
	q := *p
	q.TargetEpsilon = o.Epsilon
	cfg.Params, cfg.Sigma1 = &q, 1
	private, err := Run(cfg)
	if err != nil {
		var ce *check.Error
		if errors.As(err, &ce) && (ce.Field == "attack.epsilon" || strings.HasPrefix(ce.Field, "algorithm.params")) {
			// Only the target differs from the clean run, which built.
			return nil, cfg.targetError(err)
		}
		return nil, err
	}
	w := int(math.Sqrt(float64(set.Cols)))
	if w*w != set.Cols || set.Pixels == nil {
		w = 0
	}
	return &Report{Dataset: set.Name, Width: w, Target: o.Target, Epsilon: o.Epsilon, Delta: p.Delta, PLF: o.PLF,
		Note:  "an eavesdropper on the baton recovers the agent's gradient at its first activation from the two messages around it (App. A) and rebuilds the image from it (DLG); the error is the mean squared error per pixel, beside that of a uniformly random image",
		Clean: clean, Private: private}, nil
}
