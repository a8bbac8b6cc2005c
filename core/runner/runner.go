// Package runner runs a built scenario: it advances the algorithm, feeds
// every step to the recorders (metrics, privacy ledger, checkpoints and
// any the caller adds, such as the renderer), stops a diverging run with a
// message that says so, and writes the run export.
package runner

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"dpsim/core/check"
	"dpsim/core/jsonout"
	"dpsim/core/method"
	"dpsim/core/metrics"
	"dpsim/core/noise"
	"dpsim/core/privacy"
	"dpsim/core/scenario"
	"dpsim/core/sim"
	"dpsim/core/weights"
)

// ErrDone is returned by Advance once every planned iteration has run.
var ErrDone = errors.New("the run is complete")

// Diverged is the error of a run whose estimates left the finite range.
type Diverged struct {
	Iter int
	// Agent is the agent whose estimate diverged; -1 for the shared
	// estimate (sim.Step.Output).
	Agent int
	Value float64
	Hint  string
	// Growth reports a divergence decided by growth (see Growth) rather
	// than by Limit: the largest estimate was From at iteration FromIter.
	Growth   bool
	From     float64
	FromIter int
}

// Error implements error: where the run diverged, and the likely cause.
func (d *Diverged) Error() string {
	if d.Growth {
		who := fmt.Sprintf("agent %d's estimate", d.Agent)
		if d.Agent < 0 {
			who = "the shared estimate"
		}
		// The rule measures growth from max(M_j, 1): "1e+20 times 0" would be false.
		from := fmt.Sprintf("the largest estimate at iteration %d (%.3g)", d.FromIter, d.From)
		if !(d.From >= 1) {
			from = fmt.Sprintf("1 (the largest estimate at iteration %d was %.3g; growth is measured from at least 1)", d.FromIter, d.From)
		}
		return fmt.Sprintf("the run diverged at iteration %d: %s reached %.3g, more than %.0e times %s, a growth no converging run shows (runner.Growth); %s",
			d.Iter, who, d.Value, Growth, from, d.Hint)
	}
	if d.Agent < 0 {
		return fmt.Sprintf("the run diverged at iteration %d: the shared estimate reached %v; %s", d.Iter, d.Value, d.Hint)
	}
	return fmt.Sprintf("the run diverged at iteration %d: agent %d's estimate reached %v; %s", d.Iter, d.Agent, d.Value, d.Hint)
}

// Limit is the magnitude beyond which an estimate counts as diverged:
// far beyond any scenario's data, and well before float64 overflows.
const Limit = 1e150

// Growth and Window decide divergence by growth, long before Limit: a run
// diverges at iteration k when its largest estimate magnitude M_k is at
// least Growth·max(M_j, 1), j = max(k−Window, first iteration). Such an
// M_k is at least 1e20, 10^8 times the bound on every input a scenario may
// give (data, initial states and noise scales, scenario.MaxMagnitude), and
// it grew by 10^20 in at most Window iterations (10^0.1 a step on
// average). A converging run stays within a modest multiple of its inputs,
// so it never meets the rule (every preset is checked by
// TestGrowthRuleSparesPresets); a run growing by 10^21 per 100 iterations
// meets it before iteration 200 instead of running on, "completed",
// until it reaches Limit.
const (
	Growth = 1e20
	Window = 200
)

// Checkpoint is the full state of every agent at one iteration.
type Checkpoint struct {
	Iter   int     `json:"iteration"`
	States []State `json:"states"`
	// Sources is where every random source of the run stood (the
	// registered streams, pinned draws consumed, sample cursors), so that
	// Resume continues with the same draws.
	Sources *method.Positions `json:"sources,omitempty"`
	// Carried holds what a resumable algorithm keeps of the run beyond
	// its state variables (GT-DP's largest gradient norm seen), by name.
	Carried map[string]metrics.Floats `json:"carried,omitempty"`
	// Communication holds the counters (messages, releases, activations
	// per agent) at the checkpoint, so that a resumed run continues them.
	Communication *metrics.Counters `json:"communication,omitempty" jsonstrict:"allkeys"`
	// Peaks is the largest estimate magnitude at each of the last
	// min(Iter+1, Window) iterations, oldest first: the growth rule's
	// window (Growth), so that a resumed run stops as diverged where the
	// uninterrupted run does.
	Peaks metrics.Floats `json:"peaks"`
}

