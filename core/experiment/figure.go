package experiment

import (
	"bytes"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"dpsim/core/metrics"
	"dpsim/core/scenario"
	"dpsim/core/version"
)

// FigureData is what a figure of a result shows, computed once so that the
// CLI's figure (render/figure), the page's interactive plot and the
// downloads all show the same numbers.
type FigureData struct {
	Name     string `json:"name"`
	Title    string `json:"title"`
	Subtitle string `json:"subtitle"`
	XLabel   string `json:"x_label"`
	XLog     bool   `json:"x_log"`
	YLabel   string `json:"y_label"`
	YLog     bool   `json:"y_log"`
	// YNote defines the left axis's metric in words and symbols.
	YNote   string `json:"y_note,omitempty"`
	Y2Label string `json:"y2_label,omitempty"`
	Y2Log   bool   `json:"y2_log,omitempty"`
	// Markers marks each point (a sweep); the iteration axis draws lines
	// only.
	Markers bool `json:"markers"`
	// Evaluated says that the y metric is evaluated every
	// record.eval_every iterations only (metrics.Evaluated, a test
	// accuracy): along the run it is drawn with markers at the evaluated
	// points and no line between them, which would read as a learning
	// curve the run never measured.
	Evaluated bool `json:"evaluated,omitempty"`
	// Statistic is the line (StatMean or StatMedian); Band says what the
	// shaded band is.
	Statistic string          `json:"statistic"`
	Band      string          `json:"band"`
	Series    []FigureSeries  `json:"series"`
	Verdicts  []FigureVerdict `json:"verdicts"`
	// Diverged counts the runs that diverged: on the iteration axis their
	// curves stop early, elsewhere they have no final value; the subtitle
	// says so.
	Diverged int `json:"diverged,omitempty"`
	// Empty, when set, says why the figure has nothing to plot (every
	// run diverged): a renderer shows it instead of axes over no data.
	Empty string `json:"empty,omitempty"`
	// Partial is true when the figure shows only some of the runs.
	Partial  bool `json:"partial"`
	Finished int  `json:"finished"`
	Tasks    int  `json:"tasks"`
}

// FigureSeries is one curve, its points in increasing x. A missing value
// is NaN.
type FigureSeries struct {
	Name  string `json:"name"`
	Label string `json:"label"`
	X     Fs     `json:"x"`
	Y     Fs     `json:"y"`
	Lo    Fs     `json:"lo"`
	Hi    Fs     `json:"hi"`
	// Y2 is the right axis's value (its mean), when the figure has one.
	Y2 Fs `json:"y2,omitempty"`
	// N is the number of runs behind each point.
	N []int `json:"n"`
}

// FigureVerdict is one expectation as the figure states it.
type FigureVerdict struct {
	Claim   string `json:"claim"`
	Verdict string `json:"verdict"`
	Summary string `json:"summary"`
}

// AxisTitle joins a label and its unit: "noise scale b (units of x)".
func AxisTitle(label, unit string) string {
	if unit == "" {
		return label
	}
	return label + " (" + unit + ")"
}

