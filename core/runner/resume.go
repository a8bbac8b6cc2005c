package runner

import (
	"encoding/json"
	"fmt"
	"sort"

	"dpsim/core/metrics"
	"dpsim/core/noise"
	"dpsim/core/privacy"
	"dpsim/core/scenario"
	"dpsim/core/sim"
)

// Resume returns a runner for b that continues from checkpoint cp as if
// it had run the cp.Iter iterations before it: the algorithm's state
// variables, the positions of every random source (streams, pinned
// draws, sample cursors) and what the algorithm carries (Carrier) are put
// back, so that every later iteration is bit for bit the uninterrupted
// run's. b must be built from the same scenario as the run that saved cp
// (an export's pinned scenario), freshly, with nothing run.
//
// The resumed runner's metrics start after cp.Iter; SetHistory gives it
// the points and checkpoints the interrupted run recorded up to cp.Iter.
// The ledger needs nothing: every accountant derives it from the
// iteration count and the configuration. Algorithms that do not
// implement sim.Resumable are refused by name.
func Resume(b *scenario.Built, cp Checkpoint, extra ...sim.Recorder) (*Runner, error) {
	res, ok := b.Algorithm.(sim.Resumable)
	if !ok {
		return nil, fmt.Errorf("%s cannot resume from a checkpoint (it does not implement sim.Resumable): run it from the start", b.Factory.Title)
	}
	if cp.Iter < 0 || cp.Iter > b.Scenario.Iterations {
		return nil, fmt.Errorf("the checkpoint is at iteration %d, outside the scenario's 0..%d", cp.Iter, b.Scenario.Iterations)
	}
	if cp.Sources == nil {
		return nil, fmt.Errorf("the checkpoint at iteration %d holds no random-source positions (it was saved by an older dpsim): run the scenario from the start", cp.Iter)
	}
	proto := b.Algorithm.State()
	if len(cp.States) != len(proto) {
		return nil, fmt.Errorf("the checkpoint holds %d state variables; %s has %d", len(cp.States), b.Factory.Title, len(proto))
	}
	vars := make([]sim.Var, len(proto))
	for k, st := range cp.States {
		p := proto[k]
		if st.Name != p.Name {
			return nil, fmt.Errorf("the checkpoint's state variable %d is %q; %s's is %q", k, st.Name, b.Factory.Title, p.Name)
		}
		n := len(p.Data) / p.Dim
		if len(st.Values) != n {
			return nil, fmt.Errorf("the checkpoint's %q has %d rows; the run has %d agents", st.Name, len(st.Values), n)
		}
		data := make([]float64, 0, len(p.Data))
		for i, row := range st.Values {
			if len(row) != p.Dim {
				return nil, fmt.Errorf("the checkpoint's %q row %d has %d entries; the dimension is %d", st.Name, i, len(row), p.Dim)
			}
			data = append(data, row...)
		}
		vars[k] = sim.Var{Name: p.Name, Dim: p.Dim, Data: data}
	}
	if err := res.Resume(cp.Iter, vars); err != nil {
		return nil, err
	}
	if c, ok := b.Algorithm.(Carrier); ok {
		carried := map[string][]float64{}
		for k, v := range cp.Carried {
			carried[k] = v
		}
		if err := c.SetCarried(carried); err != nil {
			return nil, err
		}
	} else if len(cp.Carried) > 0 {
		return nil, fmt.Errorf("the checkpoint carries %v, which %s does not keep", keys(cp.Carried), b.Factory.Title)
	}
	if err := b.Env.Restore(*cp.Sources); err != nil {
		return nil, err
	}
	r := New(b, extra...)
	r.iter, r.started = cp.Iter, true
	// The messages, releases and activations counted so far continue.
	r.restoreCounters(&cp)
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

// SetHistory gives a resumed runner what the run it continues recorded
// up to its checkpoint: the metric points at iterations ≤ Iter() and the
// checkpoints saved up to it, so that its export is the uninterrupted
// run's. Call it before Advance.
func (r *Runner) SetHistory(prior *metrics.Series, saved []Checkpoint) error {
	if r.Metrics.Series.Len() > 0 || len(r.saved) > 0 {
		return fmt.Errorf("the run has recorded already: set its history before it advances")
	}
	s := &r.Metrics.Series
	if prior != nil {
		if len(prior.Extra) != len(s.Extra) {
			return fmt.Errorf("the recorded metrics have %d extra columns; this problem has %d", len(prior.Extra), len(s.Extra))
		}
		for k, it := range prior.Iter {
			if it > r.iter {
				break
			}
			s.Iter = append(s.Iter, it)
			s.Optimality = append(s.Optimality, prior.Optimality[k])
			s.Consensus = append(s.Consensus, prior.Consensus[k])
			s.Objective = append(s.Objective, prior.Objective[k])
			for c := range s.Extra {
				s.Extra[c] = append(s.Extra[c], prior.Extra[c][k])
			}
		}
	}
	for _, cp := range saved {
		if cp.Iter <= r.iter {
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

// Saved is the part of an export that resuming reads back.
type Saved struct {
	Format      string          `json:"format"`
	NoiseStream string          `json:"noise_stream"`
	Status      string          `json:"status"`
	Iter        int             `json:"iterations_run"`
	Scenario    json.RawMessage `json:"scenario"`
	Metrics     *metrics.Series `json:"metrics"`
	States      []Checkpoint    `json:"checkpoints"`
	// Calibration is the calibration of a calibrated run, whose pinned
	// scenario holds the calibrated scales: the resumed run reports it.
	Calibration *privacy.Calibration `json:"calibration"`
}

// ResumeExport returns a runner that continues the run recorded in the
// export data from its checkpoint at iteration from (the last checkpoint
// when from < 0): it builds the export's pinned scenario for place,
// resumes from the checkpoint and takes the export's metrics and
// checkpoints up to it (SetHistory), so that running it to the end
// writes the export of the uninterrupted run. Errors are one line: an
// export of another format or generator, no checkpoint at from, a
// scenario that no longer builds.
func ResumeExport(data []byte, from int, place scenario.Place, extra ...sim.Recorder) (*Runner, error) {
	var e Saved
	if err := json.Unmarshal(data, &e); err != nil {
		return nil, fmt.Errorf("reading the export: %v", err)
	}
	switch {
	case e.Format != FormatVersion:
		return nil, fmt.Errorf("the export's format is %q; this dpsim reads %q", e.Format, FormatVersion)
	case e.NoiseStream != noise.StreamVersion:
		return nil, fmt.Errorf("the export's noise was drawn by %q; this dpsim draws with %q, so the continuation would differ", e.NoiseStream, noise.StreamVersion)
	case len(e.Scenario) == 0 || string(e.Scenario) == "null":
		return nil, fmt.Errorf("the export holds no scenario")
	case len(e.States) == 0:
		return nil, fmt.Errorf("the export holds no checkpoints: record some (record.checkpoints) to resume from")
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
		return nil, fmt.Errorf("the export's scenario: %v", err)
	}
	b, err := scenario.BuildFor(s, place)
	if err != nil {
		return nil, fmt.Errorf("the export's scenario: %v", err)
	}
	// The pinned scenario holds the calibrated scales; the record of how
	// they were found is the export's.
	b.Calibration = e.Calibration
	r, err := Resume(b, e.States[k], extra...)
	if err != nil {
		return nil, err
	}
	if err := r.SetHistory(e.Metrics, e.States); err != nil {
		return nil, err
	}
	return r, nil
}
