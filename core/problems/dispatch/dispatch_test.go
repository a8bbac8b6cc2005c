package dispatch

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"dpsim/core/check"
	"dpsim/core/graph"
	"dpsim/core/metrics"
	"dpsim/core/objective"
	"dpsim/core/param"
	"dpsim/core/sim"
)

func ieee14(t *testing.T) *Dispatch {
	t.Helper()
	g, err := graph.Ring(14)
	if err != nil {
		t.Fatal(err)
	}
	pr, _, err := Factory.Build(&objective.Env{Graph: g}, &Params{Case: "ieee14"})
	if err != nil {
		t.Fatal(err)
	}
	return pr.(*Dispatch)
}

// The paper's optimum (Sec. 6, via CVX) and the spec's checked price and
// cost (algorithms.md §4.6).
func TestIEEE14Optimum(t *testing.T) {
	p := ieee14(t)
	if got := p.Optimum()[0]; math.Abs(got-8.139180) > 5e-7 {
		t.Errorf("λ* = %.7f, want 8.139180", got)
	}
	w := p.Allocation()
	want := map[int]float64{0: 76.7398, 1: 85.6530, 2: 59.1311, 5: 68.9863, 7: 70.4898}
	sum := 0.0
	for i, v := range w {
		sum += v
		if wi, ok := want[i]; ok {
			if math.Abs(v-wi) > 5e-5 {
				t.Errorf("w*_%d = %.5f, want %.4f (paper)", i, v, wi)
			}
		} else if v != 0 {
			t.Errorf("w*_%d = %v, want 0 (no generator)", i, v)
		}
	}
	if math.Abs(sum-361) > 1e-9 {
		t.Errorf("Σw* = %.12f, want 361", sum)
	}
	if c := p.TotalCost(w); math.Abs(c-2018.688) > 5e-4 {
		t.Errorf("cost %.4f, want 2018.688", c)
	}
	if p.StrongConvexity() != 0.06 {
		t.Errorf("μ = %v, want 0.06 = 2·min a_i", p.StrongConvexity())
	}
	// Equal marginal costs: 2a_i w_i* + b_i = λ* for every generator (all
	// boxes inactive).
	for _, i := range p.Generators() {
		if mc := float64(2*p.a[i]*w[i]) + p.b[i]; math.Abs(mc-p.price) > 1e-12 {
			t.Errorf("marginal cost of %d: %v, want λ* = %v", i, mc, p.price)
		}
	}
}

