package runner

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"unicode/utf8"

	"dpsim/core/check"
	"dpsim/core/jsonout"
	"dpsim/core/jsonstrict"
	"dpsim/core/metrics"
	"dpsim/core/noise"
	"dpsim/core/privacy"
	"dpsim/core/scenario"
	"dpsim/core/sim"
)

// Resume returns a runner for b that continues from checkpoint cp as if
// it had run the cp.Iter iterations before it: the algorithm's state
// variables, the positions of every random source (streams, pinned
// draws, sample cursors), what the algorithm carries (Carrier) and the
// communication counters are put back, so that every later iteration is
// bit for bit the uninterrupted run's; a run that a stop rule ended at
// cp.Iter is ended there again. b must be built from the same scenario as
// the run that saved cp (an export's pinned scenario), freshly, with
// nothing run. A checkpoint no run of b could have saved is refused in
// one line naming the field (paths start at "checkpoint").
//
// The resumed runner's metrics start after cp.Iter; SetHistory gives it
// the points and checkpoints the interrupted run recorded up to cp.Iter.
// The ledger needs nothing: every accountant derives it from the
// iteration count and the configuration. Algorithms that do not
// implement sim.Resumable are refused by name.
func Resume(b *scenario.Built, cp Checkpoint, extra ...sim.Recorder) (*Runner, error) {
	if _, ok := b.Algorithm.(sim.Resumable); !ok {
		return nil, notResumable(b)
	}
	if cp.Iter < 0 || cp.Iter > b.Scenario.Iterations {
		return nil, check.Errorf("checkpoint.iteration", "is %d, outside the scenario's 0..%d", cp.Iter, b.Scenario.Iterations)
	}
	if err := checkCheckpoint(b, &cp, "checkpoint"); err != nil {
		return nil, err
	}
	return resume(b, &cp, "checkpoint", extra)
}

// notResumable is the error of an algorithm that cannot resume.
func notResumable(b *scenario.Built) error {
	return fmt.Errorf("%s cannot resume from a checkpoint (it does not implement sim.Resumable): run it from the start", b.Factory.Title)
}

// resume is Resume once cp is checked (path names it in errors).
func resume(b *scenario.Built, cp *Checkpoint, path string, extra []sim.Recorder) (*Runner, error) {
	res := b.Algorithm.(sim.Resumable)
	proto := b.Algorithm.State()
	vars := make([]sim.Var, len(proto))
	for k, st := range cp.States {
		p := proto[k]
		data := make([]float64, 0, len(p.Data))
		for _, row := range st.Values {
			data = append(data, row...)
		}
		vars[k] = sim.Var{Name: p.Name, Dim: p.Dim, Data: data}
	}
	if err := res.Resume(cp.Iter, vars); err != nil {
		return nil, check.Errorf(path+".states", "%v", err)
	}
	if c, ok := b.Algorithm.(Carrier); ok {
		carried := map[string][]float64{}
		for k, v := range cp.Carried {
			carried[k] = v
		}
		if err := c.SetCarried(carried); err != nil {
			return nil, check.Errorf(path+".carried", "%v", err)
		}
	}
	if err := b.Env.Restore(*cp.Sources); err != nil {
		return nil, check.Errorf(path+".sources", "%v", err)
	}
	r := New(b, extra...)
	r.iter, r.started = cp.Iter, true
	// The growth rule's window, as the run that saved cp held it (its
	// first peak was at iteration 0).
	from := max(0, cp.Iter+1-Window)
	for i, p := range cp.Peaks {
		r.peaks[(from+i)%(Window+1)] = p
	}
	r.peakFrom, r.peakSeen = from, true
	// The messages, releases and activations counted so far continue.
	r.restoreCounters(cp)
	if cp.Iter > 0 {
		// A run its stop rule ended here ends here again.
		r.checkStop()
	}
	// The accountant and the caller's recorders see the resumed state as
	// their first step, as they see Initial in a fresh run: a ledger
	// counts iterations, so one resumed at the end still accounts for all
	// of them. The metrics take their history from SetHistory instead.
	var est []float64
	if len(vars) > 0 {
		est = vars[0].Data
	}
	st := &sim.Step{Iter: cp.Iter, Dim: proto[0].Dim, Estimates: est}
	for _, rec := range r.recorders[1:] {
		rec.Record(st)
	}
	return r, nil
}

