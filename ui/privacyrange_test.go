package ui

import (
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"dpsim/core/noise"
	"dpsim/core/privacy"
	"dpsim/core/scenario"
	"dpsim/core/tour"
	"dpsim/ui/query"
)

func buildPreset(t *testing.T, name string, eps float64) *scenario.Built {
	t.Helper()
	s, err := scenario.PresetScenario(name)
	if err != nil {
		t.Fatal(err)
	}
	if eps > 0 {
		s.Calibrate = &scenario.Calibrate{Epsilon: eps}
	}
	b, err := scenario.BuildFor(s, scenario.Page)
	if err != nil {
		t.Fatalf("%s at ε = %g: %v", name, eps, err)
	}
	return b
}

// TestRangeOf checks the privacy slider's range against the accountant
// it comes from: the scenario's own ε lies inside it, its lower end is
// what calibration reaches with the noise at its bound (a target just
// above it calibrates, one well below is refused), a calibrated run
// reports the same own ε and its target, an (ε, δ) ledger gives its δ,
// and a scenario without noise or without a guarantee has no range.
func TestRangeOf(t *testing.T) {
	for _, name := range []string{"gtdp-rendezvous", "dpdgt-ieee14", "gtdp-ridge-ring"} {
		b := buildPreset(t, name, 0)
		r := RangeOf(b)
		t.Logf("%s: %+v", name, r)
		if !r.OK || !(r.Min > 0) || !(r.Max > r.Min) || r.Target != 0 {
			t.Errorf("%s: %+v", name, r)
			continue
		}
		if own := r.Own.Value(); !(own >= r.Min) || (own < query.MaxEpsilon && !(own <= r.Max)) {
			t.Errorf("%s: own ε %g outside [%g, %g]", name, own, r.Min, r.Max)
		}
		if r.Max > query.MaxEpsilon || r.Min < query.MinEpsilon {
			t.Errorf("%s: [%g, %g] beyond what a link holds", name, r.Min, r.Max)
		}
		if r.Min > query.MinEpsilon {
			if _, err := scenario.BuildFor(withTarget(b.Scenario, r.Min*1.01), scenario.Page); err != nil {
				t.Errorf("%s: ε just above the lower end %g does not calibrate: %v", name, r.Min, err)
			}
			if _, err := scenario.BuildFor(withTarget(b.Scenario, r.Min/4), scenario.Page); err == nil {
				t.Errorf("%s: ε = %g below the lower end %g calibrated", name, r.Min/4, r.Min)
			}
		}
		target := math.Sqrt(r.Min * r.Max)
		c := RangeOf(buildPreset(t, name, target))
		if !c.OK || c.Target != target || math.Abs(c.Own.Log10()-r.Own.Log10()) > 1e-9 || math.Abs(math.Log10(c.Min/r.Min)) > 1e-9 || c.Max != r.Max {
			t.Errorf("%s calibrated to %g: %+v, want the uncalibrated range %+v", name, target, c, r)
		}
	}
	// A preset whose algorithm carries its own privacy target: the
	// slider stands at that target, and its own ε is that of its noise
	// specification before the calibration.
	if r := RangeOf(buildPreset(t, "dp-extra-ring8", 0)); !r.OK || !(r.Delta > 0) || r.Target != 12 || !(r.Own.Value() > 12) || !(r.Min < 12 && r.Max > 12) {
		t.Errorf("dp-extra-ring8: %+v, want its (ε, δ) ledger's δ > 0 and its target 12 inside the range", r)
	}
	if r := RangeOf(buildPreset(t, "gtdp-rendezvous", 0)); r.Delta != 0 {
		t.Errorf("gtdp-rendezvous: δ = %g, want 0 (pure ε-DP)", r.Delta)
	}
	for name, why := range map[string]string{"gtdp-rendezvous-noisefree": "no noise", "ddgt-ieee14": ""} {
		r := RangeOf(buildPreset(t, name, 0))
		if r.OK || r.Reason == "" || !strings.Contains(r.Reason, why) {
			t.Errorf("%s: %+v, want no range with a reason", name, r)
		}
	}
}

func withTarget(s *scenario.Scenario, eps float64) *scenario.Scenario {
	cp := *s
	cp.Calibrate = &scenario.Calibrate{Epsilon: eps}
	return &cp
}

