package experiment

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"

	"dpsim/core/check"
	"dpsim/core/jsonout"
	"dpsim/core/jsonstrict"
)

// ResultFormat names the result format.
const ResultFormat = "dpsim-sweep/1"

// Result is a sweep's output: per series and x point the statistics of
// every metric and quantity, the expectations' verdicts, and every run's
// record. It depends only on the experiment and on which tasks finished —
// not on the worker count, the shard split or the machine — so that its
// JSON is byte-identical however it was computed.
type Result struct {
	Format     string          `json:"format"`
	Experiment json.RawMessage `json:"experiment"`
	// Partial is true when some tasks did not finish (a cancelled sweep, or
	// one shard of several).
	Partial bool   `json:"partial"`
	Shard   *Shard `json:"shard,omitempty"`
	// Tasks is the number of runs the plan has; Finished how many are here.
	Tasks    int `json:"tasks"`
	Finished int `json:"finished"`
	// Note says plainly when no finished run reached its end (every one
	// diverged or failed): the statistics are then empty, not a result.
	Note         string              `json:"note,omitempty"`
	SeedRule     string              `json:"seed_rule"`
	Series       []SeriesResult      `json:"series"`
	Expectations []ExpectationResult `json:"expectations"`
	// Audit is an audit's outcome (nil for a sweep).
	Audit *AuditResult `json:"audit,omitempty"`
	Runs  []RunRecord  `json:"runs"`
}

// SeriesResult is one curve.
type SeriesResult struct {
	Name  string `json:"name"`
	Label string `json:"label"`
	// Quantities holds the per-run quantities' statistics on the
	// iteration axis (on the other axes each point has its own).
	Quantities map[string]Stats `json:"quantities,omitempty"`
	Points     []PointResult    `json:"points"`
}

// PointResult is one x point of a series.
type PointResult struct {
	// X is the point's position: the iteration, the swept value, or the
	// mean of the derived quantity over the point's runs.
	X F `json:"x"`
	// Value is the swept value (absent on the iteration axis).
	Value      *F               `json:"value,omitempty"`
	Metrics    map[string]Stats `json:"metrics"`
	Quantities map[string]Stats `json:"quantities,omitempty"`
}

// ExpectationResult is an expectation with its verdict.
type ExpectationResult struct {
	Expectation
	Verdict string `json:"verdict"`
	// Summary says in words what the tests found.
	Summary     string       `json:"summary"`
	Comparisons []Comparison `json:"comparisons"`
}

