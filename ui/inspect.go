package ui

import (
	"math"

	"dpsim/core/metrics"
	"dpsim/core/privacy"
	"dpsim/render/scene"
)

// SlowPerTurn is how long one slow-motion turn (one sender's messages, or
// one round of a multi-round algorithm) travels, in seconds: over a
// second, so that a message can be followed and clicked.
const SlowPerTurn = 1.5

// HitSlop is how far, in CSS pixels, a pointer may be from a node or a
// packet and still pick it.
const HitSlop = 6

// Inspection is what the page's inspector shows for the node or the
// message under the pointer (window.dpsim.inspect). Kind is "node",
// "message" or "" (nothing there); X, Y and R place the highlight, in
// CSS pixels of the canvas.
type Inspection struct {
	Kind    string  `json:"kind"`
	X       float64 `json:"x"`
	Y       float64 `json:"y"`
	R       float64 `json:"r"`
	Iter    int     `json:"iteration"`
	Agent   int     `json:"agent"` // the node, or the message's sender
	To      int     `json:"to"`    // the message's receiver (−1 for a node)
	Channel string  `json:"channel,omitempty"`
	Round   int     `json:"round"`
	// Rounds is the number of rounds of the step (the page names the
	// round only when there are several).
	Rounds int `json:"rounds"`
	// State is the first coordinates of the agent's (the sender's)
	// estimate, Dim its length.
	State []float64 `json:"state"`
	Dim   int       `json:"dim"`
	// Signal and Noise are the message's first coordinates apart, with
	// their norms; Ratio is noise ÷ signal as the packet's colour shows.
	Signal     []float64 `json:"signal,omitempty"`
	Noise      []float64 `json:"noise,omitempty"`
	SignalNorm float64   `json:"signal_norm"`
	NoiseNorm  float64   `json:"noise_norm"`
	Ratio      float64   `json:"ratio"`
	// Deviation is ‖sent − sent*‖/‖sent*‖ against the noise-free twin's
	// message, which the packet's colour shows when there is a twin
	// (absent otherwise).
	Deviation *float64 `json:"deviation,omitempty"`
	Receivers []int    `json:"receivers,omitempty"`
	// Epsilon is the agent's (the sender's) ε so far, as people read it;
	// EpsilonKind as in the state ("dp", "none", "unaccounted").
	Epsilon     string `json:"epsilon"`
	EpsilonKind string `json:"epsilon_kind"`
	Activations int64  `json:"activations"`
}

// Inspect finds the packet or node at (x, y), CSS pixels of the canvas,
// in frame f of model m (ratio canvas pixels per CSS pixel). A packet
// wins over the node it sits on; only packets on screen count.
func Inspect(m *scene.Model, f *scene.Frame, ratio float64, x, y float64,
	led privacy.Ledger, kind string, c *metrics.Counters) Inspection {
	none := Inspection{Agent: -1, To: -1}
	if m == nil || f == nil || !(ratio > 0) {
		return none
	}
	px, py := x*ratio, y*ratio
	slop := HitSlop * ratio
	best, bestD := -1, math.Inf(1)
	for k, d := range f.Packets {
		if d.Fill.A == 0 && d.Line.A == 0 {
			continue
		}
		if dist := math.Hypot(d.X-px, d.Y-py); dist <= d.R+slop && dist < bestD {
			best, bestD = k, dist
		}
	}
	in := none
	in.Iter = m.Iter()
	dim, est := m.Estimates()
	state := func(i int) []float64 {
		if dim <= 0 || (i+1)*dim > len(est) {
			return nil
		}
		return append([]float64(nil), est[i*dim:i*dim+min(dim, scene.HeadLen)]...)
	}
	agentEps := func(i int) string {
		if kind == "unaccounted" {
			return "noise, but no DP guarantee"
		}
		if i >= 0 && i < len(led.Agents) {
			return led.Agents[i].Epsilon.String()
		}
		return led.Max.String()
	}
	if best >= 0 && best < len(f.PacketOf) {
		pks := m.Packets()
		pk := pks[f.PacketOf[best]]
		msg, ok := m.Message(pk.Release)
		if ok {
			d := f.Packets[best]
			in.Kind, in.X, in.Y, in.R = "message", d.X/ratio, d.Y/ratio, d.R/ratio
			in.Agent, in.To, in.Channel, in.Round = pk.From, pk.To, pk.Channel, pk.Round
			in.Rounds = m.Rounds()
			in.Signal, in.Noise, in.SignalNorm, in.NoiseNorm = msg.Signal, msg.Noise, msg.SignalNorm, msg.NoiseNorm
			in.Ratio, in.Receivers, in.Dim = msg.Ratio, msg.To, msg.Dim
			if d := msg.Deviation; !math.IsNaN(d) {
				in.Deviation = &d
			}
			in.State = state(pk.From)
			in.Epsilon, in.EpsilonKind = agentEps(pk.From), kind
			return in
		}
	}
	for i, p := range f.NodeAt {
		if dist := math.Hypot(p[0]-px, p[1]-py); dist <= f.NodeR+slop && dist < bestD {
			best, bestD = i, dist
			in.Kind = "node"
		}
	}
	if in.Kind != "node" {
		return none
	}
	p := f.NodeAt[best]
	in.X, in.Y, in.R = p[0]/ratio, p[1]/ratio, f.NodeR/ratio
	in.Agent, in.Dim, in.State = best, dim, state(best)
	in.Epsilon, in.EpsilonKind = agentEps(best), kind
	if c != nil && best < len(c.Activations) {
		cl := c.Clone()
		in.Activations = cl.Activations[best]
	}
	return in
}

