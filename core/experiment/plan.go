package experiment

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"sort"
	"strings"

	"dpsim/core/check"
	"dpsim/core/jsonout"
	"dpsim/core/rng"
	"dpsim/core/scenario"
)

// Task is one run of the plan: run Run of series Series at point Point.
type Task struct {
	Index, Series, Point, Run int
}

// EpsilonQuantities are recorded by every sweep, besides those its
// experiment asks for: the ledger's ε of the most exposed agent and its
// log10.
var EpsilonQuantities = []string{"epsilon", "epsilon_log10"}

// Plan is an experiment made concrete: the scenario of every (series,
// point), checked to build, and the list of tasks in a fixed order —
// series by series, point by point, run by run — so that a task's index
// names the same run on every machine, for every worker count and shard.
type Plan struct {
	Exp *Experiment
	// Quantities are the per-run quantities recorded: the experiment's,
	// then those the axes use, each once.
	Quantities []string
	// Cancel, when not nil, is looked at every few thousand records
	// while Assemble works (millions of records take seconds); once it
	// returns true Assemble stops with ErrInterrupted.
	Cancel func() bool
	// WorkersSetting names the setting that chooses how many runs are
	// in progress at once (Execute's workers) in a memory refusal
	// (CheckMemory): "--workers" for dpsim sweep; empty reads "workers".
	WorkersSetting string
	// WorkersApart says each worker has a memory of its own (the page's
	// Web Workers, each a WebAssembly instance), which the memory
	// estimate then counts per worker (Estimate); false: goroutines of
	// one process, which share all but their runs.
	WorkersApart bool

	// checked is the tasks and workers of the last CheckMemory, when it
	// passed (nil otherwise).
	checked *[2]int

	canon  []byte
	series []seriesPlan
	tasks  int
	// labels holds what the problems' generic metrics are (figure.go).
	labels metricLabels
	// problems shares problem instances among the runs (nil: every run
	// builds its own).
	problems *problemShare
	// maxRecord and maxRun are the largest record's and run's memory
	// estimates over the points, maxData the largest problem instance's
	// and datasets the dataset splits the runs read, with their bytes
	// (memory.go).
	maxRecord, maxRun, maxData int64
	datasets                   map[string]int64
	// maxCurve is the part of maxRun the recorded metrics take.
	maxCurve int64
	// audit holds an audit's agent, neighbour and references (audit.go);
	// nil for a sweep.
	audit *auditPlan
}

type seriesPlan struct {
	first  int // index of the series' first task
	points []pointPlan
	hook   HookFunc
	// notion is the privacy guarantee its ledger states (the CSV's
	// metadata).
	notion string
}

type pointPlan struct {
	value    float64 // the swept value; NaN on the iteration and communication axes
	template []byte  // the scenario with every override, without seeds
	// parsed is template parsed once; each run builds a clone of it, so
	// that a sweep does not parse the same JSON thousands of times.
	parsed *scenario.Scenario
	grid   []int // recorded iterations (iteration and communication axes)
}

// NewPlan resolves the base scenario, applies the overrides of every
// series and point, and builds each resulting scenario once (with run 0's
// seeds) so that a broken override fails now, naming the series and the
// field, rather than in the middle of a sweep.
func NewPlan(e *Experiment) (*Plan, error) { return NewPlanContext(context.Background(), e) }

// NewPlanContext is NewPlan that stops with ctx's error when ctx is
// cancelled: building every point of a large experiment takes seconds,
// and Ctrl-C must not wait for it.
func NewPlanContext(ctx context.Context, e *Experiment) (*Plan, error) {
	return NewPlanFrom(ctx, e, nil)
}

