package dpp2

import (
	"math"
	"testing"

	"dpsim/core/graph"
	"dpsim/core/method"
	"dpsim/core/noise"
	"dpsim/core/problems/nonconvex"
	"dpsim/core/rng"
	"dpsim/core/sim"
	"dpsim/core/weights"
)

// instance is a small DPP² run built by hand: n agents on a ring with one
// chord, the nonconvex classifier with m samples of d features.
type instance struct {
	alg  *Algorithm
	p    [][]float64 // P, dense
	prob *nonconvex.Classifier
}

func newInstance(t *testing.T, p Params, u, r float64, seed uint64, pinnedEta []float64) instance {
	t.Helper()
	const n, m, d = 6, 20, 3
	edges := []graph.Edge{{From: 0, To: 1}, {From: 1, To: 2}, {From: 2, To: 3}, {From: 3, To: 4}, {From: 4, To: 5}, {From: 0, To: 5}, {From: 0, To: 3}}
	g, err := graph.New(n, edges, false)
	if err != nil {
		t.Fatal(err)
	}
	pm, err := weights.NormalizedLaplacian(g)
	if err != nil {
		t.Fatal(err)
	}
	z, y := nonconvex.Draw(7, n, m, d, 2)
	prob, err := nonconvex.New(n, m, d, z, y, 0.001, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	spec := noise.Spec{Dist: noise.Laplace, Scale: u, Decay: noise.Geom(1, r)}
	w, e := spec, spec
	env := &method.Env{}
	if pinnedEta != nil {
		env.PinnedDraws = map[string][]float64{"eta": pinnedEta}
	}
	var src *method.Source
	if p.Eta == 0 {
		src = env.Draws("dpp2", "eta")
	}
	x0 := make([]float64, n*d)
	for k := range x0 {
		x0[k] = 0.3 * float64(k%5-2)
	}
	a := New(p, prob, pm, &w, &e, noise.NewSampler(noise.Laplace, rng.NewStream(seed, "w")),
		noise.NewSampler(noise.Laplace, rng.NewStream(seed, "e")), src, x0)
	return instance{alg: a, p: pm.Rows(), prob: prob}
}

// lmul returns (P ⊗ I_d)v.
func lmul(p [][]float64, v []float64, d int) []float64 {
	out := make([]float64, len(v))
	for i := range p {
		for j, pij := range p[i] {
			for c := range d {
				out[i*d+c] += float64(pij * v[j*d+c])
			}
		}
	}
	return out
}

// noiseOf returns the noise vectors of channel ch in the step, agent-major.
func noiseOf(st *sim.Step, ch string, n, d int) []float64 {
	out := make([]float64, n*d)
	for _, r := range st.Releases {
		if r.Channel == ch {
			copy(out[r.From*d:], r.Noise)
		}
	}
	return out
}

func maxAbs(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		m = math.Max(m, math.Abs(x))
	}
	return m
}

// TestCompactForm checks that Algorithm 1 (the distributed form, two
// rounds) equals the compact form (20)–(21) at every iteration, to 1e-12
// relative to the iterates' size: both one step at a time from the
// distributed state, and with the compact form running on its own from
// q̂⁰ = 0. It also checks the identity q = ρ(P ⊗ I)d behind it.
func TestCompactForm(t *testing.T) {
	p := *Defaults()
	in := newInstance(t, p, 0.1, 0.9, 5, nil)
	a := in.alg
	n, d := a.n, a.d
	L := func(v []float64) []float64 { return lmul(in.p, v, d) }
	xc := append([]float64(nil), a.x...) // the free-running compact form
	qc := make([]float64, n*d)
	g := make([]float64, n*d)
	compact := func(x, q, w, e []float64) (xn, qn []float64) {
		for i := range n {
			in.prob.Grad(i, x[i*d:(i+1)*d], g[i*d:(i+1)*d])
		}
		xw := make([]float64, n*d)
		for t := range xw {
			xw[t] = x[t] + w[t]
		}
		lxw := L(xw)
		v := make([]float64, n*d)
		for t := range v {
			v[t] = g[t] + q[t] + float64(p.Rho*lxw[t])
		}
		lv, le := L(v), L(e)
		xn, qn = make([]float64, n*d), make([]float64, n*d)
		for t := range xn {
			xn[t] = x[t] + w[t] - (float64(p.Alpha*v[t]) - float64(p.Beta*lv[t])) + float64(p.Beta*le[t]) // (20)
			qn[t] = q[t] + float64(p.Rho*lxw[t])                                                          // (21)
		}
		return xn, qn
	}
	for k := range 300 {
		x0, q0 := append([]float64(nil), a.x...), append([]float64(nil), a.q...)
		st := a.Advance()
		w, e := noiseOf(st, "y", n, d), noiseOf(st, "z", n, d)
		scale := math.Max(1, maxAbs(a.x))
		// One step from the distributed state, with q̂ = q.
		xs, _ := compact(x0, q0, w, e)
		for j := range xs {
			if diff := math.Abs(xs[j] - a.x[j]); diff > 1e-12*scale {
				t.Fatalf("iteration %d, entry %d: compact step %v, distributed %v (|diff| %g > 1e-12·%g)", k, j, xs[j], a.x[j], diff, scale)
			}
		}
		// q = ρ(P ⊗ I)d, the identity the equivalence rests on.
		ld := L(a.dv)
		for j := range ld {
			if diff := math.Abs(a.q[j] - float64(p.Rho*ld[j])); diff > 1e-12*math.Max(1, maxAbs(a.q)) {
				t.Fatalf("iteration %d: q − ρLd = %g at entry %d", k, diff, j)
			}
		}
		// The compact form on its own.
		xc, qc = compact(xc, qc, w, e)
		for j := range xc {
			if diff := math.Abs(xc[j] - a.x[j]); diff > 1e-12*scale {
				t.Fatalf("iteration %d, entry %d: free compact form %v, distributed %v (|diff| %g)", k, j, xc[j], a.x[j], diff)
			}
		}
	}
}

