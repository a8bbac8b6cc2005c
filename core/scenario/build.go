package scenario

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"

	"dpsim/core/check"
	"dpsim/core/graph"
	"dpsim/core/jsonstrict"
	"dpsim/core/method"
	"dpsim/core/noise"
	"dpsim/core/objective"
	"dpsim/core/pld"
	"dpsim/core/pool"
	"dpsim/core/privacy"
	"dpsim/core/rng"
	"dpsim/core/sim"
)

// Built is a validated scenario with everything constructed, ready to run.
type Built struct {
	// Scenario is the scenario as given (with defaults filled in).
	Scenario *Scenario
	Factory  *method.Factory
	// ProblemFactory built the problem from ProblemParams (decoded, with
	// defaults filled in).
	ProblemFactory *objective.Factory
	ProblemParams  any
	Env            *method.Env
	method.Built
	// Warnings are the soft assumptions that do not hold.
	Warnings []check.Warning
	// initial is every state variable before the first iteration, as the
	// algorithm set it up (some derive a variable from others: DDGT's
	// z_0 = −ι(w_0 − d)), for Pinned.
	initial []sim.Var
	// Calibration records the equal-privacy calibration, when the
	// scenario asked for one; Env.Noise then holds the calibrated scales.
	Calibration *privacy.Calibration
	// Replay reports that the run records its draws for a replay export
	// (record.replay, or by default when ReplayValues is at most
	// DefaultReplayValues); ReplayValues bounds the arrays' values (the
	// problem's rows counted only when they could be written:
	// chooseReplay).
	Replay       bool
	ReplayValues int64
	// problemRows is the problem's parameters with what it drew written
	// out (objective.Factory.Rows), for a replay export; nil: none.
	problemRows any
}

var nameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`)

// Place is where a scenario runs: its memory budget and recording differ.
type Place int

// Places.
const (
	// CLI: dpsim run, validate and sweep (CLIBudget; metrics spill to disk).
	CLI Place = iota
	// Page: the browser (PageBudget; metrics and animation in memory).
	Page
)

// Build validates s for the CLI and constructs its graph, weights,
// problem, noise channels and algorithm. The first broken rule is returned
// as an error that names its field.
func Build(s *Scenario) (*Built, error) { return BuildFor(s, CLI) }

// BuildFor is Build for a place: a scenario whose memory estimate
// (EstimateOf) exceeds the place's budget is refused before anything is
// allocated.
func BuildFor(s *Scenario, place Place) (*Built, error) { return BuildWith(s, place, nil) }

// ProblemProvider hands BuildWith a scenario's problem: the instance it
// keeps under key (objective.Factory.Key), or what build returns, which
// it may keep for later calls with the same key. dataBytes is the
// problem's Size estimate, for a provider that bounds its memory. The
// instance is shared read-only (objective.Reads says why that is safe).
type ProblemProvider func(key string, dataBytes int64, build func() (objective.Problem, []check.Warning, error)) (objective.Problem, []check.Warning, error)

// BuildWith is BuildFor with the problem instance taken from problems
// when it is not nil: a sweep builds a problem once for all the runs that
// share its data (experiment.Plan).
func BuildWith(s *Scenario, place Place, problems ProblemProvider) (*Built, error) {
	return BuildCancel(s, place, problems, nil)
}

// BuildCancel is BuildWith that looks at cancel (when not nil) in the
// loops that can take seconds, the calibration search among them, and
// returns a one-line "interrupted" error once it reports true: Ctrl-C
// during `dpsim run` or a sweep's plan.
func BuildCancel(s *Scenario, place Place, problems ProblemProvider, cancel func() bool) (*Built, error) {
	if !nameRE.MatchString(s.Name) {
		return nil, check.Errorf("name", "must be 1–64 letters, digits, '-', '_' or '.', starting with a letter or digit (got %q)", s.Name)
	}
	if err := check.IntRange("iterations", s.Iterations, 1, MaxIterations); err != nil {
		return nil, err
	}
	if s.Record.Every == 0 {
		if slices.Contains(s.Record.given, "every") {
			return nil, check.Errorf("record.every", "must be a whole number from 1 to %d (got 0); leave it out to record every iteration", MaxIterations)
		}
		s.Record.Every = 1
	}
	if err := check.IntRange("record.every", s.Record.Every, 1, MaxIterations); err != nil {
		return nil, err
	}
	if err := checkRecordStop(s); err != nil {
		return nil, err
	}
	if len(s.Record.Checkpoints) > MaxCheckpoints {
		return nil, check.Errorf("record.checkpoints", "at most %d checkpoints (got %d)", MaxCheckpoints, len(s.Record.Checkpoints))
	}
	for i, k := range s.Record.Checkpoints {
		if err := check.IntRange(check.Index("record.checkpoints", i), k, 0, s.Iterations); err != nil {
			return nil, err
		}
	}
	if err := checkSeeds(s); err != nil {
		return nil, err
	}
	f, ok := factories[s.Algorithm.Kind]
	if s.Algorithm.Kind == "" {
		return nil, check.Errorf("algorithm.kind", "is required: one of %v", AlgorithmNames())
	}
	if !ok {
		return nil, check.Errorf("algorithm.kind", "must be one of %v (got %q)", AlgorithmNames(), s.Algorithm.Kind)
	}
	var warns []check.Warning

	pf, pparams, err := decodeProblem(&s.Problem)
	if err != nil {
		return nil, err
	}
	dim, dataBytes := 1, int64(0)
	if pf.Size != nil {
		dim, dataBytes = pf.Size(pparams, max(s.Graph.N, s.Graph.Rows*s.Graph.Cols))
	}
	if err := checkDim(pparams, dim); err != nil {
		return nil, err
	}
	budget, where := int64(CLIBudget), "in the CLI"
	if place == Page {
		budget, where = PageBudget, "in the browser"
	}
	seeds := s.StreamSeeds()
	g, err := buildGraph(&s.Graph, seeds, f.RootedDigraphs, func() error {
		return checkBudget(EstimateOf(s, f, dim, dataBytes, place == Page), budget, where)
	})
	if err != nil {
		return nil, err
	}
	w, report, mats, reports, err := buildAllWeights(&s.Weights, g, f)
	if err != nil {
		return nil, err
	}
	prob, pw, err := buildProblem(pf, pparams, g, seeds, problems, dataBytes)
	if err != nil {
		return nil, err
	}
	if err := checkPairing(f, pf, prob); err != nil {
		return nil, err
	}
	if _, ok := prob.(objective.Composite); ok && !f.Prox {
		return nil, check.Errorf("algorithm.kind", "%s takes no proximal step, so on %s it would minimise the smooth part alone and ignore the nonsmooth regulariser: choose an algorithm with a prox step (got %q)", f.Title, pf.Title, f.Name)
	}
	warns = append(append(warns, pw...), evalWarnings(s, pf, prob)...)

	// Noise: exactly the algorithm's channels, each validated.
	chans := map[string]*noise.Spec{}
	for _, c := range f.Channels {
		field := check.Join("noise", c.Name)
		spec, ok := s.Noise[c.Name]
		if !ok || spec == nil {
			return nil, check.Errorf(field, "is required: %s (%s noise; use \"scale\": 0 for none)", c.Description, c.Dist)
		}
		if err := spec.Validate(field, g.N); err != nil {
			return nil, err
		}
		if spec.Dist != c.Dist {
			return nil, check.Errorf(check.Join(field, "dist"), "%s uses %s noise on this channel (got %q)", f.Title, c.Dist, spec.Dist)
		}
		// A variance becomes the scale it means (a copy: the scenario
		// keeps the variance the user wrote).
		spec, err := spec.Resolve(field, prob.Dim())
		if err != nil {
			return nil, err
		}
		for i := range g.N {
			if b := spec.Base(i); b > MaxMagnitude {
				sf := check.Join(field, "scale")
				if spec.Scales != nil {
					sf = check.Index(check.Join(field, "scales"), i)
				}
				return nil, check.Errorf(sf, "must be at most %g, so that noisy messages and their squares stay far inside float64's range (got %g)", MaxMagnitude, b)
			}
			// The decay multiplies the scale: its largest value (at k = 0
			// for a decay; a growing one is warned about below and ends in
			// a divergence) must not carry the noise past the same bound.
			if b, d := spec.Base(i), spec.DecayOf(i).At(0); b != 0 && !(b*d <= MaxMagnitude) {
				df := check.Join(field, "decay")
				if spec.Decays != nil {
					df = check.Index(check.Join(field, "decays"), i)
				}
				return nil, check.Errorf(df, "scale × decay at k = 0 must be at most %g, so that noisy messages stay far inside float64's range (got %g × %g = %g): lower decay.c, or raise decay.m of a polynomial decay", MaxMagnitude, b, d, b*d)
			}
		}
		if spec.Grows() && !spec.IsOff() {
			key, text := spec.DecayKey()
			warns = append(warns, check.Warnf(check.Join(field, key),
				"the noise grows with k (%s): the estimates will drift and may overflow; the papers decay their noise (only LDOL's comparison lets it grow)", text))
		}
		chans[c.Name] = spec
	}
	for _, name := range sortedKeys(s.Noise) {
		if _, ok := chans[name]; !ok {
			return nil, check.Errorf(check.Join("noise", name), "unknown channel: %s has channels %v", f.Title, channelNames(f))
		}
	}

	// Initial states: known variables, one finite row of length dim per
	// agent (one row for a shared variable).
	if err := checkInit(s, f, g.N, prob.Dim()); err != nil {
		return nil, err
	}

	params := f.NewParams()
	if len(s.Algorithm.Params) > 0 {
		if err := jsonstrict.DecodeAt(s.Algorithm.Params, params, "algorithm.params", s.Algorithm.paramsAt); err != nil {
			err = RealRange(err)
			return nil, err
		}
	}
	env := &method.Env{Graph: g, Weights: w, Report: report, Matrices: mats, Reports: reports,
		Problem: prob, Noise: chans, Seeds: seeds, Init: s.Init, Iterations: s.Iterations,
		Pool: pool.New(1)} // one worker unless the runner's caller sets more
	if err := setStreams(s, f, env); err != nil {
		return nil, err
	}
	built, aw, err := f.Build(env, params)
	if err != nil {
		return nil, err
	}
	// A privacy target is a calibration of the noise channels: the
	// scenario's own (calibrate) replaces the plug-in's (Built.Target),
	// and neither applies to noise that is off.
	var cal *privacy.Calibration
	t := built.Target
	switch {
	case s.Calibrate != nil:
		if t != nil {
			warns = append(warns, check.Warnf("calibrate.epsilon", "replaces %s = %g (at %s = %d %s): the scenario's calibration takes precedence over the algorithm's target",
				t.Field(), t.Epsilon, t.HorizonField(), t.Horizon, t.Unit))
		}
		built, aw, cal, err = calibrate(s, f, env, built, cancel)
	case t != nil && method.NoiseOff(f, env.Noise):
		warns = append(warns, check.Warnf(t.Field(), "%g is ignored because the noise is off (%s): no noise is drawn and the ledger says no noise; give a scale > 0 to calibrate it",
			t.Epsilon, offChannels(f, env.Noise)))
	case t != nil:
		built, aw, cal, err = meetTarget(s, f, env, t, cancel)
	}
	if err != nil {
		return nil, err
	}
	warns = append(warns, aw...)
	if err := lossFloor(f, env, built.Accountant, s.Iterations); err != nil {
		return nil, err
	}
	b := &Built{Scenario: s, Factory: f, ProblemFactory: pf, ProblemParams: pparams, Env: env, Built: *built, Warnings: warns, Calibration: cal,
		initial: built.Algorithm.State()}
	if err := b.chooseReplay(); err != nil {
		return nil, err
	}
	return b, nil
}

// lossFloor refuses a run whose ledger would read ε = 0 (or ρ = 0)
// although its releases depend on the agents' data: the loss of every
// data-dependent release underflows float64 (privacy.BelowFloor), as
// when DP-EXTRA's α and c of 1e-100 each (the parameters' own floor,
// param.MinMagnitude) meet a noise scale of 1e12: μ = 4e-200/1e12, whose
// ρ = μ²/2 is 0. The error
// names the noise scale the loss is divided by (the largest of the
// agent's channels, or the one the release is on), with Δ, the scale
// and the rule.
func lossFloor(f *method.Factory, env *method.Env, acc privacy.Accountant, iterations int) error {
	r, ok := acc.(privacy.Releaser)
	if !ok || method.NoiseOff(f, env.Noise) {
		return nil
	}
	u, found := privacy.BelowFloor(r, env.Graph.N, iterations)
	if !found {
		return nil
	}
	i := u.Charge.Agent
	name, b := "", -1.0
	for _, ch := range f.Channels {
		sp := env.Noise[ch.Name]
		if ch.Name == u.Charge.Channel {
			name, b = ch.Name, sp.Base(i)
			break
		}
		if sp.Base(i) > b {
			name, b = ch.Name, sp.Base(i)
		}
	}
	field := check.Join(check.Join("noise", name), "scale")
	if env.Noise[name].Scales != nil {
		field = check.Index(check.Join(check.Join("noise", name), "scales"), i)
	}
	rel := u.Charge.Release
	what, sym, floor := "ε = Δ/b", "b", privacy.LaplaceFloor
	if rel.Mechanism == pld.Gaussian {
		what, sym, floor = "μ = Δ/σ", "σ", privacy.GaussianFloor
	}
	return check.Errorf(field, "agent %d's privacy loss per release, %s = %.3g/%.3g (message %s, iteration %d), underflows float64 (must be ≥ %g, i.e. Δ ≥ %g × %s: else the ledger reads 0 although the releases depend on the agent's data); got %s = %g",
		i, what, rel.Sensitivity, rel.Scale, u.Charge.Channel, u.Iteration, floor, floor, sym, sym, b)
}

// calibrate solves for the common noise factor that meets the scenario's
// target ε (privacy.Calibrate), rescales every channel of env and builds
// the algorithm again on the rescaled channels.
func calibrate(s *Scenario, f *method.Factory, env *method.Env, built *method.Built, cancel func() bool) (*method.Built, []check.Warning, *privacy.Calibration, error) {
	c := s.Calibrate
	if c.Iterations == 0 {
		c.Iterations = s.Iterations
	}
	if err := check.IntRange("calibrate.iterations", c.Iterations, 1, MaxIterations); err != nil {
		return nil, nil, nil, err
	}
	pred, ok := built.Accountant.(privacy.Predictor)
	if !ok {
		return nil, nil, nil, check.Errorf("calibrate", "%s's accountant cannot predict ε before running, so it cannot be calibrated", f.Title)
	}
	return rescale(s, f, env, privacy.Calibration{Target: c.Epsilon, Iterations: c.Iterations}, pred, "calibrate.epsilon", cancel,
		func(b *method.Built) privacy.Predictor { return b.Accountant.(privacy.Predictor) })
}

// meetTarget calibrates env's noise to the plug-in's target t, over the
// horizon in the accountant's own unit, as calibrate does for the
// scenario's.
func meetTarget(s *Scenario, f *method.Factory, env *method.Env, t *method.Target, cancel func() bool) (*method.Built, []check.Warning, *privacy.Calibration, error) {
	want := privacy.Calibration{Target: t.Epsilon, Iterations: t.Horizon, Field: t.Field(), HorizonField: t.HorizonField(), Unit: t.Unit}
	return rescale(s, f, env, want, t.Predict, t.Field(), cancel, func(b *method.Built) privacy.Predictor {
		if b.Target == nil {
			return nil
		}
		return b.Target.Predict
	})
}

// rescale finds the factor at which pred gives want.Target after
// want.Iterations (privacy.CalibrateWith, bounded by MaxMagnitude),
// builds the algorithm again on env's channels multiplied by it, and
// checks that the rebuilt accountant's own prediction (after returns it)
// meets the target within privacy.Tolerance. field names the target in
// errors.
func rescale(s *Scenario, f *method.Factory, env *method.Env, want privacy.Calibration, pred privacy.Predictor, field string, cancel func() bool, after func(*method.Built) privacy.Predictor) (*method.Built, []check.Warning, *privacy.Calibration, error) {
	lim := noiseLimits(f, env, cancel)
	lim.Unit = want.Unit
	cal, err := privacy.CalibrateWith(pred, want.Iterations, want.Target, field, lim)
	if errors.Is(err, privacy.ErrInterrupted) {
		return nil, nil, nil, fmt.Errorf("%s: interrupted while searching for the noise factor", field)
	}
	if err != nil {
		return nil, nil, nil, err
	}
	cal.Field, cal.HorizonField, cal.Unit = want.Field, want.HorizonField, want.Unit
	scaled, _ := method.ScaleNoise(f, env.Noise, cal.Factor)
	for _, ch := range f.Channels {
		for i := range env.Graph.N {
			if b := scaled[ch.Name].Base(i); b > MaxMagnitude {
				return nil, nil, nil, check.Errorf(field, "ε = %g needs the %s noise scale %g, beyond %g (a smaller noise would break float64's range): ask for a larger ε", want.Target, ch.Name, b, MaxMagnitude)
			}
		}
	}
	params := f.NewParams()
	if len(s.Algorithm.Params) > 0 {
		if err := jsonstrict.Decode(s.Algorithm.Params, params, "algorithm.params"); err != nil {
			return nil, nil, nil, err
		}
	}
	// The rebuilt algorithm draws from fresh streams, exactly as a replay
	// of the pinned (calibrated) scenario does.
	again, warns, record, err := f.Rescale(env, cal.Factor, params)
	if err != nil {
		return nil, nil, nil, err
	}
	cal.Channels = record
	// What the rebuilt accountant itself predicts at its own scales: the
	// target, or the calibration failed.
	p := after(again)
	if p == nil {
		return nil, nil, nil, check.Errorf(field, "cannot reach ε = %g: the algorithm rebuilt on the calibrated scales offers no prediction to check it against", want.Target)
	}
	cal.After = p.PredictEpsilon(want.Iterations, 1)
	if err := cal.Check(field); err != nil {
		return nil, nil, nil, err
	}
	return again, warns, &cal, nil
}

// offChannels says why f's channels in chans add no noise, for a
// warning: "noise.x.scale = 0", or "noise.x adds no noise" (a decay of
// 0, per-agent scales of 0).
func offChannels(f *method.Factory, chans map[string]*noise.Spec) string {
	var why []string
	for _, ch := range f.Channels {
		field := check.Join("noise", ch.Name)
		if sp := chans[ch.Name]; sp.Scales == nil && sp.Scale == 0 {
			why = append(why, field+".scale = 0")
		} else {
			why = append(why, field+" adds no noise")
		}
	}
	return strings.Join(why, ", ")
}

// noiseLimits bounds the calibration factor by the largest base scale of
// any channel: beyond MaxMagnitude/that scale, calibrate would refuse the
// result anyway, so privacy.CalibrateWith refuses it from a short horizon.
func noiseLimits(f *method.Factory, env *method.Env, cancel func() bool) privacy.Limits {
	lim := privacy.Limits{Cancel: cancel, Bound: MaxMagnitude}
	for _, ch := range f.Channels {
		sp := env.Noise[ch.Name]
		for i := range env.Graph.N {
			if b := sp.Base(i); b > lim.Base {
				lim.Base, lim.Scale = b, "the "+ch.Name+" noise scale "+strconv.FormatFloat(b, 'g', 6, 64)
			}
		}
	}
	if lim.Base > 0 {
		lim.MaxFactor = MaxMagnitude / lim.Base
	}
	return lim
}

// decodeProblem finds the problem's factory and decodes its params.
func decodeProblem(ps *Problem) (*objective.Factory, any, error) {
	f, ok := problems[ps.Kind]
	switch {
	case ps.Kind == "":
		return nil, nil, check.Errorf("problem.kind", "is required: one of %v", ProblemKinds())
	case !ok:
		return nil, nil, check.Errorf("problem.kind", "must be one of %v (got %q)", ProblemKinds(), ps.Kind)
	}
	params := f.NewParams()
	if len(ps.Params) > 0 {
		if err := jsonstrict.DecodeAt(ps.Params, params, "problem.params", ps.paramsAt); err != nil {
			err = RealRange(err)
			return nil, nil, err
		}
	}
	return f, params, nil
}

// buildProblem builds the problem on g with seeds, or takes it from
// problems (when not nil) under its key.
func buildProblem(f *objective.Factory, params any, g *graph.Graph, seeds rng.Seeds, problems ProblemProvider, dataBytes int64) (objective.Problem, []check.Warning, error) {
	env := &objective.Env{Graph: g, Seeds: seeds}
	build := func() (objective.Problem, []check.Warning, error) {
		prob, warns, err := f.Build(env, params)
		if err != nil {
			return nil, nil, err
		}
		if prob.Agents() != g.N {
			return nil, nil, check.Errorf("problem", "%s has %d private objectives for %d agents", f.Title, prob.Agents(), g.N)
		}
		return prob, warns, nil
	}
	if problems == nil {
		return build()
	}
	key, ok := f.Key(params, env)
	if !ok {
		return build()
	}
	return problems(key, dataBytes, build)
}

func channelNames(f *method.Factory) []string {
	var ns []string
	for _, c := range f.Channels {
		ns = append(ns, c.Name)
	}
	return ns
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// checkPairing refuses an algorithm on a problem of a form it does not
// solve (method.Factory.Solves), in one line naming both: GT-DP on the
// dispatch problem would descend the price dual and report prices as
// allocations (a NaN consensus), DP-DGT on a plain problem has no best
// response to call.
func checkPairing(f *method.Factory, pf *objective.Factory, prob objective.Problem) error {
	_, alloc := prob.(objective.Allocation)
	form := method.Minimisation
	if alloc {
		form = method.Allocation
	}
	if f.Solves == form {
		return nil
	}
	return check.Errorf("algorithm.kind", "%s solves %s but problem.kind %q (%s) is %s: choose an algorithm that solves %s, or a problem of its form (got %q)", f.Title, f.Solves, pf.Name, pf.Title, form, form, f.Name)
}
