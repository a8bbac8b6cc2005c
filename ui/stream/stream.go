// Package stream carries a run computed in a Web Worker to the page's
// simulator, which animates and records it as it does a run of its own
// (docs/bridge.md, "Heavy scenarios in a Worker"): each iteration's step
// — the estimates, every release with its noise part and receivers, the
// active agents, the shared output and prices — with the metrics point
// the run recorded at it, its communication counters and ε, in a compact
// binary form whose numbers keep their bits.
//
// It holds no syscall/js, so that it is tested natively.
package stream

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math"

	"dpsim/core/metrics"
	"dpsim/core/sim"
)

// Item is one iteration of the run as the worker recorded it.
type Item struct {
	Iter int
	// Step is the iteration's step, nil when the batch left it out (in
	// fast-forward only the batch's last step travels).
	Step *sim.Step
	// Point is the metrics point the run recorded at this iteration, nil
	// when it recorded none.
	Point *metrics.Point
	// Messages and Activations are the communication counters after the
	// iteration: messages sent, activations of the most active agent.
	Messages, Activations int64
	// HasEpsilon says Epsilon and EpsilonText are set: the ledger's
	// largest ε after the iteration, as a number and as people read it.
	HasEpsilon  bool
	Epsilon     float64
	EpsilonText string
}

// End says how the run ended, when it has.
type End struct {
	// Status is "done", "stopped", "diverged" or "failed".
	Status string
	// Reason is the stop rule's reason or the error.
	Reason string
}

// Batch is what one request to the worker brings back.
type Batch struct {
	Items []Item
	// Ghost holds the noise-free ghost's headline metric at the
	// iterations it has reached since the previous batch.
	Ghost []GhostPoint
	// End is set once the run has ended (after the batch's last item).
	End *End
}

// GhostPoint is the ghost's headline metric at one recorded iteration.
type GhostPoint struct {
	Iter  int
	Value float64
}

const magic = "DPS1"

// Encode writes b in the binary form Decode reads.
func Encode(b *Batch) []byte {
	w := &writer{buf: append(make([]byte, 0, 1024), magic...)}
	// The channel names, once per batch.
	chans := map[string]int{}
	var names []string
	for _, it := range b.Items {
		if it.Step == nil {
			continue
		}
		for i := range it.Step.Releases {
			c := it.Step.Releases[i].Channel
			if _, ok := chans[c]; !ok {
				chans[c] = len(names)
				names = append(names, c)
			}
		}
	}
	w.uint(len(names))
	for _, n := range names {
		w.str(n)
	}
	w.uint(len(b.Items))
	for _, it := range b.Items {
		w.uint(it.Iter)
		var flags byte
		if it.Step != nil {
			flags |= 1
		}
		if it.Point != nil {
			flags |= 2
		}
		if it.HasEpsilon {
			flags |= 4
		}
		w.buf = append(w.buf, flags)
		w.int(it.Messages)
		w.int(it.Activations)
		if it.HasEpsilon {
			w.float(it.Epsilon)
			w.str(it.EpsilonText)
		}
		if p := it.Point; p != nil {
			w.uint(p.Iter)
			w.float(p.Optimality)
			w.float(p.Consensus)
			w.float(p.Objective)
			w.floats(p.Extra)
		}
		if s := it.Step; s != nil {
			w.step(s, chans)
		}
	}
	w.uint(len(b.Ghost))
	for _, g := range b.Ghost {
		w.uint(g.Iter)
		w.float(g.Value)
	}
	if b.End == nil {
		w.buf = append(w.buf, 0)
	} else {
		w.buf = append(w.buf, 1)
		w.str(b.End.Status)
		w.str(b.End.Reason)
	}
	return w.buf
}

func (w *writer) step(s *sim.Step, chans map[string]int) {
	w.uint(s.Iter)
	w.uint(s.Dim)
	w.floats(s.Estimates)
	w.floats(s.Prices)
	w.ints(s.Active)
	w.floats(s.Output)
	w.uint(len(s.Releases))
	for i := range s.Releases {
		r := &s.Releases[i]
		w.uint(r.From)
		w.uint(chans[r.Channel])
		w.int(int64(r.Round))
		w.floats(r.Sent)
		w.floats(r.Noise)
		w.ints(r.To)
		w.floats(r.Factor)
		if r.Pull {
			w.buf = append(w.buf, 1)
		} else {
			w.buf = append(w.buf, 0)
		}
	}
}

type writer struct{ buf []byte }

func (w *writer) uint(v int)  { w.buf = binary.AppendUvarint(w.buf, uint64(v)) }
func (w *writer) int(v int64) { w.buf = binary.AppendVarint(w.buf, v) }
func (w *writer) float(v float64) {
	w.buf = binary.LittleEndian.AppendUint64(w.buf, math.Float64bits(v))
}
func (w *writer) str(s string) { w.uint(len(s)); w.buf = append(w.buf, s...) }

