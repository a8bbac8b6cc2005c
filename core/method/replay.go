package method

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"dpsim/core/noise"
	"dpsim/core/rng"
)

// Pins are what a run drew from its seeds, in the form a scenario pins
// it: the replay arrays of a replay export (record.replay). With them
// in its scenario a run draws nothing from the algorithm, data (sample
// order) or noise seeds and gives the same trace. Sources the scenario
// pins already are left out: their values are in it.
type Pins struct {
	// Draws holds the algorithm's draws by name (algorithm.draws): the
	// values of the whole run (Draw.Replay), a walk's agents, DPP²'s η^k.
	Draws map[string][]float64
	// Order holds every agent's sample order as the run consumed it
	// (samples.order), nil when no cursor draws from the data seed.
	Order [][]int
	// Noise holds each channel's draws at scale 1 as the run made them
	// (noise.<channel>.draws).
	Noise map[string][]float64
}

// Values returns the number of values p holds.
func (p *Pins) Values() int64 {
	var n int64
	for _, v := range p.Draws {
		n += int64(len(v))
	}
	for _, v := range p.Order {
		n += int64(len(v))
	}
	for _, v := range p.Noise {
		n += int64(len(v))
	}
	return n
}

// Pins returns the values every seeded source of the run has served
// (Counting must be on), drawn again from fresh copies of their streams,
// which gives the same values without moving the run's: the algorithm's
// draws through their declarations' Replay over the run's Iterations,
// the sample orders and the noise draws at scale 1 as far as the run
// consumed them (at least one value each, so that a source that drew
// nothing is pinned too and no seed is left to read). decls are the
// algorithm's declarations (Factory.Draws).
func (e *Env) Pins(decls []Draw) Pins {
	var p Pins
	for _, src := range e.sources {
		if src.pinned != nil {
			continue
		}
		alg := strings.TrimSuffix(src.label, "/"+src.name)
		fresh := e.Replay(alg, src.name)
		var vals []float64
		k := slices.IndexFunc(decls, func(d Draw) bool { return d.Name == src.name })
		if k >= 0 && decls[k].Replay != nil {
			vals = decls[k].Replay(e, fresh, e.Iterations)
		} else {
			draw := fresh.Float64
			if k >= 0 && decls[k].Min > 0 {
				draw = fresh.OpenUnit
			}
			for range max(src.served, 1) {
				vals = append(vals, draw())
			}
		}
		if p.Draws == nil {
			p.Draws = map[string][]float64{}
		}
		p.Draws[src.name] = vals
	}
	if len(e.cursors) > 0 && e.cursors[0].s != nil {
		p.Order = make([][]int, len(e.cursors))
		for i, c := range e.cursors {
			fresh := &Cursor{m: c.m, mode: c.mode, order: make([]int, len(c.order)),
				s: rng.NewStream(e.Seeds.Data, fmt.Sprintf("samples/%d", i))}
			for k := range fresh.order {
				fresh.order[k] = k
			}
			o := make([]int, max(c.served, 1))
			for k := range o {
				o[k] = fresh.next()
			}
			p.Order[i] = o
		}
	}
	for _, c := range e.samplers {
		if c.s.Pinned() {
			continue
		}
		fresh := noise.NewSampler(e.Noise[c.channel].Dist, rng.NewStream(e.Seeds.Noise, c.label))
		u := make([]float64, max(c.s.Served(), 1))
		fresh.Fill(u, 1)
		if p.Noise == nil {
			p.Noise = map[string][]float64{}
		}
		p.Noise[c.channel] = u
	}
	return p
}

// PinsSize bounds the values Pins will hold after the run (Iterations),
// from what the algorithm asked for when it was built: a draw source of
// the algorithm seed holds at most Iterations + 1 values (a walk's first
// agent and one per iteration), a seeded sample cursor SampleRate per
// iteration, a seeded channel perIteration(channel) draws per iteration
// (one draw in all when its scale is 0).
func (e *Env) PinsSize(perIteration func(channel string) int64) int64 {
	k := int64(e.Iterations)
	var n int64
	for _, src := range e.sources {
		if src.pinned == nil {
			n += k + 1
		}
	}
	if len(e.cursors) > 0 && e.cursors[0].s != nil {
		n += int64(len(e.cursors)) * k * int64(max(e.SampleRate, 1))
	}
	for _, c := range e.samplers {
		switch {
		case c.s.Pinned():
		case e.Noise[c.channel].IsOff():
			n++ // no scale but 0: it draws nothing, and pins one draw
		default:
			n += k * perIteration(c.channel)
		}
	}
	return n
}

// AsPinned returns checkpoint positions p, saved by this run (with
// Counts), as a run of the scenario with pins added would save them at
// the same iteration: the streams of the pinned sources gone, the
// positions into the pinned values in their place (a count modulo the
// values' period, as pinned sources cycle). Positions already in that
// form are returned unchanged.
func (e *Env) AsPinned(p Positions, pins Pins) Positions {
	gone := map[string]bool{}
	q := Positions{Samples: slices.Clone(p.Samples), Counts: p.Counts}
	q.Draws, q.Noise = maps.Clone(p.Draws), maps.Clone(p.Noise)
	for _, src := range e.sources {
		if v, ok := pins.Draws[src.name]; ok && src.pinned == nil {
			key := drawKey(src.label)
			gone[key] = true
			if q.Draws == nil {
				q.Draws = map[string]int{}
			}
			q.Draws[src.label] = p.Counts[key] % len(v)
		}
	}
	if pins.Order != nil {
		for i := range e.cursors {
			key := cursorKey(i)
			gone[key] = true
			c := p.Counts[key]
			at := 0
			if c > 0 {
				at = (c-1)%len(pins.Order[i]) + 1
			}
			q.Samples[i] = CursorPosition{At: at, Started: c > 0}
		}
	}
	for _, c := range e.samplers {
		if v, ok := pins.Noise[c.channel]; ok && !c.s.Pinned() {
			key := samplerKey(c.label)
			gone[key] = true
			if q.Noise == nil {
				q.Noise = map[string]int{}
			}
			q.Noise[c.label] = p.Counts[key] % len(v)
		}
	}
	for _, s := range p.Streams {
		if !gone[s.Label] {
			q.Streams = append(q.Streams, s)
		}
	}
	if q.Streams == nil {
		q.Streams = []rng.Position{}
	}
	return q
}