// Assemble computes the result of the finished runs recs (any order, each
// task at most once) of plan p. shard, if not nil, marks the result as
// one shard's.
func Assemble(p *Plan, recs []RunRecord, shard *Shard) (*Result, error) {
	recs = append([]RunRecord(nil), recs...)
	sort.Slice(recs, func(i, j int) bool { return recs[i].Task < recs[j].Task })
	var t ticker
	t.cancel = p.Cancel
	for i, r := range recs {
		if t.tick(1) {
			return nil, ErrInterrupted
		}
		if r.Task < 0 || r.Task >= p.tasks {
			return nil, fmt.Errorf("run record for task %d: the plan has tasks 0 to %d", r.Task, p.tasks-1)
		}
		if k := p.Task(r.Task); k.Series != r.Series || k.Point != r.Point || k.Run != r.Run {
			return nil, fmt.Errorf("run record for task %d names series %d, point %d, run %d; the plan has series %d, point %d, run %d there",
				r.Task, r.Series, r.Point, r.Run, k.Series, k.Point, k.Run)
		}
		if i > 0 && recs[i-1].Task == r.Task {
			return nil, fmt.Errorf("task %d appears twice", r.Task)
		}
	}
	res := &Result{
		Format: ResultFormat, Experiment: p.canon, Shard: shard,
		Tasks: p.tasks, Finished: len(recs), Partial: len(recs) < p.tasks,
		SeedRule: p.Exp.seedRule(), Runs: recs, Expectations: []ExpectationResult{},
	}
	g, err := p.group(recs)
	if err != nil {
		return nil, err
	}
	e := p.Exp
	for si, s := range e.Series {
		sr := SeriesResult{Name: s.Name, Label: s.Label}
		if sr.Label == "" {
			sr.Label = s.Name
		}
		if e.X.alongRun() {
			sr.Quantities = p.quantityStats(g.runs[si][0])
			for gi, x := range g.along[si].x {
				if t.tick(e.Runs * len(e.Metrics)) {
					return nil, ErrInterrupted
				}
				pt := PointResult{X: F(x), Metrics: map[string]Stats{}}
				for _, m := range e.Metrics {
					pt.Metrics[m.id()] = Summarize(g.curveAt(si, m.id(), gi))
				}
				sr.Points = append(sr.Points, pt)
			}
		} else {
			for pi, pp := range p.series[si].points {
				if t.tick(e.Runs * (len(e.Metrics) + len(p.Quantities))) {
					return nil, ErrInterrupted
				}
				v := F(pp.value)
				pt := PointResult{X: v, Value: &v, Metrics: map[string]Stats{}, Quantities: p.quantityStats(g.runs[si][pi])}
				for _, m := range e.Metrics {
					pt.Metrics[m.id()] = Summarize(g.final(si, pi, m.id()))
				}
				if e.X.Kind == XDerived {
					pt.X = F(pt.Quantities[e.X.Quantity].Mean)
				}
				sr.Points = append(sr.Points, pt)
			}
		}
		res.Series = append(res.Series, sr)
	}
	for i := range e.Expectations {
		if t.tick(checkEvery) {
			return nil, ErrInterrupted
		}
		res.Expectations = append(res.Expectations, p.evaluate(i, res, g))
	}
	if p.audit != nil {
		if res.Audit, err = p.assembleAudit(g); err != nil {
			return nil, err
		}
	}
	res.Note = noEnd(recs)
	if res.Note != "" && !e.X.alongRun() {
		// No final value anywhere: nothing was tested, whatever z says.
		for i := range res.Expectations {
			x := &res.Expectations[i]
			x.Verdict, x.Summary = Inconclusive, "not tested: "+res.Note
		}
	}
	return res, nil
}

// ErrInterrupted is returned by Assemble and MergeCancel when their
// Cancel hook reported true.
var ErrInterrupted = errors.New("interrupted while assembling the result")

// checkEvery is how many steps (records, or a point's runs × metrics)
// Assemble and MergeCancel go between looks at their Cancel hook: cheap
// next to the steps, and a fraction of a millisecond apart.
const checkEvery = 4096

// ticker counts steps and asks cancel once every checkEvery of them.
type ticker struct {
	cancel func() bool
	steps  int
	// asks counts the looks at cancel (tests bound it).
	asks int
}

// tick adds n steps and reports whether cancel, asked when the steps
// crossed a multiple of checkEvery, says stop.
func (t *ticker) tick(n int) bool {
	if t.cancel == nil {
		return false
	}
	before := t.steps
	t.steps += max(n, 1)
	if before/checkEvery == t.steps/checkEvery && before != 0 {
		return false
	}
	t.asks++
	return t.cancel()
}

// noEnd returns the note of a result whose finished runs all diverged or
// failed, "" when some run reached its end (or none finished).
func noEnd(recs []RunRecord) string {
	diverged, failed := 0, 0
	for _, r := range recs {
		switch r.Status {
		case StatusDiverged:
			diverged++
		case StatusFailed:
			failed++
		default:
			return ""
		}
	}
	switch {
	case len(recs) == 0:
		return ""
	case failed == 0:
		return fmt.Sprintf("every one of the %d runs diverged, so no run has a final value", diverged)
	case diverged == 0:
		return fmt.Sprintf("every one of the %d runs failed to build, so no run has a final value", failed)
	}
	return fmt.Sprintf("no run reached its end (%d diverged, %d failed to build), so no run has a final value", diverged, failed)
}

// groups indexes the records by series, point and run.
type groups struct {
	p    *Plan
	runs [][][]*RunRecord // [series][point][run], nil where missing
	// along holds each series' points on the iteration and communication
	// axes (nil on the others).
	along []alongPoints
}