// NewPlanFrom is NewPlanContext with e's points already worked out
// (PointsOf, whose scenarios a caller read first for the user's files),
// so that they are not worked out twice. Points worked out for another
// experiment (e changed since, dpsim sweep --epsilon), or nil, are
// worked out here.
func NewPlanFrom(ctx context.Context, e *Experiment, ps *Points) (*Plan, error) {
	base, err := baseJSON(e.Base)
	if err != nil {
		return nil, err
	}
	p := &Plan{Exp: e, canon: e.JSON(), problems: newProblemShare()}
	if ps != nil && !bytes.Equal(ps.canon, p.canon) {
		ps = nil
	}
	// An audit's first point (series D's only one), worked out once for
	// its setup and its series.
	var first *pointPlan
	if e.Audit != nil {
		e = e.expandAudit()
		p.Exp = e
		p.Quantities = append(p.Quantities, auditQuantities...)
		var d pointPlan
		if ps != nil {
			d = ps.series[0][0]
		} else if d, err = p.point(base, e.Series[0], nil, 0); err != nil {
			return nil, err
		}
		first = &d
		if err := p.setupAudit(ctx, d); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, err
		}
	}
	p.Quantities = append(p.Quantities, e.Quantities...)
	if e.X.Kind == XDerived {
		p.Quantities = append(p.Quantities, e.X.Quantity)
	}
	if y2 := e.Figure.Y2; y2 != nil && y2.Quantity != "" {
		p.Quantities = append(p.Quantities, y2.Quantity)
	}
	// Every sweep records the privacy each series ran at, so that its CSV
	// and JSON say it whatever the figure shows (ε overflows a float64 for
	// some baselines: its log10 stays finite).
	p.Quantities = append(p.Quantities, EpsilonQuantities...)
	p.Quantities = dedupe(p.Quantities)
	total := 0
	for si, s := range e.Series {
		sp := seriesPlan{first: total}
		if s.Hook != nil {
			sp.hook = hooks[s.Hook.Name]
		}
		fields, values := e.sweep(s)
		for pi, v := range values {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			where := fmt.Sprintf("series[%d] (%s)", si, s.Name)
			if !e.X.alongRun() {
				where += fmt.Sprintf(", x value %v", v)
			}
			var pp pointPlan
			if ps != nil {
				pp = ps.series[si][pi]
			} else if si == 0 && first != nil {
				pp = *first
			} else if pp, err = p.point(base, s, fields, v); err != nil {
				return nil, fmt.Errorf("%s: %w", where, err)
			}
			b, err := p.build(ctx, &pp, sp.hook, s, e.runSeeds(0, s.Name, pi))
			if err != nil {
				if ctx.Err() != nil {
					return nil, ctx.Err()
				}
				return nil, fmt.Errorf("%s: %w", where, err)
			}
			if err := checkMetrics(e, b); err != nil {
				return nil, fmt.Errorf("%s: %w", where, err)
			}
			p.labels.note(b)
			if sp.notion == "" {
				sp.notion = b.Accountant.Ledger().Notion
			}
			p.maxRecord = max(p.maxRecord, p.recordBytes(len(pp.grid)))
			if run, curve := runBytes(b); run > p.maxRun {
				p.maxRun, p.maxCurve = run, curve
			}
			p.noteData(b)
			sp.points = append(sp.points, pp)
		}
		total += len(sp.points) * e.Runs
		if total > MaxTasks {
			return nil, check.Errorf("runs", "the experiment asks for more than %d runs in all", MaxTasks)
		}
		p.series = append(p.series, sp)
	}
	p.tasks = total
	// Refuse at once what could not be held, one worker assumed (Execute
	// checks again with its workers).
	if err := p.CheckMemory(p.tasks, 1, scenario.CLIBudget); err != nil {
		return nil, err
	}
	return p, nil
}

// sweep returns the fields series s sets and the values it takes: the
// series' own sweep, the experiment's x, or one point (NaN) on the
// iteration and communication axes.
func (e *Experiment) sweep(s Series) (fields []string, values []float64) {
	fields, values = e.X.Fields, e.X.Values
	if s.Sweep != nil {
		fields, values = s.Sweep.Fields, s.Sweep.Values
	}
	if e.X.alongRun() {
		fields, values = nil, []float64{math.NaN()}
	}
	return fields, values
}

// Points are the points of every series of an experiment, every
// override applied, none built: what a caller reads before planning
// (Scenarios: the user's files they train on) and NewPlanFrom plans.
type Points struct {
	canon  []byte        // the experiment's JSON they were worked out for
	series [][]pointPlan // series by series, point by point
}

// PointsOf works out the points of every series of e.
func PointsOf(e *Experiment) (*Points, error) {
	base, err := baseJSON(e.Base)
	if err != nil {
		return nil, err
	}
	ps := &Points{canon: e.JSON()}
	if e.Audit != nil {
		e = e.expandAudit()
	}
	p := &Plan{Exp: e}
	for si, s := range e.Series {
		fields, values := e.sweep(s)
		var pts []pointPlan
		for _, v := range values {
			pp, err := p.point(base, s, fields, v)
			if err != nil {
				return nil, fmt.Errorf("series[%d] (%s): %w", si, s.Name, err)
			}
			pts = append(pts, pp)
		}
		ps.series = append(ps.series, pts)
	}
	return ps, nil
}

