package ui

import (
	"errors"
	"fmt"
	"math"
	"time"

	"dpsim/core/privacy"
	"dpsim/core/scenario"
	"dpsim/core/tour"
	"dpsim/ui/query"
)

// RangeBudget bounds the predictions PrivacyRange makes: the accountant
// replays its formula over the horizon (O(agents × iterations)), which a
// run of millions of iterations would make too slow for the page.
const RangeBudget = 300 * time.Millisecond

// RangeDecadesAbove is how far above the scenario's own ε the privacy
// slider reaches, in decades (less noise than the scenario's own), and
// RangeFloorTop the lowest its top end goes: a scenario whose own noise is
// strong can still be turned down to ε = 100.
const (
	RangeDecadesAbove = 1
	RangeFloorTop     = 100
)

// PrivacyRange is what the page's privacy slider spans
// (window.dpsim.privacyRange, docs/url.md): the target ε the scenario's own
// accountant can reach by equal-privacy calibration, and where the run
// stands on that scale.
type PrivacyRange struct {
	// OK is false when the scenario cannot be calibrated (Reason says
	// why: no noise to scale, an accountant that cannot predict ε, no
	// guarantee at all); the slider is then off.
	OK     bool   `json:"ok"`
	Reason string `json:"reason,omitempty"`
	// Min is the smallest ε reachable: the accountant's ε with every noise
	// scale at its largest allowed value (scenario.MaxMagnitude), or
	// query.MinEpsilon. Max is RangeDecadesAbove decades above the
	// scenario's own ε (at least RangeFloorTop), at most query.MaxEpsilon.
	Min float64 `json:"min"`
	Max float64 `json:"max"`
	// Own is the ε the scenario's own noise scales give after Iterations
	// (the accountant's prediction, also when the run is calibrated).
	Own        privacy.Amount `json:"own"`
	Iterations int            `json:"iterations"`
	// Target is the calibration's target ε, 0 when the scenario's own
	// noise runs.
	Target float64 `json:"target"`
	// Delta is the δ of an (ε, δ) guarantee (0 for pure ε-DP), and Notion
	// the ledger's name for the guarantee.
	Delta  float64 `json:"delta"`
	Notion string  `json:"notion"`
	// Floor says why the slider stops at Min when Min is above what the
	// tour calls meaningful privacy (tour.Meaningful): the most noise
	// allowed gives it, and, in the plug-in's words where its accountant
	// says (floorSayer), why no noise goes lower and what would reach
	// meaningful privacy instead. "" otherwise.
	Floor string `json:"floor,omitempty"`
}

// floorSayer is an accountant that says, in its plug-in's words, why
// scaling its noise by up to factor cannot bring ε after iterations
// iterations down to target, and what would (dpp2: Theorem 3 grows like
// r^(−K)); "" when it has nothing to add.
type floorSayer interface {
	CalibrationFloor(iterations int, factor, target float64) string
}

// errRangeSlow is a prediction cut short by RangeBudget.
var errRangeSlow = errors.New("interrupted")

