package ui

import (
	"encoding/json"
	"math"

	"dpsim/core/eavesdrop"
)

// EavesdropWindow is how many recent iterations the page's eavesdropper
// panel keeps.
const EavesdropWindow = 64

// EavesdropView is what dpsim.eavesdropView() returns to the page
// (docs/bridge.md): the tapped agent's recent frames and what the
// listener knows, with the agent count so the panel can offer a choice.
type EavesdropView struct {
	eavesdrop.Report
	Agents int `json:"agents"`
	// Dim is the length of the agent's vectors.
	Dim int `json:"dim"`
}

// EavesdropJSON returns the view of rec (nil: the tap is off) as JSON; a
// non-finite number (an overflowed run) is written as null, since JSON
// has no Inf.
func EavesdropJSON(rec *eavesdrop.Recorder, alg string, agents, dim int) ([]byte, error) {
	if rec == nil {
		return []byte("null"), nil
	}
	v := EavesdropView{Report: rec.Report(alg), Agents: agents, Dim: dim}
	b, err := json.Marshal(v)
	if err == nil {
		return b, nil
	}
	// Non-finite values (JSON has no Inf): replace them in the recorder's
	// own copies, which only this view reads, and try again.
	v.Frames = append([]eavesdrop.Frame(nil), v.Frames...)
	for i := range v.Frames {
		f := &v.Frames[i]
		for _, xs := range [][]float64{f.X, f.Grad, f.XHat, f.GradHat, f.NoiseX, f.NoiseGrad} {
			finite(xs)
		}
		for _, ms := range [][]eavesdrop.Message{f.Sent, f.Received} {
			for _, m := range ms {
				finite(m.Sent)
				finite(m.Noise)
			}
		}
		for _, p := range []*float64{&f.ResidualX, &f.ResidualGrad, &f.ShieldX, &f.ShieldGrad} {
			if math.IsNaN(*p) || math.IsInf(*p, 0) {
				*p = -1
			}
		}
	}
	return json.Marshal(v)
}

// finite replaces NaN and ±Inf in xs by ±1e308 (NaN by 0), in place.
func finite(xs []float64) {
	for k, x := range xs {
		switch {
		case math.IsNaN(x):
			xs[k] = 0
		case math.IsInf(x, 1):
			xs[k] = math.MaxFloat64
		case math.IsInf(x, -1):
			xs[k] = -math.MaxFloat64
		}
	}
}
