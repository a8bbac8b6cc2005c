package scenario

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"

	"dpsim/core/check"
	"dpsim/core/graph"
	"dpsim/core/jsonstrict"
	"dpsim/core/method"
	"dpsim/core/noise"
	"dpsim/core/objective"
	"dpsim/core/privacy"
	"dpsim/core/rng"
	"dpsim/core/sim"
	"dpsim/core/weights"
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
func BuildFor(s *Scenario, place Place) (*Built, error) {
	if !nameRE.MatchString(s.Name) {
		return nil, check.Errorf("name", "must be 1–64 letters, digits, '-', '_' or '.', starting with a letter or digit (got %q)", s.Name)
	}
	if err := check.IntRange("iterations", s.Iterations, 1, MaxIterations); err != nil {
		return nil, err
	}
	if s.Record.Every == 0 {
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
	switch {
	case s.Seed != nil && s.Seeds != nil:
		return nil, check.Errorf("seed", "give either seed (one number) or seeds (four), not both")
	case s.Seed != nil:
		if *s.Seed > 1<<53 {
			return nil, check.Errorf("seed", "must be at most 2^53 = %d so that every language reads it exactly (got %d)", uint64(1)<<53, *s.Seed)
		}
	case s.Seeds == nil:
		return nil, check.Errorf("seed", "is required: a whole number (or \"seeds\": {\"data\", \"graph\", \"noise\", \"algorithm\"})")
	default:
		// The same bound as seed, for the same reason: the export repeats
		// the seeds, and a reader in JavaScript must get them exactly.
		for _, sd := range []struct {
			key string
			v   uint64
		}{{"data", s.Seeds.Data}, {"graph", s.Seeds.Graph}, {"noise", s.Seeds.Noise}, {"algorithm", s.Seeds.Algorithm}} {
			if sd.v > 1<<53 {
				return nil, check.Errorf("seeds."+sd.key, "must be at most 2^53 = %d so that every language reads it exactly (got %d)", uint64(1)<<53, sd.v)
			}
		}
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
	prob, pw, err := buildProblem(pf, pparams, g, seeds)
	if err != nil {
		return nil, err
	}
	warns = append(warns, pw...)

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
		}
		if !spec.Decay.Decays() && !spec.IsOff() {
			warns = append(warns, check.Warnf(check.Join(field, "decay"),
				"the noise grows with k (%v): the estimates will drift and may overflow; the papers decay their noise (only LDOL's comparison lets it grow)", spec.Decay))
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
			return nil, err
		}
	}
	env := &method.Env{Graph: g, Weights: w, Report: report, Matrices: mats, Reports: reports,
		Problem: prob, Noise: chans, Seeds: seeds, Init: s.Init}
	built, aw, err := f.Build(env, params)
	if err != nil {
		return nil, err
	}
	var cal *privacy.Calibration
	if s.Calibrate != nil {
		if built, aw, cal, err = calibrate(s, f, env, built); err != nil {
			return nil, err
		}
	}
	warns = append(warns, aw...)
	return &Built{Scenario: s, Factory: f, ProblemFactory: pf, ProblemParams: pparams, Env: env, Built: *built, Warnings: warns, Calibration: cal,
		initial: built.Algorithm.State()}, nil
}

