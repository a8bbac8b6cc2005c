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

// Compute returns the metrics of step s on prob, with opt the optimum (or
// nil). mean is scratch space of length s.Dim.
func Compute(prob problem.Problem, opt []float64, s *sim.Step, mean []float64) Point {
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
	Series Series

	step     *sim.Step // the last step seen, valid until the next Advance
	latest   Point
	latestOK bool
}

// NewRecorder returns a recorder for prob that keeps a point every every
// iterations and at iteration last.
func NewRecorder(prob problem.Problem, every, last int) *Recorder {
	return &Recorder{prob: prob, opt: prob.Optimum(), every: max(every, 1), last: last, mean: make([]float64, prob.Dim())}
}

// Record implements sim.Recorder.
func (r *Recorder) Record(s *sim.Step) {
	r.step, r.latestOK = s, false
	if s.Iter%r.every == 0 || s.Iter == r.last {
		r.Series.add(r.Latest())
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
	if _, err := fmt.Fprintln(w, "iteration,optimality,consensus,objective"); err != nil {
		return err
	}
	buf := make([]byte, 0, 96)
	for i := range s.Iter {
		buf = strconv.AppendInt(buf[:0], int64(s.Iter[i]), 10)
		for _, v := range []float64{s.Optimality[i], s.Consensus[i], s.Objective[i]} {
			buf = append(buf, ',')
			buf = strconv.AppendFloat(buf, v, 'g', -1, 64)
		}
		buf = append(buf, '\n')
		if _, err := w.Write(buf); err != nil {
			return err
		}
	}
	return nil
}