// alongPoints are a series' points along the run: the x of each point
// and, when the runs are resampled onto a grid, per point and run the
// index in the run's curves the point reads (−1: the run has no value
// there); nil idx means point i reads index i of every run.
type alongPoints struct {
	x   []float64
	idx [][]int // [point][run]
}

func (p *Plan) group(recs []RunRecord) (*groups, error) {
	g := &groups{p: p, runs: make([][][]*RunRecord, len(p.series))}
	for si, sp := range p.series {
		g.runs[si] = make([][]*RunRecord, len(sp.points))
		for pi := range sp.points {
			g.runs[si][pi] = make([]*RunRecord, p.Exp.Runs)
		}
	}
	for i := range recs {
		r := &recs[i]
		g.runs[r.Series][r.Point][r.Run] = r
	}
	if p.Exp.X.alongRun() {
		for si := range p.series {
			a, err := p.alongPoints(si, g.runs[si][0])
			if err != nil {
				return nil, err
			}
			g.along = append(g.along, a)
		}
	}
	return g, nil
}

// alongPoints places series si's points along the run. On the iteration
// axis they are the recorded iterations. On the communication axis
// without a grid they are the counter's values at the recorded
// iterations, which must be the same in every run that reached them; a
// counter that differs between runs is refused, naming the series and
// the iteration. With a grid (x.values) every run is resampled onto it by
// steps: at grid value c a run reads its last recorded point whose
// counter is ≤ c, and has no value at a c beyond the counter it reached.
func (p *Plan) alongPoints(si int, runs []*RunRecord) (alongPoints, error) {
	x := p.Exp.X
	grid := p.series[si].points[0].grid
	var a alongPoints
	switch {
	case x.Kind == XIteration:
		for _, k := range grid {
			a.x = append(a.x, float64(k))
		}
	case x.Values == nil:
		for gi := range grid {
			c, from := math.NaN(), -1
			for r, rec := range runs {
				if rec == nil || gi >= len(rec.Counter) {
					continue
				}
				v := float64(rec.Counter[gi])
				switch {
				case from < 0:
					c, from = v, r
				case v != c:
					return alongPoints{}, p.counterDiffers(si, gi, c, from, v, r)
				}
			}
			a.x = append(a.x, c)
		}
	default:
		a.x = append(a.x, x.Values...)
		a.idx = make([][]int, len(a.x))
		for vi, c := range a.x {
			a.idx[vi] = make([]int, len(runs))
			for r, rec := range runs {
				a.idx[vi][r] = -1
				if rec == nil || len(rec.Counter) == 0 || float64(rec.Counter[len(rec.Counter)-1]) < c {
					continue // not run, or never reached c
				}
				// The counter never falls along a run: the last point ≤ c.
				j := sort.Search(len(rec.Counter), func(j int) bool { return float64(rec.Counter[j]) > c }) - 1
				a.idx[vi][r] = j
			}
		}
	}
	return a, nil
}

// final returns metric id's final values at (s, pt), indexed by run (NaN
// where missing), so that two samples pair by run.
func (g *groups) final(s, pt int, id string) []float64 {
	out := make([]float64, g.p.Exp.Runs)
	for r, rec := range g.runs[s][pt] {
		out[r] = math.NaN()
		if rec != nil {
			out[r] = float64(rec.Metrics[id])
		}
	}
	return out
}

// counterDiffers is the one-line refusal of a communication axis without
// a grid whose counter differs between runs ra and rb of series si at
// recorded point gi (a there, b in rb).
func (p *Plan) counterDiffers(si, gi int, a float64, ra int, b float64, rb int) error {
	return check.Errorf("x.counter", "series %q: the %s counter differs between runs at recorded iteration %d (%v in run %d, %v in run %d); give \"x.values\", a grid of counter values every run is resampled onto",
		p.Exp.Series[si].Name, p.Exp.X.Counter, p.series[si].points[0].grid[gi], a, ra, b, rb)
}

