// Package metrics records the error curves of a run: the distance of the
// agents' estimates to the central optimum, their disagreement, and the
// objective at their average.
package metrics

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"dpsim/core/problem"
	"dpsim/core/sim"
)

// Point is the metrics at one iteration k.
type Point struct {
	Iter int
	// Optimality is (1/n)·Σ_i ‖x_i − x*‖², NaN when the problem offers no
	// optimum.
	Optimality float64
	// Consensus is (1/n)·Σ_i ‖x_i − x̄‖² with x̄ the average estimate.
	Consensus float64
	// Objective is the problem's global objective at x̄.
	Objective float64
}

// Measurer is implemented by problems whose metrics are not distances to
// one common optimum, such as resource allocation, where agent i has its
// own w_i*. Measure returns the point of step s; Iter is set by Compute.
// The problem documents what its three numbers mean.
type Measurer interface {
	Measure(s *sim.Step) Point
}

// Extras is implemented by problems that record series of their own
// beside the three metrics, at the same iterations (resource allocation:
// the total allocation, the supply–demand gap, every agent's allocation).
type Extras interface {
	// ExtraNames names the series, in order; it must not change.
	ExtraNames() []string
	// Extras writes the series' values at step s into dst, one per name.
	Extras(s *sim.Step, dst []float64)
}

// Compute returns the metrics of step s on prob, with opt the optimum (or
// nil). mean is scratch space of length s.Dim.
func Compute(prob problem.Problem, opt []float64, s *sim.Step, mean []float64) Point {
	if m, ok := prob.(Measurer); ok {
		p := m.Measure(s)
		p.Iter = s.Iter
		return p
	}
	n, d := s.Agents(), s.Dim
	clear(mean)
	for i := range n {
		for c, v := range s.Estimate(i) {
			mean[c] += v
		}
	}
	for c := range mean {
		mean[c] /= float64(n)
	}
	p := Point{Iter: s.Iter, Optimality: math.NaN()}
	cons, optE := 0.0, 0.0
	for i := range n {
		x := s.Estimate(i)
		for c := range d {
			dc := x[c] - mean[c]
			cons += dc * dc
			if opt != nil {
				do := x[c] - opt[c]
				optE += do * do
			}
		}
	}
	p.Consensus = cons / float64(n)
	if opt != nil {
		p.Optimality = optE / float64(n)
	}
	p.Objective = prob.Objective(mean)
	return p
}

// Series is the recorded metrics, one slice per quantity (JSON-friendly;
// non-finite values are written as null).
type Series struct {
	Iter       []int  `json:"iteration"`
	Optimality Floats `json:"optimality"`
	Consensus  Floats `json:"consensus"`
	Objective  Floats `json:"objective"`
	// Extra holds the problem's own series (Extras), in its order.
	Extra []Extra `json:"extra,omitempty"`
}

// Extra is one problem-defined series, recorded at Series.Iter.
type Extra struct {
	Name   string `json:"name"`
	Values Floats `json:"values"`
}

// ExtraSeries returns the problem-defined series called name, or nil.
func (s *Series) ExtraSeries(name string) Floats {
	for _, e := range s.Extra {
		if e.Name == name {
			return e.Values
		}
	}
	return nil
}

// Floats is a []float64 whose JSON form writes non-finite values as null
// (JSON has no NaN or Inf) and reads null back as NaN.
type Floats []float64

// MarshalJSON implements json.Marshaler.
func (f Floats) MarshalJSON() ([]byte, error) {
	if f == nil {
		return []byte("[]"), nil
	}
	buf := make([]byte, 0, 2+len(f)*20)
	buf = append(buf, '[')
	for i, v := range f {
		if i > 0 {
			buf = append(buf, ',')
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			buf = append(buf, "null"...)
			continue
		}
		buf = strconv.AppendFloat(buf, v, 'g', -1, 64)
	}
	return append(buf, ']'), nil
}

