package method

import (
	"dpsim/core/check"
	"dpsim/core/noise"
	"dpsim/core/privacy"
)

// Target is a privacy target that a plug-in takes among its parameters
// (DP-RECAL's target_epsilon at its plf): ε after a horizon counted in
// the accountant's own unit, such as an agent's publications. The
// plug-in only declares it (Built.Target) and draws its noise from its
// channels as they are; the scenario meets the target by multiplying
// every noise scale by one factor, exactly as a "calibrate" section
// does, so that zero noise, the page's noise-free ghost and an explicit
// calibration act on every algorithm alike.
type Target struct {
	// Epsilon is the target ε (> 0).
	Epsilon float64
	// Horizon is when ε is reached, counted in Unit (≥ 1).
	Horizon int
	// Unit names what Horizon counts ("publications", "activations").
	Unit string
	// Param and HorizonParam are the keys of the target and its horizon
	// under algorithm.params ("target_epsilon", "plf").
	Param, HorizonParam string
	// Predict is the accountant's prediction over Unit: its iterations
	// argument is a count of Unit, and it returns the largest ε of an
	// agent that has reached that count with every noise scale
	// multiplied by the factor. It is a privacy.InversePredictor when
	// the inverse has a closed form.
	Predict privacy.Predictor
}

// Field returns the target's field, "algorithm.params.<Param>".
func (t *Target) Field() string { return check.Join("algorithm.params", t.Param) }

// HorizonField returns the horizon's field.
func (t *Target) HorizonField() string { return check.Join("algorithm.params", t.HorizonParam) }

// ScaleNoise returns the channels f declares, taken from chans, with
// every base scale (each per-agent scale) multiplied by factor, and each
// channel's base scales before and after. The specs in chans are not
// changed; decays are kept (they multiply the scale).
func ScaleNoise(f *Factory, chans map[string]*noise.Spec, factor float64) (map[string]*noise.Spec, []privacy.ChannelScale) {
	scaled := make(map[string]*noise.Spec, len(f.Channels))
	var record []privacy.ChannelScale
	for _, ch := range f.Channels {
		old := chans[ch.Name]
		sp := *old
		sp.Scale *= factor
		sp.Scales = nil
		if old.Scales != nil {
			sp.Scales = make([]float64, len(old.Scales))
			for i, b := range old.Scales {
				sp.Scales[i] = b * factor
			}
		}
		scaled[ch.Name] = &sp
		record = append(record, privacy.ChannelScale{Channel: ch.Name, Before: baseScales(old), After: baseScales(&sp)})
	}
	return scaled, record
}

func baseScales(s *noise.Spec) []float64 {
	if s.Scales != nil {
		return append([]float64(nil), s.Scales...)
	}
	return []float64{s.Scale}
}

// NoiseOff reports whether none of f's channels in chans adds noise.
func NoiseOff(f *Factory, chans map[string]*noise.Spec) bool {
	for _, ch := range f.Channels {
		if sp := chans[ch.Name]; sp != nil && !sp.IsOff() {
			return false
		}
	}
	return true
}

// Rescale builds f again on env with every noise scale multiplied by
// factor (ScaleNoise), from fresh streams, exactly as a replay of the
// rescaled scenario does; params must be freshly decoded (a build may
// keep them). It returns the new build, its warnings and the channels'
// scales before and after; env.Noise then holds the rescaled channels.
func (f *Factory) Rescale(env *Env, factor float64, params any) (*Built, []check.Warning, []privacy.ChannelScale, error) {
	scaled, record := ScaleNoise(f, env.Noise, factor)
	env.Noise = scaled
	env.ResetStreams()
	b, warns, err := f.Build(env, params)
	if err != nil {
		return nil, nil, nil, err
	}
	return b, warns, record, nil
}
