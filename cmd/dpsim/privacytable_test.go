package main

import (
	"flag"
	"math"
	"os"
	"strings"
	"testing"

	"dpsim/core/pld"
	"dpsim/core/privacy"
)

var updateDocs = flag.Bool("update", false, "TestPrivacyTable: rewrite the table in docs/privacy-truth.md")

// The table's place in docs/privacy-truth.md.
const (
	tableDoc   = "../../docs/privacy-truth.md"
	tableStart = "<!-- privacy-table: go test ./cmd/dpsim -run TestPrivacyTable -update -->\n"
	tableEnd   = "<!-- /privacy-table -->\n"
)

// TestPrivacyTable runs every scenario preset and holds its ledger to
// issue 31's order: for every agent, the tight bound is at most the
// paper's (up to a relative 10⁻⁹ of rounding); a violation is a finding.
// The releases the accountant states reproduce the paper's own bound
// where it is their basic composition (Laplace ledgers at δ = 0: Σ Δ/b)
// or their zCDP (Gaussian ledgers: Σ Δ²/(2σ²) = ρ_i). The table of
// docs/privacy-truth.md is the command's output (-update rewrites it).
func TestPrivacyTable(t *testing.T) {
	rows, err := privacyRows()
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rows {
		checkTight(t, r)
	}
	doc, err := os.ReadFile(tableDoc)
	if err != nil {
		t.Fatal(err)
	}
	s := string(doc)
	i, j := strings.Index(s, tableStart), strings.Index(s, tableEnd)
	if i < 0 || j < i {
		t.Fatalf("%s has no %q … %q section", tableDoc, strings.TrimSpace(tableStart), strings.TrimSpace(tableEnd))
	}
	got := privacyTable(rows)
	if *updateDocs {
		s = s[:i+len(tableStart)] + got + s[j:]
		if err := os.WriteFile(tableDoc, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if want := s[i+len(tableStart) : j]; want != got {
		t.Errorf("the table in %s is not the command's output (go test ./cmd/dpsim -run TestPrivacyTable -update rewrites it):\n%s", tableDoc, got)
	}
}

// checkTight checks one preset's tight bound against its paper's.
func checkTight(t *testing.T, r TableRow) {
	t.Helper()
	rel, ok := r.Built.Accountant.(privacy.Releaser)
	if !ok || r.Tight == nil || r.Tight.Reason != "" {
		return
	}
	for _, e := range r.Paper.Agents {
		te := r.Tight.Agents[e.Agent]
		if !te.Epsilon.NoGuarantee() && !e.Epsilon.NoGuarantee() && te.Epsilon.Log10() > e.Epsilon.Log10()+math.Log10(1+1e-9) {
			t.Errorf("FINDING %s, agent %d: the tight bound %v (δ = %g) is above the paper's %v (δ = %g)",
				r.Preset, e.Agent, te.Epsilon, te.Delta, e.Epsilon, e.Delta)
		}
		if e.Epsilon.NoGuarantee() {
			continue
		}
		var lap, gauss float64
		lapLog := math.Inf(-1)
		for _, c := range rel.Releases(nil, e.Agent, 0, r.Paper.Iterations, 1) {
			n, rr := float64(max(c.Release.Count, 1)), c.Release
			if rr.Sensitivity == 0 {
				continue
			}
			v := rr.Sensitivity / rr.Scale
			switch rr.Mechanism {
			case pld.Laplace:
				lap += float64(n * v)
				lapLog = logAdd(lapLog, math.Log(n)+math.Log(rr.Sensitivity)-math.Log(rr.Scale))
			case pld.Gaussian:
				gauss += float64(n * v * v / 2)
			}
		}
		switch {
		case e.Delta == 0 && gauss == 0:
			// Σ Δ_k/b_k, compared in logarithms (budgets pass float64).
			if d := math.Abs(lapLog/math.Ln10 - e.Epsilon.Log10()); d > math.Log10(1+1e-9) {
				t.Errorf("%s, agent %d: the releases compose to Σ Δ/b = 10^%.12g at δ = 0, the paper's ledger reads %v", r.Preset, e.Agent, lapLog/math.Ln10, e.Epsilon)
			}
		case lap == 0 && gauss > 0:
			rho := math.NaN()
			for _, in := range e.Inputs {
				if in.Name == "ρ_i" {
					rho = in.Value
				}
			}
			if math.Abs(gauss-rho) > 1e-9*rho {
				t.Errorf("%s, agent %d: the releases' Σ Δ²/(2σ²) = %.12g, the ledger's ρ_i = %.12g", r.Preset, e.Agent, gauss, rho)
			}
			// zCDP converts tightly: Gaussian releases compose to one
			// Gaussian of μ = √(2ρ), whose ε(δ) is the closed form.
			if te.Epsilon.NoGuarantee() {
				t.Errorf("%s, agent %d: no tight bound for Gaussian releases of ρ = %g", r.Preset, e.Agent, gauss)
				break
			}
			exact := gaussEpsilon(math.Sqrt(2*gauss), te.Delta)
			if got := te.Epsilon.Value(); got < exact*(1-1e-12) || got > exact+te.Error+float64(1e-12*exact) {
				t.Errorf("%s, agent %d: tight ε %.15g ± %g at δ = %g, the closed form of μ = √(2ρ) gives %.15g", r.Preset, e.Agent, got, te.Error, te.Delta, exact)
			}
		default:
			t.Errorf("%s, agent %d: releases of both laws (Laplace Σ Δ/b = %g, Gaussian ρ = %g) on a ledger at δ = %g", r.Preset, e.Agent, lap, gauss, e.Delta)
		}
	}
}

// logAdd returns ln(e^a + e^b).
func logAdd(a, b float64) float64 {
	if a < b {
		a, b = b, a
	}
	if math.IsInf(b, -1) {
		return a
	}
	return a + math.Log1p(math.Exp(b-a))
}

// gaussEpsilon is the ε at which one Gaussian release of μ = Δ/σ has
// δ(ε) = Φ(−ε/μ + μ/2) − e^ε Φ(−ε/μ − μ/2) = delta, by bisection on the
// closed form with the standard library's erfc (core/pld has its own).
func gaussEpsilon(mu, delta float64) float64 {
	phi := func(x float64) float64 { return math.Erfc(-x/math.Sqrt2) / 2 }
	d := func(eps float64) float64 {
		return phi(-eps/mu+float64(mu/2)) - float64(math.Exp(eps)*phi(-eps/mu-float64(mu/2)))
	}
	lo, hi := 0.0, 1.0
	for d(hi) > delta {
		lo, hi = hi, 2*hi
	}
	for range 200 {
		m := (lo + hi) / 2
		if d(m) > delta {
			lo = m
		} else {
			hi = m
		}
	}
	return hi
}