// sameCounter checks, on a communication axis without a grid, that rec's
// counter agrees with ref's (the longest of the series' records so far)
// wherever both recorded it, and returns the new reference. Execute calls
// it as runs finish, so that a random counter stops the sweep after a
// few runs rather than failing at Assemble after all of them.
func (p *Plan) sameCounter(ref, rec *RunRecord) (*RunRecord, error) {
	if p.Exp.X.Kind != XCommunication || p.Exp.X.Values != nil || rec.Counter == nil {
		return ref, nil
	}
	if ref == nil {
		return rec, nil
	}
	for gi := range min(len(ref.Counter), len(rec.Counter)) {
		if a, b := float64(ref.Counter[gi]), float64(rec.Counter[gi]); a != b {
			return ref, p.counterDiffers(rec.Series, gi, a, ref.Run, b, rec.Run)
		}
	}
	if len(rec.Counter) > len(ref.Counter) {
		return rec, nil
	}
	return ref, nil
}

// curveAt returns metric id's values at point gi of series s along the
// run (iteration or communication axis), indexed by run.
func (g *groups) curveAt(s int, id string, gi int) []float64 {
	out := make([]float64, g.p.Exp.Runs)
	for r, rec := range g.runs[s][0] {
		out[r] = math.NaN()
		if rec != nil {
			j := gi
			if idx := g.along[s].idx; idx != nil {
				j = idx[gi][r]
			}
			if c := rec.Curves[id]; j >= 0 && j < len(c) {
				out[r] = c[j]
			}
		}
	}
	return out
}

func (p *Plan) quantityStats(runs []*RunRecord) map[string]Stats {
	if len(p.Quantities) == 0 {
		return nil
	}
	out := map[string]Stats{}
	for _, q := range p.Quantities {
		xs := make([]float64, len(runs))
		for r, rec := range runs {
			xs[r] = math.NaN()
			if rec != nil {
				xs[r] = float64(rec.Quantities[q])
			}
		}
		out[q] = Summarize(xs)
	}
	return out
}

// JSON writes the result: one key per line at the top, one point, one
// expectation and one run per line below, compact within a line.
func (r *Result) JSON() []byte {
	var b bytes.Buffer
	line := func(v any) []byte {
		js, err := jsonout.Marshal(v)
		if err != nil {
			panic("experiment: " + err.Error()) // plain data
		}
		return js
	}
	b.WriteString("{\n")
	fmt.Fprintf(&b, "  \"format\": %s,\n", line(r.Format))
	fmt.Fprintf(&b, "  \"experiment\": %s,\n", line(r.Experiment))
	fmt.Fprintf(&b, "  \"partial\": %t,\n", r.Partial)
	if r.Shard != nil {
		fmt.Fprintf(&b, "  \"shard\": %s,\n", line(r.Shard))
	}
	fmt.Fprintf(&b, "  \"tasks\": %d,\n  \"finished\": %d,\n", r.Tasks, r.Finished)
	if r.Note != "" {
		fmt.Fprintf(&b, "  \"note\": %s,\n", line(r.Note))
	}
	fmt.Fprintf(&b, "  \"seed_rule\": %s,\n", line(r.SeedRule))
	b.WriteString("  \"series\": [")
	for i, s := range r.Series {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "\n    {\"name\": %s, \"label\": %s,", line(s.Name), line(s.Label))
		if s.Quantities != nil {
			fmt.Fprintf(&b, " \"quantities\": %s,", line(s.Quantities))
		}
		b.WriteString(" \"points\": [")
		for j, pt := range s.Points {
			if j > 0 {
				b.WriteByte(',')
			}
			b.WriteString("\n      ")
			b.Write(line(pt))
		}
		b.WriteString("\n    ]}")
	}
	b.WriteString("\n  ],\n  \"expectations\": [")
	for i, x := range r.Expectations {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n    ")
		b.Write(line(x))
	}
	b.WriteString("\n  ],")
	if r.Audit != nil {
		fmt.Fprintf(&b, "\n  \"audit\": %s,", line(r.Audit))
	}
	b.WriteString("\n  \"runs\": [")
	for i, run := range r.Runs {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n    ")
		b.Write(line(run))
	}
	b.WriteString("\n  ]\n}\n")
	return b.Bytes()
}

