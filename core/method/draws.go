package method

import (
	"fmt"
	"math"

	"dpsim/core/check"
	"dpsim/core/noise"
	"dpsim/core/rng"
	"dpsim/core/sim"
)

// Draw declares one kind of an algorithm's internal random draws (DPP²'s
// η^k, DP-RECAL's next agent on the walk), so that a scenario may pin
// them: "algorithm": {"draws": {Name: [v0, v1, …]}}. The scenario checks
// every pinned value against Min, Max and Whole before the run.
type Draw struct {
	// Name is the key under algorithm.draws and the stream's label.
	Name string
	// Description says what is drawn, in the paper's notation.
	Description string
	// Min and Max bound a pinned value (inclusive).
	Min, Max float64
	// Whole requires whole numbers (an agent, a neighbour's index).
	Whole bool
	// Replay returns the values of this draw over a run of iterations
	// iterations, drawn afresh from src (a copy of the run's source from
	// its start: Env.Replay), in the form algorithm.draws pins them: what
	// a replay export writes (record.replay). It must return at least as
	// many values as the run takes, so that the pinned draws cover the
	// run (a walk: its first agent and one per iteration). nil: as many
	// values as the run drew, drawn as OpenUnit draws them when Min > 0
	// (an open interval) and as Float64 does otherwise.
	Replay func(env *Env, src *Source, iterations int) []float64
}

// Check validates pinned values of d; field names them in errors.
func (d Draw) Check(field string, vals []float64) error {
	if len(vals) == 0 {
		return check.Errorf(field, "must list at least one value (leave %q out to draw from the algorithm seed)", d.Name)
	}
	if len(vals) > MaxPinnedDraws {
		return check.Errorf(field, "at most %d values (got %d); pinned values cycle, so a period is enough", MaxPinnedDraws, len(vals))
	}
	for k, v := range vals {
		if !(v >= d.Min && v <= d.Max) {
			return check.Errorf(check.Index(field, k), "must be in [%g, %g]: %s (got %v)", d.Min, d.Max, d.Description, v)
		}
		if d.Whole && v != math.Trunc(v) {
			return check.Errorf(check.Index(field, k), "must be a whole number: %s (got %v)", d.Description, v)
		}
	}
	return nil
}

// MaxPinnedDraws bounds one pinned draw sequence.
const MaxPinnedDraws = 10_000_000

// Source hands an algorithm its draws of one declared kind: the pinned
// values in order when the scenario pins them — cycling back to the first
// after the last, so a pinned period repeats for as many iterations as the
// run lasts — and otherwise the algorithm seed's stream for the label.
// Checkpoints save its position either way (Env.Positions). A Source is
// not safe for concurrent use.
type Source struct {
	label  string
	name   string // the draw's name (Draw.Name)
	pinned []float64
	at     int // pinned values consumed (mod len(pinned))
	served int // values served, pinned or drawn
	s      *rng.Stream
}

// Pinned reports whether the values come from the scenario.
func (s *Source) Pinned() bool { return s.pinned != nil }

// Float64 returns the next draw: a pinned value, or a uniform draw in
// [0, 1).
func (s *Source) Float64() float64 {
	s.served++
	if s.pinned != nil {
		v := s.pinned[s.at]
		s.at = (s.at + 1) % len(s.pinned)
		return v
	}
	return s.s.Float64()
}

// OpenUnit returns the next draw in (0, 1): a pinned value (the
// declaration bounds it), or a uniform draw on the grid of 2⁻⁵³ shifted
// by half a step, so that it is never 0 (DPP²'s η^k ∈ (0, 1)).
func (s *Source) OpenUnit() float64 {
	if s.pinned != nil {
		return s.Float64()
	}
	s.served++
	return (float64(s.s.Uint64()>>11) + 0.5) * 0x1p-53
}

// IntN returns the next draw in [0, n): a pinned value (a whole number the
// declaration bounds; one outside [0, n) is reduced modulo n, which the
// algorithm's declaration should make impossible), or a uniform draw.
func (s *Source) IntN(n int) int {
	if s.pinned != nil {
		v := int(s.Float64())
		return ((v % n) + n) % n
	}
	s.served++
	return s.s.IntN(n)
}