// UnmarshalJSON implements json.Unmarshaler.
func (f *Floats) UnmarshalJSON(b []byte) error {
	var raw []*float64
	if err := json.Unmarshal(b, &raw); err != nil {
		return err
	}
	*f = make(Floats, len(raw))
	for i, p := range raw {
		if p == nil {
			(*f)[i] = math.NaN()
		} else {
			(*f)[i] = *p
		}
	}
	return nil
}

// Len returns the number of recorded points.
func (s *Series) Len() int { return len(s.Iter) }

// At returns point i.
func (s *Series) At(i int) Point {
	return Point{Iter: s.Iter[i], Optimality: s.Optimality[i], Consensus: s.Consensus[i], Objective: s.Objective[i]}
}

func (s *Series) add(p Point) {
	s.Iter = append(s.Iter, p.Iter)
	s.Optimality = append(s.Optimality, p.Optimality)
	s.Consensus = append(s.Consensus, p.Consensus)
	s.Objective = append(s.Objective, p.Objective)
}

// Recorder records the metrics every Every iterations, at iteration 0 and
// at the last iteration. It computes nothing on the other iterations, so a
// long run recorded sparsely costs only the algorithm's own work.
type Recorder struct {
	prob   problem.Problem
	opt    []float64
	every  int
	last   int
	mean   []float64
	extras Extras    // nil unless the problem records its own series
	xbuf   []float64 // one value per extra series
	Series Series

	step     *sim.Step // the last step seen, valid until the next Advance
	latest   Point
	latestOK bool
}

// NewRecorder returns a recorder for prob that keeps a point every every
// iterations and at iteration last.
func NewRecorder(prob problem.Problem, every, last int) *Recorder {
	r := &Recorder{prob: prob, opt: prob.Optimum(), every: max(every, 1), last: last, mean: make([]float64, prob.Dim())}
	if x, ok := prob.(Extras); ok {
		r.extras = x
		names := x.ExtraNames()
		r.xbuf = make([]float64, len(names))
		for _, n := range names {
			r.Series.Extra = append(r.Series.Extra, Extra{Name: n, Values: Floats{}})
		}
	}
	return r
}

// Record implements sim.Recorder.
func (r *Recorder) Record(s *sim.Step) {
	r.step, r.latestOK = s, false
	if s.Iter%r.every == 0 || s.Iter == r.last {
		r.Series.add(r.Latest())
		if r.extras != nil {
			r.extras.Extras(s, r.xbuf)
			for k, v := range r.xbuf {
				r.Series.Extra[k].Values = append(r.Series.Extra[k].Values, v)
			}
		}
	}
}

// Latest returns the metrics of the last step recorded, computing them if
// that step was not kept. Call it before the algorithm advances again.
func (r *Recorder) Latest() Point {
	if !r.latestOK && r.step != nil {
		r.latest = Compute(r.prob, r.opt, r.step, r.mean)
		r.latestOK = true
	}
	return r.latest
}

// WriteCSV writes the series as CSV with a header line; non-finite values
// are written as NaN, +Inf or -Inf, which spreadsheet programs read.
func (s *Series) WriteCSV(w io.Writer) error {
	head := "iteration,optimality,consensus,objective"
	for _, e := range s.Extra {
		head += "," + csvField(e.Name)
	}
	if _, err := fmt.Fprintln(w, head); err != nil {
		return err
	}
	buf := make([]byte, 0, 96)
	for i := range s.Iter {
		buf = strconv.AppendInt(buf[:0], int64(s.Iter[i]), 10)
		for _, v := range []float64{s.Optimality[i], s.Consensus[i], s.Objective[i]} {
			buf = append(buf, ',')
			buf = strconv.AppendFloat(buf, v, 'g', -1, 64)
		}
		for _, e := range s.Extra {
			buf = append(buf, ',')
			buf = strconv.AppendFloat(buf, e.Values[i], 'g', -1, 64)
		}
		buf = append(buf, '\n')
		if _, err := w.Write(buf); err != nil {
			return err
		}
	}
	return nil
}

// csvField quotes a header name when it holds a comma or a quote.
func csvField(s string) string {
	if !strings.ContainsAny(s, ",\"\n") {
		return s
	}
	return `"` + strings.ReplaceAll(s, `"`, `""`) + `"`
}