// floats writes a slice, nil apart from empty (length + 1; 0 is nil).
func (w *writer) floats(v []float64) {
	if v == nil {
		w.uint(0)
		return
	}
	w.uint(len(v) + 1)
	for _, x := range v {
		w.float(x)
	}
}

func (w *writer) ints(v []int) {
	if v == nil {
		w.uint(0)
		return
	}
	w.uint(len(v) + 1)
	for _, x := range v {
		w.int(int64(x))
	}
}

// Decode reads a batch Encode wrote. Bytes that are not one give an
// error, never a panic or an allocation beyond the input's size.
func Decode(data []byte) (*Batch, error) {
	if len(data) < len(magic) || string(data[:len(magic)]) != magic {
		return nil, errors.New("stream: not a batch")
	}
	r := &reader{b: data[len(magic):]}
	names := make([]string, r.count(1))
	for i := range names {
		names[i] = r.str()
	}
	b := &Batch{}
	n := r.count(4)
	for i := 0; i < n && r.err == nil; i++ {
		it := Item{Iter: r.uint()}
		flags := r.byte()
		it.Messages, it.Activations = r.int(), r.int()
		if flags&4 != 0 {
			it.HasEpsilon, it.Epsilon, it.EpsilonText = true, r.float(), r.str()
		}
		if flags&2 != 0 {
			it.Point = &metrics.Point{Iter: r.uint(), Optimality: r.float(), Consensus: r.float(), Objective: r.float(), Extra: r.floats()}
		}
		if flags&1 != 0 {
			it.Step = r.step(names)
		}
		b.Items = append(b.Items, it)
	}
	ng := r.count(9)
	for i := 0; i < ng && r.err == nil; i++ {
		b.Ghost = append(b.Ghost, GhostPoint{Iter: r.uint(), Value: r.float()})
	}
	if r.byte() == 1 {
		b.End = &End{Status: r.str(), Reason: r.str()}
	}
	if r.err == nil && len(r.b) > 0 {
		r.err = fmt.Errorf("stream: %d bytes after the batch", len(r.b))
	}
	if r.err != nil {
		return nil, r.err
	}
	return b, nil
}

func (r *reader) step(names []string) *sim.Step {
	s := &sim.Step{Iter: r.uint(), Dim: r.uint()}
	s.Estimates, s.Prices, s.Active, s.Output = r.floats(), r.floats(), r.ints(), r.floats()
	n := r.count(6)
	if n > 0 {
		s.Releases = make([]sim.Release, 0, n)
	}
	for i := 0; i < n && r.err == nil; i++ {
		rel := sim.Release{From: r.uint()}
		c := r.uint()
		if c < len(names) {
			rel.Channel = names[c]
		} else {
			r.fail(fmt.Errorf("stream: channel %d of %d", c, len(names)))
		}
		rel.Round = int(r.int())
		rel.Sent, rel.Noise, rel.To, rel.Factor = r.floats(), r.floats(), r.ints(), r.floats()
		rel.Pull = r.byte() == 1
		s.Releases = append(s.Releases, rel)
	}
	return s
}

type reader struct {
	b   []byte
	err error
}

func (r *reader) fail(err error) {
	if r.err == nil {
		r.err = err
	}
	r.b = nil
}

func (r *reader) uint() int {
	v, n := binary.Uvarint(r.b)
	if n <= 0 || v > math.MaxInt32 {
		r.fail(errors.New("stream: a bad count or index"))
		return 0
	}
	r.b = r.b[n:]
	return int(v)
}

func (r *reader) int() int64 {
	v, n := binary.Varint(r.b)
	if n <= 0 {
		r.fail(errors.New("stream: a bad integer"))
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *reader) byte() byte {
	if len(r.b) < 1 {
		r.fail(errors.New("stream: cut short"))
		return 0
	}
	v := r.b[0]
	r.b = r.b[1:]
	return v
}

func (r *reader) float() float64 {
	if len(r.b) < 8 {
		r.fail(errors.New("stream: cut short"))
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(r.b))
	r.b = r.b[8:]
	return v
}

// count reads a count of items of at least size bytes each, refusing
// one the remaining bytes cannot hold.
func (r *reader) count(size int) int {
	n := r.uint()
	if n > len(r.b)/size+1 {
		r.fail(fmt.Errorf("stream: %d items in %d bytes", n, len(r.b)))
		return 0
	}
	return n
}

func (r *reader) str() string {
	n := r.count(1)
	if n > len(r.b) {
		r.fail(errors.New("stream: cut short"))
		return ""
	}
	s := string(r.b[:n])
	r.b = r.b[n:]
	return s
}

// floats reads what writer.floats wrote.
func (r *reader) floats() []float64 {
	n := r.count(8)
	if n == 0 {
		return nil
	}
	out := make([]float64, n-1)
	for i := range out {
		out[i] = r.float()
	}
	return out
}

func (r *reader) ints() []int {
	n := r.count(1)
	if n == 0 {
		return nil
	}
	out := make([]int, n-1)
	for i := range out {
		out[i] = int(r.int())
	}
	return out
}