// Scenarios returns the scenario of every point, series by series. They
// are the plan's own (NewPlanFrom builds a copy of each per run): read
// them, do not change them.
func (ps *Points) Scenarios() []*scenario.Scenario {
	var out []*scenario.Scenario
	for _, pts := range ps.series {
		for _, pp := range pts {
			out = append(out, pp.parsed)
		}
	}
	return out
}

// Scenarios returns the scenario of every series and point of e, every
// override applied, none built: what a caller prepares before NewPlan,
// which builds them all (the page fetches the datasets they train on).
func Scenarios(e *Experiment) ([]*scenario.Scenario, error) {
	ps, err := PointsOf(e)
	if err != nil {
		return nil, err
	}
	return ps.Scenarios(), nil
}

// checkMetrics checks that every metric is registered or recorded by the
// scenario's problem.
func checkMetrics(e *Experiment, b *scenario.Built) error {
	own := problemMetricNames(b)
	for i, m := range e.Metrics {
		if _, ok := metricDefs[m.Name]; ok || slices.Contains(own, m.Name) {
			continue
		}
		return check.Errorf(check.Join(check.Index("metrics", i), "name"), "must be one of the metrics %q or one the problem records %q (got %q)", MetricNames(), own, m.Name)
	}
	return nil
}

// metricDef returns the definition of metric name: registered, or the
// problem's own.
func metricDef(name string) MetricDef {
	if d, ok := metricDefs[name]; ok {
		return d
	}
	return problemMetric(name)
}

