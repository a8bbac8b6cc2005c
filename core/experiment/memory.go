package experiment

import (
	"fmt"
	"strings"

	"dpsim/core/check"
	"dpsim/core/scenario"
)

// Per-record costs of a sweep's memory estimate, in bytes, measured by
// TestSweepEstimateCovers on the engine's own records: a record's struct,
// maps and status (recordBase); every final metric or quantity, held in a
// map and written as text (perValue); every curve point, held as a float64
// and written as text in the result, whose buffer may double (perPoint).
const (
	recordBase = 1000 // measured natively and under js/wasm, whose records take more: TestSweepEstimateCovers runs in both
	perValue   = 160
	perPoint   = 8 + 2*28
	// perStat is one summary (Stats) of a metric at one point of a
	// series, held and written.
	perStat = 2 * 400
)

// statsBytes estimates the result's summaries: one per metric (and
// quantity, off the run axis) at every point of every series.
func (p *Plan) statsBytes() int64 {
	var n int64
	for _, sp := range p.series {
		for _, pp := range sp.points {
			if p.Exp.X.alongRun() {
				n += int64(len(pp.grid)) * int64(len(p.Exp.Metrics)+1)
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
// estimate, whose recorded metrics are capped where a CLI run spills them
// to disk; a sweep's run keeps all of them in memory.
func runBytes(b *scenario.Built) int64 {
	s := b.Scenario
	est := scenario.EstimateOf(s, b.Factory, b.Env.Problem.Dim(), 0, false)
	points := int64(s.Iterations)/int64(max(s.Record.Every, 1)) + 2
	if points > scenario.SpillKeep {
		// Columns: the generic ones, the counters and the problem's own.
		est.Total += (points - scenario.SpillKeep) * 8 * int64(12+len(problemMetricNames(b)))
	}
	return est.Total
}

// SweepEstimate is a sweep's memory footprint before it starts.
type SweepEstimate struct {
	// Records is what the finished runs' records and the result's
	// summaries take, held until the result is written and then written
	// as text; Runs what the workers' runs in progress take.
	Records, Runs int64
	Total         int64
}

// Estimate estimates the memory of running tasks tasks of the plan with
// workers workers: every finished record is held until the result is
// written, and each worker holds one run (the plan's largest).
func (p *Plan) Estimate(tasks, workers int) SweepEstimate {
	var e SweepEstimate
	e.Records = satMul(int64(tasks), p.maxRecord) + p.statsBytes()
	e.Runs = satMul(int64(max(1, min(workers, tasks))), p.maxRun)
	e.Total = e.Records + e.Runs
	if e.Total < 0 {
		e.Total = 1<<63 - 1
	}
	return e
}

// CheckMemory refuses, before anything runs, a sweep of tasks tasks with
// workers workers whose estimate exceeds budget, in one line with the
// number and the knob to turn.
func (p *Plan) CheckMemory(tasks, workers int, budget int64) error {
	e := p.Estimate(tasks, workers)
	if e.Total <= budget {
		return nil
	}
	if e.Records >= e.Runs {
		knobs := []string{"runs", "x.values or the series' sweeps (points)", "the number of series"}
		if p.Exp.X.alongRun() {
			knobs = append(knobs, "iterations ÷ record.every (every curve holds one value per recorded iteration)")
		}
		return check.Errorf("runs", "this sweep needs about %s of memory, more than the %s a sweep may use: %d run records of about %s each (%s for the records, %s for the %d runs in progress); lower %s, or split it with --shard and merge the parts",
			scenario.Bytes(e.Total), scenario.Bytes(budget), tasks, scenario.Bytes(p.maxRecord), scenario.Bytes(e.Records), scenario.Bytes(e.Runs), max(1, min(workers, tasks)), strings.Join(knobs, ", "))
	}
	return check.Errorf("iterations", "this sweep needs about %s of memory, more than the %s a sweep may use: %d runs in progress at once of about %s each (a sweep keeps every recorded point in memory); lower the workers, iterations, or raise record.every",
		scenario.Bytes(e.Total), scenario.Bytes(budget), max(1, min(workers, tasks)), scenario.Bytes(p.maxRun))
}

func satMul(a, b int64) int64 {
	if a != 0 && b > (1<<63-1)/a {
		return 1<<63 - 1
	}
	return a * b
}

// String writes the estimate for people.
func (e SweepEstimate) String() string {
	return fmt.Sprintf("%s (%s for the run records, %s for the runs in progress)", scenario.Bytes(e.Total), scenario.Bytes(e.Records), scenario.Bytes(e.Runs))
}
