package scene

import (
	"math"
	"slices"

	"dpsim/core/graph"
	"dpsim/core/sim"
)

// TrailLen is the number of recorded positions kept per agent for the
// plane view's trails.
const TrailLen = 40

// Plane is the extra data of a problem whose decision variable is 2-D: the
// agents' targets (drawn as crosses) and the optimum (a star), when the
// problem offers one.
type Plane struct {
	Targets [][2]float64
	// Optimum is x*, drawn only when HasOptimum: a problem without a
	// known optimum (a nonconvex loss) has no star to draw.
	Optimum    [2]float64
	HasOptimum bool
}

// Packet is one message of the latest recorded iteration, as drawn.
type Packet struct {
	From, To int
	Channel  string
	Round    int
	// Ratio is noise ÷ signal as the packet's colour shows it: with a
	// Reference, ‖Sent − Sent*‖/‖Sent*‖ against the noise-free twin's
	// message Sent* (all the noise the message carries, fresh and
	// accumulated: Deviation); without one, ‖Noise‖/‖Payload−Noise‖, the
	// fresh noise against the rest. 0 without noise, capped at RatioCap
	// (which a zero signal with non-zero noise also gets).
	Ratio float64
	// Pull reports a pulled message (sim.Release.Pull): drawn hollow,
	// where pushed and broadcast ones are filled.
	Pull bool
	// Group is the packet's turn in slow motion: its sender's rank among
	// the step's senders, or its round for a multi-round algorithm.
	Group int
	// Release indexes the step's release the packet carries (Model.Message).
	Release int

	lane int // the channel's lane, for the sideways offset
}

// Message is what the inspector shows of one release: the sender, its
// channel and round, and the message split into the signal the sender
// computed and the noise it added (norms, and the first HeadLen
// coordinates of each).
type Message struct {
	From    int
	To      []int
	Channel string
	Round   int
	// Ratio is the fresh noise ÷ the rest, ‖Noise‖/‖Sent − Noise‖.
	Ratio float64
	// Deviation is ‖Sent − Sent*‖/‖Sent*‖ against the noise-free twin's
	// message (the packet's colour), NaN without a Reference.
	Deviation float64
	// Dim is the payload's length; Signal and Noise hold its first
	// min(Dim, HeadLen) coordinates.
	Dim                   int
	Signal, Noise         []float64
	SignalNorm, NoiseNorm float64
}

// HeadLen is how many coordinates of a message the inspector shows.
const HeadLen = 4

// Model is what the picture needs from the step stream. It is a
// sim.Recorder: Record copies what it keeps, so the step's buffers may be
// reused by the algorithm afterwards.
type Model struct {
	// PixelRatio is the number of canvas pixels per CSS pixel; line widths
	// and radii scale with it. Zero counts as 1.
	PixelRatio float64
	// Slow draws the latest step in slow motion: one group of packets
	// (one sender, or one round of a multi-round algorithm) after the
	// other, each over 1/Groups() of the phase.
	Slow bool
	// Hold keeps the latest step's packets on screen, half-way along
	// their links, once they have arrived (a paused run): so that a
	// paused picture still shows what was sent, to be inspected.
	Hold bool

	g       *graph.Graph
	pos     [][2]float64
	plane   *Plane
	spacing float64 // typical nearest-neighbour distance in the layout

	iter      int
	dim       int
	est       []float64 // latest estimates, agent-major
	active    []bool    // which agents computed in the latest step
	hasActive bool      // false: all of them (Step.Active was nil)

	trail      [][2]float64 // ring of TrailLen rows of N points (plane only)
	trailHead  int          // the row the next record goes to
	trailCount int

	alloc      *Allocation // nil unless the problem allocates resources
	prices     []float64   // latest prices (sim.Step.Prices)
	priceHist  []float64   // ring of PriceLen rows of N prices (alloc only)
	priceHead  int
	priceCount int

	// The latest step's releases, summarised when recorded (one ratio per
	// release, receivers copied into to), and expanded into packets only
	// when the picture asks for them.
	rels     []release
	to       []int
	packets  []Packet
	expanded bool
	// last is the latest step; its releases are read (summarised) when a
	// frame needs them, before the algorithm's next Advance.
	last       *sim.Step
	summarised bool
	rounds     int
	senders    int      // distinct senders of the latest step
	rank       []int    // rank[i]: agent i's turn among the senders, −1 if silent
	channels   []string // lane k carries channels[k]; a handful, so a scan beats a map
	pulled     []bool   // pulled[k]: channel k's messages are pulled (sim.Release.Pull)

	frame Frame

	// ref is the noise-free twin the packets' colours compare with (nil:
	// the fresh noise alone); referenced says the latest step's were;
	// devBuf is Deviation's scratch.
	ref        Reference
	referenced bool
	devBuf     []float64

	// The large picture's buffers (frame.go: spread, senderRatios).
	spreadBuf, spreadSort, flowBuf []float64

	// centre and planeHalf are the plane view's centre and half-width
	// around the targets and the optimum, fixed for the model;
	// trailExt[row] is the largest |q − centre| (max norm) of the trail
	// row's finite points, kept by Record so that a frame need not scan
	// TrailLen × N points to fit its window.
	centre    [2]float64
	planeHalf float64
	trailExt  [TrailLen]float64

	// pixStamp and pixGen find dots that land in the same canvas pixel
	// (lastPerPixel), without clearing a canvas-sized table per frame.
	pixStamp []uint32
	pixGen   uint32
	keep     []bool
}

