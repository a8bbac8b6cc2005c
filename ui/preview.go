package ui

import (
	"math"
	"time"

	"dpsim/core/method"
	"dpsim/core/privacy"
	"dpsim/core/runner"
	"dpsim/core/scenario"
)

// LargeFactor is the noise multiplication beyond which the page asks
// before it calibrates: a hundredfold noise usually swamps the signal.
const LargeFactor = 100

// TrialIterations and TrialBudget bound the short trial runs a preview
// makes to predict the calibrated run's error: enough iterations to
// leave the initial transient on the presets, little enough to answer
// within a frame or two.
const (
	TrialIterations = 200
	TrialBudget     = 150 * time.Millisecond
)

// CalibrationPreview is what calibrating to a target ε would do, shown
// before it is done: the factor, the noise scales before and after, and
// the error of a short trial run with and without the change.
type CalibrationPreview struct {
	Target float64 `json:"target_epsilon"`
	// Factor multiplies every noise scale; Large is Factor > LargeFactor
	// (or Factor < 1/LargeFactor: the noise almost vanishes, which is
	// worth a word too, but no question).
	Factor float64 `json:"factor"`
	Large  bool    `json:"large"`
	// Before and After are the accountant's predicted ε at the current
	// and at the calibrated scales, after Iterations.
	Before     privacy.Amount         `json:"epsilon_before"`
	After      privacy.Amount         `json:"epsilon_after"`
	Iterations int                    `json:"iterations"`
	Channels   []privacy.ChannelScale `json:"channels"`
	Predicted  *method.PredictedError `json:"predicted_error,omitempty"`
	Trial      Trial                  `json:"trial"`
}

// Trial is the optimality (or stationarity) error of two short runs of
// the same scenario and seed, at the same iteration: Now at the current
// noise scales, Then at the calibrated ones; Iter is where both stopped
// (0 when no trial ran).
type Trial struct {
	Iter int     `json:"iteration"`
	Now  float64 `json:"now"`
	Then float64 `json:"then"`
}

// PreviewCalibration says what calibrating s (as the page runs it, with
// its seed applied) to ε = eps would do, without doing it.
func PreviewCalibration(s *scenario.Scenario, eps float64) (CalibrationPreview, error) {
	cur := *s
	cur.Calibrate = nil
	cal := *s
	cal.Calibrate = &scenario.Calibrate{Epsilon: eps}
	b, err := scenario.BuildFor(&cal, scenario.Page)
	if err != nil {
		return CalibrationPreview{}, err
	}
	p := CalibrationPreview{Target: eps}
	if c := b.Calibration; c != nil {
		p.Factor, p.Before, p.After, p.Iterations, p.Channels = c.Factor, c.Before, c.After, c.Iterations, c.Channels
	}
	p.Large = p.Factor > LargeFactor
	if b.Theory != nil && b.Theory.Error != nil && b.Theory.Error.Available {
		p.Predicted = b.Theory.Error
	}
	b0, err := scenario.BuildFor(&cur, scenario.Page)
	if err != nil {
		return p, nil // the trial is a bonus: the factor is known
	}
	n := min(TrialIterations, s.Iterations)
	deadline := time.Now().Add(TrialBudget)
	r0, r1 := runner.New(b0), runner.New(b)
	r0.Start()
	r1.Start()
	for r0.Iter() < n && time.Now().Before(deadline) {
		if _, err := r0.Advance(); err != nil {
			break
		}
		if _, err := r1.Advance(); err != nil {
			break
		}
	}
	p.Trial = Trial{Iter: min(r0.Iter(), r1.Iter()), Now: headlineOf(r0), Then: headlineOf(r1)}
	if r1.Err() != nil {
		p.Trial.Then = math.Inf(1) // diverged: worse than any number
	}
	return p, nil
}

// headlineOf returns the run's latest optimality, or its stationarity
// for a problem without a known optimum.
func headlineOf(r *runner.Runner) float64 {
	last := r.Metrics.Latest()
	if !math.IsNaN(last.Optimality) {
		return last.Optimality
	}
	l := NewLive(r.Built(), 1)
	l.bind(&r.Metrics.Series)
	return l.Stationarity(last)
}
