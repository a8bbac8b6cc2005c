// Package metrics records the error curves of a run: the distance of the
// agents' estimates to the central optimum, their disagreement, the
// objective at their average, and whatever extra quantities the problem
// measures (objective.Measured).
package metrics

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"dpsim/core/check"
	"dpsim/core/objective"
	"dpsim/core/pool"
	"dpsim/core/sim"
)

// Point is the metrics at one iteration k.
type Point struct {
	Iter int
	// Optimality is the distance to the optimum as the problem defines it
	// (Labels says which): (1/n)·Σ_i ‖x_i − x*‖² unless the problem is
	// Generic; NaN when the problem offers no optimum.
	Optimality float64
	// Consensus is the agents' disagreement as the problem defines it
	// (Labels): (1/n)·Σ_i ‖x_i − x̄‖², x̄ the average estimate, unless the
	// problem is Generic.
	Consensus float64
	// Objective is the problem's global objective at x̄.
	Objective float64
	// Extra holds the problem's own metrics (objective.Measured), in the
	// order of its MetricNames; nil when it has none.
	Extra []float64
}

// Generic is implemented by problems whose generic metrics are not
// distances to one common optimum — resource allocation, where agent i
// has its own w_i* and the prices travel in sim.Step.Prices. MetricLabels
// says what its optimality and consensus numbers are, in symbols, for the
// page.
type Generic interface {
	GenericMetrics(s *sim.Step) (optimality, consensus, objective float64)
	MetricLabels() (optimality, consensus string)
}

// The generic metrics' definitions, for problems that are not Generic.
// Whatever names or draws these metrics asks Labels, never these
// constants: a Generic problem defines its own.
const (
	OptimalityLabel = "(1/n)·Σ_i ‖x_i − x*‖²"
	ConsensusLabel  = "(1/n)·Σ_i ‖x_i − x̄‖²"
	// OutputOptimalityLabel is the optimality metric of an algorithm
	// whose estimate is shared state (sim.Step.Output): one point, no
	// average over agents.
	OutputOptimalityLabel = "‖x − x*‖² at the shared estimate x"
	// OutputConsensusLabel is the consensus metric of such an algorithm:
	// the spread of what the agents hold locally; a single shared
	// estimate has no disagreement of its own.
	OutputConsensusLabel = "(1/n)·Σ_i ‖x_i − x̄‖² over the agents' local copies"
	// NoOptimumLabel stands for the optimality metric of a problem
	// without a known optimum; the metric is NaN (null in exports).
	NoOptimumLabel = "none: the problem has no known optimum x*"
	// StationarityLabel is the stationarity metric, recorded when the
	// problem has no known optimum.
	StationarityLabel = "‖(1/n)·Σ_i ∇f_i(x_i)‖²"
	// OutputStationarityLabel is the stationarity metric at a shared
	// estimate.
	OutputStationarityLabel = "‖(1/n)·Σ_i ∇f_i(x)‖² at the shared estimate x"
	// NoOptimumNote says why a problem's plots show no ‖x − x*‖.
	NoOptimumNote = "no ‖x − x*‖: the problem has no known optimum (a nonconvex loss has no x* to compute), so the headline metrics are stationarity ‖(1/n)·Σ_i ∇f_i(x_i)‖² and consensus"
)

// Labels returns what prob's optimality and consensus metrics are, in
// symbols: OptimalityLabel and ConsensusLabel unless prob is Generic or
// has no optimum (Describe).
func Labels(prob objective.Problem) (optimality, consensus string) {
	d := Describe(prob, false)
	return d.Optimality, d.Consensus
}

// Description says what a run's metrics are, for the export, the plots
// and the page.
type Description struct {
	Optimality string `json:"optimality"`
	Consensus  string `json:"consensus"`
	// Stationarity is set when the stationarity column is recorded (the
	// problem has no known optimum).
	Stationarity string `json:"stationarity,omitempty"`
	// Note explains a metric that is missing, such as ‖x − x*‖ for a
	// problem without a known optimum.
	Note string `json:"note,omitempty"`
}

