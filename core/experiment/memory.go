package experiment

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"dpsim/core/check"
	"dpsim/core/scenario"
)

// Per-record costs of a sweep's memory estimate, in bytes, measured by
// TestSweepEstimateCovers on the engine's own records and by cmd/dpsim's
// TestMemoryEstimatesCoverMeasuredPeaks on whole sweeps: a record's
// struct, maps and status (recordBase); every final metric or quantity,
// held in a map and written as text (perValue); every curve point, held
// as a float64 and written as about 20 bytes of text in the result, whose
// buffer may double while a series' line is appended (perPoint: three
// times its text).
const (
	recordBase = 1000 // measured natively and under js/wasm, whose records take more: TestSweepEstimateCovers runs in both
	perValue   = 160
	perPoint   = 8 + 3*28
	// perStat is one summary (Stats) of a metric at one point of a
	// series: about 350 bytes held, and its text (about 220 bytes) in
	// the growing result and the series' line.
	perStat = 400 + 700
)

// statsBytes estimates the result's summaries: one per metric (and
// quantity, off the run axis) at every point of every series.
func (p *Plan) statsBytes() int64 {
	var n int64
	for _, sp := range p.series {
		for _, pp := range sp.points {
			if p.Exp.X.alongRun() {
				// The points along the run: the recorded iterations, or
				// a communication axis's grid every run is resampled onto.
				points := int64(len(pp.grid))
				if p.Exp.X.Kind == XCommunication && p.Exp.X.Values != nil {
					points = int64(len(p.Exp.X.Values))
				}
				n += points * int64(len(p.Exp.Metrics)+1)
			} else {
				n += int64(len(p.Exp.Metrics) + len(p.Quantities))
			}
		}
	}
	return n * perStat
}

// recordBytes estimates what one run record of a point with a grid of
// grid recorded iterations costs while the sweep holds it and writes it.
func (p *Plan) recordBytes(grid int) int64 {
	values := int64(len(p.Exp.Metrics) + len(p.Quantities))
	curves := int64(0)
	if p.Exp.X.alongRun() {
		curves = int64(len(p.Exp.Metrics))
		if p.Exp.X.Kind == XCommunication {
			curves++
		}
	}
	return recordBase + perValue*values + perPoint*curves*int64(grid)
}

// runBytes estimates one run of b held by a worker: the scenario's own
// estimate without what the process holds once (the datasets, the
// collector's room: the sweep counts them), without its export (a sweep
// writes none) and with all its recorded
// metrics, which a sweep's run keeps in memory where a CLI run spills
// them to disk. curve is the part of it the recorded metrics take.
func runBytes(b *scenario.Built) (held, curve int64) {
	s := b.Scenario
	// A sweep's run computes its agents' gradients one at a time (its
	// pool has one worker): one scratch each.
	est := scenario.EstimateOf(s, b.Factory, b.Env.Problem.Dim(), 0, false).WithGradients(1)
	// A sweep's run writes no export: neither its pinned text nor replay
	// arrays are held.
	held = est.Total - est.Shared - est.Room - est.Exported
	points := int64(s.Iterations)/int64(max(s.Record.Every, 1)) + 2
	// Columns: the generic ones, the counters and the problem's own.
	curve = points * 8 * int64(12+len(problemMetricNames(b)))
	if points > scenario.SpillKeep {
		held += (points - scenario.SpillKeep) * 8 * int64(12+len(problemMetricNames(b)))
	}
	return held, curve
}

// noteData records what the plan's runs share: the datasets point b's
// problem reads and the largest problem instance (its Size estimate).
func (p *Plan) noteData(b *scenario.Built) {
	est := b.Estimate(scenario.CLI)
	if p.datasets == nil {
		p.datasets = map[string]int64{}
	}
	for k, v := range est.Datasets {
		p.datasets[k] = v
	}
	if f := b.ProblemFactory; f.Size != nil {
		_, data := f.Size(b.ProblemParams, b.Env.Graph.N)
		p.maxData = max(p.maxData, data)
	}
}

