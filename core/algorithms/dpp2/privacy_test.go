package dpp2

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"dpsim/core/noise"
)

// TestTheorem3Values checks the spec's [CHECKED] values (§3.5, §8.3) at
// the Fig. 3 parameters d = 10, α = 0.0994, u_e = 1, u_w = 0.994, M̄ = 5.03,
// δ = 1, and Corollary 1's counterexample S(0.6; 10) = 410.95.
func TestTheorem3Values(t *testing.T) {
	c, err := CTilde(10, 1, 0.0994, 1, 0.994, 5.03)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		got, want float64
		tol       float64 // absolute: half a unit of the last digit the spec quotes
	}{
		{"c̃", c, 6.95676, 5e-6},
		{"ε(r = 0.9, K = 10)", Epsilon(c, 0.9, 10).Value(), 129.950, 5e-4},
		{"ε(r = 0.9, K = 500)", Epsilon(c, 0.9, 500).Value(), 5.26e24, 5e21},
		{"S(0.6; 10)", Epsilon(1, 0.6, 10).Value(), 410.95, 5e-3},
		{"ε(r = 1, K = 10) = c̃·K", Epsilon(c, 1, 10).Value(), 10 * c, 1e-12},
		{"ε is proportional to δ", mustCT(t, 10, 3, 0.0994, 1, 0.994, 5.03), 3 * c, 1e-12},
	} {
		if diff := math.Abs(tc.got - tc.want); !(diff <= tc.tol) {
			t.Errorf("%s = %.9g, want %.9g (|error| %.2g > %g)", tc.name, tc.got, tc.want, diff, tc.tol)
		}
	}
}