// checkCheckpoint refuses, in one line naming the field under path, a
// checkpoint that no run of b could have saved: state variables other
// than the algorithm's (names, rows, dimensions), values that are not
// finite or an estimate beyond Limit (a run stops as diverged before it
// saves one), random sources that are not the run's (a stream missing or
// given twice), carried quantities other than the algorithm's, a growth
// window of another length or with magnitudes no estimate has, and
// counters of another network or beyond what cp.Iter iterations can
// count.
func checkCheckpoint(b *scenario.Built, cp *Checkpoint, path string) error {
	title := b.Factory.Title
	proto := b.Algorithm.State()
	if len(cp.States) != len(proto) {
		return check.Errorf(path+".states", "holds %d state variables; %s has %d (%s)", len(cp.States), title, len(proto), varNames(proto))
	}
	estimates := map[string]bool{b.Factory.Output: b.Factory.Output != ""}
	if len(b.Factory.States) > 0 {
		estimates[b.Factory.States[0]] = true // "the estimate first"
	}
	for k, st := range cp.States {
		p := proto[k]
		at := check.Index(path+".states", k)
		if st.Name != p.Name {
			return check.Errorf(at+".name", "is %q; %s's state variable %d is %q", st.Name, title, k, p.Name)
		}
		n := len(p.Data) / max(p.Dim, 1)
		if len(st.Values) != n {
			return check.Errorf(at+".values", "%q has %d rows; the run has %d", st.Name, len(st.Values), n)
		}
		for i, row := range st.Values {
			if len(row) != p.Dim {
				return check.Errorf(check.Index(at+".values", i), "%q has %d entries; the dimension is %d", st.Name, len(row), p.Dim)
			}
			for c, v := range row {
				switch {
				case math.IsNaN(v) || math.IsInf(v, 0):
					return check.Errorf(check.Index(check.Index(at+".values", i), c), "%q is %v; a checkpoint holds finite values (a state that is not finite diverges at the next iteration)", st.Name, v)
				case estimates[st.Name] && math.Abs(v) > Limit:
					return check.Errorf(check.Index(check.Index(at+".values", i), c), "the estimate %q is %v, beyond %g (runner.Limit): a run stops as diverged before it saves such a state", st.Name, v, Limit)
				}
			}
		}
	}
	if cp.Sources == nil {
		return check.Errorf(path+".sources", "is missing: a checkpoint holds where every random source stood (one saved by an older dpsim has none: run the scenario from the start)")
	}
	seen := map[string]bool{}
	for i, p := range cp.Sources.Streams {
		if seen[p.Label] {
			return check.Errorf(check.Index(path+".sources.streams", i)+".label", "%q is given twice; each random stream is given once", p.Label)
		}
		seen[p.Label] = true
	}
	if c, ok := b.Algorithm.(Carrier); ok {
		want := c.Carried()
		for _, k := range keys(cp.Carried) {
			if _, ok := want[k]; !ok {
				return check.Errorf(path+".carried."+k, "is not carried by %s (it carries %v)", title, keys(want))
			}
		}
		for _, k := range keys(want) {
			got, ok := cp.Carried[k]
			switch {
			case !ok:
				return check.Errorf(path+".carried."+k, "is missing: %s carries it", title)
			case len(got) != len(want[k]):
				return check.Errorf(path+".carried."+k, "has %d values; %s carries %d", len(got), title, len(want[k]))
			}
			for i, v := range got {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return check.Errorf(check.Index(path+".carried."+k, i), "is %v; a checkpoint carries finite values", v)
				}
			}
		}
	} else if len(cp.Carried) > 0 {
		return check.Errorf(path+".carried", "holds %v, which %s does not keep", keys(cp.Carried), title)
	}
	if n := min(cp.Iter+1, Window); len(cp.Peaks) != n {
		return check.Errorf(path+".peaks", "has %d values; a checkpoint at iteration %d holds the largest estimate magnitude of its last %d iterations (runner.Window)", len(cp.Peaks), cp.Iter, n)
	}
	for i, v := range cp.Peaks {
		if !(v >= 0 && v <= Limit) {
			return check.Errorf(check.Index(path+".peaks", i), "is %v; an estimate's magnitude is from 0 to %g (runner.Limit)", v, Limit)
		}
	}
	c := cp.Communication
	if c == nil {
		return check.Errorf(path+".communication", "is missing: a checkpoint holds the messages, releases and activations counted so far")
	}
	agents := b.Env.Problem.Agents()
	switch {
	case len(c.Activations) != agents:
		return check.Errorf(path+".communication.activations", "has %d entries; the run has %d agents", len(c.Activations), agents)
	case c.Messages < 0:
		return check.Errorf(path+".communication.messages", "is %d; a count is ≥ 0", c.Messages)
	case c.Releases < 0:
		return check.Errorf(path+".communication.releases", "is %d; a count is ≥ 0", c.Releases)
	case cp.Iter == 0 && (c.Messages != 0 || c.Releases != 0):
		return check.Errorf(path+".communication", "counts %d messages and %d releases at iteration 0, before anything was sent", c.Messages, c.Releases)
	}
	for i, a := range c.Activations {
		if a < 0 || a > int64(cp.Iter) {
			return check.Errorf(check.Index(path+".communication.activations", i), "is %d; after %d iterations an agent was active 0 to %d times (once per iteration at most)", a, cp.Iter, cp.Iter)
		}
	}
	return nil
}

// varNames lists variables' names.
func varNames(vs []sim.Var) []string {
	var ns []string
	for _, v := range vs {
		ns = append(ns, v.Name)
	}
	return ns
}