// Describe says what the metrics of prob are when the algorithm's
// estimate is per agent (shared false) or the shared sim.Step.Output
// (shared true).
func Describe(prob objective.Problem, shared bool) Description {
	if g, ok := prob.(Generic); ok {
		var d Description
		d.Optimality, d.Consensus = g.MetricLabels()
		return d
	}
	d := Description{Optimality: OptimalityLabel, Consensus: ConsensusLabel}
	if shared {
		d.Optimality, d.Consensus = OutputOptimalityLabel, OutputConsensusLabel
	}
	if prob.Optimum() == nil {
		d.Optimality, d.Note = NoOptimumLabel, NoOptimumNote
		d.Stationarity = StationarityLabel
		if shared {
			d.Stationarity = OutputStationarityLabel
		}
	}
	return d
}

// Evaluated is implemented by problems with metrics too expensive to
// compute at every recorded point — test accuracy over thousands of
// images (LDP online). The recorder evaluates them every
// record.eval_every iterations, at iteration 0 and at the last recorded
// iteration, and records NaN (null) at the other points; the live
// readout (Recorder.Latest) never evaluates them.
type Evaluated interface {
	// EvaluatedNames names the metrics (JSON keys: lower case, '_').
	EvaluatedNames() []string
	// Evaluate writes one value per name into out, from step s (its
	// Estimates, or its Output when the estimate is shared).
	Evaluate(s *sim.Step, out []float64)
}

// Compute returns the metrics of step s on prob, with opt the optimum (or
// nil). mean is scratch space of length s.Dim. When s.Output is set, the
// optimality and the objective are measured at it, and the consensus
// over the agents' local Estimates (NaN when they hold none).
func Compute(prob objective.Problem, opt []float64, s *sim.Step, mean []float64) Point {
	if g, ok := prob.(Generic); ok {
		p := Point{Iter: s.Iter}
		p.Optimality, p.Consensus, p.Objective = g.GenericMetrics(s)
		measure(prob, s, &p)
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
	p := Point{Iter: s.Iter, Optimality: math.NaN(), Consensus: math.NaN()}
	cons, optE := 0.0, 0.0
	for i := range n {
		x := s.Estimate(i)
		for c := range d {
			dc := x[c] - mean[c]
			cons += float64(dc * dc)
			if opt != nil {
				do := x[c] - opt[c]
				optE += float64(do * do)
			}
		}
	}
	if n > 0 {
		p.Consensus = cons / float64(n)
	}
	if s.Output != nil {
		optE = 0
		for c, v := range s.Output {
			if opt != nil {
				do := v - opt[c]
				optE += float64(do * do)
			}
		}
		if opt != nil {
			p.Optimality = optE
		}
		p.Objective = prob.Objective(s.Output)
	} else {
		if opt != nil {
			p.Optimality = optE / float64(n)
		}
		p.Objective = prob.Objective(mean)
	}
	measure(prob, s, &p)
	return p
}

// measure sets p.Extra to the problem's own metrics (objective.Measured)
// of step s: at the shared estimate when the step has one (s.Output, as
// the optimality and the objective are), else at the agents' estimates.
// DP-RECAL's relative error is the paper's ‖x − x*‖/‖x*‖ at the baton's
// x, not at the mean of the agents' local copies y_i.
func measure(prob objective.Problem, s *sim.Step, p *Point) {
	m, ok := prob.(objective.Measured)
	if !ok {
		return
	}
	p.Extra = make([]float64, len(m.MetricNames()))
	at := s.Estimates
	if s.Output != nil {
		at = s.Output
	}
	m.Measure(at, s.Dim, p.Extra)
}

// Stationarity returns ‖(1/n)·Σ_i ∇f_i(x_i)‖² for step s on prob: at the
// agents' estimates, or at s.Output for every i when it is set. It uses
// objective.Batch when prob offers it, and spreads the agents over p's
// workers otherwise (objective.Grads; nil: one goroutine). x and g are
// scratch space of length n·Dim (grown as needed) and are returned for
// reuse.
func Stationarity(p *pool.Pool, prob objective.Problem, s *sim.Step, x, g []float64) (float64, []float64, []float64) {
	n, d := prob.Agents(), prob.Dim()
	if cap(x) < n*d {
		x, g = make([]float64, n*d), make([]float64, n*d)
	}
	x, g = x[:n*d], g[:n*d]
	if s.Output != nil {
		for i := range n {
			copy(x[i*d:(i+1)*d], s.Output)
		}
	} else {
		copy(x, s.Estimates)
	}
	objective.Grads(p, prob, x, g)
	sum := 0.0
	for c := range d {
		m := 0.0
		for i := range n {
			m += g[i*d+c]
		}
		m /= float64(n)
		sum += float64(m * m)
	}
	return sum, x, g
}

// Series is the recorded metrics, one slice per quantity (JSON-friendly;
// non-finite values are written as null). The problem's extra metrics
// follow the three generic ones, by name.
//
// A long run can spill its older points to a file (Spill), so that memory
// stays flat; the slices then hold only the points not yet spilled, and
// Len, At, Each, WriteCSV and WriteJSON see them all.
type Series struct {
	Iter       []int  `json:"iteration"`
	Optimality Floats `json:"optimality"`
	Consensus  Floats `json:"consensus"`
	Objective  Floats `json:"objective"`
	// ExtraNames names the problem's extra metrics; Extra[k] is the
	// column of ExtraNames[k].
	ExtraNames []string `json:"-"`
	Extra      []Floats `json:"-"`

	spill   SpillFile
	spilled int // points in the spill file
	keep    int // points held in memory before spilling
	err     error
}

// SpillFile is where a Series spills points: a temporary file, say.
type SpillFile interface {
	io.Writer
	io.ReaderAt
}

// Floats is a []float64 whose JSON form writes NaN as null and ±Inf as
// the strings "Inf" and "-Inf" (JSON has neither; R, NumPy and pandas
// read those strings as numbers, and dpsim's sweeps already write them),
// and reads each back exactly, so that a checkpoint or a metric that
// overflowed survives the round trip through an export (a resumed run
// then continues with the same bits).
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
		buf = appendFloat(buf, v)
	}
	return append(buf, ']'), nil
}

