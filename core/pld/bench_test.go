package pld

import (
	"fmt"
	"math"
	"testing"

	"gonum.org/v1/gonum/dsp/fourier"
)

// The goal (issue 31): 10,000 releases per agent for 50 agents in 100 ms
// natively and 2.5 times that under js/wasm. Each benchmark fills a
// ledger of 50 agents × 10,000 releases once and times Bounds (every
// composition, at the grid and twice it, and ε at δ = 10⁻⁵ for each agent).
// Natively it also reports the CPU time per operation (all goroutines):
// on a shared machine the wall time says as much about the neighbours.
func BenchmarkLedger(b *testing.B) {
	const agents, releases = 50, 10000
	lap := func(scale float64) Release { return Release{Mechanism: Laplace, Scale: scale, Sensitivity: 1} }
	cases := []struct {
		name string
		// at returns agent i's releases of iteration k.
		at  func(i, k int) []Release
		opt Options
	}{
		// ε_k = 0.01: the 10,000 releases compose to ε ≈ 4.4.
		{"shared-constant", func(i, k int) []Release { return []Release{lap(100)} }, Options{}},
		// Each agent its own noise scale.
		{"per-agent-constant", func(i, k int) []Release { return []Release{lap(100 * (1 + float64(i)/agents))} }, Options{}},
		// Two channels per iteration (as GT-DP's s and x), one Gaussian.
		{"shared-two-channels", func(i, k int) []Release {
			return []Release{lap(100), {Mechanism: Gaussian, Scale: 200, Sensitivity: 1}}
		}, Options{}},
		// Noise shrinking geometrically: every release distinct, at the
		// default tolerance and at the ledger's (10⁻², where the releases
		// are rounded into buckets).
		{"shared-decaying", func(i, k int) []Release { return []Release{lap(300 * math.Exp(-3*float64(k)/releases))} }, Options{}},
		{"shared-decaying-tol1e-2", func(i, k int) []Release { return []Release{lap(300 * math.Exp(-3*float64(k)/releases))} }, Options{Tolerance: 1e-2}},
		// A landing-scenario-like budget: ε_k in the thousands, decaying
		// noise, every agent its own.
		{"per-agent-decaying-large", func(i, k int) []Release {
			return []Release{lap(1e-3 * (1 + float64(i)/agents) * math.Exp(-float64(k)/releases))}
		}, Options{}},
		// The hardest: every release of every agent distinct and small,
		// at the default tolerance and at 10⁻² (a live view's).
		{"per-agent-decaying", func(i, k int) []Release {
			return []Release{lap(300 * (1 + float64(i)/agents) * math.Exp(-3*float64(k)/releases))}
		}, Options{}},
		{"per-agent-decaying-tol1e-2", func(i, k int) []Release {
			return []Release{lap(300 * (1 + float64(i)/agents) * math.Exp(-3*float64(k)/releases))}
		}, Options{Tolerance: 1e-2}},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			l := NewLedger(agents)
			for i := range agents {
				for k := range releases {
					for _, r := range c.at(i, k) {
						if err := l.Add(i, r); err != nil {
							b.Fatal(err)
						}
					}
				}
			}
			c0, ok := cpuTime()
			for b.Loop() {
				if _, err := l.Bounds(1e-5, c.opt); err != nil {
					b.Fatal(err)
				}
			}
			if c1, _ := cpuTime(); ok {
				b.ReportMetric(float64(c1-c0)/float64(b.N), "cpu-ns/op")
			}
		})
	}
}

// BenchmarkFFT: the real transform of fft.go (forward and inverse) against
// gonum's FFT type (FFTPACK) and gonum's radix-2 complex transform of half
// the length (what fft.go does inside, with twiddles from a table instead
// of repeated multiplication).
func BenchmarkFFT(b *testing.B) {
	for _, n := range []int{1 << 10, 1 << 14, 1 << 17} {
		x := make([]float64, n)
		fill := func() {
			for i := range x {
				x[i] = 1 / float64(i+1)
			}
		}
		b.Run(fmt.Sprintf("pld/%d", n), func(b *testing.B) {
			p := planFor(n)
			re, im := make([]float64, n/2), make([]float64, n/2)
			xr, xi := make([]float64, n/2+1), make([]float64, n/2+1)
			for b.Loop() {
				fill()
				p.forward(x, re, im, xr, xi)
				p.inverse(xr, xi, re, im, x)
			}
		})
		b.Run(fmt.Sprintf("gonum-fftpack/%d", n), func(b *testing.B) {
			f := fourier.NewFFT(n)
			c := make([]complex128, n/2+1)
			for b.Loop() {
				fill()
				f.Coefficients(c, x)
				f.Sequence(x, c)
			}
		})
		b.Run(fmt.Sprintf("gonum-radix2/%d", n), func(b *testing.B) {
			z := make([]complex128, n/2)
			for b.Loop() {
				for i := range z {
					z[i] = complex(1/float64(2*i+1), 1/float64(2*i+2))
				}
				fourier.CoefficientsRadix2(z)
				fourier.SequenceRadix2(z)
			}
		})
	}
}