// SetHistory gives a resumed runner what the run it continues recorded
// up to its checkpoint: the metric points at iterations ≤ Iter() and the
// checkpoints saved up to it, so that its export is the uninterrupted
// run's. A checkpoint the uninterrupted run does not save — the one an
// interruption saved (Interrupt) — is left out. Call it before Advance.
func (r *Runner) SetHistory(prior *metrics.Series, saved []Checkpoint) error {
	if r.Metrics.Series.Len() > 0 || len(r.saved) > 0 {
		return fmt.Errorf("the run has recorded already: set its history before it advances")
	}
	if prior != nil {
		if err := r.Metrics.Series.AppendUpTo(prior, r.iter); err != nil {
			return err
		}
	}
	for _, cp := range saved {
		if cp.Iter <= r.iter && (r.points[cp.Iter] || (r.stopped != "" && cp.Iter == r.iter)) {
			r.saved = append(r.saved, cp)
		}
	}
	return nil
}

func keys[V any](m map[string]V) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// saved is a run export as resuming reads it: strictly (core/jsonstrict:
// every key Export writes is known and given at most once, types are
// checked, errors name the field and its line), the parts resuming does
// not read kept as they are (omitempty: so that tests can write one back).
type saved struct {
	Format        *string              `json:"format,omitempty"`
	NoiseStream   *string              `json:"noise_stream,omitempty"`
	Status        *string              `json:"status,omitempty"`
	StopReason    string               `json:"stop_reason,omitempty"`
	Partial       bool                 `json:"partial,omitempty"`
	Error         string               `json:"error,omitempty"`
	Iter          *int                 `json:"iterations_run,omitempty"`
	Scenario      json.RawMessage      `json:"scenario,omitempty"`
	Warnings      json.RawMessage      `json:"warnings,omitempty"`
	Findings      json.RawMessage      `json:"weight_findings,omitempty"`
	RoleFindings  json.RawMessage      `json:"weight_findings_by_role,omitempty"`
	Optimum       json.RawMessage      `json:"optimum,omitempty"`
	Metrics       *savedSeries         `json:"metrics,omitempty"`
	Ledger        json.RawMessage      `json:"privacy,omitempty"`
	States        []Checkpoint         `json:"checkpoints,omitempty"`
	Theory        json.RawMessage      `json:"theory,omitempty"`
	Steady        json.RawMessage      `json:"steady_state,omitempty"`
	Calibration   *privacy.Calibration `json:"calibration,omitempty"`
	Communication json.RawMessage      `json:"communication,omitempty"`
	MetricLabels  json.RawMessage      `json:"metric_labels,omitempty"`
}

// savedSeries reads an export's metrics (metrics.Series, strictly), its
// errors under "metrics".
type savedSeries struct{ metrics.Series }

// UnmarshalJSON implements json.Unmarshaler.
func (s *savedSeries) UnmarshalJSON(b []byte) error {
	if err := s.Series.UnmarshalJSON(b); err != nil {
		if ce, ok := err.(*check.Error); ok {
			return check.Errorf(check.Join("metrics", ce.Field), "%s", ce.Rule)
		}
		return check.Errorf("metrics", "%v", err)
	}
	return nil
}

// Statuses a run export may hold (Export.Status).
var statuses = []string{"completed", "stopped", "diverged", "failed", "paused"}

// ResumeExport returns a runner that continues the run recorded in the
// export data from its checkpoint at iteration from (the last checkpoint
// when from < 0): it builds the export's pinned scenario for place,
// resumes from the checkpoint and takes the export's metrics and
// checkpoints up to it (SetHistory), so that running it to the end
// writes the export of the uninterrupted run, byte for byte.
//
// Before anything runs, the export is read strictly and every record it
// holds that the run could not have written is refused, in one line
// naming the field (its JSON path), the rule and the value: another
// format or generator, a status or iteration count that do not go
// together, a scenario that is not pinned, metrics with other columns or
// other recorded iterations than the run records, counters that are not
// counts, checkpoints that are not the ones the run saves or hold states,
// sources or counters no run saves (checkCheckpoint), a checkpoint
// whose state gives other metrics than those recorded at its iteration.
// The runner it returns records again what the export holds after the
// checkpoint, and stops with a *Mismatch at the first point, checkpoint
// or end that differs. The parts of the export that resuming does not
// read (ledger, theory, summary) are recomputed.
func ResumeExport(data []byte, from int, place scenario.Place, extra ...sim.Recorder) (*Runner, error) {
	// First the format, from the first key alone: a scenario or a sweep
	// given by mistake is told as such, not by its first unknown key.
	f, ok := firstFormat(data)
	if !ok {
		// Keys in another order (a tool sorted them), or not JSON.
		var top struct{ Format string }
		ok = json.Unmarshal(data, &top) == nil
		f = top.Format
	}
	if ok && f != FormatVersion {
		return nil, fmt.Errorf("is not a run export: its format is %q; this dpsim reads %q", f, FormatVersion)
	}
	var e saved
	if err := jsonstrict.Decode(data, &e, ""); err != nil {
		return nil, fmt.Errorf("reading the export: %w", err)
	}
	if err := e.head(); err != nil {
		return nil, err
	}
	k := -1
	for i, cp := range e.States {
		if cp.Iter == from || (from < 0 && (k < 0 || cp.Iter >= e.States[k].Iter)) {
			k = i
		}
	}
	if k < 0 {
		var its []int
		for _, cp := range e.States {
			its = append(its, cp.Iter)
		}
		return nil, fmt.Errorf("the export has no checkpoint at iteration %d; it has %v", from, its)
	}
	s, err := scenario.Parse(e.Scenario)
	if err != nil {
		return nil, fmt.Errorf("the export's scenario: %w", err)
	}
	b, err := scenario.BuildFor(s, place)
	if err != nil {
		return nil, fmt.Errorf("the export's scenario: %w", err)
	}
	if err := checkPinned(e.Scenario, b); err != nil {
		return nil, err
	}
	if _, ok := b.Algorithm.(sim.Resumable); !ok {
		return nil, notResumable(b)
	}
	if err := e.check(b); err != nil {
		return nil, err
	}
	// The pinned scenario holds the calibrated scales; the record of how
	// they were found is the export's.
	b.Calibration = e.Calibration
	r, err := resume(b, &e.States[k], check.Index("checkpoints", k), extra)
	if err != nil {
		return nil, err
	}
	if err := r.SetHistory(&e.Metrics.Series, e.States); err != nil {
		return nil, err
	}
	// What the export holds after the checkpoint, the run must record
	// again: a state edited to another plausible value is caught at the
	// next recorded point.
	after := tail(&e.Metrics.Series, r.iter)
	r.expect = &continuation{from: check.Index("checkpoints", k), series: after, skip: len(e.Metrics.Iter) - len(after.Iter),
		cps: e.States[k+1:], first: k + 1, status: *e.Status, iter: *e.Iter}
	return r, nil
}