// TestRangeReachesPaperLevels: DPP²'s classifier (ε ≈ 2.6·10²⁴ at its
// own ū = 1, r̄ = 0.95: Theorem 3's budget grows like r̄^(−K)) had its
// slider off, every ε it can reach lying above the link's old bound of
// 10⁶. Its slider spans the ε of the paper's Fig. 2 noise levels at that
// r̄ (ū from 0.1 to 5), each reached by calibration within the
// accountant's tolerance, and down to what the largest noise scale gives.
func TestRangeReachesPaperLevels(t *testing.T) {
	b := buildPreset(t, "dpp2-classifier", 0)
	r := RangeOf(b)
	if !r.OK {
		t.Fatalf("dpp2-classifier: no range: %s", r.Reason)
	}
	own := r.Own.Value()
	for _, u := range []float64{0.1, 0.3, 0.6, 1, 3, 5} {
		// Theorem 3's ε is ∝ 1/ū: ū·(ε at ū) is the ε at ū = 1.
		eps := own / u
		if !(eps >= r.Min && eps <= r.Max) {
			t.Errorf("Fig. 2's ū = %g (ε = %.3g) outside the slider's [%.3g, %.3g]", u, eps, r.Min, r.Max)
			continue
		}
		c := buildPreset(t, "dpp2-classifier", eps)
		if got := c.Calibration.After.Value(); math.Abs(got-eps) > 1e-6*eps {
			t.Errorf("calibrated to ū = %g's ε = %.6g, the ledger predicts %.6g", u, eps, got)
		}
		if f := c.Calibration.Factor; math.Abs(f-u) > 1e-6*u {
			t.Errorf("ε = %.6g: noise ×%g, want ×%g (ū = %g)", eps, f, u, u)
		}
	}
	if want := own / (scenario.MaxMagnitude / 1); math.Abs(r.Min-want) > 1e-6*want {
		t.Errorf("the slider's lower end %g, want the ε at the largest scale %g", r.Min, want)
	}
}

// TestRangeFloorSaysWhy: DPP²'s slider stopped at ε ≈ 2.6·10¹² on its
// classifier (r̄ = 0.95, K = 999) without a word: Theorem 3's ε grows
// like r^(−K) and more noise only divides it, so the most noise allowed
// (every scale ×10¹²) leaves it there. The range now says so in the
// plug-in's words, with what does reach ε = 10 — a decay r ≥ r* with
// the noise ×f — and that advice is checked against the accountant: at
// r* the ledger's ε is 10, and a decay a little below r* misses it. A
// range whose floor is meaningful says nothing, and an accountant with
// nothing to add gets the floor's generic words.
func TestRangeFloorSaysWhy(t *testing.T) {
	b := buildPreset(t, "dpp2-classifier", 0)
	r := RangeOf(b)
	t.Log(r.Floor)
	for _, want := range []string{
		"The lowest ε here, 2.6·10¹² after 1000 iterations, is what the most noise allowed gives (every noise scale ×10¹²: a scale may be at most 10¹²). ",
		b.Factory.Title + ", Theorem 3: ε = c̃·(r^(−K) − 1)/(1 − r) grows like r^(−K) — here 0.95^(−999) ≈ 10^22.3 — ",
		"so no noise scale brings it lower; ε = 10 needs a decay r closer to 1 or a shorter horizon: r ≥ ",
	} {
		if !strings.Contains(r.Floor, want) {
			t.Errorf("the floor's words lack %q:\n%s", want, r.Floor)
		}
	}
	m := regexp.MustCompile(`r ≥ ([0-9.]+) with the noise ×([0-9]+), whose noise at K is still ([0-9.]+) of its start`).FindStringSubmatch(r.Floor)
	if m == nil {
		t.Fatalf("no decay and factor in %q", r.Floor)
	}
	rs, _ := strconv.ParseFloat(m[1], 64)
	f, _ := strconv.ParseFloat(m[2], 64)
	if left, _ := strconv.ParseFloat(m[3], 64); math.Abs(left-math.Pow(rs, 999)) > 1e-3 {
		t.Errorf("the noise left at K: %g, want r*^K = %g", left, math.Pow(rs, 999))
	}
	epsAt := func(decay float64) float64 {
		s := *b.Scenario
		s.Calibrate = nil
		s.Noise = map[string]*noise.Spec{}
		for k, v := range b.Scenario.Noise {
			c := *v
			c.Scale *= f
			c.Decay.R = decay
			s.Noise[k] = &c
		}
		nb, err := scenario.BuildFor(&s, scenario.Page)
		if err != nil {
			t.Fatal(err)
		}
		return nb.Accountant.(privacy.Predictor).PredictEpsilon(s.Iterations, 1).Value()
	}
	// r* is printed to six digits, rounded: within 1e-6 of the exact one.
	if e := epsAt(rs + 1e-6); !(e <= tour.Meaningful) {
		t.Errorf("the advice r ≥ %g with the noise ×%g gives ε = %g, above %g", rs, f, e, tour.Meaningful)
	}
	if e := epsAt(rs - 1e-4); !(e > tour.Meaningful) {
		t.Errorf("a decay below r* = %g gives ε = %g, within %g: r* is not the least", rs, e, tour.Meaningful)
	}
	if r := RangeOf(buildPreset(t, "gtdp-rendezvous", 0)); r.Floor != "" {
		t.Errorf("gtdp-rendezvous (lowest ε %g): %q, want nothing", r.Min, r.Floor)
	}
	if r := RangeOf(buildPreset(t, "diadsp-dpp2-fig3", 0)); !strings.HasPrefix(r.Floor, "The lowest ε here, ") || !strings.HasSuffix(r.Floor, ": no calibration of this scenario reaches ε ≤ 10.") {
		t.Errorf("diadsp-dpp2-fig3: %q, want the generic words", r.Floor)
	}
}
