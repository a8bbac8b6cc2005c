package experiment

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"sort"

	"dpsim/core/check"
	"dpsim/core/jsonout"
	"dpsim/core/jsonstrict"
	"dpsim/core/scenario"
)

// FormatVersion names the experiment file format.
const FormatVersion = "dpsim-experiment/1"

// MaxBytes bounds the size of an experiment file.
const MaxBytes = 4 << 20

// Limits that keep a mistyped experiment from asking for years of work.
const (
	MaxSeries   = 64
	MaxPoints   = 1000
	MaxRuns     = 100_000
	MaxTasks    = 10_000_000
	MaxMetrics  = 16
	MaxOverride = 256
)

// X-axis kinds.
const (
	XIteration = "iteration" // the metric against the recorded iterations
	XField     = "field"     // one swept scenario field (or several set together)
	XDerived   = "derived"   // a per-run quantity, averaged per swept point
	// XCommunication is the metric along the run placed at a
	// communication counter's value at each recorded iteration (the
	// messages sent, the releases, the busiest agent's activations), so
	// that series with different messages per iteration compare at equal
	// communication.
	XCommunication = "communication"
)

// Communication counters an XCommunication axis may use: the columns the
// runner records (metrics.ColMessages, ColReleases, ColActivations).
const (
	CounterMessages    = "messages"    // per-link messages sent so far
	CounterReleases    = "releases"    // releases (noisy vectors put on the air) so far
	CounterActivations = "activations" // the most active agent's activations so far
)

// alongRun reports whether the axis keeps each run's whole curve (the
// iteration and communication axes) rather than one value per run.
func (a Axis) alongRun() bool { return a.Kind == XIteration || a.Kind == XCommunication }

// Statistics a figure draws.
const (
	StatMean   = "mean"   // the mean, with its 95 % confidence interval as band
	StatMedian = "median" // the median, with the 10–90 % quantiles as band
)

// Metric reductions: how one run's metric curve becomes one number.
const (
	ReduceFinal    = "final"     // the value at the last iteration
	ReduceTailMean = "tail-mean" // the mean of the recorded values in the last `last` iterations
)

// Expectation kinds.
const (
	ExpectIncreasing = "increasing" // the metric grows along x
	ExpectDecreasing = "decreasing" // the metric falls along x
	ExpectBelow      = "below"      // series ends (or stays) below series `than`
	ExpectAbove      = "above"      // series ends (or stays) above series `than`
	ExpectAtMost     = "at-most"    // the metric is below `value`
	ExpectAtLeast    = "at-least"   // the metric is above `value`
)

// Tests an expectation may use.
const (
	TestMean = "mean" // paired differences of means (or a one-sample mean) against their standard error
	TestRank = "rank" // one-sided Mann–Whitney U (or a sign test against a value)
)