// Carrier is implemented by resumable algorithms that keep quantities of
// the run beyond their state variables which their ledger or theory
// reads (GT-DP's largest gradient norm seen): checkpoints save them and
// Resume puts them back, so a resumed run's ledger is the uninterrupted
// run's.
type Carrier interface {
	Carried() map[string][]float64
	SetCarried(map[string][]float64) error
}

// State is one state variable, one row per agent (one row for a shared
// variable, method.Factory.Shared); non-finite values are
// written as null, so a checkpoint always encodes.
type State struct {
	Name   string           `json:"name"`
	Values []metrics.Floats `json:"values"`
}

// Runner runs one built scenario.
type Runner struct {
	b         *scenario.Built
	alg       sim.Algorithm
	Metrics   *metrics.Recorder
	recorders []sim.Recorder
	iter      int
	err       error
	points    map[int]bool
	saved     []Checkpoint
	started   bool
	// counters count messages, releases and activations; the metrics
	// read them at every recorded point.
	counters *metrics.Counters
	// stopped is why a stop rule ended the run, "" while it has not.
	stopped string
	// interrupted is set by Interrupt: the user stopped the run.
	interrupted bool
	// peaks holds the largest estimate magnitude of the last Window+1
	// steps (index iteration mod Window+1), and peakFrom the first
	// iteration it holds, for the growth rule (Growth).
	peaks    [Window + 1]float64
	peakFrom int
	peakSeen bool
	// sorted and rels hold a step whose releases the algorithm listed
	// out of round order, reordered for the recorders.
	sorted sim.Step
	rels   []sim.Release
	// tight keeps the tight bound beside the ledger (TrackTight).
	tight *privacy.TightAccount
	// tightOff says why the run keeps no tight bound (TrackTightUnless).
	tightOff string
	// eps is every agent's ε at each recorded point (TrackEpsilon).
	eps epsTrace
	// expect is what the export a resumed run continues holds after its
	// checkpoint, which the run must record again (ResumeExport).
	expect *continuation
}

// New returns a runner for b, at iteration 0. Extra recorders see every
// step after the runner's own.
func New(b *scenario.Built, extra ...sim.Recorder) *Runner {
	s := b.Scenario
	counters := metrics.NewCounters(b.Env.Problem.Agents())
	r := &Runner{
		b:   b,
		alg: b.Algorithm,
		Metrics: metrics.NewRecorderWith(b.Env.Problem, metrics.Options{Every: s.Record.Every,
			EvalEvery: s.Record.EvalEvery, Last: s.Iterations, Counters: counters, Pool: b.Env.Pool}),
		points:   map[int]bool{},
		counters: counters,
	}
	for _, k := range s.Record.Checkpoints {
		r.points[k] = true
	}
	r.recorders = append([]sim.Recorder{r.Metrics, b.Accountant}, extra...)
	return r
}

// SetWorkers sets how many goroutines run the agents' work of an
// iteration (pool.Auto: every core once an iteration is long enough to
// gain, else one). The export is the same bytes for every count: the
// workers are no part of the scenario. A scenario builds with one; a
// Built whose Env has no pool stays on one goroutine.
func (r *Runner) SetWorkers(workers int) {
	if p := r.b.Env.Pool; p != nil {
		p.Set(workers)
	}
}

// Start records the initial state (iteration 0). Advance calls it if
// needed.
func (r *Runner) Start() {
	if r.started {
		return
	}
	r.started = true
	st := r.alg.Initial()
	peak, agent := peakOf(st)
	r.growth(st.Iter, peak, agent)
	r.record(st)
}