// calibrate solves for the common noise factor that meets the scenario's
// target ε (privacy.Calibrate), rescales every channel of env and builds
// the algorithm again on the rescaled channels.
func calibrate(s *Scenario, f *method.Factory, env *method.Env, built *method.Built) (*method.Built, []check.Warning, *privacy.Calibration, error) {
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
	cal, err := privacy.Calibrate(pred, c.Iterations, c.Epsilon, "calibrate.epsilon")
	if err != nil {
		return nil, nil, nil, err
	}
	scaled := map[string]*noise.Spec{}
	for _, ch := range f.Channels {
		old := env.Noise[ch.Name]
		sp := *old
		sp.Scale *= cal.Factor
		sp.Scales = nil
		if old.Scales != nil {
			sp.Scales = make([]float64, len(old.Scales))
			for i, b := range old.Scales {
				sp.Scales[i] = b * cal.Factor
			}
		}
		for i := range env.Graph.N {
			if b := sp.Base(i); b > MaxMagnitude {
				return nil, nil, nil, check.Errorf("calibrate.epsilon", "ε = %g needs the %s noise scale %g, beyond %g (a smaller noise would break float64's range): ask for a larger ε", c.Epsilon, ch.Name, b, MaxMagnitude)
			}
		}
		scaled[ch.Name] = &sp
		cal.Channels = append(cal.Channels, privacy.ChannelScale{Channel: ch.Name, Before: baseScales(old), After: baseScales(&sp)})
	}
	env.Noise = scaled
	params := f.NewParams()
	if len(s.Algorithm.Params) > 0 {
		if err := jsonstrict.Decode(s.Algorithm.Params, params, "algorithm.params"); err != nil {
			return nil, nil, nil, err
		}
	}
	again, warns, err := f.Build(env, params)
	if err != nil {
		return nil, nil, nil, err
	}
	// What the rebuilt accountant itself predicts at its own scales.
	cal.After = again.Accountant.(privacy.Predictor).PredictEpsilon(c.Iterations, 1)
	return again, warns, &cal, nil
}

func baseScales(s *noise.Spec) []float64 {
	if s.Scales != nil {
		return append([]float64(nil), s.Scales...)
	}
	return []float64{s.Scale}
}