// UnmarshalJSON implements json.Unmarshaler: numbers, null (NaN), "Inf"
// and "-Inf"; anything else is an error naming the entry.
func (f *Floats) UnmarshalJSON(b []byte) error {
	v, at, err := parseFloats(b)
	if err != nil {
		if at >= 0 {
			return fmt.Errorf("[%d]: %v", at, err)
		}
		return err
	}
	*f = v
	return nil
}

// parseFloats reads a list as Floats writes it; on error, at is the
// entry at fault (−1 when the value is not a list).
func parseFloats(b []byte) (f Floats, at int, err error) {
	var raw []*float64
	if json.Unmarshal(b, &raw) == nil {
		f = make(Floats, len(raw))
		for i, p := range raw {
			f[i] = math.NaN()
			if p != nil {
				f[i] = *p
			}
		}
		return f, -1, nil
	}
	// Slower: some entries are strings (or wrong).
	var vals []json.RawMessage
	if err := json.Unmarshal(b, &vals); err != nil {
		return nil, -1, fmt.Errorf("is %s; must be a list of numbers (null for NaN, \"Inf\", \"-Inf\")", clip(b))
	}
	f = make(Floats, len(vals))
	for i, v := range vals {
		if f[i], err = parseFloat(v); err != nil {
			return nil, i, err
		}
	}
	return f, -1, nil
}

// parseFloat reads one value as appendFloat writes it.
func parseFloat(b []byte) (float64, error) {
	switch string(b) {
	case "null":
		return math.NaN(), nil
	case `"Inf"`:
		return math.Inf(1), nil
	case `"-Inf"`:
		return math.Inf(-1), nil
	}
	var v float64
	if err := json.Unmarshal(b, &v); err != nil {
		return 0, fmt.Errorf("is %s; must be a number, null (NaN), \"Inf\" or \"-Inf\"", clip(b))
	}
	return v, nil
}

// clip shortens a JSON value quoted in an error to one line of at most
// 40 bytes.
func clip(b []byte) string {
	s := strings.Join(strings.Fields(string(b)), " ")
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	return s
}

// Len returns the number of recorded points.
func (s *Series) Len() int { return s.spilled + len(s.Iter) }

// columns is the number of values per point, the iteration included.
func (s *Series) columns() int { return 4 + len(s.ExtraNames) }

// At returns point i. A spilled point is read back value by value: to
// go through many points use Each or EachValue.
func (s *Series) At(i int) Point {
	if i < s.spilled {
		row := make([]float64, s.columns())
		s.readRow(i, row)
		return rowPoint(row)
	}
	i -= s.spilled
	p := Point{Iter: s.Iter[i], Optimality: s.Optimality[i], Consensus: s.Consensus[i], Objective: s.Objective[i]}
	if len(s.Extra) > 0 {
		p.Extra = make([]float64, len(s.Extra))
		for k, col := range s.Extra {
			p.Extra[k] = col[i]
		}
	}
	return p
}