// ReadResult reads a result (or one shard's) and the plan of its
// experiment. The statistics in the file are not trusted: Merge recomputes
// them from the runs.
func ReadResult(data []byte) (*Result, *Plan, error) {
	var r Result
	if err := jsonstrict.Decode(data, &r, ""); err != nil {
		return nil, nil, err
	}
	if r.Format != ResultFormat {
		return nil, nil, check.Errorf("format", "must be %q (got %q)", ResultFormat, r.Format)
	}
	e, err := Parse(r.Experiment)
	if err != nil {
		return nil, nil, fmt.Errorf("experiment: %w", err)
	}
	p, err := NewPlan(e)
	if err != nil {
		return nil, nil, fmt.Errorf("experiment: %w", err)
	}
	if !bytes.Equal(p.canon, r.Experiment) {
		return nil, nil, check.Errorf("experiment", "is not in canonical form; was the file edited?")
	}
	return &r, p, nil
}

// Merge combines results of the same experiment (typically the shards of
// one sweep) into the result one unsharded sweep writes: the union of
// their runs, with every statistic and verdict recomputed. A task present
// in two parts must have the same record in both. Errors name the parts
// "part 1", "part 2", …; MergeNamed names them as the caller says.
func Merge(parts [][]byte) (*Result, error) { return MergeNamed(nil, parts) }

// MergeNamed is Merge with the parts' names (their files) for errors;
// names may be nil. Every run record is validated as strictly as a
// scenario: a record no sweep of this experiment can write (a missing or
// extra metric, a bogus status, iterations outside the plan, a curve of
// the wrong length) is refused, naming the part and the record.
func MergeNamed(names []string, parts [][]byte) (*Result, error) {
	return MergeCancel(names, parts, nil)
}

// MergeCancel is MergeNamed that looks at cancel (when not nil) every
// few thousand records, in the checks as in Assemble, and stops with
// ErrInterrupted once it returns true.
func MergeCancel(names []string, parts [][]byte, cancel func() bool) (*Result, error) {
	t := ticker{cancel: cancel}
	if len(parts) == 0 {
		return nil, fmt.Errorf("nothing to merge")
	}
	name := func(i int) string {
		if i < len(names) {
			return fmt.Sprintf("part %d (%s)", i+1, names[i])
		}
		return fmt.Sprintf("part %d", i+1)
	}
	var plan *Plan
	var canon []byte
	byTask := map[int]RunRecord{}
	var raw = map[int][]byte{}
	for i, data := range parts {
		r, p, err := ReadResult(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name(i), err)
		}
		if plan == nil {
			plan, canon = p, r.Experiment
		} else if !bytes.Equal(canon, r.Experiment) {
			files := ""
			if i < len(names) {
				files = fmt.Sprintf(" (%s vs %s)", names[i], names[0])
			}
			return nil, fmt.Errorf("part %d is a different experiment from part 1%s", i+1, files)
		}
		for j := range r.Runs {
			if t.tick(1) {
				return nil, ErrInterrupted
			}
			rec := r.Runs[j]
			if err := plan.checkRecord(&rec); err != nil {
				return nil, fmt.Errorf("%s: runs[%d] (task %d): %w", name(i), j, rec.Task, err)
			}
			js, _ := jsonout.Marshal(rec)
			if old, dup := raw[rec.Task]; dup {
				if !bytes.Equal(old, js) {
					return nil, fmt.Errorf("%s: runs[%d]: task %d has a different record in an earlier part", name(i), j, rec.Task)
				}
				continue
			}
			raw[rec.Task] = js
			byTask[rec.Task] = rec
		}
	}
	recs := make([]RunRecord, 0, len(byTask))
	for _, rec := range byTask {
		recs = append(recs, rec)
	}
	plan.Cancel = cancel
	return Assemble(plan, recs, nil)
}