// NewModel returns an empty model of g, laid out with Layout. plane is nil
// unless the problem is 2-D.
func NewModel(g *graph.Graph, plane *Plane) *Model {
	return newModelAt(g, Layout(g), plane)
}

// newModelAt is NewModel with the layout given (a Snapshot's).
func newModelAt(g *graph.Graph, pos [][2]float64, plane *Plane) *Model {
	m := &Model{g: g, pos: pos, plane: plane}
	m.spacing = spacing(m.pos)
	if plane != nil {
		m.centre, m.planeHalf = plane.centre(), plane.halfWidth()
		m.trail = make([][2]float64, TrailLen*g.N)
	}
	return m
}

// spacing returns the 20th percentile of the nodes' nearest-neighbour
// distances (1 for a single node): node sizes follow it, so a few close
// pairs do not shrink every node.
func spacing(pos [][2]float64) float64 {
	if len(pos) < 2 {
		return 1
	}
	nn := make([]float64, len(pos))
	for i := range pos {
		nn[i] = math.Inf(1)
		for j := range pos {
			if j != i {
				nn[i] = min(nn[i], math.Hypot(pos[i][0]-pos[j][0], pos[i][1]-pos[j][1]))
			}
		}
	}
	slices.Sort(nn)
	return max(nn[len(nn)/5], 1e-3)
}

// Graph returns the model's network.
func (m *Model) Graph() *graph.Graph { return m.g }

// Positions returns the layout (in [0,1]²); it must not be modified.
func (m *Model) Positions() [][2]float64 { return m.pos }

// Plane returns the plane data, nil for problems that are not 2-D.
func (m *Model) Plane() *Plane { return m.plane }

// Iter returns the Iter of the latest recorded step.
func (m *Model) Iter() int { return m.iter }

// Estimates returns the latest recorded estimates, agent-major, and their
// dimension. The slice must not be modified.
func (m *Model) Estimates() (dim int, data []float64) { return m.dim, m.est }

// release is what the model keeps of one sim.Release.
type release struct {
	from, round, lane int
	channel           string
	ratio             float64
	pull              bool
	to0, to1          int // receivers: m.to[to0:to1]
	group             int // slow-motion turn
	idx               int // index in the step's Releases
}

// Packets returns the messages of the latest recorded iteration, one per
// (release, receiver). The slice is reused by the next call after a
// Record and must not be modified.
func (m *Model) Packets() []Packet {
	if m.expanded {
		return m.packets
	}
	m.summarise()
	m.packets = m.packets[:0]
	for _, r := range m.rels {
		for _, to := range m.to[r.to0:r.to1] {
			m.packets = append(m.packets, Packet{From: r.from, To: to, Channel: r.channel,
				Round: r.round, Ratio: r.ratio, Pull: r.pull, Group: r.group, Release: r.idx, lane: r.lane})
		}
	}
	m.expanded = true
	return m.packets
}

// Pulled reports whether the messages of channel name are pulled by their
// receivers (drawn hollow) rather than pushed to them.
func (m *Model) Pulled(name string) bool {
	m.summarise()
	for k, c := range m.channels {
		if c == name {
			return m.pulled[k]
		}
	}
	return false
}

// PacketCount returns len(Packets()) without building them.
func (m *Model) PacketCount() int {
	m.summarise()
	return len(m.to)
}