func rowPoint(row []float64) Point {
	p := Point{Iter: int(row[0]), Optimality: row[1], Consensus: row[2], Objective: row[3]}
	if len(row) > 4 {
		p.Extra = append([]float64(nil), row[4:]...)
	}
	return p
}

// Spill makes the series write its points to f whenever keep of them are
// held in memory, so that memory stays bounded however long the run.
// Points already held (a resumed run's history) are spilled at once, keep
// at a time, as if they had been added after the call.
func (s *Series) Spill(f SpillFile, keep int) {
	s.spill, s.keep = f, max(1, keep)
	for len(s.Iter) >= s.keep && s.err == nil {
		s.flush()
	}
}

// Snapshot returns the series as it is now, which points added later do
// not change: it shares the recorded values (they never change once
// added) unless the series spills, whose in-memory points are reused
// after each spill and are copied. Writing a snapshot (WriteJSON,
// WriteCSVWith) while the run goes on is then safe.
func (s *Series) Snapshot() *Series {
	c := *s
	n := len(s.Iter)
	if s.spill == nil {
		// Full slice expressions: an append to c never writes into s.
		c.Iter, c.Optimality, c.Consensus, c.Objective = s.Iter[:n:n], s.Optimality[:n:n], s.Consensus[:n:n], s.Objective[:n:n]
		c.Extra = make([]Floats, len(s.Extra))
		for k := range s.Extra {
			c.Extra[k] = s.Extra[k][:n:n]
		}
	} else {
		c.Iter = slices.Clone(s.Iter)
		c.Optimality, c.Consensus, c.Objective = slices.Clone(s.Optimality), slices.Clone(s.Consensus), slices.Clone(s.Objective)
		c.Extra = make([]Floats, len(s.Extra))
		for k := range s.Extra {
			c.Extra[k] = slices.Clone(s.Extra[k])
		}
	}
	c.ExtraNames = slices.Clone(s.ExtraNames)
	return &c
}

// Err returns the first error writing or reading the spill file.
func (s *Series) Err() error { return s.err }

// Append adds p at the end: a series kept from points recorded elsewhere
// (a run computed in a Web Worker, ui/remote.go). p's extra values are
// in ExtraNames' order.
func (s *Series) Append(p Point) { s.add(p) }

func (s *Series) add(p Point) {
	s.Iter = append(s.Iter, p.Iter)
	s.Optimality = append(s.Optimality, p.Optimality)
	s.Consensus = append(s.Consensus, p.Consensus)
	s.Objective = append(s.Objective, p.Objective)
	for k := range s.Extra {
		v := math.NaN()
		if k < len(p.Extra) {
			v = p.Extra[k]
		}
		s.Extra[k] = append(s.Extra[k], v)
	}
	if s.spill != nil && len(s.Iter) >= s.keep {
		s.flush()
	}
}

// memValue returns column c (0 the iteration, then Names' columns) of the
// in-memory point i.
func (s *Series) memValue(c, i int) float64 {
	switch c {
	case 0:
		return float64(s.Iter[i])
	case 1:
		return s.Optimality[i]
	case 2:
		return s.Consensus[i]
	case 3:
		return s.Objective[i]
	}
	return s.Extra[c-4][i]
}

// flush appends the first keep points held in memory to the spill file
// as one chunk of little-endian float64s, column by column (the iteration
// first; exact below 2^53): a column of the whole series is then one read
// per chunk, so WriteJSON, which writes column by column, reads the file
// once, whatever the number of columns. Every chunk holds exactly keep
// points (offset relies on it).
func (s *Series) flush() {
	if s.err != nil {
		return
	}
	n := s.keep
	buf := make([]byte, 0, n*8)
	for c := range s.columns() {
		buf = buf[:0]
		for i := range n {
			buf = binary.LittleEndian.AppendUint64(buf, math.Float64bits(s.memValue(c, i)))
		}
		if _, err := s.spill.Write(buf); err != nil {
			s.err = fmt.Errorf("metrics: spilling to disk: %w", err)
			return
		}
	}
	s.spilled += n
	// Usually nothing is left; a history added before Spill may leave more.
	s.Iter = s.Iter[:copy(s.Iter, s.Iter[n:])]
	s.Optimality = s.Optimality[:copy(s.Optimality, s.Optimality[n:])]
	s.Consensus = s.Consensus[:copy(s.Consensus, s.Consensus[n:])]
	s.Objective = s.Objective[:copy(s.Objective, s.Objective[n:])]
	for k := range s.Extra {
		s.Extra[k] = s.Extra[k][:copy(s.Extra[k], s.Extra[k][n:])]
	}
}

