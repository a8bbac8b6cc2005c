package rng

import (
	"fmt"
	"math/bits"
)

// State returns the stream's position: the one word from which every
// later draw follows. SetState(State()) resumes the stream exactly.
func (s *Stream) State() uint64 { return s.state }

// SetState moves the stream to a position State returned.
func (s *Stream) SetState(v uint64) { s.state = v }

// Position is one registered stream's label and position, as checkpoints
// save it.
type Position struct {
	Label string `json:"label"`
	State uint64 `json:"state"`
}

// Registry hands out the streams of one run and remembers them by label,
// so that a checkpoint can save where every stream stands (noise, the
// algorithm's own draws, the agents' sample orders) and a resumed run can
// put them back. The zero Registry is ready to use. It is not safe for
// concurrent use: a run is one goroutine.
type Registry struct {
	labels  []string
	streams []*Stream
	index   map[string]int
}

// Stream returns the stream for seed and label, registered under kind/label
// ("noise/gt-dp/s", "algorithm/dpp2/eta", "data/…"). Asking twice for the
// same registered label returns the same stream, so two parts of a run
// cannot draw the same words by accident.
func (r *Registry) Stream(kind string, seed uint64, label string) *Stream {
	key := kind + "/" + label
	if i, ok := r.index[key]; ok {
		return r.streams[i]
	}
	if r.index == nil {
		r.index = map[string]int{}
	}
	s := NewStream(seed, label)
	r.index[key] = len(r.streams)
	r.labels = append(r.labels, key)
	r.streams = append(r.streams, s)
	return s
}

// Positions returns every registered stream's position, in registration
// order.
func (r *Registry) Positions() []Position {
	ps := make([]Position, len(r.streams))
	for i, s := range r.streams {
		ps[i] = Position{Label: r.labels[i], State: s.state}
	}
	return ps
}

// Restore puts every stream named in ps back at its position. A label the
// registry does not hold, or a registered stream ps leaves out, is an
// error: the checkpoint belongs to another run.
func (r *Registry) Restore(ps []Position) error {
	if len(ps) != len(r.streams) {
		return fmt.Errorf("the checkpoint holds %d random streams; this run has %d", len(ps), len(r.streams))
	}
	for _, p := range ps {
		i, ok := r.index[p.Label]
		if !ok {
			return fmt.Errorf("the checkpoint's random stream %q is not one of this run's", p.Label)
		}
		r.streams[i].state = p.State
	}
	return nil
}

// IntN returns a uniform draw in [0, n) for n > 0 by Lemire's
// multiply-and-reject method ("Fast random integer generation in an
// interval", 2019): integer arithmetic only, so the draws are the same on
// every architecture, and unbiased. It panics if n ≤ 0 (a programming
// error: callers draw among a known, nonempty set).
func (s *Stream) IntN(n int) int {
	if n <= 0 {
		panic("rng: IntN of a nonpositive bound")
	}
	m := uint64(n)
	hi, lo := bits.Mul64(s.Uint64(), m)
	if lo < m {
		// Reject the low products that would favour small values.
		thresh := -m % m
		for lo < thresh {
			hi, lo = bits.Mul64(s.Uint64(), m)
		}
	}
	return int(hi)
}

// Shuffle puts p in a uniformly random order (Fisher–Yates with IntN):
// the same stream position gives the same order everywhere.
func (s *Stream) Shuffle(p []int) {
	for i := len(p) - 1; i > 0; i-- {
		j := s.IntN(i + 1)
		p[i], p[j] = p[j], p[i]
	}
}