// Draws returns the source of algorithm alg's draws named name (declared
// in Factory.Draws): the values the scenario pins under
// algorithm.draws.name, else the algorithm seed's stream labelled
// alg/name. Call it at Build, so that a resumed run holds the same
// sources as the run it continues.
func (e *Env) Draws(alg, name string) *Source {
	label := alg + "/" + name
	for _, src := range e.sources {
		if src.label == label {
			return src
		}
	}
	src := &Source{label: label, name: name}
	if v, ok := e.PinnedDraws[name]; ok {
		src.pinned = v
	} else {
		src.s = e.AlgorithmStream(alg, name)
	}
	e.sources = append(e.sources, src)
	return src
}

// Sampler returns the noise sampler of channel name, drawing from its own
// stream of the noise seed so that channels never share draws, or
// serving the draws the scenario pins (noise.<name>.draws). Asking twice
// for one channel returns the same sampler.
func (e *Env) Sampler(alg, name string) *noise.Sampler {
	label := alg + "/" + name
	for _, c := range e.samplers {
		if c.label == label {
			return c.s
		}
	}
	spec := e.Noise[name]
	var smp *noise.Sampler
	if spec.Draws != nil {
		smp = noise.NewPinnedSampler(spec.Draws)
	} else {
		smp = noise.NewSampler(spec.Dist, e.streams().Stream("noise", e.Seeds.Noise, label))
	}
	e.samplers = append(e.samplers, channelSampler{label: label, channel: name, s: smp})
	return smp
}

// channelSampler is one channel's sampler, by its label (alg/channel).
type channelSampler struct {
	label, channel string
	s              *noise.Sampler
}

// Positions is where a run's random sources stand at one iteration:
// every registered stream, the pinned draws consumed, and each agent's
// sample cursor. Checkpoints save it; Restore puts it back.
type Positions struct {
	// Streams are the registered streams' positions (rng.Registry).
	Streams []rng.Position `json:"streams"`
	// Draws counts the pinned values each pinned Source has consumed
	// (modulo its period), by label.
	Draws map[string]int `json:"draws,omitempty"`
	// Noise counts the pinned noise draws each pinned channel has served
	// (modulo their period), by label (alg/channel).
	Noise map[string]int `json:"noise,omitempty"`
	// Samples holds each agent's sample cursor, when the problem serves
	// samples and the algorithm asked for cursors.
	Samples []CursorPosition `json:"samples,omitempty"`
	// Counts holds, when the run records its draws for a replay export
	// (record.replay), how many values every source has served, by the
	// label of its stream ("algorithm/dp-recal/walk", "data/samples/3",
	// "noise/gt-dp/eta"): the replay arrays are those values, and a
	// checkpoint says how far into them the run stood.
	Counts map[string]int `json:"counts,omitempty"`
}

// Keys of Positions.Counts: a source's stream label, pinned or not.
func drawKey(label string) string    { return "algorithm/" + label }
func cursorKey(i int) string         { return fmt.Sprintf("data/samples/%d", i) }
func samplerKey(label string) string { return "noise/" + label }

// Positions returns where every source of the run stands.
func (e *Env) Positions() Positions {
	p := Positions{Streams: e.streams().Positions()}
	for _, src := range e.sources {
		if src.pinned != nil {
			if p.Draws == nil {
				p.Draws = map[string]int{}
			}
			p.Draws[src.label] = src.at
		}
	}
	for _, c := range e.samplers {
		if c.s.Pinned() {
			if p.Noise == nil {
				p.Noise = map[string]int{}
			}
			p.Noise[c.label] = c.s.At()
		}
	}
	for _, c := range e.cursors {
		p.Samples = append(p.Samples, c.position())
	}
	if e.Counting {
		p.Counts = map[string]int{}
		for _, src := range e.sources {
			p.Counts[drawKey(src.label)] = src.served
		}
		for i, c := range e.cursors {
			p.Counts[cursorKey(i)] = c.served
		}
		for _, c := range e.samplers {
			p.Counts[samplerKey(c.label)] = c.s.Served()
		}
	}
	return p
}

