// Package noise holds privacy-noise channels: Laplace and Gaussian
// distributions, their decay schedules, and seeded samplers.
//
// A channel is one kind of noise an algorithm adds (GT-DP has two: η on
// the tracker s and ξ on the estimate x). Its scale for agent i at
// iteration k is base_i · decay(k). A scale of 0 gives exactly 0, and
// draws nothing from the stream.
package noise

import (
	"math"
	"strings"

	"dpsim/core/check"
	"dpsim/core/num"
	"dpsim/core/rng"
)

// Distributions.
const (
	Laplace  = "laplace"  // density exp(−|x|/b)/(2b): scale b, variance 2b²
	Gaussian = "gaussian" // N(0, σ²): scale σ
)

// Spec describes one noise channel.
type Spec struct {
	// Dist is Laplace or Gaussian.
	Dist string `json:"dist"`
	// Scale is the base scale (Laplace b, Gaussian σ) of every agent.
	Scale float64 `json:"scale"`
	// Scales, when set, gives each agent its own base scale instead.
	Scales []float64 `json:"scales,omitempty" jsonstrict:"max=5000"`
	// Decay multiplies the base scale at iteration k (default: constant 1;
	// left out of the JSON when Decays replaces it).
	Decay Schedule `json:"decay,omitzero"`
	// Decays, when set, gives each agent its own decay instead of Decay
	// (LDP online's ς_i = 0.5 + 0.01·i): agent i's scale at iteration k is
	// Base(i)·Decays[i].At(k). Accountants that assume one decay for all
	// agents refuse it (RequireOneDecay).
	Decays []Schedule `json:"decays,omitempty" jsonstrict:"max=5000"`
	// Var gives the noise by its variance instead of its scale, read
	// as VarOf says: "vector", the variance of an agent's whole
	// d-vector E‖η_i‖², or "coordinate", the variance of one coordinate.
	// The GT-DP paper's "σ_η² = σ_ξ² = 0.01" (Sec. 5.2) can be read either
	// way (spec §5.6); Resolve turns it into a scale.
	Var   float64 `json:"variance,omitempty"`
	VarOf string  `json:"variance_of,omitempty"`
	// Draws pins the channel's draws at scale 1 (a Laplace or standard
	// normal draw with its sign), in the order the algorithm draws them:
	// a fill at scale b takes the next ones times b — the noise a seeded
	// sampler draws, bit for bit, when they are the draws it made (IEEE
	// multiplication is symmetric in sign) — and they cycle after the
	// last. A fill at scale 0 takes none. A replay export writes them
	// (record.replay), so that a replay needs no noise seed.
	Draws []float64 `json:"draws,omitempty" jsonstrict:"max=10000000"`
}

// MaxDraw bounds a pinned draw at scale 1: a Laplace draw beyond 37 or a
// normal one beyond 9 has probability below 2⁻⁵³, and the ziggurats'
// tails reach no further in practice.
const MaxDraw = 1000

// Readings of Spec.Var.
const (
	PerVector     = "vector"     // E‖η_i‖² over the agent's d coordinates
	PerCoordinate = "coordinate" // the variance of one coordinate
)

// Resolve returns the channel with a variance (Var) turned into the base scale
// it means in dimension dim (Laplace: 2b² per coordinate; Gaussian: σ²),
// or s itself when it gives a scale. field names the channel in errors.
func (s *Spec) Resolve(field string, dim int) (*Spec, error) {
	if s.Var == 0 && s.VarOf == "" {
		return s, nil
	}
	if err := check.NonNegative(check.Join(field, "variance"), s.Var); err != nil {
		return nil, err
	}
	if s.Scale != 0 || s.Scales != nil {
		return nil, check.Errorf(check.Join(field, "variance"), "give either scale(s) or variance, not both")
	}
	v := s.Var
	switch s.VarOf {
	case PerVector:
		v /= float64(dim)
	case PerCoordinate:
	default:
		return nil, check.Errorf(check.Join(field, "variance_of"), "must be %q (E‖η_i‖² of the agent's vector) or %q (one coordinate) when variance is given (got %q)", PerVector, PerCoordinate, s.VarOf)
	}
	r := *s
	r.Var, r.VarOf = 0, ""
	if s.Dist == Gaussian {
		r.Scale = math.Sqrt(v)
	} else {
		r.Scale = math.Sqrt(v / 2)
	}
	return &r, nil
}