// peakOf returns st's largest estimate magnitude and whose it is (−1 for
// the shared estimate), for the growth rule of the initial step.
func peakOf(st *sim.Step) (peak float64, agent int) {
	for idx, v := range st.Estimates {
		if a := math.Abs(v); a > peak {
			peak, agent = a, idx/max(st.Dim, 1)
		}
	}
	for _, v := range st.Output {
		if a := math.Abs(v); a > peak {
			peak, agent = a, -1
		}
	}
	return peak, agent
}

// growth records iteration k's largest estimate magnitude peak (agent's;
// −1 for the shared estimate) and returns a *Diverged when the growth
// rule (Growth) says the run diverges; the values are finite and within
// Limit (Advance checked them in the same pass).
func (r *Runner) growth(k int, peak float64, agent int) *Diverged {
	if !r.peakSeen {
		r.peakSeen, r.peakFrom = true, k
	}
	r.peaks[k%(Window+1)] = peak
	j := max(k-Window, r.peakFrom)
	if from := r.peaks[j%(Window+1)]; peak >= Growth*max(from, 1) {
		return &Diverged{Iter: k, Agent: agent, Value: peak, Hint: r.hint(), Growth: true, From: from, FromIter: j}
	}
	return nil
}

// record counts st, then hands it to every recorder with its releases in
// round order.
func (r *Runner) record(st *sim.Step) *sim.Step {
	r.counters.Add(st)
	if st.Iter > 0 {
		r.checkStop()
	}
	st = r.inRoundOrder(st)
	kept := r.Metrics.Series.Len()
	for _, rec := range r.recorders {
		rec.Record(st)
	}
	if (len(r.points) > 0 && r.points[st.Iter]) || r.stopped != "" { // no map lookup per step without checkpoints
		// A run a stop rule ended saves its last state too, so that it
		// can be resumed (or continued with a larger limit).
		r.checkpoint(st.Iter)
	}
	if r.eps.on && r.Metrics.Series.Len() > kept {
		r.trackEpsilon() // the metrics kept this step: so does the ε trace
	}
	if r.expect != nil && r.err == nil {
		r.err = r.expect.check(r, st.Iter, r.Metrics.Series.Len() > kept)
	}
	return st
}

// inRoundOrder returns st, or, when its releases are not listed round by
// round, a copy whose releases are (stably sorted by Round; the
// algorithm's own slice is left alone), so every recorder sees round 0
// before round 1.
func (r *Runner) inRoundOrder(st *sim.Step) *sim.Step {
	if st.InRoundOrder() {
		return st
	}
	r.sorted = *st
	r.rels = append(r.rels[:0], st.Releases...)
	slices.SortStableFunc(r.rels, func(a, b sim.Release) int { return cmp.Compare(a.Round, b.Round) })
	r.sorted.Releases = r.rels
	return &r.sorted
}

func (r *Runner) checkpoint(k int) {
	cp := Checkpoint{Iter: k, Communication: r.counters.Clone()}
	for _, v := range r.alg.State() {
		n := len(v.Data) / v.Dim
		rows := make([]metrics.Floats, n)
		for i := range rows {
			rows[i] = v.Data[i*v.Dim : (i+1)*v.Dim]
		}
		cp.States = append(cp.States, State{Name: v.Name, Values: rows})
	}
	pos := r.b.Env.Positions()
	cp.Sources = &pos
	// Every growth decision after k compares with a peak of these.
	from := max(r.peakFrom, k+1-Window)
	cp.Peaks = make(metrics.Floats, 0, k+1-from)
	for it := from; it <= k; it++ {
		cp.Peaks = append(cp.Peaks, r.peaks[it%(Window+1)])
	}
	if c, ok := r.alg.(Carrier); ok {
		cp.Carried = map[string]metrics.Floats{}
		for k, v := range c.Carried() {
			cp.Carried[k] = v
		}
	}
	r.saved = append(r.saved, cp)
}