// buildGraph checks the graph section's fields, then calls before (the
// memory estimate: nothing is allocated until every field is known to be
// in range), then builds the network. A directed graph must be strongly
// connected unless rooted is set (the algorithm checks a spanning-tree
// condition itself); then it must still be weakly connected.
func buildGraph(gs *Graph, seeds rng.Seeds, rooted bool, before func() error) (*graph.Graph, error) {
	tries := gs.Tries
	if tries == 0 {
		tries = 100
	}
	if err := check.IntRange("graph.tries", tries, 1, MaxTries); err != nil {
		return nil, err
	}
	needN := func(lo int) error { return check.IntRange("graph.n", gs.N, lo, graph.MaxAgents) }
	r := rng.New(seeds.Graph, "graph")
	var mk func() (*graph.Graph, error)
	switch gs.Kind {
	case "ring":
		if err := needN(2); err != nil {
			return nil, err
		}
		mk = func() (*graph.Graph, error) { return graph.Ring(gs.N) }
	case "path":
		if err := needN(1); err != nil {
			return nil, err
		}
		mk = func() (*graph.Graph, error) { return graph.Path(gs.N) }
	case "star":
		if err := needN(1); err != nil {
			return nil, err
		}
		mk = func() (*graph.Graph, error) { return graph.Star(gs.N) }
	case "complete":
		if err := check.IntRange("graph.n", gs.N, 1, 1000); err != nil {
			return nil, err
		}
		mk = func() (*graph.Graph, error) { return graph.Complete(gs.N) }
	case "grid":
		if err := check.IntRange("graph.rows", gs.Rows, 1, graph.MaxAgents); err != nil {
			return nil, err
		}
		if err := check.IntRange("graph.cols", gs.Cols, 1, graph.MaxAgents/gs.Rows); err != nil {
			return nil, err
		}
		mk = func() (*graph.Graph, error) { return graph.Grid(gs.Rows, gs.Cols) }
	case "random-geometric":
		if err := check.IntRange("graph.n", gs.N, 1, 2000); err != nil {
			return nil, err
		}
		var err error
		if tries, err = redraws(gs); err != nil {
			return nil, err
		}
		if !(gs.Radius > 0 && gs.Radius <= 2) {
			return nil, check.Errorf("graph.radius", "must be in (0, 2] (got %v)", gs.Radius)
		}
		mk = func() (*graph.Graph, error) { return graph.RandomGeometric(gs.N, gs.Radius, tries, r) }
	case "erdos-renyi":
		if err := check.IntRange("graph.n", gs.N, 1, 2000); err != nil {
			return nil, err
		}
		var err error
		if tries, err = redraws(gs); err != nil {
			return nil, err
		}
		if !(gs.P > 0 && gs.P <= 1) {
			return nil, check.Errorf("graph.p", "must be in (0, 1] (got %v)", gs.P)
		}
		mk = func() (*graph.Graph, error) { return graph.ErdosRenyi(gs.N, gs.P, tries, r) }
	case "edges":
		if err := needN(1); err != nil {
			return nil, err
		}
		switch gs.Reading {
		case "", ReadFromTo, ReadToFrom:
		default:
			return nil, check.Errorf("graph.reading", "must be %q ([a, b] is a link a → b) or %q ([a, b] is a link b → a, the DP-DGT paper's convention) (got %q)", ReadFromTo, ReadToFrom, gs.Reading)
		}
		if gs.Reading != "" && !gs.Directed {
			return nil, check.Errorf("graph.reading", "applies to directed edge lists only (set \"directed\": true)")
		}
		es, err := checkEdges(gs)
		if err != nil {
			return nil, err
		}
		if gs.Reading == ReadToFrom {
			for i, e := range es {
				es[i] = graph.Edge{From: e.To, To: e.From}
			}
		}
		mk = func() (*graph.Graph, error) {
			g, err := graph.New(gs.N, es, gs.Directed)
			if err != nil {
				return nil, check.Errorf("graph.edges", "%v", err)
			}
			return g, nil
		}
	case "":
		return nil, check.Errorf("graph.kind", "is required: one of %v", GraphKinds())
	default:
		return nil, check.Errorf("graph.kind", "must be one of %v (got %q)", GraphKinds(), gs.Kind)
	}
	if err := before(); err != nil {
		return nil, err
	}
	g, err := mk()
	var ce *check.Error
	if errors.As(err, &ce) {
		return nil, err
	}
	if err != nil {
		return nil, check.Errorf("graph", "%v", err)
	}
	if gs.Kind != "edges" && (gs.Directed || gs.Edges != nil || gs.Reading != "") {
		return nil, check.Errorf("graph.edges", "\"edges\", \"directed\" and \"reading\" belong to kind \"edges\" only")
	}
	if gs.Positions != nil {
		if len(gs.Positions) != g.N {
			return nil, check.Errorf("graph.positions", "must list one position per node: %d, got %d", g.N, len(gs.Positions))
		}
		for i, p := range gs.Positions {
			for j, x := range p {
				// The page maps [0,1]² onto the drawing; a point outside
				// would be drawn off the canvas.
				if x >= 0 && x <= 1 {
					continue // the common case, without formatting a field name
				}
				field := check.Index(check.Index("graph.positions", i), j)
				if err := check.Finite(field, x); err != nil {
					return nil, err
				}
				return nil, check.Errorf(field, "must be from 0 to 1: positions are [x, y] in the unit square (got %v)", x)
			}
		}
		g.Pos = gs.Positions
	}
	if g.N < 2 {
		field := "graph.n"
		if gs.Kind == "grid" {
			field = "graph.rows"
		}
		return nil, check.Errorf(field, "a network needs at least 2 agents: with one, nothing is exchanged, so there is nothing decentralized to simulate and no privacy to account (got %d)", g.N)
	}
	if g.Directed && !rooted {
		if !g.StronglyConnected() {
			return nil, check.Errorf("graph", "the directed graph is not strongly connected: some agent can never hear from another")
		}
	} else if !g.Connected() {
		return nil, check.Errorf("graph", "the graph is not connected: it has %d components, and agents in different components can never agree", g.Components())
	}
	return g, nil
}

// checkEdges checks an explicit edge list — endpoints are nodes, no
// self-loops, no edge given twice — naming the entry that breaks a rule, and
// returns it as graph edges.
func checkEdges(gs *Graph) ([]graph.Edge, error) {
	es := make([]graph.Edge, len(gs.Edges))
	first := make(map[graph.Edge]int, len(gs.Edges))
	for i, e := range gs.Edges {
		// The field's name is formatted only for an error: sweeps check
		// the same edge list thousands of times.
		field := func() string { return check.Index("graph.edges", i) }
		for j, v := range e {
			if v < 0 || v >= gs.N {
				return nil, check.Errorf(check.Index(field(), j), "must be a node from 0 to %d (graph.n − 1) (got %d)", gs.N-1, v)
			}
		}
		if e[0] == e[1] {
			return nil, check.Errorf(field(), "[%d, %d] links node %d to itself; an agent's weight on itself belongs to the weight matrix", e[0], e[1], e[0])
		}
		key := graph.Edge{From: e[0], To: e[1]}
		if !gs.Directed && key.From > key.To {
			key.From, key.To = key.To, key.From
		}
		if k, dup := first[key]; dup {
			how := ""
			if !gs.Directed {
				how = " (an undirected edge links both ways)"
			}
			return nil, check.Errorf(field(), "[%d, %d] repeats graph.edges[%d]%s; give each edge once", e[0], e[1], k, how)
		}
		first[key] = i
		es[i] = graph.Edge{From: e[0], To: e[1]}
	}
	return es, nil
}