// Experiment is one figure: series of runs of a base scenario with
// overrides, a parameter or the iteration along x, many seeded runs per
// point, and statistics of named metrics. The format is documented in
// docs/experiments.md.
type Experiment struct {
	// Format is FormatVersion.
	Format string `json:"format"`
	// Name is a short identifier (letters, digits, - _ .): it names the
	// output files.
	Name        string      `json:"name"`
	Title       string      `json:"title"`
	Description string      `json:"description,omitempty"`
	Reproduces  *Reproduces `json:"reproduces,omitempty"`
	// Base is the scenario every run starts from.
	Base Base `json:"base"`
	// Set overrides fields of the base scenario in every series.
	Set Overrides `json:"set,omitempty"`
	// Audit, when set, makes the experiment a privacy audit (audit.go):
	// the engine then makes its series, axis, statistics and figure, and
	// Series, X, Metrics, Quantities, Statistic, Figure, Expectations and
	// NoiseSeeds must be left out.
	Audit *Audit `json:"audit,omitempty"`
	// Series are the curves of the figure.
	Series []Series `json:"series,omitempty"`
	// X is the x-axis.
	X Axis `json:"x,omitzero"`
	// Runs is the number of seeded runs per point of every series.
	Runs int `json:"runs"`
	// Seed is the master seed every run's seeds derive from (seed rule in
	// docs/experiments.md).
	Seed uint64 `json:"seed"`
	// NoiseSeeds is NoiseFresh (default) or NoiseCommon: whether run r's
	// privacy noise is fresh at every point of a series or the same draws
	// at every point (seeds.go).
	NoiseSeeds string `json:"noise_seeds,omitempty"`
	// Metrics are the named metrics recorded per run.
	Metrics []Metric `json:"metrics,omitempty"`
	// Quantities are named per-run derived quantities to record (for
	// example "epsilon"), besides those the axes use.
	Quantities []string `json:"quantities,omitempty"`
	// Statistic is what the figure draws: StatMean or StatMedian.
	Statistic string `json:"statistic,omitempty"`
	Figure    Figure `json:"figure,omitzero"`
	// Expectations are the paper's claims, each evaluated by a test that
	// accounts for the run-to-run spread.
	Expectations []Expectation `json:"expectations,omitempty"`
}

// Reproduces names the paper figure an experiment reproduces.
type Reproduces struct {
	Paper  string `json:"paper"`
	Figure string `json:"figure"`
	// Note says how dpsim's setting differs from the paper's, if it does.
	Note string `json:"note,omitempty"`
}

// Base is the base scenario: a preset name or an inline scenario.
type Base struct {
	Preset   string          `json:"preset,omitempty"`
	Scenario json.RawMessage `json:"scenario,omitempty"`
}

// Overrides maps a scenario field path ("algorithm.params.alpha",
// "noise.eta.scale", "problem.params.targets[0]") to the JSON value it takes.
type Overrides map[string]json.RawMessage

// Series is one curve: a name and the overrides that make it.
type Series struct {
	// Name identifies the series (and derives its noise seeds).
	Name string `json:"name"`
	// Label is the legend text (default: Name).
	Label string    `json:"label,omitempty"`
	Set   Overrides `json:"set,omitempty"`
	// Sweep replaces the x-axis's fields and values for this series, so
	// that series whose algorithms name their noise differently can join
	// one privacy–utility figure. An empty list of fields makes a
	// reference series: the same scenario drawn at each value.
	Sweep *Sweep `json:"sweep,omitempty"`
	// Hook names a registered hook that edits the built scenario before
	// each run (for example a calibration to a privacy budget).
	Hook *Hook `json:"hook,omitempty"`
}

// Sweep is a list of values, each set on every field in Fields.
type Sweep struct {
	Fields []string  `json:"fields"`
	Values []float64 `json:"values"`
}

// Hook names a registered hook and its arguments.
type Hook struct {
	Name string          `json:"name"`
	Args json.RawMessage `json:"args,omitempty"`
}

// Axis is the x-axis.
type Axis struct {
	// Kind is XIteration, XField, XDerived or XCommunication.
	Kind string `json:"kind"`
	// Fields and Values give the swept points of XField and XDerived
	// (every field takes the same value; a series may replace them). On
	// XCommunication, Values is an optional common grid of counter values
	// onto which every run's curve is resampled (docs/experiments.md).
	Fields []string  `json:"fields,omitempty"`
	Values []float64 `json:"values,omitempty"`
	// Counter names the communication counter of XCommunication.
	Counter string `json:"counter,omitempty"`
	// Quantity names the per-run quantity of XDerived: a point's x is its
	// mean over the point's runs.
	Quantity string `json:"quantity,omitempty"`
	// Label and Unit title the axis; Scale is "linear" (default) or "log".
	Label string `json:"label"`
	Unit  string `json:"unit,omitempty"`
	Scale string `json:"scale,omitempty"`
}