// Advance runs one iteration and returns its step. It returns ErrDone
// after the last iteration or once a stop rule ended the run (Stopped),
// and a *Diverged error (every later call too) when an estimate stops
// being finite or exceeds Limit.
func (r *Runner) Advance() (*sim.Step, error) {
	r.Start()
	if r.err != nil {
		return nil, r.err
	}
	if r.Done() {
		return nil, ErrDone
	}
	st := r.alg.Advance()
	r.iter = st.Iter
	// One pass: the magnitude check (one comparison per value: NaN and
	// ±Inf fail it too) and the peak the growth rule needs.
	peak, at := 0.0, 0
	for idx, v := range st.Estimates {
		a := math.Abs(v)
		if !(a <= Limit) {
			return nil, r.fail(&Diverged{Iter: st.Iter, Agent: idx / st.Dim, Value: v, Hint: r.hint()})
		}
		if a > peak {
			peak, at = a, idx
		}
	}
	agent := at / max(st.Dim, 1)
	for _, v := range st.Output {
		a := math.Abs(v)
		if !(a <= Limit) {
			// The shared estimate belongs to no agent: -1 says so.
			return nil, r.fail(&Diverged{Iter: st.Iter, Agent: -1, Value: v, Hint: r.hint()})
		}
		if a > peak {
			peak, agent = a, -1
		}
	}
	if d := r.growth(st.Iter, peak, agent); d != nil {
		return nil, r.fail(d)
	}
	if st.Active != nil {
		// Only active agents compute and speak: a release from another
		// would escape the activation counters and the stop rules.
		for i := range st.Releases {
			if rel := &st.Releases[i]; !st.IsActive(rel.From) {
				return nil, r.fail(fmt.Errorf("%s broke the step contract at iteration %d: agent %d released on channel %q but was not active (sim.Step.Active lists %v)",
					r.alg.Name(), st.Iter, rel.From, rel.Channel, st.Active))
			}
		}
	}
	st = r.record(st)
	if r.err != nil {
		return nil, r.err // a resumed run that disagrees with its export
	}
	return st, nil
}

// fail ends the run at its current iteration with err — unless the run
// was resumed from an export that says it went on (or ended otherwise):
// then the export was edited, and the error says so (Mismatch).
func (r *Runner) fail(err error) error {
	r.err = err
	if r.expect != nil {
		if m := r.expect.ended(r.iter, err); m != nil {
			r.err = m
		}
	}
	return r.err
}

// checkStop ends the run when the scenario's stop rule is met before
// the last planned iteration; the metrics then record (and evaluate) the
// step as their last.
func (r *Runner) checkStop() {
	if r.iter >= r.b.Scenario.Iterations {
		return
	}
	if r.stopped = stopReason(r.b.Scenario.Stop, r.counters, r.iter); r.stopped != "" {
		r.Metrics.EndAt(r.iter)
	}
}

// stopReason says why rule ends a run whose counters are c after
// iteration iter, or "" when it does not.
func stopReason(rule *scenario.Stop, c *metrics.Counters, iter int) string {
	if rule == nil {
		return ""
	}
	if rule.MaxActivations > 0 {
		if a, n := c.MaxActivations(); n >= rule.MaxActivations {
			return fmt.Sprintf("stop.max_activations: agent %d was active %d times (the limit is %d) after iteration %d", a, n, rule.MaxActivations, iter)
		}
	}
	if rule.MaxMessages > 0 && c.Messages >= rule.MaxMessages {
		return fmt.Sprintf("stop.max_messages: %d messages were sent (the budget is %d) after iteration %d", c.Messages, rule.MaxMessages, iter)
	}
	return ""
}