// MaxPairDraws bounds the work of drawing a random graph: redraws × node
// pairs, so that a scenario cannot ask for minutes of retries.
const MaxPairDraws = 50_000_000

// redraws returns how many times a random graph may be redrawn until it is
// connected: graph.tries, or by default 100, within MaxPairDraws.
func redraws(gs *Graph) (int, error) {
	pairs := max(gs.N*(gs.N-1)/2, 1)
	limit := max(MaxPairDraws/pairs, 1)
	if gs.Tries == 0 {
		return min(100, limit), nil
	}
	if gs.Tries > limit {
		return 0, check.Errorf("graph.tries", "at most %d redraws for %d nodes (redraws × node pairs ≤ %d); got %d", limit, gs.N, MaxPairDraws, gs.Tries)
	}
	return gs.Tries, nil
}

// buildAllWeights builds the scenario's weight matrix and its analysis, or,
// for an algorithm that declares roles, one matrix per role (the first
// role's also returned as the single matrix, for what reads only one).
func buildAllWeights(ws *Weights, g *graph.Graph, f *method.Factory) (*weights.Matrix, weights.Report, map[string]*weights.Matrix, map[string]weights.Report, error) {
	var none weights.Report
	if len(f.Matrices) == 0 {
		for _, role := range Roles() {
			if ws.Role(role) != nil {
				return nil, none, nil, nil, check.Errorf(check.Join("weights", role), "%s mixes with one matrix: give its kind directly (\"weights\": {\"kind\": …}), not a %q section", f.Title, role)
			}
		}
		w, err := buildWeights(ws, g, "weights")
		if err != nil {
			return nil, none, nil, nil, err
		}
		return w, weights.AnalyzeShared(w, g), nil, nil, nil
	}
	var names []string
	for _, r := range f.Matrices {
		names = append(names, r.Role)
	}
	if ws.Kind != "" || ws.C != 0 || ws.Matrix != nil || ws.Entries != nil {
		return nil, none, nil, nil, check.Errorf("weights.kind", "%s mixes with %d matrices, one per role: give them as sections %v (each optional; the defaults are %s)", f.Title, len(names), names, roleDefaults(f))
	}
	for _, role := range Roles() {
		if ws.Role(role) != nil && !slices.Contains(names, role) {
			return nil, none, nil, nil, check.Errorf(check.Join("weights", role), "%s has no %q matrix: its roles are %v", f.Title, role, names)
		}
	}
	mats := map[string]*weights.Matrix{}
	reports := map[string]weights.Report{}
	for _, r := range f.Matrices {
		sec := ws.Role(r.Role)
		if sec == nil {
			sec = &Weights{Kind: r.Default}
		}
		field := check.Join("weights", r.Role)
		if sec.Pull != nil || sec.Push != nil {
			return nil, none, nil, nil, check.Errorf(field, "a role's section holds one matrix (kind, c, entries or matrix), not further roles")
		}
		w, err := buildWeights(sec, g, field)
		if err != nil {
			return nil, none, nil, nil, err
		}
		mats[r.Role], reports[r.Role] = w, weights.AnalyzeShared(w, g)
	}
	first := f.Matrices[0].Role
	return mats[first], reports[first], mats, reports, nil
}

func roleDefaults(f *method.Factory) string {
	var parts []string
	for _, r := range f.Matrices {
		parts = append(parts, fmt.Sprintf("%s: %s", r.Role, r.Default))
	}
	return strings.Join(parts, ", ")
}

