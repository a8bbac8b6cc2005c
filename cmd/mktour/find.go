package main

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"

	"dpsim/core/experiment"
	"dpsim/core/runner"
	"dpsim/core/scenario"
	"dpsim/core/tour"
	"dpsim/render/figure"
)

// The frontier experiment's series, by name: the grid, and the
// confirmation at the knee (fresh noise seeds: another series name).
const (
	seriesFrontier = "frontier"
	seriesKnee     = "knee"
)

// found is one lesson's measurement with the figure of its frontier.
type found struct {
	res tour.Result
	svg []byte
	// problems lists what disagrees between the presets and the sweep
	// (the scenario's ε is not the knee, say): -check and -write refuse.
	problems []string
}

// find runs l's frontier experiment on workers cores and reads the knee,
// the confirmation and the ghost from it.
func find(ctx context.Context, l tour.Lesson, workers int) (*found, error) {
	e, err := experiment.PresetExperiment(l.Frontier)
	if err != nil {
		return nil, err
	}
	sc, err := scenario.PresetScenario(l.Preset)
	if err != nil {
		return nil, err
	}
	if err := shapeOK(e, sc); err != nil {
		return nil, fmt.Errorf("%s: %w", l.Frontier, err)
	}
	plan, err := experiment.NewPlanContext(ctx, e)
	if err != nil {
		return nil, err
	}
	plan.WorkersSetting = "-workers" // a refusal names this program's flag
	recs, err := plan.Execute(ctx, plan.AllTasks(), workers, nil)
	if err != nil {
		return nil, err
	}
	res, err := experiment.Assemble(plan, recs, nil)
	if err != nil {
		return nil, err
	}
	head := e.Metrics[1].Name
	out := &found{res: tour.Result{Lesson: l, Algorithm: sc.Algorithm.Kind, Problem: sc.Problem.Kind,
		Field: e.X.Fields[0], Metric: head, Iterations: sc.Iterations, Runs: e.Runs}}
	r := &out.res
	if r.Delta, err = deltaOf(sc); err != nil {
		return nil, fmt.Errorf("%s: %w", l.Preset, err)
	}
	// runs[series][point] are the runs' records.
	runs := map[int]map[int][]experiment.RunRecord{}
	for _, rec := range res.Runs {
		if runs[rec.Series] == nil {
			runs[rec.Series] = map[int][]experiment.RunRecord{}
		}
		runs[rec.Series][rec.Point] = append(runs[rec.Series][rec.Point], rec)
	}
	si := func(name string) int {
		return slices.IndexFunc(e.Series, func(s experiment.Series) bool { return s.Name == name })
	}
	fr := si(seriesFrontier)
	values := e.X.Values
	if sw := e.Series[fr].Sweep; sw != nil {
		values = sw.Values
	}
	r.Margin = pointMargin(len(values))
	for p, v := range values {
		ratios, _, _ := columns(runs[fr][p], head)
		r.Points = append(r.Points, pointOf(v, ratios, r.Margin))
	}
	slices.SortFunc(r.Points, func(a, b tour.Point) int { return cmpFloat(float64(a.Epsilon), float64(b.Epsilon)) })
	if k := kneeOf(r.Points); k >= 0 {
		eps := float64(r.Points[k].Epsilon)
		r.Epsilon = &eps
		r.Meaningful = eps <= tour.Meaningful
	}
	own, err := epsilonOf(sc, r.Field)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", l.Preset, err)
	}
	switch {
	case r.Epsilon == nil:
		out.problems = append(out.problems, fmt.Sprintf("%s: no ε of the grid %v learns: extend it", l.Frontier, values))
	case own != *r.Epsilon:
		out.problems = append(out.problems, fmt.Sprintf("%s: %s is %g, the knee is %g: set it to %g", l.Preset, r.Field, own, *r.Epsilon, *r.Epsilon))
	}
	k := si(seriesKnee)
	v := e.Series[k].Sweep.Values[0]
	if r.Epsilon != nil && v != *r.Epsilon {
		out.problems = append(out.problems, fmt.Sprintf("%s: the series %s is at %g, the knee is %g: set its value to %g", l.Frontier, seriesKnee, v, *r.Epsilon, *r.Epsilon))
	}
	m := measure(v, runs[k][0], head, tour.FamilyMargin)
	r.Knee = &m
	// The ghost: the knee's runs, each with its own seeds, without noise.
	var ghosts []experiment.RunRecord
	for run := range e.Runs {
		rec, err := ghostRun(ctx, plan, plan.TaskIndex(k, 0, run), head)
		if err != nil {
			return nil, err
		}
		ghosts = append(ghosts, rec)
	}
	r.Ghost = measure(math.NaN(), ghosts, head, tour.FamilyMargin)
	// The figure adds the ghost and the line the frontier must cross.
	fd := plan.Figure(res)
	ends := experiment.Fs{float64(r.Points[0].Epsilon), float64(r.Points[len(r.Points)-1].Epsilon)}
	g := r.Ghost
	fd.Series = append(fd.Series,
		experiment.FigureSeries{Name: "ghost", Label: "ghost (no noise)", X: ends, Y: experiment.Fs{float64(g.Mean), float64(g.Mean)},
			Lo: experiment.Fs{float64(g.Lo), float64(g.Lo)}, Hi: experiment.Fs{float64(g.Hi), float64(g.Hi)}, N: []int{g.N, g.N}},
		experiment.FigureSeries{Name: "threshold", Label: "learns below", X: ends, Y: experiment.Fs{tour.Threshold, tour.Threshold},
			Lo: experiment.Fs{tour.Threshold, tour.Threshold}, Hi: experiment.Fs{tour.Threshold, tour.Threshold}, N: []int{0, 0}})
	out.svg, err = figure.BytesContext(ctx, fd, figure.SVG)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// ghostRun is task t of plan run without noise — the page's ghost