// Interrupt marks the run as interrupted by its user: its export, if
// written before the run completes, says "partial": true, and holds a
// checkpoint at the iteration reached (the initial state is recorded
// first if the run had not started), from which ResumeExport continues
// it bit for bit. It reports whether it did: not when the run has ended
// (completed, stopped, diverged) or its algorithm cannot resume
// (sim.Resumable).
func (r *Runner) Interrupt() (checkpoint bool) {
	r.interrupted = true
	if r.err != nil || r.Done() {
		return false
	}
	if _, ok := r.alg.(sim.Resumable); !ok {
		return false
	}
	r.Start()
	if n := len(r.saved); n == 0 || r.saved[n-1].Iter != r.iter {
		r.checkpoint(r.iter)
	}
	return true
}

// Stopped returns why a stop rule ended the run, or "" when none did.
func (r *Runner) Stopped() string { return r.stopped }

// Counters returns the run's communication counters so far, synced (the
// runner's own; do not modify them).
func (r *Runner) Counters() *metrics.Counters {
	r.counters.Sync()
	return r.counters
}

// restoreCounters puts the counters back at a checkpoint's, for a resumed
// run; Resume has checked them (checkCheckpoint).
func (r *Runner) restoreCounters(cp *Checkpoint) {
	*r.counters = *cp.Communication.Clone()
}

// hint explains a divergence. Data, initial states and noise scales are
// bounded at validation (scenario.MaxMagnitude), so they cannot overflow
// by themselves: what is left is growing noise or an unstable iteration.
func (r *Runner) hint() string {
	for _, name := range r.b.Factory.Channels {
		if spec := r.b.Env.Noise[name.Name]; spec != nil && !spec.IsOff() && spec.Grows() {
			key, text := spec.DecayKey()
			return fmt.Sprintf("the noise grows with k (noise.%s.%s = %s): make it decay", name.Name, key, text)
		}
	}
	return "the iteration is unstable for these parameters (the data, initial states and noise scales are within their bounds, so they did not overflow by themselves): lower the step size in algorithm.params, or check the weight matrix"
}

// Run runs every remaining iteration. It returns nil when the run
// completes and the *Diverged error when it stops early.
func (r *Runner) Run() error {
	for {
		if _, err := r.Advance(); err != nil {
			if errors.Is(err, ErrDone) {
				return nil
			}
			return err
		}
	}
}

// Iter returns the number of iterations run.
func (r *Runner) Iter() int { return r.iter }

// Err returns the error that stopped the run, if any.
func (r *Runner) Err() error { return r.err }

// Done reports whether every planned iteration has run, or a stop rule
// ended the run.
func (r *Runner) Done() bool { return r.iter >= r.b.Scenario.Iterations || r.stopped != "" }

// Built returns the scenario the runner runs.
func (r *Runner) Built() *scenario.Built { return r.b }

// Ledger returns the privacy ledger so far, with the calibration that set
// its noise scales, if any, and the tight bound when TrackTight asked for
// it.
func (r *Runner) Ledger() privacy.Ledger { return r.ledger(0) }

// ledger is Ledger with a tight bound up to age iterations old
// (LiveLedger).
func (r *Runner) ledger(age int) privacy.Ledger {
	l := r.b.Accountant.Ledger()
	if c := r.b.Calibration; c != nil {
		l.Calibration = c
		l.Notes = append(l.Notes, "calibrated: "+c.String())
	}
	if r.tight != nil {
		l.Tight = r.tight.At(&l, age)
	} else if r.tightOff != "" {
		l.Tight = &privacy.TightLedger{Iterations: l.Iterations, Max: privacy.Infinite(), Reason: r.tightOff}
	}
	return l
}

// SteadyState is the measured error set beside the theory's prediction:
// the mean of the optimality metric over the last quarter of the
// recorded iterations (at least the last point).
type SteadyState struct {
	// Metric says what Measured averages: the problem's optimality metric
	// in symbols (metrics.Labels), e.g. (1/n)·Σ_i ‖x_i − x*‖² or, for a
	// resource allocation, ‖w − w*‖².
	Metric string `json:"metric"`
	// From is the first iteration averaged.
	From int `json:"from_iteration"`
	// Measured is the mean of the optimality metric over the tail; NaN
	// (null in JSON) when the problem has no known optimum.
	Measured float64 `json:"measured"`
	// Predicted is the theory's bound on the same scale, when it gives
	// one (PredictedError.PerAgent); NaN otherwise (null in JSON).
	Predicted metrics.Floats `json:"predicted"`
}