// AppendUpTo adds the points of src (held in memory, with the same
// columns) at iterations up to iter, in order, as add would: a resumed
// run takes the history of the run it continues with it. It spills as
// add does.
func (s *Series) AppendUpTo(src *Series, iter int) error {
	if len(src.Extra) != len(s.Extra) || src.spilled > 0 {
		return fmt.Errorf("metrics: the history has %d extra columns; the series has %d", len(src.Extra), len(s.Extra))
	}
	for k, it := range src.Iter {
		if it > iter {
			break
		}
		s.Iter = append(s.Iter, it)
		s.Optimality = append(s.Optimality, src.Optimality[k])
		s.Consensus = append(s.Consensus, src.Consensus[k])
		s.Objective = append(s.Objective, src.Objective[k])
		for c := range s.Extra {
			s.Extra[c] = append(s.Extra[c], src.Extra[c][k])
		}
		if s.spill != nil && len(s.Iter) >= s.keep {
			s.flush()
		}
	}
	return s.err
}

// offset is where the spilled value of point i, column c starts.
func (s *Series) offset(i, c int) int64 {
	q, r := int64(i/s.keep), int64(i%s.keep)
	keep, m := int64(s.keep), int64(s.columns())
	return (q*keep*m + int64(c)*keep + r) * 8
}

// readValues reads n spilled values of column c from point i on (all in
// one chunk) into out.
func (s *Series) readValues(i, c int, buf []byte, out []float64) error {
	n := len(out)
	if _, err := s.spill.ReadAt(buf[:n*8], s.offset(i, c)); err != nil {
		return fmt.Errorf("metrics: reading the spilled points: %w", err)
	}
	for k := range out {
		out[k] = math.Float64frombits(binary.LittleEndian.Uint64(buf[8*k:]))
	}
	return nil
}

func (s *Series) readRow(i int, row []float64) {
	var b [8]byte
	for c := range row {
		if err := s.readValues(i, c, b[:], row[c:c+1]); err != nil && s.err == nil {
			s.err = err
		}
	}
}

// eachRow calls fn with every point's row of values (the iteration first),
// reading spilled points a block of rows at a time with a buffer of about
// a megabyte; fn must not keep row.
func (s *Series) eachRow(fn func(row []float64) error) error {
	m := s.columns()
	row := make([]float64, m)
	if s.spilled > 0 {
		block := min(s.keep, max(1, (1<<17)/m))
		vals := make([]float64, block*m)
		buf := make([]byte, block*8)
		for i := 0; i < s.spilled; {
			// A block never straddles two chunks.
			k := min(block, s.keep-i%s.keep, s.spilled-i)
			for c := range m {
				if err := s.readValues(i, c, buf, vals[c*k:(c+1)*k]); err != nil {
					return err
				}
			}
			for r := range k {
				for c := range row {
					row[c] = vals[c*k+r]
				}
				if err := fn(row); err != nil {
					return err
				}
			}
			i += k
		}
	}
	for i := range s.Iter {
		for c := range row {
			row[c] = s.memValue(c, i)
		}
		if err := fn(row); err != nil {
			return err
		}
	}
	return s.err
}

// Each calls fn with every point in order, reading spilled points in
// blocks; it stops at the first error fn returns.
func (s *Series) Each(fn func(p Point) error) error {
	return s.eachRow(func(row []float64) error { return fn(rowPoint(row)) })
}

// EachValue calls fn with every point's value of column c in order (0 is
// the iteration, then the columns Names lists), reading spilled values one
// chunk at a time; it stops at the first error fn returns.
func (s *Series) EachValue(c int, fn func(v float64) error) error {
	if c < 0 || c >= s.columns() {
		return fmt.Errorf("metrics: no column %d (the series has %d)", c, s.columns())
	}
	if s.spilled > 0 {
		vals := make([]float64, s.keep)
		buf := make([]byte, s.keep*8)
		for i := 0; i < s.spilled; i += s.keep {
			if err := s.readValues(i, c, buf, vals); err != nil {
				return err
			}
			for _, v := range vals {
				if err := fn(v); err != nil {
					return err
				}
			}
		}
	}
	for i := range s.Iter {
		if err := fn(s.memValue(c, i)); err != nil {
			return err
		}
	}
	return s.err
}