// SweepEstimate is a sweep's memory footprint before it starts; its
// parts add up to Total.
type SweepEstimate struct {
	// Records is what the finished runs' records take, held until the
	// result is written and then written as text, and Summaries the
	// result's statistics, held and written; Runs what the workers' runs
	// in progress take; Data the datasets and problem instances the runs
	// share; Room the collector's room (scenario.CollectorRoom), to which
	// dpsim sweep holds the process.
	Records, Summaries, Runs, Data, Room int64
	Total                                int64
	// Tasks and Workers are the runs and the runs at once estimated.
	Tasks, Workers int
	// Record and Run are one record's and one run's estimates.
	Record, Run int64
	// Each is what one more worker adds: its run, and with
	// Plan.WorkersApart its own data and collector's room too.
	Each int64
	// Apart says the workers were estimated with memories of their own
	// (Plan.WorkersApart).
	Apart bool
}

// Estimate estimates the memory of running tasks tasks of the plan with
// workers workers: every finished record is held until the result is
// written, the summaries are made and written, each worker holds one run
// (the plan's largest), the datasets are held once and the shared
// problem instances up to the share's bound and one per worker. With
// WorkersApart every worker holds the datasets, the problem instances
// and a collector's room of its own, and the records are held twice (the
// page's copy of their text, and the Worker's that assembles them).
func (p *Plan) Estimate(tasks, workers int) SweepEstimate {
	w := max(1, min(workers, tasks))
	e := SweepEstimate{Tasks: tasks, Workers: w, Record: p.maxRecord, Run: p.maxRun, Apart: p.WorkersApart}
	e.Records = satMul(int64(tasks), p.maxRecord)
	e.Summaries = p.statsBytes()
	e.Runs = satMul(int64(w), p.maxRun)
	var datasets int64
	for _, b := range p.datasets {
		datasets = satAdd(datasets, b)
	}
	share := min(shareBytes, satMul(int64(tasks), p.maxData))
	if !p.WorkersApart {
		e.Data = satAdd(datasets, satAdd(share, satMul(int64(w), p.maxData)))
		held := satAdd(satAdd(e.Records, e.Summaries), satAdd(e.Runs, e.Data))
		e.Room = scenario.CollectorRoom(held)
		e.Total = satAdd(held, e.Room)
		e.Each = p.maxRun
		return e
	}
	// One worker's own memory: its data, its run and its collector's
	// room; the Worker that assembles the result holds the records and
	// summaries too (their room is counted once, with them).
	data := satAdd(datasets, satAdd(share, p.maxData))
	room := scenario.CollectorRoom(satAdd(p.maxRun, data))
	e.Each = satAdd(satAdd(p.maxRun, data), room)
	assembled := satAdd(e.Records, e.Summaries)
	e.Records = satMul(2, e.Records)
	e.Data = satMul(int64(w), data)
	e.Room = satAdd(assembled/4, satMul(int64(w), room))
	e.Total = satAdd(satAdd(satAdd(e.Records, e.Summaries), satAdd(e.Runs, e.Data)), e.Room)
	return e
}

// CheckMemory refuses, before anything runs, a sweep of tasks tasks with
// workers workers whose estimate exceeds budget, in one line. When the
// runs in progress at once are what takes it past (one at a time would
// fit), the line names the setting that chooses them (WorkersSetting),
// what each holds, the total, the budget, the most that fit and workers
// as given; otherwise it gives the number, its parts (which add up to
// it) and the knob to turn.
//
// A check that passes is remembered: Execute does not repeat one its
// caller made with the same tasks and workers (MemoryChecked).
func (p *Plan) CheckMemory(tasks, workers int, budget int64) error {
	p.checked = nil
	e := p.Estimate(tasks, workers)
	if e.Total <= budget {
		p.checked = &[2]int{tasks, workers}
		return nil
	}
	fits := func(k int) bool { return p.Estimate(tasks, k).Total <= budget }
	if e.Workers > 1 && fits(1) {
		what := "run in progress"
		if e.Apart {
			what = "Web Worker (its own memory: the datasets, the problem instances and one run)"
		}
		return WorkersRefusal(p.workersSetting(), workers, e.Workers, what, e.Each, e.Total, budget, p.what(), MostThatFit(e.Workers, fits))
	}
	if e.Records+e.Summaries >= e.Runs {
		knobs := []string{"runs", "x.values or the series' sweeps (points)", "the number of series"}
		if p.Exp.X.alongRun() {
			knobs = append(knobs, "iterations ÷ record.every (every curve holds one value per recorded iteration)")
		}
		return check.Errorf("runs", "this sweep needs about %s of memory, more than the %s a sweep may use: %s; lower %s, or split it with --shard and merge the parts",
			scenario.Bytes(e.Total), scenario.Bytes(budget), e.parts(), strings.Join(knobs, ", "))
	}
	// What a run holds: mostly its recorded points (every one is kept),
	// or its state and data — then record.every cannot help.
	field, knobs, why := "iterations", "the iterations, or raise record.every", "a sweep's run keeps every recorded point in memory"
	if 2*p.maxCurve < p.maxRun {
		field, knobs, why = "graph.n", "the network or the problem (its dimension, its data)", "a run's states, checkpoints and data"
	}
	if e.Workers > 1 {
		knobs = p.workersSetting() + " (now " + strconv.Itoa(e.Workers) + "), " + knobs
	}
	return check.Errorf(field, "this sweep needs about %s of memory, more than the %s a sweep may use: %s (%s); lower %s",
		scenario.Bytes(e.Total), scenario.Bytes(budget), e.parts(), why, knobs)
}