// steadyJSON is SteadyState's JSON form: Measured is null when it is NaN
// (a problem without a known optimum), and a finite value encodes as a
// float64 always did.
type steadyJSON struct {
	From      int            `json:"from_iteration"`
	Measured  metrics.Float  `json:"measured"`
	Predicted metrics.Floats `json:"predicted"`
}

// MarshalJSON implements json.Marshaler.
func (s SteadyState) MarshalJSON() ([]byte, error) {
	return jsonout.Marshal(steadyJSON{s.From, metrics.Float(s.Measured), s.Predicted})
}

// UnmarshalJSON implements json.Unmarshaler (null reads back as NaN).
func (s *SteadyState) UnmarshalJSON(b []byte) error {
	var j steadyJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return err
	}
	*s = SteadyState{From: j.From, Measured: float64(j.Measured), Predicted: j.Predicted}
	return nil
}

// SteadyState returns the measured tail error and the prediction.
func (r *Runner) SteadyState() SteadyState {
	ser := &r.Metrics.Series
	st := SteadyState{Measured: math.NaN(), Predicted: metrics.Floats{math.NaN()}}
	st.Metric, _ = metrics.Labels(r.b.Env.Problem)
	if pe := r.b.Theory; pe != nil && pe.Error != nil && pe.Error.Available {
		st.Predicted[0] = pe.Error.PerAgent
	}
	n := ser.Len()
	if n == 0 {
		return st
	}
	lo := n - max(n/4, 1)
	sum, i := 0.0, 0
	// One pass over the column (spilled points are read back a chunk at a
	// time, not point by point).
	err := ser.EachValue(1, func(v float64) error {
		if i >= lo {
			sum += v
		}
		i++
		return nil
	})
	if err != nil {
		return st // the spill file failed: nothing measured
	}
	st.From = ser.At(lo).Iter
	st.Measured = sum / float64(n-lo)
	return st
}

// Export is the record of a run, as the CLI and the page write it.
type Export struct {
	Format string `json:"format"`
	// NoiseStream names the generator and sampler that drew the noise
	// (noise.StreamVersion): an export made by another version replays
	// with other draws.
	NoiseStream string `json:"noise_stream"`
	// Status is "completed", "stopped" (a stop rule ended the run; see
	// StopReason), "diverged", "failed" (the algorithm broke the step
	// contract, e.g. an inactive agent released) or "paused".
	Status string `json:"status"`
	// StopReason says which stop rule ended the run, and when.
	StopReason string `json:"stop_reason,omitempty"`
	// Partial marks the export of a run that was interrupted (Ctrl-C, a
	// signal) before its planned iterations: what it holds is correct but
	// incomplete, and `dpsim run --resume` continues it from a checkpoint.
	Partial  bool               `json:"partial,omitempty"`
	Error    string             `json:"error,omitempty"`
	Iter     int                `json:"iterations_run"`
	Scenario *scenario.Scenario `json:"scenario"`
	Warnings []check.Warning    `json:"warnings"`
	Findings []weights.Finding  `json:"weight_findings"`
	// RoleFindings holds the findings of every weight matrix by role, for
	// algorithms that mix with several (then Findings repeats the first
	// role's).
	RoleFindings map[string][]weights.Finding `json:"weight_findings_by_role,omitempty"`
	Optimum      []float64                    `json:"optimum,omitempty"`
	Metrics      *metrics.Series              `json:"metrics"`
	Ledger       privacy.Ledger               `json:"privacy"`
	States       []Checkpoint                 `json:"checkpoints"`
	// Theory is what the algorithm's source proves about this
	// configuration (predicted error, infinite-horizon budget).
	Theory *method.Theory `json:"theory,omitempty"`
	// Steady is the measured tail error beside the predicted one.
	Steady SteadyState `json:"steady_state"`
	// Calibration records the equal-privacy calibration, if any.
	Calibration *privacy.Calibration `json:"calibration,omitempty"`
	// Communication holds the run's counters: per-link messages,
	// releases and every agent's activations.
	Communication *metrics.Counters `json:"communication"`
	// MetricLabels says what the metrics are (metrics.Describe), and why
	// one is missing, such as ‖x − x*‖ for a problem without an optimum.
	MetricLabels metrics.Description `json:"metric_labels"`
}

