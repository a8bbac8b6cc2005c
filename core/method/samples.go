package method

import (
	"fmt"
	"math"

	"dpsim/core/objective"
	"dpsim/core/rng"
)

// Sample orders: how an agent's cursor walks its shard when the scenario
// does not pin the order (scenario "samples": {"mode": …}).
const (
	// Shuffle visits the shard in a fresh random order every epoch
	// (sampling without replacement; the default).
	Shuffle = "shuffle"
	// Replace draws every sample uniformly, independently (sampling with
	// replacement).
	Replace = "replace"
	// InOrder visits samples 0, 1, …, m−1 and starts again: a stream of
	// observations in arrival order (LDP online).
	InOrder = "in-order"
)

// SampleModes lists the sample orders.
func SampleModes() []string { return []string{Shuffle, Replace, InOrder} }

// Cursor is one agent's position in its sample stream. The run owns it,
// not the problem (which stays read-only and shareable): its order comes
// from the data seed's stream "samples/<i>", registered in the run's
// rng.Registry, or from the order the scenario pins; checkpoints save its
// position. A Cursor is not safe for concurrent use.
type Cursor struct {
	m     int
	mode  string
	order []int // the current epoch's order (Shuffle), 0..m−1 (InOrder) or the pinned order
	at    int   // next position in order
	// start is the stream's position before the current epoch was drawn
	// (Shuffle), so that a checkpoint can redraw the epoch.
	start   uint64
	started bool
	pinned  bool
	s       *rng.Stream
	batch   []int
	served  int // samples served
	// drawn counts the draws of each sample, first is the index (from 0)
	// of its first draw (−1: never), since the cursor was made: an audit
	// finds the sample a stream draws once (Drawn).
	drawn []int32
	first []int64
	draws int64
}

// CursorPosition is a Cursor's saved position.
type CursorPosition struct {
	// At is the next position in the current epoch's order.
	At int `json:"at"`
	// Epoch is the position of the cursor's stream before the current
	// epoch's order was drawn (shuffled orders only).
	Epoch uint64 `json:"epoch,omitempty"`
	// Started reports that the first epoch has been drawn.
	Started bool `json:"started,omitempty"`
}

// Size returns the agent's shard size.
func (c *Cursor) Size() int { return c.m }

// Next returns the next batch samples of the agent's stream (indices in
// [0, Size())), in a slice the cursor reuses: valid until the next call.
// An epoch that ends inside a batch continues into the next epoch.
func (c *Cursor) Next(batch int) []int {
	c.batch = c.batch[:0]
	for range batch {
		c.batch = append(c.batch, c.next())
	}
	return c.batch
}

func (c *Cursor) next() int {
	c.served++
	if c.mode == Replace && !c.pinned {
		return c.count(c.s.IntN(c.m))
	}
	if c.at == len(c.order) || !c.started {
		c.epoch()
	}
	v := c.order[c.at]
	c.at++
	return c.count(v)
}

// count notes a draw of sample v and returns it.
func (c *Cursor) count(v int) int {
	if c.drawn != nil {
		if c.drawn[v] == 0 {
			c.first[v] = c.draws
		}
		if c.drawn[v] < math.MaxInt32 {
			c.drawn[v]++
		}
		c.draws++
	}
	return v
}

// Drawn returns how many times sample k has been drawn since the cursor
// was made (a resumed run counts from its resume), and the index of its
// first draw among all of them (−1: never drawn).
func (c *Cursor) Drawn(k int) (count, first int) {
	if c.drawn == nil || k < 0 || k >= len(c.drawn) || c.drawn[k] == 0 {
		return 0, -1
	}
	return int(c.drawn[k]), int(c.first[k])
}

// epoch starts a new pass over the order (a new permutation for Shuffle).
func (c *Cursor) epoch() {
	c.at, c.started = 0, true
	if c.pinned || c.mode == InOrder {
		return
	}
	c.start = c.s.State()
	c.draw()
}

// draw sets order to the permutation the stream gives from its position.
func (c *Cursor) draw() {
	for i := range c.order {
		c.order[i] = i
	}
	c.s.Shuffle(c.order)
}

func (c *Cursor) position() CursorPosition {
	p := CursorPosition{At: c.at, Started: c.started}
	if c.mode == Shuffle && !c.pinned {
		p.Epoch = c.start
	}
	return p
}

func (c *Cursor) check(p CursorPosition) error {
	if p.At < 0 || p.At > len(c.order) {
		return fmt.Errorf("position %d is outside the epoch's %d samples", p.At, len(c.order))
	}
	return nil
}

// restore puts the cursor at p; its stream is already at its saved
// position.
func (c *Cursor) restore(p CursorPosition) {
	c.at, c.started = p.At, p.Started
	if c.mode == Shuffle && !c.pinned && p.Started {
		now := c.s.State()
		c.s.SetState(p.Epoch)
		c.start = p.Epoch
		c.draw()
		c.s.SetState(now)
	}
}

// Samples returns agent i's sample cursor, or nil when the problem serves
// no samples (objective.Stochastic). The first call creates every
// agent's cursor, in agent order, so call it at Build: a resumed run must
// hold the same cursors as the run it continues.
func (e *Env) Samples(i int) *Cursor {
	st, ok := e.Problem.(objective.Stochastic)
	if !ok {
		return nil
	}
	if e.cursors == nil {
		mode := e.SampleMode
		if mode == "" {
			mode = Shuffle
		}
		for a := range st.Agents() {
			c := &Cursor{m: st.Samples(a), mode: mode}
			c.drawn, c.first = make([]int32, c.m), make([]int64, c.m)
			switch {
			case e.SampleOrder != nil:
				c.pinned = true
				c.order = e.SampleOrder[a]
			case mode == Replace:
				c.s = e.streams().Stream("data", e.Seeds.Data, fmt.Sprintf("samples/%d", a))
			default:
				c.order = make([]int, c.m)
				for k := range c.order {
					c.order[k] = k
				}
				if mode == Shuffle {
					c.s = e.streams().Stream("data", e.Seeds.Data, fmt.Sprintf("samples/%d", a))
				}
			}
			e.cursors = append(e.cursors, c)
		}
	}
	return e.cursors[i]
}

// ResetStreams forgets every stream, pinned-draw source and sample cursor
// the env has handed out, so that an algorithm built again on it (after
// a calibration changed its noise) draws from fresh streams, exactly as
// a replay of the pinned scenario does. Cursors must go too: they hold
// streams of the old registry, which checkpoints would no longer see.
func (e *Env) ResetStreams() {
	e.Streams = &rng.Registry{}
	e.sources, e.cursors, e.samplers = nil, nil, nil
}