// firstFormat returns the "format" of a JSON object that starts with it,
// as every dpsim file does, without reading the rest; ok is false when
// data does not start so.
func firstFormat(data []byte) (format string, ok bool) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return "", false
	}
	if t, err := dec.Token(); err != nil || t != "format" {
		return "", false
	}
	err := dec.Decode(&format)
	return format, err == nil
}

// head checks what an export must hold before its scenario is built.
func (e *saved) head() error {
	switch {
	case e.Format == nil || *e.Format != FormatVersion:
		return fmt.Errorf("is not a run export: its format is %q; this dpsim reads %q", deref(e.Format), FormatVersion)
	case e.NoiseStream == nil || *e.NoiseStream != noise.StreamVersion:
		return fmt.Errorf("the export's noise was drawn by %q; this dpsim draws with %q, so the continuation would differ", deref(e.NoiseStream), noise.StreamVersion)
	case e.Status == nil:
		return check.Errorf("status", "is missing: a run export says how the run ended (%v)", statuses)
	case !slices.Contains(statuses, *e.Status):
		return check.Errorf("status", "is %q; a run ends %v", *e.Status, statuses)
	case e.Iter == nil:
		return check.Errorf("iterations_run", "is missing: a run export says how many iterations ran")
	case len(e.Scenario) == 0 || string(e.Scenario) == "null":
		return fmt.Errorf("the export holds no scenario")
	case e.Metrics == nil:
		return check.Errorf("metrics", "is missing: a run export records its metrics, which the resumed run continues")
	case len(e.States) == 0:
		return fmt.Errorf("the export holds no checkpoints: record some (record.checkpoints) to resume from")
	}
	return nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// checkPinned refuses a scenario that is not the pinned form a run export
// writes: an export's scenario is b.Pinned() of its own build, so one
// edited by hand (a default made explicit, a random choice unpinned) did
// not come from a run.
func checkPinned(raw json.RawMessage, b *scenario.Built) error {
	var got bytes.Buffer
	if err := json.Compact(&got, raw); err != nil {
		return check.Errorf("scenario", "%v", err)
	}
	want, err := jsonout.Marshal(b.Pinned())
	if err != nil {
		return check.Errorf("scenario", "%v", err)
	}
	g := got.Bytes()
	if bytes.Equal(g, want) {
		return nil
	}
	i := 0
	for i < len(g) && i < len(want) && g[i] == want[i] {
		i++
	}
	return check.Errorf("scenario", "is not the pinned scenario a run export writes: at character %d it reads %s where the run writes %s", i, snippet(g, i), snippet(want, i))
}

// snippet quotes a few characters of b from i (whole characters).
func snippet(b []byte, i int) string {
	for i > 0 && i < len(b) && !utf8.RuneStart(b[i]) {
		i--
	}
	if i >= len(b) {
		return "the end"
	}
	j := min(len(b), i+24)
	for j < len(b) && !utf8.RuneStart(b[j]) {
		j++
	}
	return "`" + string(b[i:j]) + "`"
}

// check refuses what no run of b writes (see ResumeExport).
func (e *saved) check(b *scenario.Built) error {
	s := b.Scenario
	iter, status := *e.Iter, *e.Status
	// last is the last iteration whose step was recorded: a diverged or
	// failed run stopped inside its iteration iterations_run.
	last := iter
	switch status {
	case "completed":
		if iter != s.Iterations {
			return check.Errorf("iterations_run", "is %d; a completed run ran the scenario's %d", iter, s.Iterations)
		}
	case "stopped":
		if s.Stop == nil {
			return check.Errorf("status", "is \"stopped\", but the scenario has no stop rule")
		}
		if iter < 1 || iter >= s.Iterations {
			return check.Errorf("iterations_run", "is %d; a run a stop rule ended ran 1 to %d iterations", iter, s.Iterations-1)
		}
	case "paused":
		if iter < 0 || iter >= s.Iterations {
			return check.Errorf("iterations_run", "is %d; a paused run ran 0 to %d iterations", iter, s.Iterations-1)
		}
	default: // diverged, failed
		if iter < 1 || iter > s.Iterations {
			return check.Errorf("iterations_run", "is %d; a run that %s ran 1 to %d iterations", iter, status, s.Iterations)
		}
		last = iter - 1
	}
	fresh := New(b)
	if err := e.checkMetrics(b, fresh, status, last); err != nil {
		return err
	}
	// checkCheckpoints tries every checkpoint's sources on b's; then they
	// go back to their start, where an algorithm's Resume expects them
	// (online.Engine replays its samples from there).
	start := b.Env.Positions()
	if err := e.checkCheckpoints(b, fresh, status, last); err != nil {
		return err
	}
	if err := b.Env.Restore(start); err != nil {
		return err
	}
	return e.checkCalibration(b)
}

// recorded lists, in order, the iterations at which a run of s records
// its metrics up to last: every record.every iterations, and the end —
// the scenario's last iteration, or where a stop rule ended the run.
func recorded(s *scenario.Scenario, status string, last int, yield func(it int) bool) {
	every := max(s.Record.Every, 1)
	for it := 0; it <= last; it += every {
		if !yield(it) {
			return
		}
	}
	if last%every != 0 && (last == s.Iterations || status == "stopped") {
		yield(last)
	}
}

// checkMetrics refuses metrics no run of b records.
func (e *saved) checkMetrics(b *scenario.Built, fresh *Runner, status string, last int) error {
	s, m := b.Scenario, &e.Metrics.Series
	want := fresh.Metrics.Series.ExtraNames
	if !slices.Equal(m.ExtraNames, want) {
		return check.Errorf("metrics", "has the columns %v after objective; a run of this scenario records %v", m.ExtraNames, want)
	}
	i, end := 0, 0
	var bad error
	recorded(s, status, last, func(it int) bool {
		end = it
		switch {
		case i >= len(m.Iter):
			bad = check.Errorf("metrics.iteration", "has %d entries; a run %s after %d iterations, recording every %d, records more (the next at iteration %d)", len(m.Iter), status, *e.Iter, max(s.Record.Every, 1), it)
		case m.Iter[i] != it:
			bad = check.Errorf(check.Index("metrics.iteration", i), "is %d; a run recording every %d iterations records iteration %d there", m.Iter[i], max(s.Record.Every, 1), it)
		}
		i++
		return bad == nil
	})
	if bad != nil {
		return bad
	}
	if i != len(m.Iter) {
		return check.Errorf(check.Index("metrics.iteration", i), "is %d; a run %s after %d iterations records its last point at iteration %d", m.Iter[i], status, *e.Iter, end)
	}
	cols := map[string]metrics.Floats{"optimality": m.Optimality, "consensus": m.Consensus}
	for k, n := range m.ExtraNames {
		cols[n] = m.Extra[k]
	}
	if _, generic := b.Env.Problem.(metrics.Generic); !generic {
		// Squared distances are never negative; a problem without an
		// optimum has no optimality to record.
		noOpt := b.Env.Problem.Optimum() == nil
		for _, n := range []string{"optimality", "consensus", metrics.ColStationarity} {
			for j, v := range cols[n] {
				switch {
				case v < 0:
					return check.Errorf(check.Index("metrics."+n, j), "is %v; a squared distance is ≥ 0", v)
				case n == "optimality" && noOpt && !math.IsNaN(v):
					return check.Errorf(check.Index("metrics."+n, j), "is %v; the problem has no known optimum, so a run records null", v)
				}
			}
		}
	}
	if ev, ok := b.Env.Problem.(metrics.Evaluated); ok {
		every := s.Record.EvalEvery
		if every == 0 {
			every = max(s.Record.Every, 1)
		}
		end := s.Iterations
		if status == "stopped" {
			end = *e.Iter
		}
		for _, n := range ev.EvaluatedNames() {
			for j, v := range cols[n] {
				if it := m.Iter[j]; it%every != 0 && it != end && !math.IsNaN(v) {
					return check.Errorf(check.Index("metrics."+n, j), "is %v at iteration %d; a run evaluates it every %d iterations and at its end, null between", v, it, every)
				}
			}
		}
	}
	for _, n := range []string{metrics.ColMessages, metrics.ColReleases, metrics.ColActivations} {
		prev := 0.0
		for j, v := range cols[n] {
			switch {
			case !(v >= 0 && v <= 1<<53 && v == math.Trunc(v)):
				return check.Errorf(check.Index("metrics."+n, j), "is %v; a count is a whole number ≥ 0", v)
			case v < prev:
				return check.Errorf(check.Index("metrics."+n, j), "is %v, below %v at the point before; a count never falls", v, prev)
			case m.Iter[j] == 0 && v != 0:
				return check.Errorf(check.Index("metrics."+n, j), "is %v at iteration 0, before anything was sent", v)
			}
			prev = v
		}
	}
	return nil
}

// checkCheckpoints refuses checkpoints no run of b saves.
func (e *saved) checkCheckpoints(b *scenario.Built, fresh *Runner, status string, last int) error {
	s, m := b.Scenario, &e.Metrics.Series
	// Where the run saves one: at every requested iteration it reached,
	// where its stop rule ended it, and where an interruption paused it.
	extra := -1
	switch status {
	case "stopped", "paused":
		extra = *e.Iter
	}
	point := map[int]int{} // iteration → metrics index
	for j, it := range m.Iter {
		point[it] = j
	}
	col := func(name string) metrics.Floats { return m.ExtraColumn(name) }
	prev := metrics.NewCounters(b.Env.Problem.Agents())
	for j := range e.States {
		cp := &e.States[j]
		at := check.Index("checkpoints", j)
		it := cp.Iter
		switch {
		case j > 0 && it <= e.States[j-1].Iter:
			return check.Errorf(at+".iteration", "is %d, not after the checkpoint before it (%d); a run saves them in order", it, e.States[j-1].Iter)
		case it < 0 || it > last:
			return check.Errorf(at+".iteration", "is %d; a run %s after %d iterations saved its checkpoints at 0 to %d", it, status, *e.Iter, last)
		case !fresh.points[it] && it != extra:
			return check.Errorf(at+".iteration", "is %d; the run saves checkpoints only where record.checkpoints asks (%v)%s", it, s.Record.Checkpoints, extraNote(status))
		}
		if err := checkCheckpoint(b, cp, at); err != nil {
			return err
		}
		if p, ok := point[it]; ok {
			if err := checkState(b, fresh, cp, at, m, p); err != nil {
				return err
			}
		}
		if err := checkPeak(b, cp, at); err != nil {
			return err
		}
		// Restore checks the positions against the run's sources.
		if err := b.Env.Restore(*cp.Sources); err != nil {
			return check.Errorf(at+".sources", "%v", err)
		}
		c := cp.Communication
		// A stop rule applies after iterations 1 … iterations−1, and ends
		// the run where it is first met.
		met := ""
		if it > 0 && it < s.Iterations {
			met = stopReason(s.Stop, c, it)
		}
		stopHere := status == "stopped" && it == *e.Iter
		switch {
		case met != "" && !stopHere:
			return check.Errorf(at+".communication", "meets the stop rule at iteration %d (%s), but the run did not stop there (%s after %d iterations)", it, met, status, *e.Iter)
		case met == "" && stopHere:
			return check.Errorf(at+".communication", "does not meet the stop rule %+v, yet the run stopped at iteration %d", *s.Stop, it)
		}
		switch {
		case c.Messages < prev.Messages:
			return check.Errorf(at+".communication.messages", "is %d, below %d at the checkpoint before; a count never falls", c.Messages, prev.Messages)
		case c.Releases < prev.Releases:
			return check.Errorf(at+".communication.releases", "is %d, below %d at the checkpoint before; a count never falls", c.Releases, prev.Releases)
		}
		for i, a := range c.Activations {
			if a < prev.Activations[i] {
				return check.Errorf(check.Index(at+".communication.activations", i), "is %d, below %d at the checkpoint before; a count never falls", a, prev.Activations[i])
			}
		}
		prev = c
		if err := bracket(c, it, at, m); err != nil {
			return err
		}
		if p, ok := point[it]; ok {
			_, most := c.MaxActivations()
			for _, x := range []struct {
				name string
				v    int64
			}{{metrics.ColMessages, c.Messages}, {metrics.ColReleases, c.Releases}, {metrics.ColActivations, most}} {
				if cl := col(x.name); cl != nil && cl[p] != float64(x.v) {
					return check.Errorf(check.Index("metrics."+x.name, p), "is %v at iteration %d, but the checkpoint there counts %d", cl[p], it, x.v)
				}
			}
		}
	}
	// Every checkpoint the run saves is there.
	have := map[int]bool{}
	for _, cp := range e.States {
		have[cp.Iter] = true
	}
	for _, k := range s.Record.Checkpoints {
		if k <= last && !have[k] {
			return check.Errorf("checkpoints", "has none at iteration %d, which record.checkpoints asks for and the run reached (%d iterations, %s)", k, *e.Iter, status)
		}
	}
	if status == "stopped" && !have[*e.Iter] {
		return check.Errorf("checkpoints", "has none at iteration %d, where the stop rule ended the run: a run saves one there", *e.Iter)
	}
	return nil
}

// checkPeak refuses a checkpoint whose growth window does not end with
// the largest estimate magnitude of its own state (the run saves the
// window after the step the state is).
func checkPeak(b *scenario.Built, cp *Checkpoint, at string) error {
	peak, n := 0.0, len(cp.Peaks)
	for _, v := range cp.States {
		if v.Name != b.Factory.Output && (len(b.Factory.States) == 0 || v.Name != b.Factory.States[0]) {
			continue
		}
		for _, row := range v.Values {
			for _, x := range row {
				peak = max(peak, math.Abs(x))
			}
		}
	}
	if n > 0 && len(b.Factory.States) > 0 && cp.Peaks[n-1] != peak {
		return &Mismatch{check.Index(at+".peaks", n-1) + " and " + at + ".states", fmt.Sprintf(
			"the window's last peak is %v, the largest estimate magnitude of the state %v; one of them was edited", cp.Peaks[n-1], peak)}
	}
	return nil
}

// checkState compares the metrics the state of cp gives with those the
// export recorded at its iteration (point p of m): a run records them from
// that very state, so an edited state (or metric) disagrees. The
// expensive metrics and the counters (checked against cp's counters) are
// left out, and so are problems whose metrics read more than the state
// (metrics.Generic: the prices).
func checkState(b *scenario.Built, fresh *Runner, cp *Checkpoint, at string, m *metrics.Series, p int) error {
	if _, generic := b.Env.Problem.(metrics.Generic); generic || len(b.Factory.States) == 0 {
		return nil
	}
	st := &sim.Step{Iter: cp.Iter}
	for _, v := range cp.States {
		var flat []float64
		for _, row := range v.Values {
			flat = append(flat, row...)
		}
		switch v.Name {
		case b.Factory.States[0]:
			st.Estimates, st.Dim = flat, len(flat)/max(len(v.Values), 1)
		case b.Factory.Output:
			st.Output = flat
		}
	}
	if st.Estimates == nil {
		return nil
	}
	got := fresh.Metrics.Cheap(st)
	skip := map[string]bool{metrics.ColMessages: true, metrics.ColReleases: true, metrics.ColActivations: true}
	if ev, ok := b.Env.Problem.(metrics.Evaluated); ok {
		for _, n := range ev.EvaluatedNames() {
			skip[n] = true
		}
	}
	vals := append([]float64{got.Optimality, got.Consensus, got.Objective}, got.Extra...)
	for k, name := range m.Names() {
		if skip[name] || k >= len(vals) {
			continue
		}
		var rec float64
		switch k {
		case 0:
			rec = m.Optimality[p]
		case 1:
			rec = m.Consensus[p]
		case 2:
			rec = m.Objective[p]
		default:
			rec = m.Extra[k-3][p]
		}
		if !sameBits(vals[k], rec) {
			return &Mismatch{at + " and " + check.Index("metrics."+name, p), fmt.Sprintf(
				"the checkpoint's state gives %v at iteration %d, the metrics hold %v; one of them was edited", vals[k], cp.Iter, rec)}
		}
	}
	return nil
}

// bracket refuses counters at a checkpoint at iteration it that lie
// outside those the metrics recorded around it (counts never fall):
// at least the last recorded count at or before it, at most the first at
// or after it.
func bracket(c *metrics.Counters, it int, at string, m *metrics.Series) error {
	_, most := c.MaxActivations()
	for _, x := range []struct {
		name, field string
		v           int64
	}{{metrics.ColMessages, ".communication.messages", c.Messages}, {metrics.ColReleases, ".communication.releases", c.Releases},
		{metrics.ColActivations, ".communication.activations", most}} {
		col := m.ExtraColumn(x.name)
		if col == nil {
			continue
		}
		j, _ := slices.BinarySearch(m.Iter, it) // the first point at or after it
		v := float64(x.v)
		if j > 0 && m.Iter[j-1] < it && v < col[j-1] {
			return &Mismatch{at + x.field + " and " + check.Index("metrics."+x.name, j-1), fmt.Sprintf(
				"the checkpoint counts %d at iteration %d, fewer than the %v recorded at iteration %d; one of them was edited", x.v, it, col[j-1], m.Iter[j-1])}
		}
		if j < len(col) && v > col[j] {
			return &Mismatch{at + x.field + " and " + check.Index("metrics."+x.name, j), fmt.Sprintf(
				"the checkpoint counts %d at iteration %d, more than the %v recorded at iteration %d; one of them was edited", x.v, it, col[j], m.Iter[j])}
		}
	}
	return nil
}

// extraNote names the checkpoint a run of status saves beyond those asked
// for.
func extraNote(status string) string {
	switch status {
	case "stopped":
		return " and where its stop rule ended it"
	case "paused":
		return " and where it was interrupted"
	}
	return ""
}

// checkCalibration refuses a calibration record no calibration writes.
func (e *saved) checkCalibration(b *scenario.Built) error {
	c := e.Calibration
	if c == nil {
		return nil
	}
	switch {
	case !(c.Target > 0) || math.IsInf(c.Target, 0):
		return check.Errorf("calibration.target_epsilon", "is %v; a target ε is finite and > 0", c.Target)
	case !(c.Factor > 0) || math.IsInf(c.Factor, 0):
		return check.Errorf("calibration.factor", "is %v; a noise factor is finite and > 0", c.Factor)
	case c.Iterations < 1 || c.Iterations > scenario.MaxIterations:
		return check.Errorf("calibration.iterations", "is %d; a horizon is 1 to %d iterations", c.Iterations, scenario.MaxIterations)
	}
	for i, ch := range c.Channels {
		if _, ok := b.Env.Noise[ch.Channel]; !ok {
			return check.Errorf(check.Index("calibration.channels", i)+".channel", "is %q, not one of the algorithm's noise channels", ch.Channel)
		}
		for _, v := range append(slices.Clone(ch.Before), ch.After...) {
			if !(v >= 0) || math.IsInf(v, 0) {
				return check.Errorf(check.Index("calibration.channels", i), "holds the scale %v; a noise scale is finite and ≥ 0", v)
			}
		}
	}
	return nil
}

// Mismatch is the error of a resumed run that records, after the
// checkpoint it resumed from, other metrics or checkpoints than the
// export it continues: one of them was edited (no run writes both).
type Mismatch struct {
	// Fields names the two records that disagree, Rule says how.
	Fields, Rule string
}

// Error implements error: "A and B disagree: …".
func (m *Mismatch) Error() string { return m.Fields + " disagree: " + m.Rule }

// continuation is what an export holds after the checkpoint a run is
// resumed from: its metrics and checkpoints, which the resumed run records
// again bit for bit unless the export was edited.
type continuation struct {
	from   string          // the checkpoint resumed from, "checkpoints[k]"
	series *metrics.Series // the export's points after the checkpoint
	status string          // the export's status and iterations run
	iter   int
	skip   int // the export's points up to it
	next   int // the next point of series to compare
	cps    []Checkpoint
	first  int // the index in the export of cps[0]
}

// check compares iteration it of r with the export: the point it
// recorded (when it recorded one) and the checkpoint it saved there.
func (c *continuation) check(r *Runner, it int, recorded bool) error {
	s := c.series
	if recorded {
		for c.next < len(s.Iter) && s.Iter[c.next] < it {
			c.next++
		}
		if c.next < len(s.Iter) && s.Iter[c.next] == it {
			p, j := r.Metrics.Latest(), c.next
			got := append([]float64{p.Optimality, p.Consensus, p.Objective}, p.Extra...)
			want := []float64{s.Optimality[j], s.Consensus[j], s.Objective[j]}
			for k := range s.Extra {
				want = append(want, s.Extra[k][j])
			}
			for k, name := range s.Names() {
				if k < len(got) && !sameBits(got[k], want[k]) {
					return &Mismatch{c.from + " and " + check.Index("metrics."+name, c.skip+j), fmt.Sprintf(
						"resumed from the checkpoint, the run records %v at iteration %d where the export holds %v; one of them was edited", got[k], it, want[k])}
				}
			}
		}
	}
	if n := len(r.saved); n > 0 && r.saved[n-1].Iter == it {
		for k := range c.cps {
			if c.cps[k].Iter != it {
				continue
			}
			a, errA := jsonout.Marshal(&r.saved[n-1])
			b, errB := jsonout.Marshal(&c.cps[k])
			if errA != nil || errB != nil || !bytes.Equal(a, b) {
				return &Mismatch{c.from + " and " + check.Index("checkpoints", c.first+k), fmt.Sprintf(
					"resumed from the first, the run saves another state at iteration %d than the second; one of them was edited", it)}
			}
		}
	}
	return nil
}

// ended returns a Mismatch when the export says that the run did not end
// with err at iteration it (it went on, or ended otherwise), nil when it
// agrees.
func (c *continuation) ended(it int, err error) error {
	want, what := "failed", "breaks the step contract"
	if d := (*Diverged)(nil); errors.As(err, &d) {
		want, what = "diverged", "diverges"
	}
	if (c.status == want && c.iter == it) || (c.status == "paused" && it > c.iter) {
		return nil // as the export says, or beyond what it knows
	}
	return &Mismatch{c.from + " and status", fmt.Sprintf("resumed from the checkpoint, the run %s at iteration %d, but the export says it was %s after %d iterations; one of them was edited", what, it, c.status, c.iter)}
}

// tail returns a copy of s's points after iteration it (the points up to
// it, a resumed run's history, are not kept twice).
func tail(s *metrics.Series, it int) *metrics.Series {
	i := 0
	for i < len(s.Iter) && s.Iter[i] <= it {
		i++
	}
	t := &metrics.Series{Iter: slices.Clone(s.Iter[i:]), Optimality: slices.Clone(s.Optimality[i:]),
		Consensus: slices.Clone(s.Consensus[i:]), Objective: slices.Clone(s.Objective[i:]), ExtraNames: s.ExtraNames}
	for _, col := range s.Extra {
		t.Extra = append(t.Extra, slices.Clone(col[i:]))
	}
	return t
}

// sameBits reports whether a and b are the same float64, NaN equal to NaN.
func sameBits(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || (math.IsNaN(a) && math.IsNaN(b))
}
