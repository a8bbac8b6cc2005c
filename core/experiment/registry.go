package experiment

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"sort"

	"dpsim/core/metrics"
	"dpsim/core/objective"
	"dpsim/core/runner"
	"dpsim/core/scenario"
)

// Run is one finished (or stopped) run, as metrics and quantities see it.
type Run struct {
	Built  *scenario.Built
	Runner *runner.Runner
}

// MetricDef is a named metric: a curve over the recorded iterations of a
// run. Besides the registered ones, an experiment may name any metric the
// scenario's problem records itself (objective.Measured); anything else is
// registered with RegisterMetric.
type MetricDef struct {
	Name  string
	Title string
	// Curve returns the recorded iterations and the metric's value at each.
	Curve func(r *Run) (iters []int, values []float64)
}

// QuantityDef is a named per-run quantity: one number per run, such as the
// privacy budget spent or a spectral property of the weight matrix.
type QuantityDef struct {
	Name  string
	Title string
	Value func(r *Run) float64
}

// HookFunc edits a built scenario before it runs: it may return b
// itself, changed, or a scenario built anew (for example with noise scales
// calibrated to a privacy budget). args are the hook's arguments from the
// experiment file. A hook must be deterministic: it sees the run's seeds
// in b.
type HookFunc func(b *scenario.Built, args json.RawMessage) (*scenario.Built, error)

var (
	metricDefs = map[string]MetricDef{}
	quantities = map[string]QuantityDef{}
	hooks      = map[string]HookFunc{}
)

// RegisterMetric adds a metric; it panics on a duplicate name (a
// programming error, caught by any test).
func RegisterMetric(m MetricDef) {
	if _, dup := metricDefs[m.Name]; dup {
		panic(fmt.Sprintf("experiment: metric %q registered twice", m.Name))
	}
	metricDefs[m.Name] = m
}

// RegisterQuantity adds a per-run quantity; it panics on a duplicate name.
func RegisterQuantity(q QuantityDef) {
	if _, dup := quantities[q.Name]; dup {
		panic(fmt.Sprintf("experiment: quantity %q registered twice", q.Name))
	}
	quantities[q.Name] = q
}

// RegisterHook adds a series hook; it panics on a duplicate name.
func RegisterHook(name string, h HookFunc) {
	if _, dup := hooks[name]; dup {
		panic(fmt.Sprintf("experiment: hook %q registered twice", name))
	}
	hooks[name] = h
}

func keys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// MetricNames lists the registered metrics.
func MetricNames() []string { return keys(metricDefs) }

// QuantityNames lists the registered quantities.
func QuantityNames() []string { return keys(quantities) }

// HookNames lists the registered hooks.
func HookNames() []string { return keys(hooks) }

// Metric returns the registered metric name.
func MetricInfo(name string) (MetricDef, bool) { m, ok := metricDefs[name]; return m, ok }

// QuantityInfo returns the registered quantity name.
func QuantityInfo(name string) (QuantityDef, bool) { q, ok := quantities[name]; return q, ok }

// seriesCurve reads one column of the run's recorded metrics through
// Series.Each, so that points a long run spilled to disk are included.
func seriesCurve(pick func(p metrics.Point) float64) func(*Run) ([]int, []float64) {
	return func(r *Run) ([]int, []float64) {
		s := &r.Runner.Metrics.Series
		iters, vals := make([]int, 0, s.Len()), make([]float64, 0, s.Len())
		// Each reads spilled points back in blocks, At one by one.
		s.Each(func(p metrics.Point) error {
			iters, vals = append(iters, p.Iter), append(vals, pick(p))
			return nil
		})
		return iters, vals
	}
}

// problemMetric is a metric the problem records itself (objective.Measured):
// any name the built scenario's problem lists, such as the supply–demand
// mismatch of a resource-allocation problem, without registration.
func problemMetric(name string) MetricDef {
	return MetricDef{Name: name, Title: name + " (the problem's own metric)",
		Curve: func(r *Run) ([]int, []float64) {
			k := slices.Index(r.Runner.Metrics.Series.ExtraNames, name)
			return seriesCurve(func(p metrics.Point) float64 {
				if k < 0 || k >= len(p.Extra) {
					return math.NaN()
				}
				return p.Extra[k]
			})(r)
		}}
}