// Figure returns what the figure of r shows.
func (p *Plan) Figure(r *Result) FigureData {
	if p.audit != nil {
		return p.auditFigure(r)
	}
	e := p.Exp
	f := FigureData{
		Name: e.Name, Title: e.Figure.Title,
		XLabel: AxisTitle(e.X.Label, e.X.Unit), XLog: e.X.Scale == "log",
		YLabel: AxisTitle(e.Figure.Y.Label, e.Figure.Y.Unit), YLog: e.Figure.Y.Scale == "log",
		Statistic: e.Statistic, Partial: r.Partial, Finished: r.Finished, Tasks: r.Tasks,
		Verdicts: []FigureVerdict{}, Markers: !e.X.alongRun(),
	}
	if e.X.alongRun() && p.labels.evaluated[e.Figure.Y.Metric] {
		f.Evaluated, f.Markers = true, true
	}
	if m := e.Metrics[e.metricIndex(e.Figure.Y.Metric)]; true {
		f.YNote = "y: " + metricDef(m.Name).Title
		if l := p.labels.of(m.Name); l != "" {
			f.YNote += " " + l
		}
		if f.Evaluated {
			f.YNote += ", evaluated every record.eval_every iterations only: drawn at those points, nothing between"
		}
		if m.Reduce == ReduceTailMean {
			f.YNote += fmt.Sprintf(", averaged over the last %d iterations of each run", m.Last)
		} else if !e.X.alongRun() {
			f.YNote += ", at the last iteration of each run"
		}
		if why := p.labels.missing(m.Name); why != "" {
			f.YNote += " — " + why + ` (plot the metric "` + metrics.ColStationarity + `" instead)`
		}
	}
	if e.Reproduces != nil {
		f.Subtitle = e.Reproduces.Paper + ", " + e.Reproduces.Figure
	}
	stat := "mean"
	f.Band = "95 % confidence interval of the mean"
	if e.Statistic == StatMedian {
		stat = "median"
		f.Band = "10–90 % of runs"
	}
	f.Subtitle = joinNonEmpty(f.Subtitle, fmt.Sprintf("%s of %s; band: %s", stat, p.runsPerPoint(r), f.Band))
	if e.X.Kind == XCommunication {
		f.Subtitle = joinNonEmpty(f.Subtitle, communicationNote(e.X))
	}
	for _, rec := range r.Runs {
		if rec.Status == StatusDiverged {
			f.Diverged++
		}
	}
	if f.Diverged > 0 {
		what := "they have no final value and are left out"
		if e.X.alongRun() {
			what = "their curves stop where they diverged, and later points average the runs still going"
		}
		f.Subtitle = joinNonEmpty(f.Subtitle, fmt.Sprintf("%d of %d runs diverged: %s", f.Diverged, len(r.Runs), what))
	}
	y2 := e.Figure.Y2
	if y2 != nil {
		f.Y2Label, f.Y2Log = AxisTitle(y2.Label, y2.Unit), y2.Scale == "log"
	}
	for si, sr := range r.Series {
		fs := FigureSeries{Name: sr.Name, Label: sr.Label}
		for _, pi := range p.xOrder(r, si) {
			pt := sr.Points[pi]
			st := pt.Metrics[e.Figure.Y.Metric]
			fs.X = append(fs.X, float64(pt.X))
			fs.N = append(fs.N, st.N)
			if e.Statistic == StatMedian {
				fs.Y, fs.Lo, fs.Hi = append(fs.Y, float64(st.Median)), append(fs.Lo, float64(st.P10)), append(fs.Hi, float64(st.P90))
			} else {
				fs.Y, fs.Lo, fs.Hi = append(fs.Y, float64(st.Mean)), append(fs.Lo, float64(st.CI95[0])), append(fs.Hi, float64(st.CI95[1]))
			}
			if y2 != nil {
				v := math.NaN()
				switch {
				case y2.Metric != "":
					v = float64(pt.Metrics[y2.Metric].Mean)
				case y2.Quantity != "":
					v = float64(pt.Quantities[y2.Quantity].Mean)
				}
				fs.Y2 = append(fs.Y2, v)
			}
		}
		f.Series = append(f.Series, fs)
	}
	for _, x := range r.Expectations {
		f.Verdicts = append(f.Verdicts, FigureVerdict{Claim: x.Claim, Verdict: x.Verdict, Summary: x.Summary})
	}
	if r.Note != "" && !hasValue(f.Series) {
		f.Empty = "nothing to plot: " + r.Note
	}
	return f
}

// runsPerPoint says how many runs each point of r's figure rests on: the
// experiment's count, or for a partial result the range of the counts
// that finished, with how many of all.
func (p *Plan) runsPerPoint(r *Result) string {
	runs := func(n string, one bool) string {
		if one {
			return n + " run per point"
		}
		return n + " runs per point"
	}
	if !r.Partial {
		return runs(strconv.Itoa(p.Exp.Runs), p.Exp.Runs == 1)
	}
	count := map[[2]int]int{}
	for _, rec := range r.Runs {
		count[[2]int{rec.Series, rec.Point}]++
	}
	lo, hi := -1, 0
	for si := range p.series {
		for pi := range p.series[si].points {
			n := count[[2]int{si, pi}]
			if lo < 0 || n < lo {
				lo = n
			}
			hi = max(hi, n)
		}
	}
	n := strconv.Itoa(hi)
	if lo != hi {
		n = fmt.Sprintf("%d–%d", max(lo, 0), hi)
	}
	return fmt.Sprintf("%s (partial: %d of %d runs finished; the experiment asks %d per point)", runs(n, n == "1"), r.Finished, r.Tasks, p.Exp.Runs)
}

// hasValue reports whether some series has a finite value to plot.
func hasValue(ss []FigureSeries) bool {
	for _, s := range ss {
		for _, y := range s.Y {
			if !math.IsNaN(y) && !math.IsInf(y, 0) {
				return true
			}
		}
	}
	return false
}

// communicationNote says what the communication axis's x is.
func communicationNote(x Axis) string {
	what := metricDef(x.Counter).Title
	if x.Values == nil {
		return "x: " + what + ", at each recorded iteration (the same in every run)"
	}
	return "x: " + what + "; each run resampled onto the grid by steps (its value at its last recorded point with a count ≤ x; none beyond the count it reached)"
}

// metricLabels holds what the generic metrics optimality and consensus
// are for the problems and algorithms of a plan's scenarios
// (metrics.Describe: an algorithm whose estimate is shared state is
// measured there), each definition once, in the order met, and why a
// metric is missing (no ‖x − x*‖ without a known optimum).
type metricLabels struct {
	optimality, consensus, notes []string
	// evaluated names the problems' metrics evaluated every
	// record.eval_every iterations only (metrics.Evaluated).
	evaluated map[string]bool
}