// Channels returns the channel names seen so far, in order of first
// appearance (which is also their lane order).
func (m *Model) Channels() []string {
	m.summarise()
	return append([]string(nil), m.channels...)
}

// Record implements sim.Recorder. It keeps copies of the estimates and one
// trail point per agent (plane problems), and a reference to the step,
// whose releases become packets when a frame is drawn: a renderer draws
// between the algorithm's steps, while the step's buffers are valid.
func (m *Model) Record(s *sim.Step) {
	if s.Iter < m.iter {
		m.trailHead, m.trailCount = 0, 0 // the run was reset
		m.priceHead, m.priceCount = 0, 0
	}
	if s.Prices != nil || m.alloc != nil {
		m.recordPrices(s.Prices, s.Dim)
	}
	m.iter = s.Iter
	m.dim = s.Dim
	m.est = append(m.est[:0], s.Estimates...)

	m.hasActive = s.Active != nil
	if m.hasActive {
		if cap(m.active) < m.g.N {
			m.active = make([]bool, m.g.N)
		}
		m.active = m.active[:m.g.N]
		clear(m.active)
		for _, i := range s.Active {
			if i >= 0 && i < m.g.N {
				m.active[i] = true
			}
		}
	}

	if m.plane != nil && s.Dim >= 2 {
		n := min(m.g.N, s.Agents())
		row := m.trail[m.trailHead*m.g.N : (m.trailHead+1)*m.g.N]
		ext, c := 0.0, m.centre
		for i := range n {
			q := [2]float64{s.Estimates[i*s.Dim], s.Estimates[i*s.Dim+1]}
			row[i] = q
			if finite2(q) {
				ext = max(ext, math.Abs(q[0]-c[0]), math.Abs(q[1]-c[1]))
			}
		}
		for i := n; i < m.g.N; i++ {
			row[i] = [2]float64{math.NaN(), math.NaN()}
		}
		m.trailExt[m.trailHead] = ext
		m.trailHead = (m.trailHead + 1) % TrailLen
		m.trailCount = min(m.trailCount+1, TrailLen)
	}

	// The releases are summarised when a frame asks for them, not here:
	// fast-forward records hundreds of steps per frame and draws one.
	m.last, m.expanded, m.summarised = s, false, false

}

// lane returns the lane of channel ch, giving a new channel the next one
// (pull says whether its messages are pulled).
func (m *Model) lane(ch string, pull bool) int {
	for k, c := range m.channels {
		if c == ch {
			return k
		}
	}
	m.channels = append(m.channels, ch)
	m.pulled = append(m.pulled, pull)
	return len(m.channels) - 1
}

// summarise turns the latest step's releases into what the picture needs:
// one ratio per release (the noise-to-signal ratio does not change with a
// receiver's factor, so not one per link) and the receivers. It runs
// before the algorithm advances again, as sim's contract asks: Frame is
// drawn between Record and the next step.
func (m *Model) summarise() {
	if m.summarised || m.last == nil {
		return
	}
	m.summarised = true
	s := m.last
	refs := m.refReleases(s)
	m.referenced = refs != nil
	m.rels, m.to = m.rels[:0], m.to[:0]
	m.rounds, m.senders = 0, 0
	if len(m.rank) != m.g.N {
		m.rank = make([]int, m.g.N)
	}
	for i := range m.rank {
		m.rank[i] = -1
	}
	for k := range s.Releases {
		r := &s.Releases[k]
		if r.From < 0 || r.From >= m.g.N {
			continue
		}
		lane := m.lane(r.Channel, r.Pull)
		to0 := len(m.to)
		for _, j := range r.To {
			if j >= 0 && j < m.g.N && j != r.From {
				m.to = append(m.to, j)
			}
		}
		round := max(0, r.Round)
		if m.rank[r.From] < 0 {
			m.rank[r.From] = m.senders
			m.senders++
		}
		ratio := Ratio(r.Sent, r.Noise)
		if refs != nil {
			ratio = m.deviation(r.Sent, refs[k].Sent)
		}
		m.rels = append(m.rels, release{from: r.From, round: round, lane: lane, channel: r.Channel,
			ratio: ratio, pull: r.Pull, to0: to0, to1: len(m.to), idx: k})
		m.rounds = max(m.rounds, round+1)
	}
	// Slow motion's turns: the rounds of a multi-round algorithm (a
	// round's messages depend on the previous round's), else one sender
	// after the other.
	for k := range m.rels {
		if m.rounds > 1 {
			m.rels[k].group = m.rels[k].round
		} else {
			m.rels[k].group = m.rank[m.rels[k].from]
		}
	}
}