// (every noise scale 0, no calibration; a plug-in's own target then
// applies to nothing) keeping the stop rule, so that it is the same run
// as the task's, noise aside — as a record of its final error ratio and
// headline error.
func ghostRun(ctx context.Context, plan *experiment.Plan, t int, head string) (experiment.RunRecord, error) {
	sc, err := plan.Scenario(t)
	if err != nil {
		return experiment.RunRecord{}, err
	}
	sc.Calibrate = nil
	for _, sp := range sc.Noise {
		if sp != nil {
			sp.Scale, sp.Scales, sp.Var, sp.VarOf = 0, nil, 0, ""
		}
	}
	b, err := scenario.BuildCancel(sc, scenario.CLI, nil, func() bool { return ctx.Err() != nil })
	if err != nil {
		return experiment.RunRecord{}, fmt.Errorf("the ghost of task %d: %w", t, err)
	}
	run := runner.New(b)
	if err := run.Run(); err != nil {
		return experiment.RunRecord{}, fmt.Errorf("the ghost of task %d: %w", t, err)
	}
	rec := experiment.RunRecord{Task: t, Status: experiment.StatusCompleted, Metrics: map[string]experiment.F{}}
	for _, name := range []string{experiment.ErrorRatio, head} {
		def, _ := experiment.MetricInfo(name)
		_, vals := def.Curve(&experiment.Run{Built: b, Runner: run})
		rec.Metrics[name] = experiment.F(vals[len(vals)-1])
	}
	return rec, nil
}

// shapeOK checks that e is a tour frontier of scenario sc: its base is
// sc, its first metric error_ratio and its second the headline error, an
// x-axis sweeping one field, a frontier, a knee of one point and a ghost,
// every run within tour.MaxIterations.
func shapeOK(e *experiment.Experiment, sc *scenario.Scenario) error {
	switch {
	case e.Base.Preset != sc.Name:
		return fmt.Errorf("its base must be the preset %s (got %q)", sc.Name, e.Base.Preset)
	case len(e.Metrics) != 2 || e.Metrics[0].Name != experiment.ErrorRatio || (e.Metrics[1].Name != "optimality" && e.Metrics[1].Name != "stationarity"):
		return fmt.Errorf("its metrics must be %s and the headline error (optimality or stationarity)", experiment.ErrorRatio)
	case e.X.Kind != "field" || len(e.X.Fields) != 1:
		return fmt.Errorf("its x-axis must sweep one field, ε")
	case sc.Iterations > tour.MaxIterations:
		return fmt.Errorf("%s runs %d iterations; the tour allows %d", sc.Name, sc.Iterations, tour.MaxIterations)
	}
	for _, name := range []string{seriesFrontier, seriesKnee} {
		i := slices.IndexFunc(e.Series, func(s experiment.Series) bool { return s.Name == name })
		if i < 0 {
			return fmt.Errorf("it has no series %q", name)
		}
		if name == seriesKnee && (e.Series[i].Sweep == nil || len(e.Series[i].Sweep.Values) != 1) {
			return fmt.Errorf("its series %s must sweep one value, the knee", name)
		}
	}
	return nil
}