// Shown is one packet drawn with non-zero opacity in the latest frame,
// at (X, Y) in CSS pixels of the canvas (window.dpsim.packetsOnScreen:
// what tests and tools follow).
type Shown struct {
	X       float64 `json:"x"`
	Y       float64 `json:"y"`
	From    int     `json:"from"`
	To      int     `json:"to"`
	Channel string  `json:"channel"`
	Iter    int     `json:"iteration"`
}

// OnScreen lists the packets of frame f that are visible.
func OnScreen(m *scene.Model, f *scene.Frame, ratio float64) []Shown {
	out := []Shown{}
	pks := m.Packets()
	for k, d := range f.Packets {
		if (d.Fill.A == 0 && d.Line.A == 0) || k >= len(f.PacketOf) || f.PacketOf[k] >= len(pks) {
			continue
		}
		pk := pks[f.PacketOf[k]]
		out = append(out, Shown{X: d.X / ratio, Y: d.Y / ratio, From: pk.From, To: pk.To, Channel: pk.Channel, Iter: m.Iter()})
	}
	return out
}

// BadgeLimit is the most agents that get badges: beyond, they would
// cover the network.
const BadgeLimit = 40

// Badge is what the page writes beside an agent in slow motion: its ε
// spent so far and how often it has been active (a relay algorithm wakes
// one agent per iteration), at (X, Y) in CSS pixels, the node's radius R.
type Badge struct {
	X           float64 `json:"x"`
	Y           float64 `json:"y"`
	R           float64 `json:"r"`
	Epsilon     string  `json:"epsilon"`
	Activations int64   `json:"activations"`
}

// Badges returns one badge per agent of frame f, none past BadgeLimit.
func Badges(f *scene.Frame, ratio float64, led privacy.Ledger, kind string, c *metrics.Counters) []Badge {
	out := []Badge{}
	if f == nil || !(ratio > 0) || len(f.NodeAt) > BadgeLimit {
		return out
	}
	var act []int64
	if c != nil {
		act = c.Clone().Activations
	}
	for i, p := range f.NodeAt {
		b := Badge{X: p[0] / ratio, Y: p[1] / ratio, R: f.NodeR / ratio, Epsilon: "no DP"}
		switch {
		case kind == "unaccounted":
		case i < len(led.Agents):
			b.Epsilon = "ε " + led.Agents[i].Epsilon.String()
		default:
			b.Epsilon = "ε " + led.Max.String()
		}
		if i < len(act) {
			b.Activations = act[i]
		}
		out = append(out, b)
	}
	return out
}