// ExtraColumn returns the recorded values of the extra metric called
// name (those held in memory: all of them unless the series spilled), or
// nil.
func (s *Series) ExtraColumn(name string) Floats {
	for k, n := range s.ExtraNames {
		if n == name {
			return s.Extra[k]
		}
	}
	return nil
}

// Names returns the names of the value columns: optimality, consensus,
// objective, then the problem's extra metrics.
func (s *Series) Names() []string {
	return append([]string{"optimality", "consensus", "objective"}, s.ExtraNames...)
}

// MarshalJSON writes {"iteration": […], "optimality": […], …, extras…}.
func (s *Series) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	if err := s.WriteJSON(&b, "", ""); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// UnmarshalJSON reads what MarshalJSON writes, strictly: the columns
// iteration, optimality, consensus and objective first and in that order,
// then the extra columns (in key order), each named once and each as long
// as the iteration column, the iterations whole numbers. Its errors are
// *check.Error naming the column (and the entry) at fault.
func (s *Series) UnmarshalJSON(data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return check.Errorf("", "must be an object of columns (iteration, optimality, consensus, objective, …)")
	}
	*s = Series{}
	generic := []string{"iteration", "optimality", "consensus", "objective"}
	seen := map[string]bool{}
	for k := 0; dec.More(); k++ {
		t, err := dec.Token()
		if err != nil {
			return check.Errorf("", "%v", err)
		}
		key := t.(string) // dec.More inside an object: a key
		if seen[key] {
			return check.Errorf(key, "is given twice; a series names each column once")
		}
		seen[key] = true
		if k < len(generic) && key != generic[k] {
			return check.Errorf(key, "comes where %q belongs: a series starts with the columns %s, in that order", generic[k], strings.Join(generic, ", "))
		}
		if key == "iteration" {
			var raw []json.RawMessage
			if err := dec.Decode(&raw); err != nil {
				return check.Errorf(key, "must be a list of whole numbers")
			}
			s.Iter = make([]int, len(raw))
			for i, r := range raw {
				if err := json.Unmarshal(r, &s.Iter[i]); err != nil {
					return check.Errorf(check.Index(key, i), "is %s; must be a whole number", clip(r))
				}
			}
			continue
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return check.Errorf(key, "%v", err)
		}
		col, at, err := parseFloats(raw)
		if err != nil {
			if at >= 0 {
				key = check.Index(key, at)
			}
			return check.Errorf(key, "%v", err)
		}
		if len(col) != len(s.Iter) {
			return check.Errorf(key, "has %d values; the iteration column has %d (one value per recorded iteration)", len(col), len(s.Iter))
		}
		switch key {
		case "optimality":
			s.Optimality = col
		case "consensus":
			s.Consensus = col
		case "objective":
			s.Objective = col
		default:
			s.ExtraNames = append(s.ExtraNames, key)
			s.Extra = append(s.Extra, col)
		}
	}
	for _, g := range generic {
		if !seen[g] {
			return check.Errorf(g, "is missing: a series always holds the columns %s", strings.Join(generic, ", "))
		}
	}
	return nil
}

// WriteJSON streams the series as one JSON object; with indent != "" in
// exactly the layout json.MarshalIndent(v, prefix, indent) gives, prefix
// being the indentation of the line the object starts on. Spilled points
// are read back column by column, so memory stays flat.
func (s *Series) WriteJSON(w io.Writer, prefix, indent string) error {
	bw := &errWriter{w: w}
	nl, in1, in2 := "", "", ""
	colon := ":"
	if indent != "" {
		nl, in1, in2, colon = "\n", prefix+indent, prefix+indent+indent, ": "
	}
	bw.str("{")
	names := append([]string{"iteration"}, s.Names()...)
	buf := make([]byte, 0, 64)
	for c, name := range names {
		if c > 0 {
			bw.str(",")
		}
		bw.str(nl + in1 + strconv.Quote(name) + colon + "[")
		n := 0
		err := s.EachValue(c, func(v float64) error {
			if n > 0 {
				bw.str(",")
			}
			bw.str(nl + in2)
			if c == 0 {
				buf = strconv.AppendInt(buf[:0], int64(v), 10)
			} else {
				buf = appendFloat(buf[:0], v)
			}
			bw.bytes(buf)
			n++
			return bw.err
		})
		if err != nil {
			return err
		}
		if n > 0 {
			bw.str(nl + in1)
		}
		bw.str("]")
	}
	if len(names) > 0 {
		bw.str(nl + prefix)
	}
	bw.str("}")
	return bw.err
}