// buildWeights builds one matrix from its section; field names the
// section in errors ("weights", or "weights.pull" for a role).
func buildWeights(ws *Weights, g *graph.Graph, field string) (*weights.Matrix, error) {
	if ws.Kind == "" {
		return nil, check.Errorf(check.Join(field, "kind"), "is required: one of %v", weightKinds())
	}
	if ws.Kind != weights.KindMatrix && ws.Matrix != nil {
		return nil, check.Errorf(check.Join(field, "matrix"), "belongs to kind %q only", weights.KindMatrix)
	}
	if ws.Kind != weights.KindEntries && ws.Entries != nil {
		return nil, check.Errorf(check.Join(field, "entries"), "belongs to kind %q only", weights.KindEntries)
	}
	if ws.Kind == weights.KindMatrix {
		mf := check.Join(field, "matrix")
		if len(ws.Matrix) != g.N {
			return nil, check.Errorf(mf, "must have one row per agent: %d, got %d", g.N, len(ws.Matrix))
		}
		for i, r := range ws.Matrix {
			if len(r) != g.N {
				return nil, check.Errorf(check.Index(mf, i), "must have %d entries, got %d", g.N, len(r))
			}
			if err := check.AllFinite(check.Index(mf, i), r); err != nil {
				return nil, err
			}
		}
	}
	if err := check.Finite(check.Join(field, "c"), ws.C); err != nil {
		return nil, err
	}
	if ws.Kind == weights.KindRingRD {
		return ringRD(ws, g)
	}
	if ws.R != 0 || ws.D != 0 || ws.RhoW != 0 {
		return nil, check.Errorf("weights.r", "r, d and rho_w belong to kind %q only", weights.KindRingRD)
	}
	// weights.Build checks the entries (arity, whole indices in range,
	// finite weights, no duplicates), naming weights.entries[k].
	m, err := weights.Build(weights.Spec{Kind: ws.Kind, C: ws.C, Rows: ws.Matrix, Entries: ws.Entries}, g)
	if err != nil {
		var ce *check.Error
		if errors.As(err, &ce) {
			// The weights package names the fields of a section called
			// "weights"; a role's section has its own name.
			if rest, ok := strings.CutPrefix(ce.Field, "weights"); ok {
				return nil, &check.Error{Field: field + rest, Rule: ce.Rule}
			}
			return nil, err
		}
		return nil, check.Errorf(field, "%v", err)
	}
	return m, nil
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
			return nil, nil, err
		}
	}
	return f, params, nil
}

func buildProblem(f *objective.Factory, params any, g *graph.Graph, seeds rng.Seeds) (objective.Problem, []check.Warning, error) {
	prob, warns, err := f.Build(&objective.Env{Graph: g, Seeds: seeds}, params)
	if err != nil {
		return nil, nil, err
	}
	if prob.Agents() != g.N {
		return nil, nil, check.Errorf("problem", "%s has %d private objectives for %d agents", f.Title, prob.Agents(), g.N)
	}
	return prob, warns, nil
}

// GraphKinds lists the graph kinds a scenario may name.
func GraphKinds() []string {
	return []string{"ring", "path", "star", "complete", "grid", "random-geometric", "erdos-renyi", "edges"}
}

func weightKinds() []string {
	var ks []string
	for _, k := range weights.Kinds() {
		ks = append(ks, k.Kind)
	}
	ks = append(ks, weights.RingRDInfo.Kind)
	return ks
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

// ringRD builds the GT-DP paper's W(r, d) from r and either d or a
// target ρ_w.
func ringRD(ws *Weights, g *graph.Graph) (*weights.Matrix, error) {
	d := ws.D
	switch {
	case ws.D != 0 && ws.RhoW != 0:
		return nil, check.Errorf("weights.d", "give either d or rho_w, not both")
	case ws.RhoW != 0:
		var err error
		if d, err = weights.RingRDForRhoW(ws.R, ws.RhoW); err != nil {
			return nil, err
		}
	case ws.D == 0:
		return nil, check.Errorf("weights.d", "is required for kind %q (or give rho_w, and d = (1 − ρ_w)/(2r))", weights.KindRingRD)
	}
	return weights.RingRD(g, ws.R, d)
}
