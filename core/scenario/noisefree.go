package scenario

// NoiseFree returns a copy of s with every noise channel's scale zero
// (its decay kept) and no calibration: the same algorithm on the same
// data and seeds without privacy noise — the page's ghost and twin, and
// an audit's references (core/experiment). The stop rule and checkpoints
// are kept; a caller that wants neither drops them.
func (s *Scenario) NoiseFree() *Scenario {
	c := s.Clone()
	c.Calibrate = nil
	for k, sp := range c.Noise {
		if sp == nil {
			continue
		}
		sp.Scale, sp.Scales, sp.Var, sp.VarOf = 0, nil, 0, ""
		c.Noise[k] = sp
	}
	return c
}

// WithNoise returns a copy of s whose privacy noise is drawn from the
// stream seed noise while its data, graph and algorithm seeds stay s's
// own: an audit's runs (core/experiment) repeat the scenario on its own
// data with fresh noise. The copy is for building: its JSON still shows
// s's seed, not the noise seed.
func (s *Scenario) WithNoise(noise uint64) *Scenario {
	c := s.Clone()
	c.noiseSeed = &noise
	return c
}

// NoiseSeed reports the noise seed WithNoise set, if any.
func (s *Scenario) NoiseSeed() (uint64, bool) {
	if s.noiseSeed == nil {
		return 0, false
	}
	return *s.noiseSeed, true
}