// WriteExport streams the run's export as indented JSON: exactly the
// bytes of jsonout.MarshalIndent(r.Export(), "", " ") and a newline, but the
// metrics are written column by column (read back from disk when they
// were spilled) and the checkpoints one at a time, so a long run's or a
// large network's export never has to fit in memory as text: the peak is
// the text of one checkpoint (scenario.EstimateOf counts it). The page and
// the CLI both write exports with it.
func (r *Runner) WriteExport(w io.Writer) error { return r.Export().Write(w, nil) }

// Snapshot returns the run's export as it stands: unlike Export's, its
// metrics are a snapshot (metrics.Series.Snapshot) that the run going on
// does not change, so it can be written a chunk at a time while the run
// advances (the page's streamed Export JSON).
func (r *Runner) Snapshot() *Export {
	e := r.Export()
	e.Metrics = r.Metrics.Series.Snapshot()
	// Checkpoints are only ever appended: the slice as it is now is fixed.
	e.States = e.States[:len(e.States):len(e.States)]
	return e
}

// Progress is told how much of an export is written: done of total
// units (one per metric value and per checkpoint value).
type Progress func(done, total int64)

// Write streams e as indented JSON, as WriteExport describes; progress,
// if not nil, is called after every metric column and every checkpoint.
// It leaves e as it was.
func (e *Export) Write(w io.Writer, progress Progress) error {
	c := *e
	series, states := c.Metrics, c.States
	c.Metrics, c.States = nil, nil
	var done, total int64
	if progress != nil {
		total = int64(series.Len()) * int64(len(series.Names())+1)
		for k := range states {
			total += checkpointSize(&states[k])
		}
		progress(0, total)
	}
	js, err := jsonout.MarshalIndent(&c, "", " ")
	if err != nil {
		return fmt.Errorf("encoding the export: %w", err)
	}
	// A JSON string never holds a raw newline, so these find the fields;
	// "metrics" comes before "checkpoints" in Export.
	const markM, markC = "\n \"metrics\": null", "\n \"checkpoints\": null"
	i, j := bytes.Index(js, []byte(markM)), bytes.Index(js, []byte(markC))
	if i < 0 || j < i {
		return errors.New("encoding the export: no metrics or checkpoints field")
	}
	if _, err := w.Write(js[:i+len(markM)-len("null")]); err != nil {
		return err
	}
	if err := series.WriteJSON(w, " ", " "); err != nil {
		return err
	}
	if progress != nil {
		done = int64(series.Len()) * int64(len(series.Names())+1)
		progress(done, total)
	}
	if _, err := w.Write(js[i+len(markM) : j+len(markC)-len("null")]); err != nil {
		return err
	}
	if err := writeCheckpoints(w, states, func(k int) {
		if progress != nil {
			done += checkpointSize(&states[k])
			progress(done, total)
		}
	}); err != nil {
		return err
	}
	if _, err := w.Write(js[j+len(markC):]); err != nil {
		return err
	}
	_, err = w.Write([]byte{'\n'})
	return err
}