// MemoryChecked reports whether CheckMemory passed for tasks tasks on
// workers workers, the last time it was called.
func (p *Plan) MemoryChecked(tasks, workers int) bool {
	return p.checked != nil && *p.checked == [2]int{tasks, workers}
}

// MostWorkers returns the most workers, up to want, whose runs of tasks
// tasks fit budget (CheckMemory), and 0 when one does not: what an
// automatic choice of workers takes.
func (p *Plan) MostWorkers(tasks, want int, budget int64) int {
	return MostThatFit(max(1, min(want, tasks)), func(k int) bool { return p.Estimate(tasks, k).Total <= budget })
}

// what is what a refusal calls the plan's work: "the audit" for an
// audit (dpsim audit, the page's "Is this ε honest?"), else "the sweep".
func (p *Plan) what() string {
	if p.Exp != nil && p.Exp.Audit != nil {
		return "the audit"
	}
	return "the sweep"
}

// workersSetting is what a refusal calls the runs in progress at once.
func (p *Plan) workersSetting() string {
	if p.WorkersSetting == "" {
		return "workers"
	}
	return p.WorkersSetting
}

// WorkersRefusal refuses, in one line naming setting, the n things at
// once (what: "run in progress", "gradient running at once") that take
// command ("the sweep", "the run") past budget: each holds each bytes, n
// at once total; most would fit, and got is the setting's value as
// given. dpsim's run and sweep, and the experiments engine, say it alike.
func WorkersRefusal(setting string, got any, n int, what string, each, total, budget int64, command string, most int) error {
	return check.Errorf(setting, "each %s holds about %s, and %d at once would take %s to about %s of memory, more than the %s it may use: at most %d fit (got %v)",
		what, scenario.Bytes(each), n, command, scenario.Bytes(total), scenario.Bytes(budget), most, got)
}

// MostThatFit returns the largest k in [1, hi] for which fits(k) holds,
// fits being true up to some k and false beyond (a memory estimate grows
// with its workers), or 0 when fits(1) does not hold.
func MostThatFit(hi int, fits func(k int) bool) int {
	return sort.Search(hi, func(i int) bool { return !fits(i + 1) })
}

func satMul(a, b int64) int64 {
	if a != 0 && b > (1<<63-1)/a {
		return 1<<63 - 1
	}
	return a * b
}

func satAdd(a, b int64) int64 {
	if a > (1<<63-1)-b {
		return 1<<63 - 1
	}
	return a + b
}

// parts lists the estimate's parts, which add up to Total.
func (e SweepEstimate) parts() string {
	records, data := "", ""
	if e.Apart {
		records, data = " (held twice: by the page and by the Worker that assembles them)", fmt.Sprintf(" (every one of the %d Workers holds its own)", e.Workers)
	}
	return fmt.Sprintf("%s for %d run records of about %s each%s, %s for the summaries, %s for %d runs in progress of about %s each, %s for the datasets and problem instances%s, %s for the collector's room",
		scenario.Bytes(e.Records), e.Tasks, scenario.Bytes(e.Record), records, scenario.Bytes(e.Summaries), scenario.Bytes(e.Runs), e.Workers, scenario.Bytes(e.Run),
		scenario.Bytes(e.Data), data, scenario.Bytes(e.Room))
}

// String writes the estimate for people.
func (e SweepEstimate) String() string {
	return scenario.Bytes(e.Total) + " (" + e.parts() + ")"
}