// Restore puts every source back where p says. Sources the run holds
// and p lacks, or the reverse, are errors: p belongs to another run.
func (e *Env) Restore(p Positions) error {
	n := 0
	for _, src := range e.sources {
		if src.pinned == nil {
			continue
		}
		n++
		at, ok := p.Draws[src.label]
		if !ok {
			return fmt.Errorf("the checkpoint has no position for the pinned draws %q", src.label)
		}
		if at < 0 || at >= len(src.pinned) {
			return fmt.Errorf("the checkpoint's position %d of the pinned draws %q is outside their %d values", at, src.label, len(src.pinned))
		}
	}
	if n != len(p.Draws) {
		return fmt.Errorf("the checkpoint holds %d pinned draw positions; this run has %d", len(p.Draws), n)
	}
	n = 0
	for _, c := range e.samplers {
		if !c.s.Pinned() {
			continue
		}
		n++
		at, ok := p.Noise[c.label]
		if !ok {
			return fmt.Errorf("the checkpoint has no position for the pinned noise %q", c.label)
		}
		if at < 0 || at >= len(e.Noise[c.channel].Draws) {
			return fmt.Errorf("the checkpoint's position %d of the pinned noise %q is outside its %d draws", at, c.label, len(e.Noise[c.channel].Draws))
		}
	}
	if n != len(p.Noise) {
		return fmt.Errorf("the checkpoint holds %d pinned noise positions; this run has %d", len(p.Noise), n)
	}
	if err := e.checkCounts(p.Counts); err != nil {
		return err
	}
	if len(p.Samples) != len(e.cursors) {
		return fmt.Errorf("the checkpoint holds %d sample cursors; this run has %d", len(p.Samples), len(e.cursors))
	}
	for i, c := range e.cursors {
		if err := c.check(p.Samples[i]); err != nil {
			return fmt.Errorf("agent %d's sample cursor: %w", i, err)
		}
	}
	if err := e.streams().Restore(p.Streams); err != nil {
		return err
	}
	for _, src := range e.sources {
		if src.pinned != nil {
			src.at = p.Draws[src.label]
		}
		src.served = p.Counts[drawKey(src.label)]
	}
	for _, c := range e.samplers {
		c.s.Restore(p.Counts[samplerKey(c.label)], p.Noise[c.label])
	}
	for i, c := range e.cursors {
		c.served = p.Counts[cursorKey(i)]
	}
	// The streams are back at their saved positions, so a cursor can
	// redraw its current epoch's order from the position it saved.
	for i, c := range e.cursors {
		c.restore(p.Samples[i])
	}
	return nil
}

// Restore copies a checkpoint's state variables into an algorithm's
// buffers, for sim.Resumable implementations: into lists the algorithm's
// variables in the order State returns them, each with its buffer as
// Data. A name, dimension or length that differs is an error.
func Restore(state []sim.Var, into ...sim.Var) error {
	if len(state) != len(into) {
		return fmt.Errorf("the checkpoint holds %d state variables; the algorithm has %d", len(state), len(into))
	}
	for k, v := range state {
		w := into[k]
		if v.Name != w.Name || v.Dim != w.Dim || len(v.Data) != len(w.Data) {
			return fmt.Errorf("the checkpoint's state variable %d is %q (dimension %d, %d values); the algorithm's is %q (dimension %d, %d values)",
				k, v.Name, v.Dim, len(v.Data), w.Name, w.Dim, len(w.Data))
		}
	}
	for k, v := range state {
		copy(into[k].Data, v.Data)
	}
	return nil
}

// checkCounts refuses counts of another run: with record.replay every
// source's count, each a whole number ≥ 0; without, none.
func (e *Env) checkCounts(counts map[string]int) error {
	if !e.Counting {
		if counts != nil {
			return fmt.Errorf("the checkpoint counts the draws of a run that records them (record.replay); this run does not")
		}
		return nil
	}
	var keys []string
	for _, src := range e.sources {
		keys = append(keys, drawKey(src.label))
	}
	for i := range e.cursors {
		keys = append(keys, cursorKey(i))
	}
	for _, c := range e.samplers {
		keys = append(keys, samplerKey(c.label))
	}
	// A run that draws nothing counts nothing: its empty counts are
	// written as none.
	if counts == nil && len(keys) > 0 {
		return fmt.Errorf("the checkpoint has no counts of the draws; this run records them (record.replay)")
	}
	for _, k := range keys {
		v, ok := counts[k]
		if !ok {
			return fmt.Errorf("the checkpoint has no count of the draws %q", k)
		}
		if v < 0 {
			return fmt.Errorf("the checkpoint's count %d of the draws %q is negative", v, k)
		}
	}
	if len(counts) != len(keys) {
		return fmt.Errorf("the checkpoint counts %d sources of draws; this run has %d", len(counts), len(keys))
	}
	return nil
}