func mustCT(t *testing.T, d int, delta, alpha, ue, uw, m float64) float64 {
	t.Helper()
	c, err := CTilde(d, delta, alpha, ue, uw, m)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestNoGuarantee checks that α·M̄ ≥ 1 and r = 0 give no finite budget.
func TestNoGuarantee(t *testing.T) {
	if _, err := CTilde(10, 1, 0.2, 1, 1, 5.03); err == nil || !strings.Contains(err.Error(), "α·M̄") {
		t.Errorf("α·M̄ = 1.006: error %v, want one naming α·M̄", err)
	}
	if e := Epsilon(1, 0, 3); !e.IsInf() {
		t.Errorf("r = 0 (noise at k = 0 only), K = 3: ε = %v, want ∞", e)
	}
}

// TestOverflow checks that a budget beyond float64 is kept in log space
// and shown as a power of ten: log10 ε = log10 c̃ + log10 S(r; K), with
// S = (r^(−K) − 1)/(1 − r) ≈ r^(−K)/(1 − r).
func TestOverflow(t *testing.T) {
	c := 6.95676
	for _, tc := range []struct {
		r float64
		k int
	}{{0.9, 10000}, {0.5, 2000}, {0.99, 100000}} {
		e := Epsilon(c, tc.r, tc.k)
		want := math.Log10(c) - float64(float64(tc.k)*math.Log10(tc.r)) - math.Log10(1-tc.r)
		if math.Abs(e.Log10()-want) > 1e-9*want {
			t.Errorf("r = %g, K = %d: log10 ε = %.12g, want %.12g", tc.r, tc.k, e.Log10(), want)
		}
		if s := e.String(); !strings.HasPrefix(s, "10^") {
			t.Errorf("r = %g, K = %d: ε reads %q, want a power of ten", tc.r, tc.k, s)
		}
	}
}

// TestDecayFor checks the inverse: the r it returns meets the target to
// 1e-9 (relative), a larger r meets it too, and an infeasible target is
// refused with the numbers.
func TestDecayFor(t *testing.T) {
	c := 6.95676
	for _, tc := range []struct {
		eps float64
		k   int
	}{{129.950, 10}, {100, 10}, {1e3, 50}, {1e24, 500}, {1e100, 500}, {70, 10}, {1e6, 100000}} {
		r, err := DecayFor(c, tc.eps, tc.k)
		if err != nil {
			t.Errorf("ε = %g, K = %d: %v", tc.eps, tc.k, err)
			continue
		}
		got := Epsilon(c, r, tc.k)
		if rel := math.Abs(got.Log10()-math.Log10(tc.eps)) * math.Ln10; rel > 1e-9 {
			t.Errorf("ε = %g, K = %d: r = %.15g gives ε = %v (relative error %.2g > 1e-9)", tc.eps, tc.k, r, got, rel)
		}
		if r < 1 && Epsilon(c, r+float64((1-r)/2), tc.k).Log10() > math.Log10(tc.eps) {
			t.Errorf("ε = %g, K = %d: a larger r spends more", tc.eps, tc.k)
		}
	}
	// The spec's r = 0.9 at K = 10 is the inverse of 129.950.
	if r, _ := DecayFor(c, 129.950, 10); math.Abs(r-0.9) > 1e-6 {
		t.Errorf("DecayFor(129.950, K = 10) = %g, want 0.9", r)
	}
	// Corollary 1 would allow r = 0.6 for c̃ = 1, ε = 100, K = 10; the
	// theorem needs more.
	if r, _ := DecayFor(1, 100, 10); !(r > 0.6) {
		t.Errorf("DecayFor(c̃ = 1, ε = 100, K = 10) = %g, want > 0.6 (S(0.6) = 410.95 > 100)", r)
	}
	if _, err := DecayFor(c, 60, 10); err == nil || !strings.Contains(err.Error(), "infeasible") {
		t.Errorf("ε = 60 < c̃·K = 69.6: error %v, want infeasible", err)
	}
}

// TestLedgerMatchesTheorem checks that the accountant, after K + 1
// iterations of a run with the Fig. 3 scales and M̄ = 5.03 given, holds
// Theorem 3's closed form for every agent, with and without the k = 0
// term.
func TestLedgerMatchesTheorem(t *testing.T) {
	for _, cons := range []bool{false, true} {
		p := Params{Alpha: 0.0994, Beta: 0.05, Rho: 10, Delta: 1, ScaleP: ScaleNone, Conservative: cons}
		in := newInstance(t, p, 1, 0.9, 2, nil)
		in.alg.w.Scale = 0.994
		ac := NewAccountant(in.alg, 5.03, "given")
		for range 11 {
			ac.Record(in.alg.Advance())
		}
		c := mustCT(t, 3, 1, 0.0994, 1, 0.994, 5.03)
		want := Epsilon(c, 0.9, 10).Value()
		if cons {
			want += math.Sqrt(3)
		}
		l := ac.Ledger()
		for _, e := range l.Agents {
			if rel := math.Abs(e.Epsilon.Value()-want) / want; rel > 1e-12 {
				t.Errorf("conservative %v, agent %d: ε = %.12g, want %.12g", cons, e.Agent, e.Epsilon.Value(), want)
			}
		}
		if pr := ac.PredictEpsilon(11, 2).Value(); math.Abs(pr-float64(want/2)) > 1e-12*want {
			t.Errorf("conservative %v: predicted ε at twice the noise = %g, want %g", cons, pr, want/2)
		}
	}
}

// TestInverseNotes checks the ledger's target-ε notes: r* at the horizon
// so far, and the verdict on the agents' r.
func TestInverseNotes(t *testing.T) {
	p := Params{Alpha: 0.0994, Beta: 0.05, Rho: 10, Delta: 1, ScaleP: ScaleNone, TargetEpsilon: 129.950336}
	in := newInstance(t, p, 1, 0.9, 2, nil)
	in.alg.w.Scale = 0.994
	ac := NewAccountant(in.alg, 5.03, "given")
	for range 11 {
		ac.Record(in.alg.Advance())
	}
	c := mustCT(t, 3, 1, 0.0994, 1, 0.994, 5.03)
	want, err := DecayFor(c, 129.950336, 10)
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, n := range ac.Ledger().Notes {
		if strings.Contains(n, "r* = ") {
			found = true
			if !strings.Contains(n, "K = 10") || !strings.Contains(n, "meets it") || strings.Contains(n, "does not") {
				t.Errorf("note %q: want K = 10 and the agents' r = 0.9 meeting it (r* = %.9g)", n, want)
			}
		}
	}
	if !found {
		t.Errorf("no r* note in %q", ac.Ledger().Notes)
	}
}

// TestCalibrationFloor: what the page says when scaling DPP²'s noise
// cannot reach meaningful privacy — Theorem 3's growth r^(−K) at the
// run's decay, and the decay r* that meets the target with the noise
// ×10^e, e the least that lets constant noise meet it — and nothing for
// constant noise, whose ε falls as 1/factor alone.
func TestCalibrationFloor(t *testing.T) {
	p := Params{Alpha: 0.0994, Beta: 0.05, Rho: 10, Delta: 1, ScaleP: ScaleNone}
	in := newInstance(t, p, 1, 0.9, 2, nil)
	in.alg.w.Scale = 0.994
	ac := NewAccountant(in.alg, 5.03, "given")
	c := mustCT(t, 3, 1, 0.0994, 1, 0.994, 5.03)
	// K = 500: c̃·K ≈ 2·10³, so the noise ×1000 lets constant noise meet ε = 10.
	rs, err := DecayFor(c/1000, 10, 500)
	if err != nil {
		t.Fatal(err)
	}
	got := ac.CalibrationFloor(501, 1e12, 10)
	want := fmt.Sprintf("Theorem 3: ε = c̃·(r^(−K) − 1)/(1 − r) grows like r^(−K) — here 0.9^(−500) ≈ 10^22.9 — while more noise only divides c̃, so no noise scale brings it lower; "+
		"ε = 10 needs a decay r closer to 1 or a shorter horizon: r ≥ %.6g with the noise ×1000, whose noise at K is still %.3g of its start (Theorem 1's exact convergence needs it to vanish)", rs, math.Pow(rs, 500))
	if got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
	// The most the page allows is below what constant noise needs.
	if got := ac.CalibrationFloor(501, 100, 10); !strings.Contains(got, "even constant noise (r = 1) at the most noise allowed leaves ε = c̃·K = ") {
		t.Errorf("noise ×100 at most: %q", got)
	}
	in.alg.w.Decay, in.alg.e.Decay = noise.Const(1), noise.Const(1)
	if got := ac.CalibrationFloor(501, 1e12, 10); got != "" {
		t.Errorf("constant noise: %q, want nothing", got)
	}
}
