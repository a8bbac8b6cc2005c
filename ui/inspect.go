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
	// EpsilonTight is the agent's tight bound beside it (agentTight).
	EpsilonTight string `json:"epsilon_tight,omitempty"`
	Activations  int64  `json:"activations"`
	// Sent lists, for an agent chosen by index (InspectAgent), the
	// messages it released in the latest iteration, in release order
	// (none when it was silent: a relay wakes one agent at a time).
	Sent []Sent `json:"sent,omitempty"`
}

// Sent is one message an agent released in the latest iteration: its
// channel and round, its receivers, and the message split into the
// signal the agent computed and the noise it added (first coordinates
// and norms), as the inspector shows a message in flight.
type Sent struct {
	Channel    string    `json:"channel"`
	Round      int       `json:"round"`
	Receivers  []int     `json:"receivers"`
	Dim        int       `json:"dim"`
	Signal     []float64 `json:"signal"`
	Noise      []float64 `json:"noise"`
	SignalNorm float64   `json:"signal_norm"`
	NoiseNorm  float64   `json:"noise_norm"`
	Ratio      float64   `json:"ratio"`
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
	px, py := float64(x*ratio), float64(y*ratio)
	slop := float64(HitSlop * ratio)
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
			in.Epsilon, in.EpsilonKind, in.EpsilonTight = agentEpsilon(led, kind, pk.From), kind, agentTight(led, pk.From)
			return in
		}
	}
	node := -1
	for i, p := range f.NodeAt {
		if dist := math.Hypot(p[0]-px, p[1]-py); dist <= f.NodeR+slop && dist < bestD {
			node, bestD = i, dist
		}
	}
	if node < 0 {
		return none
	}
	return nodeInspection(m, f, ratio, node, led, kind, c)
}

// nodeInspection is what the inspector shows of agent i: where it is
// drawn, its state, its ε so far and its activations.
func nodeInspection(m *scene.Model, f *scene.Frame, ratio float64, i int,
	led privacy.Ledger, kind string, c *metrics.Counters) Inspection {
	in := Inspection{Kind: "node", Agent: i, To: -1, Iter: m.Iter()}
	p := f.NodeAt[i]
	in.X, in.Y, in.R = p[0]/ratio, p[1]/ratio, f.NodeR/ratio
	dim, est := m.Estimates()
	in.Dim = dim
	if dim > 0 && (i+1)*dim <= len(est) {
		in.State = append([]float64(nil), est[i*dim:i*dim+min(dim, scene.HeadLen)]...)
	}
	in.Epsilon, in.EpsilonKind, in.EpsilonTight = agentEpsilon(led, kind, i), kind, agentTight(led, i)
	if c != nil && i < len(c.Activations) {
		in.Activations = c.Clone().Activations[i]
	}
	return in
}

// agentEpsilon is agent i's ε so far as people read it (the ledger's
// maximum when it keeps no per-agent entry).
func agentEpsilon(led privacy.Ledger, kind string, i int) string {
	if kind == "unaccounted" {
		return "noise, but no DP guarantee"
	}
	if i >= 0 && i < len(led.Agents) {
		return led.Agents[i].Epsilon.String()
	}
	return led.Max.String()
}

// InspectAgent is the inspector's view of agent i, chosen by its index
// rather than by the pointer (the keyboard's arrow keys): the agent as
// Inspect reads a node, plus the messages it released in the latest
// iteration. Kind is "" when i is not an agent of the frame.
func InspectAgent(m *scene.Model, f *scene.Frame, ratio float64, i int,
	led privacy.Ledger, kind string, c *metrics.Counters) Inspection {
	if m == nil || f == nil || !(ratio > 0) || i < 0 || i >= len(f.NodeAt) {
		return Inspection{Agent: -1, To: -1}
	}
	in := nodeInspection(m, f, ratio, i, led, kind, c)
	seen := map[int]bool{}
	for _, pk := range m.Packets() {
		if pk.From != i || seen[pk.Release] {
			continue
		}
		seen[pk.Release] = true
		msg, ok := m.Message(pk.Release)
		if !ok {
			continue
		}
		in.Sent = append(in.Sent, Sent{Channel: msg.Channel, Round: msg.Round, Receivers: msg.To, Dim: msg.Dim,
			Signal: msg.Signal, Noise: msg.Noise, SignalNorm: msg.SignalNorm, NoiseNorm: msg.NoiseNorm, Ratio: msg.Ratio})
	}
	in.Rounds = m.Rounds()
	return in
}

// cssRatio is the model's canvas pixels per CSS pixel (1 before the
// view has said).
func cssRatio(m *scene.Model) float64 {
	if m != nil && m.PixelRatio > 0 {
		return m.PixelRatio
	}
	return 1
}

// AgentAt is where an agent is drawn, in CSS pixels of the canvas, and
// the nodes' radius (window.dpsim.agents: the keyboard's ring, the
// phone's inspector, tests).
type AgentAt struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
	R float64 `json:"r"`
}

// Agents returns where every agent of frame f is drawn.
func Agents(f *scene.Frame, ratio float64) []AgentAt {
	out := []AgentAt{}
	if f == nil || !(ratio > 0) {
		return out
	}
	for _, p := range f.NodeAt {
		out = append(out, AgentAt{X: p[0] / ratio, Y: p[1] / ratio, R: f.NodeR / ratio})
	}
	return out
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