func dedupe(xs []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

func baseJSON(b Base) ([]byte, error) {
	if b.Preset != "" {
		data, err := scenario.PresetJSON(b.Preset)
		if err != nil {
			return nil, check.Errorf("base.preset", "%v", err)
		}
		return data, nil
	}
	return b.Scenario, nil
}

// point applies the overrides (experiment, series, then the swept fields)
// and the engine's own settings to the base scenario.
func (p *Plan) point(base []byte, s Series, fields []string, v float64) (pointPlan, error) {
	t, err := decodeTree(base)
	if err != nil {
		return pointPlan{}, check.Errorf("base", "is not a JSON object: %v", err)
	}
	for _, level := range []struct {
		field string
		set   Overrides
	}{{"set", p.Exp.Set}, {"series.set", s.Set}} {
		for _, path := range level.set.sortedPaths() {
			if err := setPath(t, path, level.set[path]); err != nil {
				return pointPlan{}, check.Errorf(fmt.Sprintf("%s[%q]", level.field, path), "%v", err)
			}
		}
	}
	for _, f := range fields {
		val, _ := jsonout.Marshal(v)
		if err := setPath(t, f, val); err != nil {
			return pointPlan{}, check.Errorf(fmt.Sprintf("x.fields %q", f), "%v", err)
		}
	}
	// The engine's settings: no checkpoints (no per-run state copies), no
	// single seed (the seed rule sets all four; an audit keeps the
	// scenario's own and varies the noise seed alone).
	if p.Exp.Audit == nil {
		delete(t, "seed")
		delete(t, "seeds")
	}
	if rec, ok := t["record"].(map[string]any); ok {
		delete(rec, "checkpoints")
	}
	data, err := jsonout.Marshal(t)
	if err != nil {
		return pointPlan{}, err
	}
	sc, err := parseScenario(data)
	if err != nil {
		return pointPlan{}, err
	}
	every := sc.Record.Every
	if every == 0 {
		every = 1
	}
	if !p.Exp.X.alongRun() && p.onlyFinal() {
		// Only the last iteration is needed: record nothing else.
		every = max(sc.Iterations, 1)
		rec, _ := t["record"].(map[string]any)
		if rec == nil {
			rec = map[string]any{}
			t["record"] = rec
		}
		rec["every"] = every
		if sc.Record.EvalEvery != 0 {
			// Expensive metrics are then evaluated at that one point too
			// (eval_every must stay a multiple of every).
			rec["eval_every"] = every
		}
		if data, err = jsonout.Marshal(t); err != nil {
			return pointPlan{}, err
		}
	}
	if sc, err = parseScenario(data); err != nil {
		return pointPlan{}, err
	}
	pp := pointPlan{value: v, template: data, parsed: sc}
	if p.Exp.X.alongRun() {
		pp.grid = recordGrid(sc.Iterations, every)
	}
	return pp, nil
}

func (p *Plan) onlyFinal() bool {
	for _, m := range p.Exp.Metrics {
		if m.Reduce == ReduceTailMean {
			return false
		}
	}
	return true
}

// recordGrid lists the iterations a run records: 0, every multiple of
// every, and the last.
func recordGrid(iterations, every int) []int {
	var g []int
	for k := 0; k <= iterations; k += every {
		g = append(g, k)
	}
	if g[len(g)-1] != iterations {
		g = append(g, iterations)
	}
	return g
}

// parseScenario parses a scenario, naming it as such in errors.
func parseScenario(data []byte) (*scenario.Scenario, error) {
	sc, err := scenario.Parse(data)
	if err != nil {
		return nil, scenarioErr(err)
	}
	return sc, nil
}

// scenarioErr names a scenario's error as such. The scenario is the
// engine's re-encoding of the base with the overrides applied, so a line
// and column in it point nowhere in the user's files: they are dropped
// (the field path says where).
func scenarioErr(err error) error {
	var ce *check.Error
	if errors.As(err, &ce) {
		return check.Errorf("scenario field "+ce.Field, "%s", linePos.ReplaceAllString(ce.Rule, ""))
	}
	return fmt.Errorf("scenario: %s", linePos.ReplaceAllString(err.Error(), ""))
}

// linePos matches the position a decoding error gives.
var linePos = regexp.MustCompile(` \(line [0-9]+, column [0-9]+\)`)

// build builds a point's scenario with seeds and applies the series hook
// (and, in an audit, its checks and planted leak). ctx is looked at
// inside the build's long loops (calibration).
func (p *Plan) build(ctx context.Context, pp *pointPlan, hook HookFunc, s Series, seeds rng.Seeds) (*scenario.Built, error) {
	b, err := p.buildRaw(ctx, pp, hook, s, seeds)
	if err != nil || p.audit == nil {
		return b, err
	}
	return p.audit.finish(b)
}

// buildRaw is build without an audit's checks: an audit's neighbour
// series gets the neighbouring problem instance.
func (p *Plan) buildRaw(ctx context.Context, pp *pointPlan, hook HookFunc, s Series, seeds rng.Seeds) (*scenario.Built, error) {
	var sc *scenario.Scenario
	if p.Exp.Audit != nil {
		sc = pp.parsed.WithNoise(seeds.Noise)
	} else {
		sc = pp.parsed.Clone()
		sc.Seed, sc.Seeds = nil, &seeds
	}
	var shared scenario.ProblemProvider
	if p.problems != nil {
		shared = p.problems.provide
	}
	if p.audit != nil && s.Name == AuditNeighbour {
		shared = p.audit.provideNeighbour
	}
	b, err := scenario.BuildCancel(sc, scenario.CLI, shared, func() bool { return ctx.Err() != nil })
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, scenarioErr(err)
	}
	if hook != nil {
		if b, err = hook(b, s.Hook.Args); err != nil {
			return nil, check.Errorf(fmt.Sprintf("hook %q", s.Hook.Name), "%v", err)
		}
	}
	return b, nil
}

// Tasks returns the number of tasks (runs) in the plan.
func (p *Plan) Tasks() int { return p.tasks }

// Points returns the number of x points of series s.
func (p *Plan) Points(s int) int { return len(p.series[s].points) }

// Task returns task t.
func (p *Plan) Task(t int) Task {
	s := sort.Search(len(p.series), func(i int) bool { return p.series[i].first > t }) - 1
	off := t - p.series[s].first
	return Task{Index: t, Series: s, Point: off / p.Exp.Runs, Run: off % p.Exp.Runs}
}

// TaskIndex returns the index of run r of series s at point pt.
func (p *Plan) TaskIndex(s, pt, r int) int { return p.series[s].first + pt*p.Exp.Runs + r }