// Off returns a channel with no noise.
func Off(dist string) Spec { return Spec{Dist: dist, Decay: Const(1)} }

// ScaleAt returns agent i's scale at iteration k.
func (s *Spec) ScaleAt(i, k int) float64 {
	b := s.Scale
	if s.Scales != nil {
		b = s.Scales[i]
	}
	if b == 0 {
		return 0
	}
	return b * s.DecayOf(i).At(k)
}

// DecayOf returns agent i's decay: Decays[i], or Decay when the channel
// has one decay for all agents.
func (s *Spec) DecayOf(i int) Schedule {
	if s.Decays != nil {
		return s.Decays[i]
	}
	return s.Decay
}

// PerAgentDecay reports whether the agents' decays may differ.
func (s *Spec) PerAgentDecay() bool { return s.Decays != nil }

// RequireOneDecay returns an error naming field + ".decays" when the
// channel has per-agent decays; why says whose assumption that breaks,
// e.g. "GT-DP's accountant (Theorem 2, eq. 18) assumes one decay β_k for
// all agents".
func (s *Spec) RequireOneDecay(field, why string) error {
	if s.Decays != nil {
		return check.Errorf(check.Join(field, "decays"), "%s; give one \"decay\" instead", why)
	}
	return nil
}

// DecayKey returns the key and text of the channel's decay, for
// messages: ("decay", "1/(1+k)^0.8") or ("decays", "[…]", one per agent).
func (s *Spec) DecayKey() (key, text string) {
	if s.Decays == nil {
		return "decay", s.Decay.String()
	}
	parts := make([]string, len(s.Decays))
	for i, d := range s.Decays {
		parts[i] = d.String()
	}
	return "decays", "[" + strings.Join(parts, ", ") + "]"
}

// Grows reports whether some agent's noise grows with k (a decay that is
// not non-increasing).
func (s *Spec) Grows() bool {
	if s.Decays == nil {
		return !s.Decay.Decays()
	}
	for _, d := range s.Decays {
		if !d.Decays() {
			return true
		}
	}
	return false
}

// Base returns agent i's base scale.
func (s *Spec) Base(i int) float64 {
	if s.Scales != nil {
		return s.Scales[i]
	}
	return s.Scale
}

// IsOff reports whether the channel adds no noise at all.
func (s *Spec) IsOff() bool {
	if s.Decays == nil {
		if s.Decay.C == 0 {
			return true
		}
		if s.Scales == nil {
			return s.Scale == 0
		}
	}
	for i := range max(len(s.Scales), len(s.Decays)) {
		if s.Base(i) != 0 && s.DecayOf(i).C != 0 {
			return false
		}
	}
	return true
}

// Variance returns the variance of one coordinate at scale b.
func (s *Spec) Variance(b float64) float64 {
	if s.Dist == Gaussian {
		return b * b
	}
	return 2 * b * b
}

// Validate checks the channel for n agents, naming field in errors. An
// omitted decay becomes the constant 1.
func (s *Spec) Validate(field string, n int) error {
	switch s.Dist {
	case Laplace, Gaussian:
	case "":
		return check.Errorf(check.Join(field, "dist"), "is required: %q or %q", Laplace, Gaussian)
	default:
		return check.Errorf(check.Join(field, "dist"), "must be %q or %q (got %q)", Laplace, Gaussian, s.Dist)
	}
	if err := check.NonNegative(check.Join(field, "scale"), s.Scale); err != nil {
		return err
	}
	if s.Scales != nil {
		if len(s.Scales) != n {
			return check.Errorf(check.Join(field, "scales"), "must list one scale per agent: %d, got %d", n, len(s.Scales))
		}
		if s.Scale != 0 {
			return check.Errorf(check.Join(field, "scale"), "give either scale or scales, not both")
		}
		for i, b := range s.Scales {
			if err := check.NonNegative(check.Index(check.Join(field, "scales"), i), b); err != nil {
				return err
			}
		}
	}
	if s.Draws != nil {
		if len(s.Draws) == 0 {
			return check.Errorf(check.Join(field, "draws"), "must list at least one draw (leave it out to draw from the noise seed)")
		}
		for k, v := range s.Draws {
			if !(math.Abs(v) <= MaxDraw) {
				return check.Errorf(check.Index(check.Join(field, "draws"), k), "must be a draw at scale 1, in [−%d, %d] (got %v)", MaxDraw, MaxDraw, v)
			}
		}
	}
	omitted := s.Decay == Schedule{}
	if s.Decays != nil {
		if !omitted {
			return check.Errorf(check.Join(field, "decays"), "give either decay (one for all agents) or decays (one per agent), not both")
		}
		if len(s.Decays) != n {
			return check.Errorf(check.Join(field, "decays"), "must list one decay per agent: %d, got %d", n, len(s.Decays))
		}
		for i, d := range s.Decays {
			if err := d.Validate(check.Index(check.Join(field, "decays"), i)); err != nil {
				return err
			}
		}
		return nil
	}
	if omitted {
		s.Decay = Const(1)
	}
	return s.Decay.Validate(check.Join(field, "decay"))
}