// note adds the definitions of b's problem and algorithm.
func (l *metricLabels) note(b *scenario.Built) {
	d := metrics.Describe(b.Env.Problem, b.Factory.Output != "")
	add := func(list *[]string, v string) {
		if v != "" && !slices.Contains(*list, v) {
			*list = append(*list, v)
		}
	}
	if ev, ok := b.Env.Problem.(metrics.Evaluated); ok {
		if l.evaluated == nil {
			l.evaluated = map[string]bool{}
		}
		for _, n := range ev.EvaluatedNames() {
			l.evaluated[n] = true
		}
	}
	add(&l.optimality, d.Optimality)
	add(&l.consensus, d.Consensus)
	add(&l.notes, d.Note)
}

// of returns the definition of metric name, "" for a metric that is not
// generic; several problems' definitions are joined with " or ".
func (l *metricLabels) of(name string) string {
	switch name {
	case "optimality":
		return strings.Join(l.optimality, " or ")
	case "consensus":
		return strings.Join(l.consensus, " or ")
	}
	return ""
}

// missing says why metric name is missing for some of the plan's
// problems ("" when it is not): an optimality figure of a problem
// without a known optimum has no ‖x − x*‖ to draw.
func (l *metricLabels) missing(name string) string {
	if name != "optimality" {
		return ""
	}
	return strings.Join(l.notes, "; ")
}

func joinNonEmpty(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + " — " + b
}

// CSV returns the result's statistics as tidy CSV: one row per series, x
// point and variable (a metric or a quantity). Missing values are empty.
//
// A metadata block comes first, as in a run's CSV (runner.WriteCSV):
// lines starting "# " naming the experiment, the SHA-256 of its canonical
// JSON, the master seed and the runs per point, dpsim's version, a
// partial sweep's count, and what the ε rows (every sweep records the
// ledger's ε: EpsilonQuantities) mean for each series. It has no date
// line: the CSV is a function of the result, so the page and the CLI,
// and a merge of the same shards, write the same bytes.
func (p *Plan) CSV(r *Result) []byte {
	var b bytes.Buffer
	p.csvMeta(&b, r)
	w := csv.NewWriter(&b)
	_ = w.Write([]string{"experiment", "series", "label", "point", "x", "value", "variable", "kind",
		"n", "missing", "mean", "sd", "se", "ci95_lo", "ci95_hi", "median", "p10", "p90", "min", "max"})
	num := formatFI // ε = ∞ is Inf, not a blank
	row := func(sr SeriesResult, point, x, value, variable, kind string, st Stats) {
		_ = w.Write([]string{p.Exp.Name, sr.Name, sr.Label, point, x, value, variable, kind,
			strconv.Itoa(st.N), strconv.Itoa(st.Missing), num(float64(st.Mean)), num(float64(st.SD)), num(float64(st.SE)),
			num(float64(st.CI95[0])), num(float64(st.CI95[1])), num(float64(st.Median)), num(float64(st.P10)),
			num(float64(st.P90)), num(float64(st.Min)), num(float64(st.Max))})
	}
	for _, sr := range r.Series {
		for _, q := range p.Quantities {
			if st, ok := sr.Quantities[q]; ok {
				row(sr, "", "", "", q, "quantity", st)
			}
		}
		for pi, pt := range sr.Points {
			value := ""
			if pt.Value != nil {
				value = num(float64(*pt.Value))
			}
			x := num(float64(pt.X))
			for _, m := range p.Exp.Metrics {
				row(sr, strconv.Itoa(pi), x, value, m.id(), "metric", pt.Metrics[m.id()])
			}
			for _, q := range p.Quantities {
				if st, ok := pt.Quantities[q]; ok {
					row(sr, strconv.Itoa(pi), x, value, q, "quantity", st)
				}
			}
		}
	}
	w.Flush()
	return b.Bytes()
}

// csvMeta writes the CSV's metadata block.
func (p *Plan) csvMeta(b *bytes.Buffer, r *Result) {
	e := p.Exp
	sum := sha256.Sum256(p.canon)
	fmt.Fprintf(b, "# experiment: %s\n", oneLine(e.Name))
	fmt.Fprintf(b, "# experiment_sha256: %s\n", hex.EncodeToString(sum[:]))
	fmt.Fprintf(b, "# seed: %d (runs per point: %d)\n", e.Seed, e.Runs)
	fmt.Fprintf(b, "# dpsim_version: %s\n", version.String())
	if r.Partial {
		fmt.Fprintf(b, "# partial: %d of %d runs finished\n", r.Finished, r.Tasks)
	}
	if r.Shard != nil {
		fmt.Fprintf(b, "# shard: %d/%d\n", r.Shard.Index, r.Shard.Count)
	}
	fmt.Fprintf(b, "# epsilon: the rows with variable epsilon give the privacy ledger's ε spent by the most exposed agent at the end of each run (epsilon_log10: its log10, finite when ε overflows a float64; Inf: no finite guarantee)\n")
	for i, sp := range p.series {
		notion := sp.notion
		if notion == "" {
			notion = "no privacy ledger"
		}
		fmt.Fprintf(b, "# epsilon of series %s: %s\n", oneLine(e.Series[i].Name), oneLine(notion))
	}
}

// oneLine keeps a metadata value on its line.
func oneLine(s string) string { return strings.NewReplacer("\r", " ", "\n", " ").Replace(s) }