func TestActiveBoxes(t *testing.T) {
	// Two generators; the cheap one saturates at 10.
	p, err := New([]*Unit{{A: 1, B: 0, Lo: 0, Hi: 10}, {A: 1, B: 30, Lo: 0, Hi: 100}, nil}, []float64{20, 5, 10}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// Generator 0 at 10 (marginal 20 < λ), generator 1 makes 25: λ = 2·25+30 = 80.
	w := p.Allocation()
	if w[0] != 10 || math.Abs(w[1]-25) > 1e-12 || w[2] != 0 || math.Abs(p.price-80) > 1e-12 {
		t.Errorf("w* = %v, λ* = %v; want [10 25 0], 80", w, p.price)
	}
}

func TestDualGradient(t *testing.T) {
	p := ieee14(t)
	// ∇h_i is the derivative of h_i (central differences away from kinks).
	for _, i := range []int{0, 3, 7} {
		for _, x := range []float64{3.1, 8.2, 9.7} {
			g := make([]float64, 1)
			p.Grad(i, []float64{x}, g)
			h := 1e-6
			fd := (p.Value(i, []float64{x + h}) - p.Value(i, []float64{x - h})) / (2 * h)
			if math.Abs(fd-g[0]) > 1e-5 {
				t.Errorf("agent %d at %v: gradient %v, finite difference %v", i, x, g[0], fd)
			}
		}
	}
	// The dual objective is smallest at λ*.
	at := p.Objective(p.Optimum())
	for _, dx := range []float64{-0.1, 0.1} {
		if v := p.Objective([]float64{p.price + dx}); v <= at {
			t.Errorf("Σh(λ*%+g) = %v ≤ Σh(λ*) = %v", dx, v, at)
		}
	}
}

func TestMeasureAndExtras(t *testing.T) {
	p := ieee14(t)
	w := p.Allocation()
	w[0] += 1
	prices := make([]float64, 14)
	for i := range prices {
		prices[i] = p.price
	}
	prices[3] += 2
	s := &sim.Step{Iter: 4, Dim: 1, Estimates: w, Prices: prices}
	pt := metrics.Compute(p, p.Optimum(), s, make([]float64, 1))
	if pt.Iter != 4 || math.Abs(pt.Optimality-1) > 1e-12 {
		t.Errorf("point %+v, want optimality 1 at iteration 4", pt)
	}
	// Prices: one agent 2 above the rest: mean shift 2/14.
	wantCons := (13*(2.0/14)*(2.0/14) + (2-2.0/14)*(2-2.0/14)) / 14
	if math.Abs(pt.Consensus-wantCons) > 1e-12 {
		t.Errorf("consensus %v, want %v", pt.Consensus, wantCons)
	}
	names := p.MetricNames()
	dst := make([]float64, len(names))
	p.Measure(s.Estimates, 1, dst)
	want := map[string]float64{"generation": 362, "demand": 361, "imbalance": 1, "abs_imbalance": 1, "allocation_error": 1,
		"w_0": w[0], "w_7": w[7], "dev_0": 1, "dev_7": 0}
	for k, name := range names {
		if v, ok := want[name]; ok && math.Abs(dst[k]-v) > 1e-9 {
			t.Errorf("%s = %v, want %v", name, dst[k], v)
		}
	}
	if len(names) != 5+2*5+1 || len(pt.Extra) != len(names) || pt.Extra[0] != dst[0] || !math.IsNaN(dst[len(dst)-1]) {
		t.Errorf("extras %v = %v; Compute's %v", names, dst, pt.Extra)
	}
}

func TestValidation(t *testing.T) {
	g14, _ := graph.Ring(14)
	g3, _ := graph.Ring(3)
	gen := func(agent int, a, lo, hi float64) Generator { return Generator{Agent: agent, A: a, Min: lo, Max: hi} }
	for _, tc := range []struct {
		name  string
		g     *graph.Graph
		p     Params
		field string
		rule  string
	}{
		{"ieee14 on 3 agents", g3, Params{Case: "ieee14"}, "problem.params.case", "14 buses"},
		{"ieee14 with data", g14, Params{Case: "ieee14", Demands: make([]float64, 14)}, "problem.params.case", "leave those out"},
		{"bad case", g3, Params{Case: "ieee30"}, "problem.params.case", "must be one of"},
		{"demands length", g3, Params{Generators: []Generator{gen(0, 1, 0, 1)}, Demands: []float64{1}}, "problem.params.demands", "one demand per agent"},
		{"no generator", g3, Params{Demands: []float64{0, 0, 0}}, "problem.params.generators", "at least one"},
		{"agent range", g3, Params{Generators: []Generator{gen(3, 1, 0, 1)}, Demands: []float64{0, 0, 0}}, "problem.params.generators[0].agent", "from 0 to 2"},
		{"twice", g3, Params{Generators: []Generator{gen(1, 1, 0, 1), gen(1, 1, 0, 1)}, Demands: []float64{0, 0, 0}}, "problem.params.generators[1].agent", "already has"},
		{"a = 0", g3, Params{Generators: []Generator{gen(0, 0, 0, 1)}, Demands: []float64{0, 0, 0}}, "problem.params.generators[0].a", "must be in"},
		{"min > max", g3, Params{Generators: []Generator{gen(0, 1, 2, 1)}, Demands: []float64{0, 0, 0}}, "problem.params.generators[0].max", "at least min"},
		{"infeasible", g3, Params{Generators: []Generator{gen(0, 1, 0, 1)}, Demands: []float64{1, 1, 0}}, "problem.params.demands", "cannot be met"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.p
			_, _, err := Factory.Build(&objective.Env{Graph: tc.g}, &p)
			ce, ok := err.(*check.Error)
			if !ok || ce.Field != tc.field || !strings.Contains(ce.Rule, tc.rule) {
				t.Errorf("error %v; want field %s with %q", err, tc.field, tc.rule)
			}
		})
	}
	// At the edge of the feasible range: a warning (Slater fails).
	p := Params{Generators: []Generator{gen(0, 1, 0, 1)}, Demands: []float64{1, 0, 0}}
	_, ws, err := Factory.Build(&objective.Env{Graph: g3}, &p)
	if err != nil || len(ws) != 1 || !strings.Contains(ws[0].Message, "Slater") {
		t.Errorf("edge demand: %v, %v; want a Slater warning", ws, err)
	}
}