// Metric is one named metric recorded per run.
type Metric struct {
	// Name is a registered metric (Metrics()).
	Name string `json:"name"`
	// ID names the metric in results (default Name); two metrics with the
	// same name need distinct IDs.
	ID string `json:"id,omitempty"`
	// Reduce is ReduceFinal (default) or ReduceTailMean; it does not apply
	// to the iteration axis, which keeps the whole curve.
	Reduce string `json:"reduce,omitempty"`
	// Last is the tail length of ReduceTailMean, in iterations.
	Last int `json:"last,omitempty"`
}

// Figure says how to draw the result.
type Figure struct {
	Title string `json:"title"`
	// Y is the left axis: a metric.
	Y YAxis `json:"y"`
	// Y2 is an optional right axis: a metric or a quantity.
	Y2 *YAxis `json:"y2,omitempty"`
}

// YAxis is a y-axis: what it shows (a metric ID or a quantity name), its
// label, unit and scale.
type YAxis struct {
	Metric   string `json:"metric,omitempty"`
	Quantity string `json:"quantity,omitempty"`
	Label    string `json:"label"`
	Unit     string `json:"unit,omitempty"`
	Scale    string `json:"scale,omitempty"`
}

// Expectation is a paper's claim stated so that it can be checked.
type Expectation struct {
	// Claim is the claim in words, as the paper makes it.
	Claim string `json:"claim"`
	Kind  string `json:"kind"`
	// Series is the series the claim is about; Than the other series of
	// ExpectBelow and ExpectAbove.
	Series string `json:"series"`
	Than   string `json:"than,omitempty"`
	// Metric is a metric ID (default: the figure's y metric).
	Metric string `json:"metric,omitempty"`
	// Value is the threshold of ExpectAtMost and ExpectAtLeast.
	Value *float64 `json:"value,omitempty"`
	// At is "last" (default: the last x point) or "all" (every x point),
	// for the kinds that compare at points.
	At string `json:"at,omitempty"`
	// Test is TestMean (default) or TestRank.
	Test string `json:"test,omitempty"`
	// Margin is the number of standard errors a difference must exceed
	// (default 3; at least 2).
	Margin float64 `json:"margin,omitempty"`
}