// Rounds returns the number of communication rounds of the latest step
// (1 for a one-round algorithm; DPP² has 2).
func (m *Model) Rounds() int {
	m.summarise()
	return max(1, m.rounds)
}

// Groups returns the number of slow-motion turns of the latest step: its
// rounds for a multi-round algorithm, else its senders (at least 1).
func (m *Model) Groups() int {
	m.summarise()
	if m.rounds > 1 {
		return m.rounds
	}
	return max(1, m.senders)
}

// Message returns release k of the latest step (Packet.Release), with
// its signal and noise apart; ok is false when there is no such release.
// Like Packets, it reads the step before the algorithm's next Advance.
func (m *Model) Message(k int) (msg Message, ok bool) {
	if m.last == nil || k < 0 || k >= len(m.last.Releases) {
		return Message{}, false
	}
	r := &m.last.Releases[k]
	msg = Message{From: r.From, Channel: r.Channel, Round: max(0, r.Round), Dim: len(r.Sent),
		Ratio: Ratio(r.Sent, r.Noise), Deviation: math.NaN()}
	if refs := m.refReleases(m.last); refs != nil {
		msg.Deviation = m.deviation(r.Sent, refs[k].Sent)
	}
	for _, j := range r.To {
		if j != r.From {
			msg.To = append(msg.To, j)
		}
	}
	noiseAt := func(i int) float64 {
		if i < len(r.Noise) {
			return r.Noise[i]
		}
		return 0
	}
	for i := range min(len(r.Sent), HeadLen) {
		msg.Signal = append(msg.Signal, r.Sent[i]-noiseAt(i))
		msg.Noise = append(msg.Noise, noiseAt(i))
	}
	msg.NoiseNorm = scaledNorm(len(r.Sent), noiseAt)
	msg.SignalNorm = scaledNorm(len(r.Sent), func(i int) float64 { return r.Sent[i] - noiseAt(i) })
	return msg, true
}

// Ratio returns ‖noise‖/‖payload−noise‖ (Euclidean norms): 0 when the
// noise is zero or empty, RatioCap when the signal is zero but the noise
// is not, and at most RatioCap otherwise (NaN and infinities included).
// Where noise is shorter than payload the rest of payload is signal.
func Ratio(payload, noise []float64) float64 {
	noise = noise[:min(len(noise), len(payload))]
	nn, sn := 0.0, 0.0
	for i, z := range noise {
		v := payload[i] - z
		nn += float64(z * z)
		sn += float64(v * v)
	}
	for _, v := range payload[len(noise):] {
		sn += float64(v * v)
	}
	// Plain sums of squares are exact enough; only when one overflowed or
	// underflowed does the slower scaled norm decide.
	if !(nn > 1e-290 && nn < 1e290 && sn > 1e-290 && sn < 1e290) {
		return ratioScaled(payload, noise)
	}
	r := math.Sqrt(nn / sn)
	if !(r < RatioCap) {
		return RatioCap
	}
	return r
}

// ratioScaled is Ratio with norms that cannot overflow or underflow.
func ratioScaled(payload, noise []float64) float64 {
	nn := scaledNorm(len(noise), func(i int) float64 { return noise[i] })
	if nn == 0 {
		return 0
	}
	sn := scaledNorm(len(payload), func(i int) float64 {
		if i < len(noise) {
			return payload[i] - noise[i]
		}
		return payload[i]
	})
	r := nn / sn
	if !(r < RatioCap) { // NaN, +Inf, zero signal, or just large
		return RatioCap
	}
	return r
}

// scaledNorm is the Euclidean norm of x(0..n−1), computed without
// overflow or underflow for finite values; NaN gives NaN, ±Inf gives +Inf.
func scaledNorm(n int, x func(int) float64) float64 {
	scale := 0.0
	for i := range n {
		v := math.Abs(x(i))
		if math.IsNaN(v) {
			return math.NaN()
		}
		scale = max(scale, v)
	}
	if scale == 0 || math.IsInf(scale, 1) {
		return scale
	}
	ss := 0.0
	for i := range n {
		v := x(i) / scale
		ss += float64(v * v)
	}
	return scale * math.Sqrt(ss)
}
