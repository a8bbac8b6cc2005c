package dpop_test

import (
	"math"
	"strings"
	"testing"

	_ "dpsim/core/data/files"

	"dpsim/core/runner"
	"dpsim/core/runner/runnertest"
	"dpsim/core/scenario"
)

// The ledger is the literal sum Σ_{t=1..K−1} 2C√d·c·q^{t−1}/(b·p^t), and
// it approaches the infinite-horizon closed form 2C√d·c/(b(p − q)) from
// below.
func TestLedgerIsTheLiteralSum(t *testing.T) {
	for _, k := range []int{1, 2, 10, 500, 3000} {
		b := runnertest.Preset(t, "dpop-fig1", func(s *scenario.Scenario) { s.Calibrate = nil; s.Iterations = k; s.Noise["eta"].Scale = 0.7 })
		r := runnertest.Run(t, b)
		C := 2 * (2 + math.Sqrt2)
		want := 0.0
		for tt := 1; tt < k; tt++ {
			want += 2 * C * math.Sqrt2 * 0.25 * math.Pow(0.98, float64(tt-1)) / (0.7 * math.Pow(0.99, float64(tt)))
		}
		if got := r.Ledger().Max.Value(); math.Abs(got-want) > 1e-10*math.Max(want, 1e-300) {
			t.Errorf("K=%d: ε = %.15g, literal sum %.15g", k, got, want)
		}
		inf := b.Theory.InfiniteHorizon
		if !inf.Available {
			t.Fatalf("infinite horizon unavailable: %s", inf.Reason)
		}
		closed := 2 * C * math.Sqrt2 * 0.25 / (0.7 * 0.01)
		if math.Abs(inf.Epsilon.Value()-closed) > 1e-12*closed || want > closed {
			t.Errorf("ε∞ = %v, closed form %v, finite %v", inf.Epsilon.Value(), closed, want)
		}
	}
}

// Every iterate stays in the domain ‖x‖ ≤ 2 (the projection Π_X).
func TestIteratesStayInDomain(t *testing.T) {
	b := runnertest.Preset(t, "dpop-fig1", func(s *scenario.Scenario) { s.Calibrate.Epsilon = 1 })
	r := runner.New(b)
	for range 200 {
		st, err := r.Advance()
		if err != nil {
			t.Fatal(err)
		}
		for i := range st.Agents() {
			x := st.Estimate(i)
			if n := math.Hypot(x[0], x[1]); n > 2+1e-12 {
				t.Fatalf("iteration %d agent %d: ‖x‖ = %v > 2", st.Iter, i, n)
			}
		}
	}
}

// Equal privacy: DPOP calibrated to the ε GT-DP's own ledger reports at
// K = 500 reports the same ε to 1e−6 (relative).
func TestCalibratedToGTDP(t *testing.T) {
	for _, eps := range []float64{3, 1000} {
		g := runnertest.Run(t, runnertest.Preset(t, "gtdp-fig1", func(s *scenario.Scenario) { s.Calibrate.Epsilon = eps }))
		target := g.Ledger().Max.Value()
		d := runnertest.Run(t, runnertest.Preset(t, "dpop-fig1", func(s *scenario.Scenario) { s.Calibrate.Epsilon = target }))
		if got := d.Ledger().Max.Value(); math.Abs(got-target) > 1e-6*target {
			t.Errorf("DPOP ε = %.12g, GT-DP ε = %.12g", got, target)
		}
	}
}

func TestNeedsADomain(t *testing.T) {
	s, _ := scenario.PresetScenario("dpop-fig1")
	s.Problem.Params = []byte(`{"dim":2,"box":1}`)
	if _, err := scenario.Build(s); err == nil {
		t.Error("DPOP without a domain: no error")
	}
}

// Online (the LDP online paper's PDOP): on a problem without a domain the
// iterates stay in the ball of radius `radius`, the ledger is the same sum
// as offline, and without a radius the build names the missing domain.
func TestOnline(t *testing.T) {
	b := runnertest.Preset(t, "pdop-online-mushrooms", func(s *scenario.Scenario) {
		s.Calibrate, s.Iterations = nil, 30
		s.Algorithm.Params = []byte(`{"c": 1, "q": 0.98, "gradient_bound": 5.09, "stream_batch": 2, "radius": 0.5}`)
	})
	r := runner.New(b)
	for range 30 {
		st, err := r.Advance()
		if err != nil {
			t.Fatal(err)
		}
		for i := range st.Agents() {
			s := 0.0
			for _, v := range st.Estimate(i) {
				s += float64(v * v)
			}
			if math.Sqrt(s) > 0.5+1e-12 {
				t.Fatalf("iteration %d agent %d: ‖x‖ = %v > 0.5", st.Iter, i, math.Sqrt(s))
			}
		}
	}
	s, _ := scenario.PresetScenario("pdop-online-mushrooms")
	s.Algorithm.Params = []byte(`{"c": 1, "q": 0.98, "gradient_bound": 5.09, "stream_batch": 2}`)
	if _, err := scenario.Build(s); err == nil || !strings.Contains(err.Error(), "algorithm.params.radius") {
		t.Errorf("no domain, no radius: %v", err)
	}
}