// StreamVersion names the generator and the sampling method that turn a
// noise seed into draws: SplitMix64 streams (core/rng) and 1024-layer
// ziggurats for the Laplace and normal distributions (ziggurat.go). A run
// export records it, so that an old export says which generator made its
// noise; any change to the draws (generator, stream derivation, tables or
// algorithm) must change it, and the golden tests fail until it does.
const StreamVersion = "splitmix64+ziggurat1024/1"

// Sampler draws one channel's noise from its own seeded stream, or
// serves the draws a scenario pins (Spec.Draws).
type Sampler struct {
	gauss  bool
	s      *rng.Stream
	pinned []float64 // draws at scale 1, cycled; nil: drawn from s
	at     int       // pinned draws served, modulo their period
	served int       // draws made (fills at scale 0 make none)
}

// NewSampler returns a sampler of dist (Laplace or Gaussian; anything else
// is treated as Laplace) drawing from s.
func NewSampler(dist string, s *rng.Stream) *Sampler {
	return &Sampler{gauss: dist == Gaussian, s: s}
}

// NewPinnedSampler returns a sampler that serves draws, the draws at
// scale 1 a scenario pins (Spec.Draws, nonempty), in order and cycled.
func NewPinnedSampler(draws []float64) *Sampler {
	return &Sampler{pinned: draws}
}

// Fill sets every element of dst to an independent draw at scale b (Laplace
// b, or Gaussian σ = b), or to the next pinned draws times b. With b = 0
// it sets zeros and draws nothing.
//
// A draw takes one 64-bit word on the common path (more in under 1 % of
// draws), so the number of words a Fill consumes depends on the draws;
// filling in several calls gives the same values as filling at once, and
// the draws at scale 1 times b are the draws at scale b, bit for bit.
func (s *Sampler) Fill(dst []float64, b float64) {
	switch {
	case b == 0:
		clear(dst)
		return
	case s.pinned != nil:
		for n := range dst {
			dst[n] = s.pinned[s.at] * b
			s.at++
			if s.at == len(s.pinned) {
				s.at = 0
			}
		}
	case s.gauss:
		fillGaussian(dst, b, s.s)
	default:
		fillLaplace(dst, b, s.s)
	}
	s.served += len(dst)
}

// Pinned reports whether the sampler serves pinned draws.
func (s *Sampler) Pinned() bool { return s.pinned != nil }

// Served returns how many draws the sampler has made (or served).
func (s *Sampler) Served() int { return s.served }

// At returns how many pinned draws have been served, modulo their period.
func (s *Sampler) At() int { return s.at }

// Restore puts the sampler where a checkpoint saw it: served draws made,
// and at pinned draws into their period (0 when not pinned). It reports
// false when at is outside the pinned draws.
func (s *Sampler) Restore(served, at int) bool {
	if at < 0 || at >= max(len(s.pinned), 1) || served < 0 {
		return false
	}
	s.served, s.at = served, at
	return true
}

// LogScaleAt returns the natural log of ScaleAt(i, k) without underflow
// (−Inf when the scale is 0).
func (s *Spec) LogScaleAt(i, k int) float64 {
	b := s.Base(i)
	if b == 0 {
		return math.Inf(-1)
	}
	return num.Log(b) + s.DecayOf(i).LogAt(k)
}