// RangeOf returns what the privacy slider spans for the built scenario b:
// every ε comes from b's own accountant (privacy.Predictor), the same
// predictions a calibration makes, so the slider offers exactly what
// calibration can deliver.
func RangeOf(b *scenario.Built) PrivacyRange {
	led := b.Accountant.Ledger()
	r := PrivacyRange{Notion: led.Notion, Delta: maxDelta(led), Iterations: b.Scenario.Iterations}
	if !Noisy(b.Scenario) {
		r.Reason = "this scenario's messages carry no noise, so no noise can be scaled to a target ε"
		return r
	}
	p, ok := b.Accountant.(privacy.Predictor)
	if !ok {
		r.Reason = b.Factory.Title + "'s accountant cannot predict ε before running, so it cannot be calibrated"
		return r
	}
	// Predictions are relative to the built scales (a calibrated run's
	// are the calibrated ones).
	if c := b.Calibration; c != nil {
		r.Iterations, r.Target = c.Iterations, c.Target
	}
	base := 0.0
	for _, ch := range b.Factory.Channels {
		if sp := b.Env.Noise[ch.Name]; sp != nil {
			for i := range b.Env.Graph.N {
				base = max(base, sp.Base(i))
			}
		}
	}
	if !(base > 0) {
		r.Reason = "this scenario's noise scales are all 0, so no factor can reach a target ε"
		return r
	}
	deadline := time.Now().Add(RangeBudget)
	if in, ok := p.(privacy.Interruptible); ok {
		in.SetCancel(func() bool { return time.Now().After(deadline) })
		defer in.SetCancel(nil)
	}
	var err error
	predict := func(f float64) (privacy.Amount, error) {
		a := p.PredictEpsilon(r.Iterations, f)
		if time.Now().After(deadline) {
			return a, errRangeSlow
		}
		return a, nil
	}
	slow := "the accountant takes too long over this horizon to draw the slider's scale"
	var own privacy.Amount
	if c := b.Calibration; c != nil {
		own = c.Before // what the calibration predicted at the scenario's own scales
	} else if own, err = predict(1); err != nil {
		r.Reason = slow
		return r
	}
	most := scenario.MaxMagnitude / base
	low, err := predict(most)
	if err != nil {
		r.Reason = slow
		return r
	}
	if own.NoGuarantee() || low.NoGuarantee() || !(own.Value() > 0) {
		r.Reason = "the accountant gives no finite ε for this scenario, so no target can be met"
		return r
	}
	r.OK, r.Own = true, own
	r.Min = max(low.Value(), query.MinEpsilon)
	top := math.Pow(10, math.Ceil(own.Log10())+RangeDecadesAbove)
	r.Max = min(max(top, RangeFloorTop), query.MaxEpsilon)
	if !(r.Max > r.Min) {
		// A noise bound so tight that even the largest scale leaves ε
		// above the top: one decade above it, within the URL's bound.
		r.Max = min(10*r.Min, query.MaxEpsilon)
	}
	if !(r.Max > r.Min) {
		r.OK = false
		r.Reason = fmt.Sprintf("even the largest noise scale (%g) leaves ε = %s after %d iterations, above the largest target the page takes (%g)",
			scenario.MaxMagnitude, low, r.Iterations, query.MaxEpsilon)
	}
	if r.OK && r.Min > tour.Meaningful {
		r.Floor = floorWords(b, low, most, r.Iterations)
	}
	return r
}

// floorWords says why the slider's lowest ε is low, the ε of the most
// noise allowed (every scale ×most), and, where the accountant says,
// why no noise goes lower and what reaches meaningful privacy.
func floorWords(b *scenario.Built, low privacy.Amount, most float64, iterations int) string {
	e := numText(low.Value())
	if low.IsInf() || math.IsInf(low.Value(), 1) {
		e = low.String()
	}
	s := fmt.Sprintf("The lowest ε here, %s after %d iterations, is what the most noise allowed gives (every noise scale ×%s: a scale may be at most %s)",
		e, iterations, numText(most), numText(scenario.MaxMagnitude))
	if fs, ok := b.Accountant.(floorSayer); ok {
		if why := fs.CalibrationFloor(iterations, most, tour.Meaningful); why != "" {
			return s + ". " + b.Factory.Title + ", " + why + "."
		}
	}
	return s + fmt.Sprintf(": no calibration of this scenario reaches ε ≤ %g.", tour.Meaningful)
}

// numText writes a number as the page's titles do (10¹², 2·10¹¹).
func numText(f float64) string {
	t, _ := tour.EpsilonText(f)
	return t
}

// maxDelta is the largest δ of the ledger's agents: the δ of its (ε, δ)
// guarantee, 0 for pure ε-DP.
func maxDelta(led privacy.Ledger) float64 {
	d := 0.0
	for _, e := range led.Agents {
		d = max(d, e.Delta)
	}
	return d
}