// columnMetric is a metric read from the series column the framework
// records under name (NaN where the run has no such column).
func columnMetric(name, title string) MetricDef {
	return MetricDef{Name: name, Title: title, Curve: problemMetric(name).Curve}
}

// problemMetricNames lists the metrics b's problem records itself.
func problemMetricNames(b *scenario.Built) []string {
	var names []string
	if m, ok := b.Env.Problem.(objective.Measured); ok {
		names = m.MetricNames()
	}
	// Expensive metrics (the test accuracy) are columns too, recorded
	// every record.eval_every iterations and at the last one (NaN between).
	if e, ok := b.Env.Problem.(metrics.Evaluated); ok {
		names = append(slices.Clip(names), e.EvaluatedNames()...)
	}
	return names
}

func init() {
	// The problem defines what optimality and consensus are
	// (metrics.Labels); a figure's note adds its definition.
	RegisterMetric(MetricDef{Name: "optimality", Title: "optimality error",
		Curve: seriesCurve(func(p metrics.Point) float64 { return p.Optimality })})
	RegisterMetric(MetricDef{Name: "consensus", Title: "consensus error",
		Curve: seriesCurve(func(p metrics.Point) float64 { return p.Consensus })})
	RegisterMetric(MetricDef{Name: "objective", Title: "global objective at the average estimate",
		Curve: seriesCurve(func(p metrics.Point) float64 { return p.Objective })})

	RegisterQuantity(QuantityDef{Name: "epsilon", Title: "ε spent by the most exposed agent (the ledger's maximum)",
		Value: func(r *Run) float64 { return r.Runner.Ledger().Max.Value() }})
	RegisterQuantity(QuantityDef{Name: "epsilon_log10", Title: "log10 of the ledger's maximum ε (finite even when ε overflows a float64)",
		Value: func(r *Run) float64 { return r.Runner.Ledger().Max.Log10() }})
	RegisterQuantity(QuantityDef{Name: "rho_w", Title: "ρ_w = ρ(W − 11ᵀ/n) of the weight matrix",
		Value: func(r *Run) float64 {
			if rep := r.Built.Env.Report; rep.HasRhoW {
				return rep.RhoW
			}
			return math.NaN()
		}})
	RegisterQuantity(QuantityDef{Name: "rho_wo", Title: "ρ(W_o), W with its diagonal zeroed",
		Value: func(r *Run) float64 {
			if rep := r.Built.Env.Report; rep.HasRhoWo {
				return rep.RhoWo
			}
			return math.NaN()
		}})
	// The communication counters (runner.Counters, metrics.Col…): as
	// curves over the recorded iterations, and as per-run quantities, so
	// that a derived x-axis can plot a final error against the messages
	// sent or the activations spent (Table IV's communications, DP-RECAL's
	// leakage frequency); the communication axis (XCommunication) draws
	// the error along the run against them.
	RegisterMetric(columnMetric(metrics.ColMessages, "per-link messages sent so far"))
	RegisterMetric(columnMetric(metrics.ColReleases, "releases (noisy vectors put on the air) so far"))
	RegisterMetric(columnMetric(metrics.ColActivations, "activations of the most active agent so far"))
	RegisterMetric(columnMetric(metrics.ColStationarity, "stationarity ‖(1/n)·Σ_i ∇f_i(x_i)‖² (problems without a known optimum; NaN otherwise)"))
	RegisterQuantity(QuantityDef{Name: "messages", Title: "per-link messages sent in the run",
		Value: func(r *Run) float64 { return float64(r.Runner.Counters().Messages) }})
	RegisterQuantity(QuantityDef{Name: "releases", Title: "releases in the run (noisy vectors put on the air)",
		Value: func(r *Run) float64 { return float64(r.Runner.Counters().Releases) }})
	RegisterQuantity(QuantityDef{Name: "activations_max", Title: "activations of the most active agent in the run",
		Value: func(r *Run) float64 { _, c := r.Runner.Counters().MaxActivations(); return float64(c) }})
	RegisterQuantity(QuantityDef{Name: "iterations_run", Title: "iterations run (fewer when a run diverged)",
		Value: func(r *Run) float64 { return float64(r.Runner.Iter()) }})
}