// appendFloat writes v in JSON: the shortest round-trip decimal, null
// for NaN and the strings "Inf" and "-Inf" for the infinities (JSON has
// no NaN or Inf; see Floats).
func appendFloat(buf []byte, v float64) []byte {
	switch {
	case math.IsNaN(v):
		return append(buf, "null"...)
	case math.IsInf(v, 1):
		return append(buf, `"Inf"`...)
	case math.IsInf(v, -1):
		return append(buf, `"-Inf"`...)
	}
	return strconv.AppendFloat(buf, v, 'g', -1, 64)
}

type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) str(s string) {
	if e.err == nil {
		_, e.err = io.WriteString(e.w, s)
	}
}

func (e *errWriter) bytes(b []byte) {
	if e.err == nil {
		_, e.err = e.w.Write(b)
	}
}

// Recorder records the metrics every Every iterations, at iteration 0 and
// at the last iteration. It computes nothing on the other iterations, so a
// long run recorded sparsely costs only the algorithm's own work.
//
// Beside the generic metrics it records, as extra columns after the
// problem's own (objective.Measured): stationarity when the problem has
// no optimum; the problem's expensive metrics (Evaluated), every
// EvalEvery iterations and NaN in between; and, when it is given
// Counters, the communication counters (ColMessages, ColReleases,
// ColActivations).
type Recorder struct {
	prob      objective.Problem
	opt       []float64
	every     int
	evalEvery int
	last      int
	mean      []float64
	Series    Series

	nMeasured int // the problem's own columns
	stat      bool
	eval      Evaluated
	nEval     int
	counters  *Counters
	pool      *pool.Pool
	evals     int // calls of Evaluate, for tests and for the curious
	x, g      []float64

	step     *sim.Step // the last step seen, valid until the next Advance
	latest   Point
	latestOK bool
}

// Options configures a Recorder.
type Options struct {
	// Every is the interval of the recorded points (at least 1).
	Every int
	// EvalEvery is the interval of the expensive metrics (Evaluated), a
	// multiple of Every; 0 means Every.
	EvalEvery int
	// Last is the last planned iteration, always recorded and evaluated.
	Last int
	// Counters, when set, are read at every recorded point into the
	// counter columns; the caller adds the steps to them.
	Counters *Counters
	// Pool spreads the stationarity's gradients over the run's workers
	// (nil: one goroutine).
	Pool *pool.Pool
}

// NewRecorder returns a recorder for prob that keeps a point every every
// iterations and at iteration last, without counter columns.
func NewRecorder(prob objective.Problem, every, last int) *Recorder {
	return NewRecorderWith(prob, Options{Every: every, Last: last})
}

// NewRecorderWith returns a recorder for prob configured by o.
func NewRecorderWith(prob objective.Problem, o Options) *Recorder {
	r := &Recorder{prob: prob, opt: prob.Optimum(), every: max(o.Every, 1), last: o.Last,
		mean: make([]float64, prob.Dim()), counters: o.Counters, pool: o.Pool}
	r.evalEvery = r.every
	if o.EvalEvery > 0 {
		r.evalEvery = o.EvalEvery
	}
	var names []string
	if m, ok := prob.(objective.Measured); ok {
		names = append(names, m.MetricNames()...)
		r.nMeasured = len(names)
	}
	if _, generic := prob.(Generic); !generic && r.opt == nil {
		r.stat = true
		names = append(names, ColStationarity)
	}
	if e, ok := prob.(Evaluated); ok {
		r.eval = e
		r.nEval = len(e.EvaluatedNames())
		names = append(names, e.EvaluatedNames()...)
	}
	if r.counters != nil {
		names = append(names, ColMessages, ColReleases, ColActivations)
	}
	if len(names) > 0 {
		r.Series.ExtraNames = names
		r.Series.Extra = make([]Floats, len(names))
	}
	return r
}

// Record implements sim.Recorder.
func (r *Recorder) Record(s *sim.Step) {
	r.step, r.latestOK = s, false
	if s.Iter%r.every == 0 || s.Iter == r.last {
		r.keep(s.Iter%r.evalEvery == 0 || s.Iter == r.last)
	}
}

