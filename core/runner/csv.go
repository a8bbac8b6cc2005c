package runner

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"strconv"
	"time"

	"dpsim/core/jsonout"
	"dpsim/core/metrics"
	"dpsim/core/version"
)

// epsTrace is every agent's ε spent at each recorded point, kept when
// TrackEpsilon asked for it (the CLI's and the page's runs; not the
// experiment engine's, which never writes a CSV).
type epsTrace struct {
	on     bool
	agents int
	// from is the first recorded point with a row: a resumed run's
	// history (SetHistory) has no ε per agent before it.
	from int
	rows int
	vals []float64 // rows × agents, row after row
	// skipped says why TrackEpsilon kept no trace ("" when it did).
	skipped string
}

// MaxEpsilonTrace bounds the memory of the ε trace (TrackEpsilon), in
// bytes: beyond it the CSV has no ε columns and says why.
const MaxEpsilonTrace = 512 << 20

// TrackEpsilon makes the run keep every agent's ε spent (the privacy
// ledger's) at each recorded point, for WriteCSV's eps_agent_I columns,
// and reports whether it does. Call it before the run advances. It costs
// one ledger per recorded point and 8 bytes per agent and point: a run
// whose trace would exceed MaxEpsilonTrace keeps none.
func (r *Runner) TrackEpsilon() bool {
	s := r.b.Scenario
	points := int64(s.Iterations/max(s.Record.Every, 1)) + 2
	agents := r.b.Env.Problem.Agents()
	if need := points * int64(agents) * 8; need > MaxEpsilonTrace {
		r.eps.skipped = fmt.Sprintf("omitted: %d agents × %d recorded points would hold %d MiB in memory (the limit is %d MiB)",
			agents, points, need>>20, MaxEpsilonTrace>>20)
		return false
	}
	r.eps.on, r.eps.agents = true, agents
	return true
}

// trackEpsilon records the ledger's ε per agent for the point the metrics
// have just recorded (the last of the series).
func (r *Runner) trackEpsilon() {
	led := r.b.Accountant.Ledger()
	if r.eps.rows == 0 {
		r.eps.from = r.Metrics.Series.Len() - 1
	}
	row := len(r.eps.vals)
	for range r.eps.agents {
		// An agent the ledger does not list has no guarantee.
		r.eps.vals = append(r.eps.vals, math.Inf(1))
	}
	for _, e := range led.Agents {
		if e.Agent >= 0 && e.Agent < r.eps.agents {
			r.eps.vals[row+e.Agent] = epsValue(e.Epsilon.Value())
		}
	}
	r.eps.rows++
}

// epsValue is how the CSV writes an agent's ε: a number beyond float64
// or undefined (an overflowed formula) gives no finite guarantee, so it
// is +Inf, never 0 or NaN (docs/exports.md).
func epsValue(v float64) float64 {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return math.Inf(1)
	}
	return v
}

// CSVMeta is what the CSV's metadata header says beyond the run itself.
type CSVMeta struct {
	// Date is when the export was written; it is written in UTC, ISO 8601.
	Date time.Time
	// Version is dpsim's version ("" means version.String()).
	Version string
}

// ScenarioHash returns the SHA-256, in hex, of the canonical JSON of the
// export's scenario (compact, fields in dpsim's order, every random choice
// pinned): two runs with the same hash ran the same scenario.
func (r *Runner) ScenarioHash() (string, error) {
	js, err := jsonout.Marshal(r.scenario())
	if err != nil {
		return "", fmt.Errorf("encoding the scenario: %w", err)
	}
	sum := sha256.Sum256(js)
	return hex.EncodeToString(sum[:]), nil
}

// WriteCSV writes the recorded metrics as CSV after a metadata header
// (lines starting "# ": scenario name, scenario hash, seed, dpsim version,
// date), with, when TrackEpsilon was called, every agent's ε spent as the
// columns eps_agent_0 … eps_agent_{n−1}: +Inf where the ledger gives no
// finite guarantee, empty before a resumed run's first new point. The CLI
// and the page write it; their bytes differ only in the date line.
func (r *Runner) WriteCSV(w io.Writer, m CSVMeta) error {
	write, err := r.CSVWriter(m)
	if err != nil {
		return err
	}
	return write(w)
}

// CSVWriter returns a function that writes WriteCSV's bytes for the run
// as it stands now: like Snapshot, what it writes does not change as the
// run goes on, so the page can write it a chunk at a time.
func (r *Runner) CSVWriter(m CSVMeta) (func(io.Writer) error, error) {
	hash, err := r.ScenarioHash()
	if err != nil {
		return nil, err
	}
	v := m.Version
	if v == "" {
		v = version.String()
	}
	s := r.b.Scenario
	seed := "seed: "
	switch {
	case s.Seed != nil:
		seed += strconv.FormatUint(*s.Seed, 10)
	default:
		ss := s.StreamSeeds()
		js, err := jsonout.Marshal(ss)
		if err != nil {
			return nil, err
		}
		seed = "seeds: " + string(js)
	}
	x := metrics.CSVExtra{Meta: []string{
		"scenario: " + s.Name,
		"scenario_sha256: " + hash,
		seed,
		"dpsim_version: " + v,
		"date: " + m.Date.UTC().Format(time.RFC3339),
	}}
	if r.eps.skipped != "" {
		x.Meta = append(x.Meta, "eps_agent_I: "+r.eps.skipped)
	}
	x.Meta = append(x.Meta, r.tightMeta()...)
	if e := r.eps; e.on {
		e.vals = e.vals[:len(e.vals):len(e.vals)] // later rows are appended past it
		x.Meta = append(x.Meta, "eps_agent_I: agent I's ε spent up to the row's iteration (the privacy ledger's "+
			r.Ledger().Notion+"; +Inf: no finite guarantee)")
		for k := range e.agents {
			x.Names = append(x.Names, "eps_agent_"+strconv.Itoa(k))
		}
		x.Cells = func(buf []byte, i int) []byte {
			j := i - e.from
			for k := range e.agents {
				buf = append(buf, ',')
				if j >= 0 && j < e.rows {
					buf = strconv.AppendFloat(buf, e.vals[j*e.agents+k], 'g', -1, 64)
				}
			}
			return buf
		}
	}
	series := r.Metrics.Series.Snapshot()
	return func(w io.Writer) error { return series.WriteCSVWith(w, x) }, nil
}