// Scenario returns the scenario task t runs, with its seeds: it can be
// saved and replayed with "dpsim run" (before the series hook, if any).
func (p *Plan) Scenario(t int) (*scenario.Scenario, error) {
	if t < 0 || t >= p.tasks {
		return nil, fmt.Errorf("task %d does not exist: the plan has tasks 0 to %d", t, p.tasks-1)
	}
	k := p.Task(t)
	sc, err := parseScenario(p.series[k.Series].points[k.Point].template)
	if err != nil {
		return nil, err
	}
	seeds := p.Exp.runSeeds(k.Run, p.Exp.Series[k.Series].Name, k.Point)
	if p.audit != nil {
		return p.audit.scenario(sc, p.Exp.Series[k.Series].Name, seeds.Noise)
	}
	sc.Seed, sc.Seeds = nil, &seeds
	return sc, nil
}

// Shard is one slice of a plan's tasks: those whose index is Index modulo
// Count, so that every shard gets a fair share of every series and point.
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// ParseShard reads "i/n" (0 ≤ i < n).
func ParseShard(s string) (Shard, error) {
	a, b, ok := strings.Cut(s, "/")
	var sh Shard
	if ok {
		_, err1 := fmt.Sscanf(a, "%d", &sh.Index)
		_, err2 := fmt.Sscanf(b, "%d", &sh.Count)
		ok = err1 == nil && err2 == nil && fmt.Sprintf("%d/%d", sh.Index, sh.Count) == s
	}
	if !ok || sh.Count < 1 || sh.Index < 0 || sh.Index >= sh.Count {
		return Shard{}, fmt.Errorf("shard %q: write i/n with 0 ≤ i < n, e.g. 0/3", s)
	}
	return sh, nil
}

// ShardFromEnv reads the shard from a cluster's environment: a Kubernetes
// Indexed Job's JOB_COMPLETION_INDEX with the count in DPSIM_SHARDS (set it
// to the Job's completions), or a Slurm array's SLURM_ARRAY_TASK_ID,
// SLURM_ARRAY_TASK_COUNT and SLURM_ARRAY_TASK_MIN (the index is
// SLURM_ARRAY_TASK_ID − SLURM_ARRAY_TASK_MIN, so "--array=1-8" works as
// well as "--array=0-7"). ok is false when neither is set.
func ShardFromEnv(getenv func(string) string) (sh Shard, ok bool, err error) {
	num := func(name string) (int, error) {
		var v int
		s := getenv(name)
		if _, err := fmt.Sscanf(s, "%d", &v); err != nil || fmt.Sprint(v) != s {
			return 0, fmt.Errorf("%s=%q is not a whole number", name, s)
		}
		return v, nil
	}
	switch {
	case getenv("JOB_COMPLETION_INDEX") != "":
		i, err := num("JOB_COMPLETION_INDEX")
		if err != nil {
			return Shard{}, true, err
		}
		if getenv("DPSIM_SHARDS") == "" {
			return Shard{}, true, fmt.Errorf("JOB_COMPLETION_INDEX is set but DPSIM_SHARDS is not: set it to the Job's completions")
		}
		n, err := num("DPSIM_SHARDS")
		if err != nil {
			return Shard{}, true, err
		}
		sh = Shard{Index: i, Count: n}
	case getenv("SLURM_ARRAY_TASK_ID") != "":
		id, err := num("SLURM_ARRAY_TASK_ID")
		if err != nil {
			return Shard{}, true, err
		}
		n, err := num("SLURM_ARRAY_TASK_COUNT")
		if err != nil {
			return Shard{}, true, err
		}
		lo := 0
		if getenv("SLURM_ARRAY_TASK_MIN") != "" {
			if lo, err = num("SLURM_ARRAY_TASK_MIN"); err != nil {
				return Shard{}, true, err
			}
		}
		sh = Shard{Index: id - lo, Count: n}
	default:
		return Shard{}, false, nil
	}
	if sh.Count < 1 || sh.Index < 0 || sh.Index >= sh.Count {
		return Shard{}, true, fmt.Errorf("shard %d of %d from the environment is out of range (0 ≤ index < count)", sh.Index, sh.Count)
	}
	return sh, true, nil
}

// ShardTasks returns the tasks of shard sh, in order.
func (p *Plan) ShardTasks(sh Shard) []int {
	var ts []int
	if sh.Count < 1 || sh.Index < 0 {
		return nil
	}
	for t := sh.Index; t < p.tasks; t += sh.Count {
		ts = append(ts, t)
		if sh.Count > p.tasks-t {
			break // the next would pass the end, or overflow for a huge count
		}
	}
	return ts
}

// AllTasks returns every task index, in order.
func (p *Plan) AllTasks() []int { return p.ShardTasks(Shard{Index: 0, Count: 1}) }