// EndAt makes iteration iter the last: the runner calls it before its
// recorders see the step at which a stop rule ends the run, so that the
// series ends where the run did, with the expensive metrics evaluated.
func (r *Recorder) EndAt(iter int) { r.last = iter }

func (r *Recorder) keep(evaluate bool) {
	p := r.Latest()
	if evaluate && r.eval != nil {
		off := r.nMeasured
		if r.stat {
			off++
		}
		r.eval.Evaluate(r.step, p.Extra[off:off+r.nEval])
		r.evals++
		r.latest = p
	}
	r.Series.add(p)
}

// Evaluations returns how many times the expensive metrics were
// evaluated.
func (r *Recorder) Evaluations() int { return r.evals }

// Latest returns the metrics of the last step recorded, computing them if
// that step was not kept. Call it before the algorithm advances again.
// It never evaluates the expensive metrics (Evaluated): they are NaN
// unless the step was recorded at an evaluation point.
func (r *Recorder) Latest() Point {
	if !r.latestOK && r.step != nil {
		r.latest = r.compute(r.step)
		r.latestOK = true
	}
	return r.latest
}

// Cheap returns the metrics the recorder would record for step s, but
// the expensive ones (NaN) and the counters (of the recorder's counters),
// without recording anything: a resumed run checks a checkpoint's state
// against the metrics its export recorded there.
func (r *Recorder) Cheap(s *sim.Step) Point { return r.compute(s) }

// compute returns the cheap metrics of s with every extra column in
// place (the expensive ones NaN).
func (r *Recorder) compute(s *sim.Step) Point {
	p := Compute(r.prob, r.opt, s, r.mean)
	if len(r.Series.ExtraNames) == r.nMeasured {
		return p
	}
	extra := make([]float64, len(r.Series.ExtraNames))
	copy(extra, p.Extra)
	k := r.nMeasured
	if r.stat {
		extra[k], r.x, r.g = Stationarity(r.pool, r.prob, s, r.x, r.g)
		k++
	}
	for range r.nEval {
		extra[k] = math.NaN()
		k++
	}
	if c := r.counters; c != nil {
		_, most := c.MaxActivations()
		extra[k], extra[k+1], extra[k+2] = float64(c.Messages), float64(c.Releases), float64(most)
	}
	p.Extra = extra
	return p
}

// WriteCSV writes the series as CSV with a header line; non-finite values
// are written as NaN, +Inf or -Inf, which spreadsheet programs read.
func (s *Series) WriteCSV(w io.Writer) error { return s.WriteCSVWith(w, CSVExtra{}) }

// CSVExtra is what WriteCSVWith writes beside the series: metadata lines
// before the header and columns after the series' own.
type CSVExtra struct {
	// Meta lines are written first, each as "# " and the line (a line
	// break inside one is written as a space, so each stays one line).
	Meta []string
	// Names are the added columns' names; Cells appends row i's cells
	// for them to buf, each after a comma, and returns buf.
	Names []string
	Cells func(buf []byte, i int) []byte
}

// WriteCSVWith writes the series as WriteCSV does, with x's metadata
// lines before the header and x's columns after the series' own. Readers
// that skip lines starting with '#' (pandas' comment="#", R's
// comment.char) read the table as it is.
func (s *Series) WriteCSVWith(w io.Writer, x CSVExtra) error {
	var head strings.Builder
	for _, m := range x.Meta {
		head.WriteString("# ")
		head.WriteString(strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ").Replace(m))
		head.WriteByte('\n')
	}
	// One join: += per name would be quadratic in the columns.
	head.WriteString("iteration," + strings.Join(append(s.Names(), x.Names...), ","))
	if _, err := fmt.Fprintln(w, head.String()); err != nil {
		return err
	}
	buf := make([]byte, 0, 128)
	i := 0
	return s.eachRow(func(row []float64) error {
		buf = strconv.AppendInt(buf[:0], int64(row[0]), 10)
		for _, v := range row[1:] {
			buf = append(buf, ',')
			buf = strconv.AppendFloat(buf, v, 'g', -1, 64)
		}
		if x.Cells != nil {
			buf = x.Cells(buf, i)
		}
		i++
		buf = append(buf, '\n')
		_, err := w.Write(buf)
		return err
	})
}