// TestEtaInvariance checks that two different η sequences (drawn, and a
// pinned one) with the same noise give the same x-trajectory to 1e-10,
// while the messages differ.
func TestEtaInvariance(t *testing.T) {
	p := *Defaults()
	a := newInstance(t, p, 0.5, 0.95, 9, nil).alg
	b := newInstance(t, p, 0.5, 0.95, 9, []float64{0.9, 0.01, 0.5, 0.123}).alg
	c := newInstance(t, Params{Alpha: p.Alpha, Beta: p.Beta, Rho: p.Rho, Eta: 0.3, Delta: 1, ScaleP: ScaleNone}, 0.5, 0.95, 9, nil).alg
	msgDiff := 0.0
	for k := range 400 {
		sa, sb := a.Advance(), b.Advance()
		c.Advance()
		for j := range a.x {
			if diff := math.Abs(a.x[j] - b.x[j]); diff > 1e-10*math.Max(1, math.Abs(a.x[j])) {
				t.Fatalf("iteration %d: x differs by %g between two η sequences", k, diff)
			}
			if diff := math.Abs(a.x[j] - c.x[j]); diff > 1e-10*math.Max(1, math.Abs(a.x[j])) {
				t.Fatalf("iteration %d: x differs by %g between drawn and constant η", k, diff)
			}
		}
		msgDiff = math.Max(msgDiff, math.Abs(sa.Releases[0].Sent[0]-sb.Releases[0].Sent[0]))
	}
	if msgDiff < 1e-3 {
		t.Errorf("the messages y do not depend on η (max difference %g): the first tier is missing", msgDiff)
	}
}

// TestNoiseFree checks exact convergence without noise: Ŵ below 1e-8.
func TestNoiseFree(t *testing.T) {
	in := newInstance(t, *Defaults(), 0, 1, 1, nil)
	var st *sim.Step
	for range 3000 {
		st = in.alg.Advance()
	}
	out := []float64{0}
	in.prob.Measure(st.Estimates, st.Dim, out)
	if !(out[0] < 1e-8) {
		t.Errorf("noise-free Ŵ after 3000 iterations = %g, want < 1e-8", out[0])
	}
}

// TestRounds checks the releases: y in round 0, z in round 1, each agent
// once per channel, to all its neighbours with factor 1, noise attached.
func TestRounds(t *testing.T) {
	in := newInstance(t, *Defaults(), 0.2, 0.9, 3, nil)
	for k := range 3 {
		st := in.alg.Advance()
		if !st.InRoundOrder() {
			t.Fatalf("iteration %d: releases not in round order", k)
		}
		if len(st.Releases) != 2*in.alg.n {
			t.Fatalf("%d releases, want %d", len(st.Releases), 2*in.alg.n)
		}
		for idx, r := range st.Releases {
			want, round := "y", 0
			if idx >= in.alg.n {
				want, round = "z", 1
			}
			if r.Channel != want || r.Round != round || r.From != idx%in.alg.n {
				t.Errorf("release %d: channel %q round %d from %d, want %q round %d from %d", idx, r.Channel, r.Round, r.From, want, round, idx%in.alg.n)
			}
			if r.Factor != nil || len(r.To) == 0 || r.Noise == nil {
				t.Errorf("release %d: factor %v, %d receivers, noise %v", idx, r.Factor, len(r.To), r.Noise)
			}
			for _, j := range r.To {
				if in.p[r.From][j] == 0 || j == r.From {
					t.Errorf("release %d goes to %d, not a neighbour of %d", idx, j, r.From)
				}
			}
		}
	}
}