var nameRE = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$`)

// Parse decodes an experiment strictly and validates its form (the
// scenarios themselves are validated by NewPlan). Errors name the field.
func Parse(data []byte) (*Experiment, error) {
	if len(data) > MaxBytes {
		return nil, check.Errorf("", "the experiment is %d bytes; the limit is %d", len(data), MaxBytes)
	}
	var e Experiment
	if err := jsonstrict.Decode(data, &e, ""); err != nil {
		return nil, err
	}
	if err := e.validate(); err != nil {
		return nil, err
	}
	return &e, nil
}

// JSON returns the experiment in its canonical form (the form results
// embed): compact JSON with keys in a fixed order.
func (e *Experiment) JSON() []byte {
	b, err := jsonout.Marshal(e)
	if err != nil {
		panic("experiment: " + err.Error()) // plain data, validated finite
	}
	return b
}

func oneOf(field, got string, allowed ...string) error {
	for _, a := range allowed {
		if got == a {
			return nil
		}
	}
	return check.Errorf(field, "must be one of %q (got %q)", allowed, got)
}

func (e *Experiment) validate() error {
	if e.Format != FormatVersion {
		return check.Errorf("format", "must be %q (got %q)", FormatVersion, e.Format)
	}
	if !nameRE.MatchString(e.Name) {
		return check.Errorf("name", "must be 1–64 letters, digits, '-', '_' or '.', starting with a letter or digit (got %q)", e.Name)
	}
	if e.Title == "" {
		return check.Errorf("title", "is required: the figure's title")
	}
	switch {
	case e.Base.Preset == "" && len(e.Base.Scenario) == 0:
		return check.Errorf("base", "give a scenario preset (\"preset\": NAME) or an inline scenario (\"scenario\": {…})")
	case e.Base.Preset != "" && len(e.Base.Scenario) != 0:
		return check.Errorf("base", "give either \"preset\" or \"scenario\", not both")
	}
	if e.Base.Preset != "" {
		if _, err := scenario.PresetJSON(e.Base.Preset); err != nil {
			return check.Errorf("base.preset", "%v", err)
		}
	}
	if err := e.Set.validate("set"); err != nil {
		return err
	}
	if e.Audit != nil {
		return e.validateAudit()
	}
	if len(e.Series) == 0 || len(e.Series) > MaxSeries {
		return check.Errorf("series", "must list 1–%d series (got %d)", MaxSeries, len(e.Series))
	}
	names := map[string]bool{}
	for i, s := range e.Series {
		f := check.Index("series", i)
		if !nameRE.MatchString(s.Name) {
			return check.Errorf(check.Join(f, "name"), "must be 1–64 letters, digits, '-', '_' or '.', starting with a letter or digit (got %q)", s.Name)
		}
		if names[s.Name] {
			return check.Errorf(check.Join(f, "name"), "%q names two series; series names must be distinct", s.Name)
		}
		names[s.Name] = true
		if err := s.Set.validate(check.Join(f, "set")); err != nil {
			return err
		}
		if s.Sweep != nil {
			if e.X.alongRun() {
				return check.Errorf(check.Join(f, "sweep"), "the %s axis sweeps nothing; use \"set\"", e.X.Kind)
			}
			if err := validateSweep(check.Join(f, "sweep"), s.Sweep.Fields, s.Sweep.Values, true); err != nil {
				return err
			}
		}
		if s.Hook != nil {
			if _, ok := hooks[s.Hook.Name]; !ok {
				return check.Errorf(check.Join(f, "hook.name"), "must be one of the registered hooks %q (got %q)", HookNames(), s.Hook.Name)
			}
		}
	}
	if err := e.validateX(); err != nil {
		return err
	}
	if err := e.validateRunsSeed(); err != nil {
		return err
	}
	if err := e.validateMetrics(); err != nil {
		return err
	}
	for i, q := range e.Quantities {
		if _, ok := quantities[q]; !ok {
			return check.Errorf(check.Index("quantities", i), "must be one of the quantities %q (got %q)", QuantityNames(), q)
		}
	}
	if e.NoiseSeeds != "" {
		if err := oneOf("noise_seeds", e.NoiseSeeds, NoiseFresh, NoiseCommon); err != nil {
			return err
		}
	}
	if err := oneOf("statistic", e.Statistic, StatMean, StatMedian); err != nil {
		return err
	}
	if err := e.validateFigure(); err != nil {
		return err
	}
	for i := range e.Expectations {
		if err := e.validateExpectation(i); err != nil {
			return err
		}
	}
	return nil
}

func (e *Experiment) validateRunsSeed() error {
	if err := check.IntRange("runs", e.Runs, 1, MaxRuns); err != nil {
		return err
	}
	if e.Seed > 1<<53 {
		return check.Errorf("seed", "must be at most 2^53 = %d so that every language reads it exactly (got %d)", uint64(1)<<53, e.Seed)
	}
	return nil
}

func (o Overrides) validate(field string) error {
	if len(o) > MaxOverride {
		return check.Errorf(field, "at most %d overrides (got %d)", MaxOverride, len(o))
	}
	paths := make([]string, 0, len(o))
	for p := range o {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for i, p := range paths {
		f := fmt.Sprintf("%s[%q]", field, p)
		if _, err := parsePath(p); err != nil {
			return check.Errorf(f, "%v", err)
		}
		if blocked(p) {
			return check.Errorf(f, "the engine sets %q itself (seed rule in docs/experiments.md)", p)
		}
		// One path inside another would make the result depend on the
		// order of application.
		if i > 0 && isPrefix(paths[i-1], p) {
			return check.Errorf(f, "lies inside %q, which is set in the same place; set one or the other", paths[i-1])
		}
	}
	return nil
}

// validateSweep checks a sweep. A series' own sweep (reference) may list
// no fields, written "fields": [], to draw the same scenario at each of
// its values: a flat reference line, each point with its own noise seeds.
func validateSweep(field string, fields []string, values []float64, reference bool) error {
	if fields == nil || len(fields) == 0 && !reference {
		hint := ""
		if reference {
			hint = ` (or [] for a reference series: the same scenario at every value)`
		}
		return check.Errorf(check.Join(field, "fields"), "is required: the scenario fields the swept value is set on%s", hint)
	}
	seen := map[string]int{}
	for i, p := range fields {
		steps, err := parsePath(p)
		if err != nil {
			return check.Errorf(check.Index(check.Join(field, "fields"), i), "%v", err)
		}
		// The same field twice sets it twice: a typo, never a design.
		if j, dup := seen[pathString(steps)]; dup {
			return check.Errorf(check.Index(check.Join(field, "fields"), i), "repeats %s (%q, the same field as entry %d): list each field once", check.Index(check.Join(field, "fields"), j), p, j)
		}
		seen[pathString(steps)] = i
		if blocked(p) {
			return check.Errorf(check.Index(check.Join(field, "fields"), i), "the engine sets %q itself", p)
		}
	}
	if len(values) == 0 || len(values) > MaxPoints {
		return check.Errorf(check.Join(field, "values"), "must list 1–%d values (got %d)", MaxPoints, len(values))
	}
	for i, v := range values {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return check.Errorf(check.Index(check.Join(field, "values"), i), "must be a finite number")
		}
	}
	return nil
}

func (e *Experiment) validateX() error {
	x := e.X
	if err := oneOf("x.kind", x.Kind, XIteration, XField, XDerived, XCommunication); err != nil {
		return err
	}
	if x.Label == "" {
		return check.Errorf("x.label", "is required: the axis title")
	}
	if err := validScale("x.scale", x.Scale); err != nil {
		return err
	}
	if x.Counter != "" && x.Kind != XCommunication {
		return check.Errorf("x.counter", "belongs to kind %q only", XCommunication)
	}
	switch x.Kind {
	case XIteration:
		if x.Fields != nil || x.Values != nil || x.Quantity != "" {
			return check.Errorf("x", "the iteration axis takes no fields, values or quantity")
		}
		return nil
	case XCommunication:
		return x.validateCommunication()
	case XField:
		if x.Quantity != "" {
			return check.Errorf("x.quantity", "belongs to kind %q only", XDerived)
		}
	case XDerived:
		if _, ok := quantities[x.Quantity]; !ok {
			return check.Errorf("x.quantity", "must be one of the quantities %q (got %q)", QuantityNames(), x.Quantity)
		}
	}
	// Every series needs a sweep: the axis's own, or its own.
	if x.Fields != nil || x.Values != nil {
		if err := validateSweep("x", x.Fields, x.Values, false); err != nil {
			return err
		}
		return nil
	}
	for i, s := range e.Series {
		if s.Sweep == nil {
			return check.Errorf("x.fields", "is required: series[%d] (%s) has no sweep of its own", i, s.Name)
		}
	}
	return nil
}

// validateCommunication checks a communication axis: a counter, no
// sweep, and an optional grid of counter values (increasing, ≥ 0).
func (x Axis) validateCommunication() error {
	if err := oneOf("x.counter", x.Counter, CounterMessages, CounterReleases, CounterActivations); err != nil {
		return err
	}
	if x.Fields != nil || x.Quantity != "" {
		return check.Errorf("x", "the communication axis takes no fields or quantity: it follows each run along its iterations")
	}
	if x.Values == nil {
		return nil
	}
	if len(x.Values) == 0 || len(x.Values) > MaxPoints {
		return check.Errorf("x.values", "must list 1–%d counter values (got %d), or be left out to use the counter at the recorded iterations", MaxPoints, len(x.Values))
	}
	for i, v := range x.Values {
		if !(v >= 0) || math.IsInf(v, 0) {
			return check.Errorf(check.Index("x.values", i), "must be a finite count ≥ 0 (got %v)", v)
		}
		if i > 0 && !(v > x.Values[i-1]) {
			return check.Errorf(check.Index("x.values", i), "must be greater than the value before it, %v (got %v)", x.Values[i-1], v)
		}
	}
	return nil
}

func validScale(field, s string) error {
	if s == "" {
		return nil
	}
	return oneOf(field, s, "linear", "log")
}

func (e *Experiment) validateMetrics() error {
	if len(e.Metrics) == 0 || len(e.Metrics) > MaxMetrics {
		return check.Errorf("metrics", "must list 1–%d metrics (got %d)", MaxMetrics, len(e.Metrics))
	}
	ids := map[string]bool{}
	for i, m := range e.Metrics {
		f := check.Index("metrics", i)
		// A name outside the registry may be the problem's own metric:
		// NewPlan checks it against the built scenario.
		if !nameRE.MatchString(m.Name) {
			return check.Errorf(check.Join(f, "name"), "must be a metric name: one of %q or one the problem records (got %q)", MetricNames(), m.Name)
		}
		if m.ID != "" && !nameRE.MatchString(m.ID) {
			return check.Errorf(check.Join(f, "id"), "must be 1–64 letters, digits, '-', '_' or '.' (got %q)", m.ID)
		}
		if ids[m.id()] {
			return check.Errorf(check.Join(f, "id"), "%q names two metrics; give each a distinct \"id\"", m.id())
		}
		ids[m.id()] = true
		switch m.Reduce {
		case "", ReduceFinal:
			if m.Last != 0 {
				return check.Errorf(check.Join(f, "last"), "belongs to reduce %q only", ReduceTailMean)
			}
		case ReduceTailMean:
			if err := check.IntRange(check.Join(f, "last"), m.Last, 1, 10_000_000); err != nil {
				return err
			}
		default:
			return oneOf(check.Join(f, "reduce"), m.Reduce, ReduceFinal, ReduceTailMean)
		}
	}
	return nil
}

func (m Metric) id() string {
	if m.ID != "" {
		return m.ID
	}
	return m.Name
}

func (e *Experiment) metricIndex(id string) int {
	for i, m := range e.Metrics {
		if m.id() == id {
			return i
		}
	}
	return -1
}

func (e *Experiment) validateFigure() error {
	f := e.Figure
	if f.Title == "" {
		return check.Errorf("figure.title", "is required")
	}
	if err := e.validateY("figure.y", f.Y, false); err != nil {
		return err
	}
	if f.Y2 != nil {
		return e.validateY("figure.y2", *f.Y2, true)
	}
	return nil
}

func (e *Experiment) validateY(field string, y YAxis, quantityOK bool) error {
	if y.Label == "" {
		return check.Errorf(check.Join(field, "label"), "is required: the axis title")
	}
	if err := validScale(check.Join(field, "scale"), y.Scale); err != nil {
		return err
	}
	switch {
	case y.Metric != "" && y.Quantity != "":
		return check.Errorf(field, "give either \"metric\" or \"quantity\", not both")
	case y.Quantity != "":
		if !quantityOK {
			return check.Errorf(check.Join(field, "quantity"), "the left axis shows a metric; a quantity may go on \"y2\"")
		}
		if e.X.alongRun() {
			return check.Errorf(check.Join(field, "quantity"), "a quantity is one number per run; it has no curve along the %s axis", e.X.Kind)
		}
		if _, ok := quantities[y.Quantity]; !ok {
			return check.Errorf(check.Join(field, "quantity"), "must be one of the quantities %q (got %q)", QuantityNames(), y.Quantity)
		}
	case y.Metric == "":
		return check.Errorf(check.Join(field, "metric"), "is required: one of the metrics' ids %q", e.metricIDs())
	case e.metricIndex(y.Metric) < 0:
		// The axis names a registered metric that no entry gives while an
		// entry names an unknown one: the entry is the likely typo.
		if _, known := metricDefs[y.Metric]; known {
			for i, m := range e.Metrics {
				if _, ok := metricDefs[m.Name]; !ok {
					return check.Errorf(check.Join(check.Index("metrics", i), "name"), "%q is not one of the metrics %q (a problem's own metric is checked when the plan builds), and %s.metric asks for %q, which no entry gives", m.Name, MetricNames(), field, y.Metric)
				}
			}
		}
		return check.Errorf(check.Join(field, "metric"), "must be one of the metrics' ids %q (got %q)", e.metricIDs(), y.Metric)
	}
	return nil
}

func (e *Experiment) metricIDs() []string {
	var ids []string
	for _, m := range e.Metrics {
		ids = append(ids, m.id())
	}
	return ids
}

func (e *Experiment) seriesIndex(name string) int {
	for i, s := range e.Series {
		if s.Name == name {
			return i
		}
	}
	return -1
}

func (e *Experiment) validateExpectation(i int) error {
	x := e.Expectations[i]
	f := check.Index("expectations", i)
	if x.Claim == "" {
		return check.Errorf(check.Join(f, "claim"), "is required: the paper's claim in words")
	}
	if err := oneOf(check.Join(f, "kind"), x.Kind, ExpectIncreasing, ExpectDecreasing, ExpectBelow, ExpectAbove, ExpectAtMost, ExpectAtLeast); err != nil {
		return err
	}
	if e.seriesIndex(x.Series) < 0 {
		return check.Errorf(check.Join(f, "series"), "must name a series: one of %q (got %q)", e.seriesNames(), x.Series)
	}
	if x.Metric != "" && e.metricIndex(x.Metric) < 0 {
		return check.Errorf(check.Join(f, "metric"), "must be one of the metrics' ids %q (got %q)", e.metricIDs(), x.Metric)
	}
	switch x.Kind {
	case ExpectBelow, ExpectAbove:
		if e.seriesIndex(x.Than) < 0 {
			return check.Errorf(check.Join(f, "than"), "must name another series: one of %q (got %q)", e.seriesNames(), x.Than)
		}
		if x.Than == x.Series {
			return check.Errorf(check.Join(f, "than"), "must name a series other than %q", x.Series)
		}
	default:
		if x.Than != "" {
			return check.Errorf(check.Join(f, "than"), "belongs to kinds %q and %q only", ExpectBelow, ExpectAbove)
		}
	}
	switch x.Kind {
	case ExpectAtMost, ExpectAtLeast:
		if x.Value == nil || math.IsNaN(*x.Value) || math.IsInf(*x.Value, 0) {
			return check.Errorf(check.Join(f, "value"), "is required: the finite threshold")
		}
	default:
		if x.Value != nil {
			return check.Errorf(check.Join(f, "value"), "belongs to kinds %q and %q only", ExpectAtMost, ExpectAtLeast)
		}
	}
	switch x.Kind {
	case ExpectIncreasing, ExpectDecreasing:
		if x.At != "" {
			return check.Errorf(check.Join(f, "at"), "does not apply: %q compares consecutive x points", x.Kind)
		}
	default:
		if x.At != "" {
			if err := oneOf(check.Join(f, "at"), x.At, "last", "all"); err != nil {
				return err
			}
		}
	}
	if x.Test != "" {
		if err := oneOf(check.Join(f, "test"), x.Test, TestMean, TestRank); err != nil {
			return err
		}
	}
	if x.Margin != 0 && !(x.Margin >= 2 && x.Margin <= 10) {
		return check.Errorf(check.Join(f, "margin"), "must be between 2 and 10 standard errors (got %v)", x.Margin)
	}
	return nil
}

func (e *Experiment) seriesNames() []string {
	var ns []string
	for _, s := range e.Series {
		ns = append(ns, s.Name)
	}
	return ns
}