// pointMargin is the margin of each of m tests whose family shares
// tour.FamilyMargin: the z with Φ(−z) = Φ(−FamilyMargin)/m.
func pointMargin(m int) float64 {
	want := experiment.Alpha(tour.FamilyMargin) / float64(max(m, 1))
	lo, hi := tour.FamilyMargin, 10.0
	for range 100 {
		mid := (lo + hi) / 2
		if experiment.Alpha(mid) > want {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi
}

// columns returns, by run, the final error ratio, the final headline
// error and the initial one (final ÷ ratio); a run without a final value
// gives NaN.
func columns(recs []experiment.RunRecord, head string) (ratio, final, initial []float64) {
	for _, rec := range recs {
		q, f := float64(rec.Metrics[experiment.ErrorRatio]), float64(rec.Metrics[head])
		ratio, final, initial = append(ratio, q), append(final, f), append(initial, f/q)
	}
	return ratio, final, initial
}

// ratioOf summarises the runs' ratios at ε = eps and tests their mean
// below tour.Threshold at margin; ok is the test's verdict with no run
// missing.
func ratioOf(eps float64, ratios []float64, margin float64) (r tour.Ratio, ok bool) {
	st := experiment.Summarize(ratios)
	c := experiment.BelowMean(ratios, tour.Threshold, margin)
	return tour.Ratio{Epsilon: tour.Num(eps), Mean: tour.Num(st.Mean), Lo: tour.Num(st.CI95[0]), Hi: tour.Num(st.CI95[1]),
		N: st.N, Missing: st.Missing, T: tour.Num(c.Z), P: tour.Num(c.P)}, st.Missing == 0 && c.Verdict == experiment.Holds
}

// pointOf judges one grid point: it learns when every run has a final
// value and the mean ratio is below tour.Threshold at margin.
func pointOf(eps float64, ratios []float64, margin float64) tour.Point {
	r, ok := ratioOf(eps, ratios, margin)
	return tour.Point{Ratio: r, Learns: ok}
}

// measure summarises a series of runs at ε = eps.
func measure(eps float64, recs []experiment.RunRecord, head string, margin float64) tour.Measure {
	ratio, final, initial := columns(recs, head)
	r, ok := ratioOf(eps, ratio, margin)
	return tour.Measure{Ratio: r, Holds: ok,
		Final: tour.Num(experiment.Summarize(final).Mean), Initial: tour.Num(experiment.Summarize(initial).Mean)}
}

// kneeOf returns the index of the smallest ε from which every point of
// the frontier (in increasing ε) learns, −1 when the largest does not:
// a lucky point below one that fails is not the knee.
func kneeOf(pts []tour.Point) int {
	k := -1
	for i := len(pts) - 1; i >= 0 && pts[i].Learns; i-- {
		k = i
	}
	return k
}

// epsilonOf reads the scenario's own ε at field (calibrate.epsilon or
// algorithm.params.<target>).
func epsilonOf(sc *scenario.Scenario, field string) (float64, error) {
	if field == "calibrate.epsilon" {
		if sc.Calibrate == nil {
			return 0, fmt.Errorf("has no calibrate section, which the frontier sweeps")
		}
		return sc.Calibrate.Epsilon, nil
	}
	const prefix = "algorithm.params."
	if len(field) <= len(prefix) || field[:len(prefix)] != prefix {
		return 0, fmt.Errorf("the frontier sweeps %s, neither calibrate.epsilon nor an algorithm parameter", field)
	}
	var params map[string]any
	if err := jsonUnmarshal(sc.Algorithm.Params, &params); err != nil {
		return 0, err
	}
	v, ok := params[field[len(prefix):]].(float64)
	if !ok {
		return 0, fmt.Errorf("%s is not set", field)
	}
	return v, nil
}

// deltaOf is the δ of sc's ledger, read from the accountant before any
// iteration (0 for pure ε-DP).
func deltaOf(sc *scenario.Scenario) (float64, error) {
	b, err := scenario.Build(sc)
	if err != nil {
		return 0, err
	}
	d := 0.0
	for _, a := range runner.New(b).Ledger().Agents {
		d = max(d, a.Delta)
	}
	return d, nil
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// num formats a number as the docs print it: 3 significant digits.
func num[T ~float64](v T) string {
	if math.IsNaN(float64(v)) {
		return "—"
	}
	return strconv.FormatFloat(float64(v), 'g', 3, 64)
}

// alphaOf is the one-sided error rate of a margin.
func alphaOf(margin float64) float64 { return experiment.Alpha(margin) }