// checkRecord refuses a run record that no sweep of p writes (RunTask is
// the reference): its task must exist and its place match, its status be
// one of the four, its iterations lie within the point's plan (all of
// them when it completed), its metrics and quantities be exactly the
// plan's (a missing one would read as 0), null unless the run reached its
// end, and its curves be the plan's, as long as the point's grid (a prefix
// when the run ended early), only on an axis along the run.
func (p *Plan) checkRecord(r *RunRecord) error {
	if r.Task < 0 || r.Task >= p.tasks {
		return check.Errorf("task", "must be a task of the plan, 0 to %d (got %d)", p.tasks-1, r.Task)
	}
	if k := p.Task(r.Task); k.Series != r.Series || k.Point != r.Point || k.Run != r.Run {
		return check.Errorf("task", "task %d is series %d, point %d, run %d in the plan (the record says series %d, point %d, run %d)",
			r.Task, k.Series, k.Point, k.Run, r.Series, r.Point, r.Run)
	}
	pp := &p.series[r.Series].points[r.Point]
	planned := pp.parsed.Iterations
	final := false
	switch r.Status {
	case StatusCompleted:
		final = true
		if r.Iterations != planned {
			return check.Errorf("iterations", "a completed run ran all %d planned iterations (got %d)", planned, r.Iterations)
		}
	case StatusStopped:
		final = true
		fallthrough
	case StatusDiverged, StatusFailed:
		if r.Iterations < 0 || r.Iterations > planned {
			return check.Errorf("iterations", "must be from 0 to the %d planned (got %d)", planned, r.Iterations)
		}
	default:
		return check.Errorf("status", "must be one of %q, %q, %q, %q (got %q)", StatusCompleted, StatusStopped, StatusDiverged, StatusFailed, r.Status)
	}
	if (r.Error != "") != (r.Status == StatusDiverged || r.Status == StatusFailed) {
		return check.Errorf("error", "a %s run has %s error message", r.Status, map[bool]string{true: "an", false: "no"}[!final])
	}
	ids := p.Exp.metricIDs()
	if err := sameKeys("metrics", r.Metrics, ids, final); err != nil {
		return err
	}
	// An audit hears a run that diverged until it did: its statistics
	// are values then (the ledger's claim is not).
	if err := sameKeys("quantities", r.Quantities, p.Quantities, final, p.heardWhenDiverged(r)...); err != nil {
		return err
	}
	along := p.Exp.X.alongRun()
	wantLen := func(field string, c Fs) error {
		n := len(pp.grid)
		if r.Status == StatusCompleted && len(c) != n || len(c) > n {
			return check.Errorf(field, "must hold the %d recorded iterations of the point's grid (fewer only when the run ended early; got %d)", n, len(c))
		}
		return nil
	}
	switch {
	case !along && len(r.Curves) > 0:
		return check.Errorf("curves", "a sweep along %s records no curves", p.Exp.X.Kind)
	case along && r.Status != StatusFailed:
		if len(r.Curves) != len(ids) {
			return check.Errorf("curves", "must hold one curve per metric %q (got %d)", ids, len(r.Curves))
		}
		for _, id := range ids {
			c, ok := r.Curves[id]
			if !ok {
				return check.Errorf("curves", "has no curve of metric %q", id)
			}
			if err := wantLen(check.Join("curves", id), c); err != nil {
				return err
			}
		}
	}
	if (p.Exp.X.Kind == XCommunication) != (r.Counter != nil) && r.Status != StatusFailed {
		return check.Errorf("counter", "belongs to a sweep along communication, and only there")
	}
	if r.Counter != nil {
		if err := wantLen("counter", r.Counter); err != nil {
			return err
		}
	}
	return nil
}

// heardWhenDiverged lists the quantities a run that diverged still has:
// an audit's statistics (the eavesdropper heard it until it diverged).
func (p *Plan) heardWhenDiverged(r *RunRecord) []string {
	if p.audit == nil || r.Status != StatusDiverged {
		return nil
	}
	return []string{QuantityLR, QuantityProjection}
}

// sameKeys checks that m has exactly the keys want (none when want is
// empty), each null unless final or listed in anyway.
func sameKeys[V ~float64](field string, m map[string]V, want []string, final bool, anyway ...string) error {
	if len(m) != len(want) {
		return check.Errorf(field, "must hold exactly %q (got %d entries)", want, len(m))
	}
	for _, k := range want {
		v, ok := m[k]
		if !ok {
			return check.Errorf(field, "has no %q (a missing value would read as 0)", k)
		}
		if !final && !slices.Contains(anyway, k) && !math.IsNaN(float64(v)) {
			return check.Errorf(check.Join(field, k), "a run that did not reach its end has no final value (null; got %v)", float64(v))
		}
	}
	return nil
}