// writeCheckpoints writes cps as the value of the export's top-level
// "checkpoints" field in MarshalIndent's layout, one checkpoint at a time.
func writeCheckpoints(w io.Writer, cps []Checkpoint, written func(k int)) error {
	if len(cps) == 0 {
		_, err := io.WriteString(w, "[]")
		return err
	}
	if _, err := io.WriteString(w, "["); err != nil {
		return err
	}
	for k := range cps {
		js, err := jsonout.MarshalIndent(&cps[k], "  ", " ")
		if err != nil {
			return fmt.Errorf("encoding checkpoint %d: %w", k, err)
		}
		sep := ",\n  "
		if k == 0 {
			sep = "\n  "
		}
		if _, err := io.WriteString(w, sep); err != nil {
			return err
		}
		if _, err := w.Write(js); err != nil {
			return err
		}
		written(k)
	}
	_, err := io.WriteString(w, "\n ]")
	return err
}

// checkpointSize counts cp's state values, a checkpoint's share of an
// export's progress (at least 1).
func checkpointSize(cp *Checkpoint) int64 {
	n := int64(1)
	for _, st := range cp.States {
		for _, row := range st.Values {
			n += int64(len(row))
		}
	}
	return n
}

// status says how the run stands: "completed", "stopped", "diverged",
// "failed" or "paused".
func (r *Runner) status() string {
	switch {
	case r.err != nil:
		if d := (*Diverged)(nil); !errors.As(r.err, &d) {
			return "failed" // the algorithm broke the step contract
		}
		return "diverged"
	case r.stopped != "":
		return "stopped"
	case r.Done():
		return "completed"
	}
	return "paused"
}

// pins returns the replay arrays the export of a run in status writes
// (record.replay): none while it is paused, when it resumes from its
// seeds (the arrays of what it has not drawn yet cannot be written).
func (r *Runner) pins(status string) (method.Pins, bool) {
	if !r.b.Replay || status == "paused" {
		return method.Pins{}, false
	}
	return r.b.Env.Pins(r.b.Factory.Draws), true
}

// scenario returns the export's scenario: the pinned scenario, with the
// replay arrays once the run has ended (record.replay).
func (r *Runner) scenario() *scenario.Scenario {
	if pins, ok := r.pins(r.status()); ok {
		return r.b.PinnedReplay(pins)
	}
	return r.b.Pinned()
}

// FormatVersion names the export format.
const FormatVersion = "dpsim-run/1"

// Export returns the run's record: the scenario with every random choice
// pinned, the metrics, the privacy ledger and the checkpoints.
func (r *Runner) Export() *Export {
	status := r.status()
	scen, states := r.b.Pinned(), r.saved
	if pins, ok := r.pins(status); ok {
		scen = r.b.PinnedReplay(pins)
		states = make([]Checkpoint, len(r.saved))
		for k, cp := range r.saved {
			pos := r.b.Env.AsPinned(*cp.Sources, pins)
			cp.Sources = &pos
			states[k] = cp
		}
	}
	e := &Export{
		Format:      FormatVersion,
		NoiseStream: noise.StreamVersion,
		Status:      status,
		Iter:        r.iter,
		Scenario:    scen,
		Warnings:    r.b.Warnings,
		Findings:    r.b.Env.Report.Findings,
		Optimum:     r.b.Env.Problem.Optimum(),
		Metrics:     &r.Metrics.Series,
		Ledger:      r.Ledger(),
		States:      states,
		Theory:      r.b.Theory,
		Steady:      r.SteadyState(),
		Calibration: r.b.Calibration,
		StopReason:  r.stopped,
		Partial:     r.interrupted && r.err == nil && r.stopped == "" && !r.Done(),
		// A copy: the export must not change as the run goes on.
		Communication: r.counters.Clone(),
		MetricLabels:  metrics.Describe(r.b.Env.Problem, r.b.Factory.Output != ""),
	}
	if rs := r.b.Env.Reports; rs != nil {
		e.RoleFindings = map[string][]weights.Finding{}
		for role, rep := range rs {
			e.RoleFindings[role] = rep.Findings
		}
	}
	if e.Warnings == nil {
		e.Warnings = []check.Warning{}
	}
	if e.States == nil {
		e.States = []Checkpoint{}
	}
	if r.err != nil {
		e.Error = r.err.Error()
	}
	return e
}
