package metrics

import (
	"encoding/json"
	"math"

	"dpsim/core/sim"
)

// Names of the columns the framework records beside the problem's own
// (objective.Measured) metrics. A problem must not use them for its own.
const (
	// ColStationarity is ‖(1/n)·Σ_i ∇f_i(x_i)‖², recorded when the problem
	// offers no optimum (Problem.Optimum is nil): the headline of a
	// nonconvex problem, where there is no ‖x − x*‖ to measure.
	ColStationarity = "stationarity"
	// ColMessages is the number of per-link transmissions sent so far
	// (the sum of sim.Step.Links over the iterations).
	ColMessages = "messages"
	// ColReleases is the number of releases so far (len(sim.Step.Releases)
	// summed), each one noisy vector put on the air by one agent.
	ColReleases = "releases"
	// ColActivations is the largest activation count of any agent so far:
	// how often the most exposed agent computed and spoke (DP-RECAL's
	// privacy leakage frequency).
	ColActivations = "activations"
)

// Counters counts a run's communication and computation: per-link
// messages, releases and per-agent activations (an agent is active in a
// step listed in sim.Step.Active, or in every step when Active is nil).
// The runner keeps one, adds every step to it before its recorders see
// the step, and saves it with checkpoints so a resumed run continues it.
type Counters struct {
	// Messages is the number of per-link transmissions.
	Messages int64 `json:"messages"`
	// Releases is the number of releases.
	Releases int64 `json:"releases"`
	// Activations[i] is the number of steps in which agent i was active,
	// once Sync has run: steps in which every agent was active are
	// added in bulk, so counting an iteration costs nothing per agent.
	Activations []int64 `json:"activations"`

	all int64 // steps with every agent active, not yet in Activations
}

// NewCounters returns zero counters for agents agents.
func NewCounters(agents int) *Counters {
	return &Counters{Activations: make([]int64, agents)}
}

// Add counts step s. The initial step (Iter 0) reports no computation
// and is not counted.
func (c *Counters) Add(s *sim.Step) {
	if s.Iter == 0 {
		return
	}
	c.Releases += int64(len(s.Releases))
	c.Messages += int64(s.Links())
	if s.Active == nil {
		c.all++
		return
	}
	for _, a := range s.Active {
		if a >= 0 && a < len(c.Activations) {
			c.Activations[a]++
		}
	}
}

// Sync adds the steps in which every agent was active to Activations.
func (c *Counters) Sync() {
	if c.all == 0 {
		return
	}
	for i := range c.Activations {
		c.Activations[i] += c.all
	}
	c.all = 0
}

// MaxActivations returns the agent with the most activations (the
// lowest index among ties) and its count; (-1, 0) without agents.
func (c *Counters) MaxActivations() (agent int, count int64) {
	agent = -1
	for i, a := range c.Activations {
		if agent < 0 || a > count {
			agent, count = i, a
		}
	}
	return agent, count + c.all
}

// Clone returns a synced copy of c.
func (c *Counters) Clone() *Counters {
	c.Sync()
	d := *c
	d.Activations = append([]int64(nil), c.Activations...)
	return &d
}

// Float is a float64 whose JSON form is exactly encoding/json's number
// when it is finite, null for NaN and the string "Inf" or "-Inf" for an
// infinity (as Floats writes them), and which reads each back.
type Float float64

// MarshalJSON implements json.Marshaler.
func (f Float) MarshalJSON() ([]byte, error) {
	v := float64(f)
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return appendFloat(nil, v), nil
	}
	return json.Marshal(v)
}

// UnmarshalJSON implements json.Unmarshaler.
func (f *Float) UnmarshalJSON(b []byte) error {
	v, err := parseFloat(b)
	if err != nil {
		return err
	}
	*f = Float(v)
	return nil
}
