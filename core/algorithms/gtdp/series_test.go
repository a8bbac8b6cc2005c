package gtdp

import (
	"fmt"
	"math"
	"testing"

	"dpsim/core/noise"
	"dpsim/core/num"
	"dpsim/core/problems/rendezvous"
	"dpsim/core/rng"
	"dpsim/core/weights"
)

// literalAbsC is Σ_{t<k} |c_{k,t}| γ_t summed term by term (eq. 19).
func literalAbsC(w float64, k int, gamma noise.Schedule) float64 {
	s := 0.0
	for t := 0; t < k; t++ {
		c := num.Pow(w, float64(k-2-t)) * (float64(k-t-1) - float64(float64(k-t)*w))
		s += float64(math.Abs(c) * gamma.At(t))
	}
	return s
}

// The O(1) recursion of series equals the literal sums of eq. (18)–(19)
// at every k, for self-weights across (0, 1], including those near 1
// whose negative c terms made the old ledger O(K) per iteration, and
// past the lag J where the closed-form tail takes over.
func TestSeriesMatchesLiteralSums(t *testing.T) {
	for _, c := range []struct {
		w     float64
		K     int
		gamma noise.Schedule
	}{
		{0.05, 50, noise.Const(1)},
		{0.5, 50, noise.Poly(2, 1, 1.1)},
		{0.75, 200, noise.Poly(1, 3, 0.4)},
		{0.97, 300, noise.Geom(1.5, 0.99)},
		{0.9995, 5000, noise.Const(1)},
		{0.9995, 5000, noise.Poly(2, 1, 1.1)},
		{1, 2000, noise.Const(1)},
		{1, 2000, noise.Poly(1, 1, 0.5)},
	} {
		se := newSeries(c.w)
		for k := 1; k <= c.K; k++ {
			gl := 0.0
			if l := se.lag(); l >= 0 {
				gl = c.gamma.At(int(l))
			}
			s, abs := se.next(c.gamma.At(k-1), gl)
			if k%97 != 0 && k != c.K && k > 40 {
				continue // the literal sum is O(k): check a sample
			}
			ws := 0.0
			for t := 0; t < k; t++ {
				ws += float64(num.Pow(c.w, float64(k-1-t)) * c.gamma.At(t))
			}
			wa := literalAbsC(c.w, k, c.gamma)
			if math.Abs(s-ws) > 1e-10*ws || math.Abs(abs-wa) > 1e-10*wa {
				t.Fatalf("w=%v γ=%v k=%d: S=%.15g |c|-sum=%.15g; literal %.15g %.15g", c.w, c.gamma, k, s, abs, ws, wa)
			}
		}
	}
}

// longAccountant is the ledger of GT-DP on a star whose leaves have
// self-weight w (Metropolis weights of a star of n give the leaves
// w_ii = 1 − 1/n), without running the algorithm.
func longAccountant(tb testing.TB, n int) *Accountant {
	rows := make([][]float64, n)
	for i := range rows {
		rows[i] = []float64{0}
	}
	prob, err := rendezvous.New(rows)
	if err != nil {
		tb.Fatal(err)
	}
	// Centre 0 with w_00 = 1/n, leaves with w_ii = 1 − 1/n.
	var es []weights.Entry
	es = append(es, weights.Entry{I: 0, J: 0, W: 1 / float64(n)})
	for i := 1; i < n; i++ {
		es = append(es, weights.Entry{I: i, J: i, W: 1 - 1/float64(n)},
			weights.Entry{I: 0, J: i, W: 1 / float64(n)}, weights.Entry{I: i, J: 0, W: 1 / float64(n)})
	}
	w, err := weights.FromEntries(n, es)
	if err != nil {
		tb.Fatal(err)
	}
	eta := &noise.Spec{Dist: noise.Laplace, Scale: 1, Decay: noise.Poly(1, 1, 0.8)}
	xi := &noise.Spec{Dist: noise.Laplace, Scale: 1, Decay: noise.Poly(1, 1, 0.8)}
	smp := noise.NewSampler(noise.Laplace, rng.NewStream(1, "t"))
	p := Params{Alpha: 0.1, Gamma: noise.Const(1), GradientBound: 1}
	a := New(p, prob, w, eta, xi, smp, smp, make([]float64, n), make([]float64, n))
	return NewAccountant(a)
}

// The regression of row 5 (robustness issue): the ledger kept every γ_t
// (8 B per iteration) and summed up to J = 1/(1 − w_ii) terms per
// iteration. It must now advance with no allocation at all, however long
// the run and however close w_ii is to 1.
func TestAccountantAllocatesNothingPerIteration(t *testing.T) {
	for _, n := range []int{2, 2000} { // w_ii = 0.5 and 0.9995
		ac := longAccountant(t, n)
		ac.agents = ac.agents[:2] // the centre and one leaf
		allocs := testing.AllocsPerRun(1, func() {
			for range 100_000 {
				ac.advance()
			}
		})
		if allocs != 0 {
			t.Errorf("star of %d: %v allocations over 10⁵ iterations, want 0", n, allocs)
		}
	}
}

// BenchmarkAccountantAdvance is one ledger iteration for one agent with
// w_ii = 0.9995 (a leaf of a star of 2000), started at iteration K. The
// old ledger's ns/op grew with K up to J ≈ 2000 terms; this one's must
// not: compare the sub-benchmarks.
func BenchmarkAccountantAdvance(b *testing.B) {
	for _, start := range []int{0, 10_000, 1_000_000} {
		b.Run(fmt.Sprintf("K=%d", start), func(b *testing.B) {
			ac := longAccountant(b, 2000)
			ac.agents = ac.agents[1:2] // one leaf
			for range start {
				ac.advance()
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				ac.advance()
			}
		})
	}
}