func TestPinnedRebuilds(t *testing.T) {
	p := ieee14(t)
	pinned := Factory.Pinned(p, &Params{Case: "ieee14"})
	js, err := json.Marshal(pinned)
	if err != nil {
		t.Fatal(err)
	}
	var back Params
	if err := json.Unmarshal(js, &back); err != nil {
		t.Fatal(err)
	}
	g, _ := graph.Ring(14)
	q, _, err := Factory.Build(&objective.Env{Graph: g}, &back)
	if err != nil {
		t.Fatal(err)
	}
	if q.(*Dispatch).price != p.price || q.(*Dispatch).Names()[13] != "bus 14" {
		t.Errorf("pinned %s rebuilds with λ* %v (want %v)", js, q.(*Dispatch).price, p.price)
	}
}

func TestWatch(t *testing.T) {
	g, _ := graph.Ring(14)
	pr, _, err := Factory.Build(&objective.Env{Graph: g}, &Params{Case: "ieee14"})
	if err != nil {
		t.Fatal(err)
	}
	p := pr.(*Dispatch)
	pinned := Factory.Pinned(p, &Params{Case: "ieee14"}).(*Params)
	pr, _, err = Factory.Build(&objective.Env{Graph: g}, &Params{Case: "ieee14", Watch: "w_7"})
	if err != nil {
		t.Fatal(err)
	}
	w := p.Allocation()
	out := make([]float64, len(pr.(*Dispatch).MetricNames()))
	pr.(*Dispatch).Measure(w, 1, out)
	if out[len(out)-1] != w[7] {
		t.Errorf("watched = %v, want w_7 = %v", out[len(out)-1], w[7])
	}
	pinned.Watch = "w_4"
	_, _, err = Factory.Build(&objective.Env{Graph: g}, pinned)
	if ce, ok := err.(*check.Error); !ok || ce.Field != "problem.params.watch" || !strings.Contains(ce.Rule, "w_7") {
		t.Errorf("watch w_4 (no generator): %v", err)
	}
}

// plainValid must agree with the range tags it stands in for.
func TestPlainValidMatchesTags(t *testing.T) {
	for _, g := range []Generator{
		{Agent: 0, A: 1}, {Agent: 4999, A: 1e12, B: -1e12, C: 1e12, Min: -1e12, Max: 1e12},
		{Agent: -1, A: 1}, {Agent: 5000, A: 1}, {A: 0}, {A: 2e12}, {A: 1, B: 2e12}, {A: 1, C: -2e12},
		{A: 1, Min: -2e12}, {A: 1, Max: 2e12}, {A: math.NaN()}, {A: 1, B: math.Inf(1)},
	} {
		if got, want := plainValid(g), param.Validate("g", &g) == nil; got != want {
			t.Errorf("%+v: plainValid %v, param.Validate accepts %v", g, got, want)
		}
	}
}
