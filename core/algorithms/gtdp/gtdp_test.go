package gtdp_test

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"dpsim/core/num"
	"dpsim/core/runner"
	"dpsim/core/runner/runnertest"
	"dpsim/core/scenario"
	"dpsim/core/sim"
)

var update = flag.Bool("update", false, "regenerate the golden files in testdata")

// build returns a built scenario from a JSON text.
func build(t testing.TB, js string) *scenario.Built {
	t.Helper()
	return runnertest.Parse(t, []byte(js), nil)
}

// pair is GT-DP on two agents with self-weight w, dimension 1.
func pair(w, alpha float64, gamma, beta string, bEta, bXi float64, iters int) string {
	return fmt.Sprintf(`{"name":"pair","seed":1,"graph":{"kind":"ring","n":2},
	 "weights":{"kind":"matrix","matrix":[[%[1]v,%[2]v],[%[2]v,%[1]v]]},
	 "problem":{"kind":"rendezvous", "params": {"dim":1,"targets":[[0],[1]]}},
	 "algorithm":{"kind":"gt-dp","params":{"alpha":%[3]v,"gamma":%[4]s,"gradient_bound":1}},
	 "noise":{"eta":{"dist":"laplace","scale":%[6]v,"decay":%[5]s},"xi":{"dist":"laplace","scale":%[7]v,"decay":%[5]s}},
	 "iterations":%[8]d}`, w, 1-w, alpha, gamma, beta, bEta, bXi, iters)
}

// The spec's hand-computed case (algorithms.md §5.4): w_ii = 0.5, α = 0.1,
// C = 1, r = 1, b_η = b_ξ = 1, γ_k = β_k = 1, K = 2 gives ε = 5.4:
//
//	k = 1: 2·(1 + 0.1·|c_{1,0}|) = 2.2            (c_{1,0} = −1)
//	k = 2: 2·((0.5 + 1) + 0.1·(|c_{2,0}| + |c_{2,1}|)) = 3.2   (c_{2,0} = 0, c_{2,1} = −1)
//
// K = 2 means messages up to iteration 2, i.e. three iterations run.
func TestEq18HandComputed(t *testing.T) {
	const one = `{"kind":"constant","c":1}`
	b := build(t, pair(0.5, 0.1, one, one, 1, 1, 3))
	r := runner.New(b)
	want := []float64{0, 0, 2.2, 5.4} // after 0, 1, 2, 3 iterations
	for it := 0; it <= 3; it++ {
		if it > 0 {
			if _, err := r.Advance(); err != nil {
				t.Fatal(err)
			}
		} else {
			r.Start()
		}
		l := r.Ledger()
		for _, e := range l.Agents {
			if got := e.Epsilon.Value(); math.Abs(got-want[it]) > 1e-12 {
				t.Errorf("after %d iterations agent %d: ε = %.15g, want %g", it, e.Agent, got, want[it])
			}
		}
	}
}

// bruteEq18 evaluates eq. (18) literally, double sum and all.
func bruteEq18(w, alpha, c float64, r int, gamma, scaleEta, scaleXi func(k int) float64, K int) float64 {
	eps := 0.0
	for k := 1; k <= K; k++ {
		for t := 0; t <= k-1; t++ {
			ckt := num.Pow(w, float64(k-2-t)) * (float64(k-t-1) - float64(float64(k-t)*w))
			eps += float64((math.Pow(w, float64(k-1-t))/scaleEta(k) + alpha*math.Abs(ckt)/scaleXi(k)) * gamma(t))
		}
	}
	return 2 * math.Sqrt(float64(r)) * c * eps
}

// The accountant's O(1) recursion must equal the literal double sum.
func TestEq18MatchesDoubleSum(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for trial := range 40 {
		w := 0.05 + float64(0.9*rnd.Float64())
		if trial == 0 {
			w = 0.97 // many negative c terms
		}
		alpha := 0.01 + rnd.Float64()
		gp := 2 * rnd.Float64()
		q := rnd.Float64()
		bEta, bXi := 0.1+rnd.Float64(), 0.1+rnd.Float64()
		K := 1 + rnd.IntN(60)
		gamma := fmt.Sprintf(`{"kind":"polynomial","c":1.5,"m":1,"p":%v}`, gp)
		beta := fmt.Sprintf(`{"kind":"polynomial","c":1,"m":2,"p":%v}`, q)
		if trial%3 == 1 {
			beta = fmt.Sprintf(`{"kind":"geometric","c":1,"r":%v}`, 0.5+float64(0.5*q))
		}
		b := build(t, pair(w, alpha, gamma, beta, bEta, bXi, K+1))
		r := runner.New(b)
		if err := r.Run(); err != nil {
			t.Fatal(err)
		}
		got := r.Ledger().Max.Value()
		gs := func(k int) float64 { return 1.5 / math.Pow(1+float64(k), gp) }
		bs := func(k int) float64 { return 1 / math.Pow(2+float64(k), q) }
		if trial%3 == 1 {
			bs = func(k int) float64 { return math.Pow(0.5+float64(0.5*q), float64(k)) }
		}
		want := bruteEq18(w, alpha, 1, 1, gs,
			func(k int) float64 { return bEta * bs(k) }, func(k int) float64 { return bXi * bs(k) }, K)
		if math.Abs(got-want) > 1e-10*want {
			t.Errorf("trial %d (w=%.3f, K=%d): ε = %.15g, literal eq. 18 = %.15g", trial, w, K, got, want)
		}
	}
}

func TestNoNoiseMeansNoGuarantee(t *testing.T) {
	const one = `{"kind":"constant","c":1}`
	b := build(t, pair(0.5, 0.1, one, one, 0, 0, 5))
	r := runner.New(b)
	if err := r.Run(); err != nil {
		t.Fatal(err)
	}
	l := r.Ledger()
	if !l.Max.IsInf() || l.Agents[0].Reason == "" {
		t.Errorf("noise-free run: max ε %v, reason %q; want ∞ with a reason", l.Max, l.Agents[0].Reason)
	}
}

// Done-when: noise-free GT-DP on rendezvous (ring of 8, constant step)
// reaches the centroid within 1e-10 by iteration 2000.
func TestNoiseFreeConvergesToCentroid(t *testing.T) {
	s, err := scenario.PresetScenario("gtdp-rendezvous-noisefree")
	if err != nil {
		t.Fatal(err)
	}
	b, err := scenario.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	if s.Iterations != 2000 || s.Graph.Kind != "ring" || s.Graph.N != 8 {
		t.Fatalf("the preset changed: %+v", s.Graph)
	}
	r := runner.New(b)
	if err := r.Run(); err != nil {
		t.Fatal(err)
	}
	opt := b.Env.Problem.Optimum()
	x := b.Algorithm.State()[0]
	worst := 0.0
	for i := range 8 {
		for c := range 2 {
			worst = math.Max(worst, math.Abs(x.Data[i*2+c]-opt[c]))
		}
	}
	if worst >= 1e-10 {
		t.Errorf("max |x_i − x*| = %g after 2000 iterations, want < 1e-10", worst)
	}
}

// The invariant of eq. (6), with y_k = s_{k+1} − s_k:
// 1ᵀy_k = γ_k·1ᵀ∇F(x_k) + β_k·1ᵀW_oη_k. The noise part is exactly the sum
// of the noise carried by every "s" message.
func TestTrackingInvariant(t *testing.T) {
	s, _ := scenario.PresetScenario("gtdp-rendezvous-rgg")
	b, err := scenario.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	alg := b.Algorithm
	prob := b.Env.Problem
	d := prob.Dim()
	g := make([]float64, d)
	for k := range 30 {
		before := alg.State()
		xk, sk := before[0].Data, before[1].Data
		st := alg.Advance()
		sNext := alg.State()[1].Data
		gamma := 1.0 // the preset's γ_k
		for c := range d {
			lhs, rhs := 0.0, 0.0
			for i := range prob.Agents() {
				lhs += sNext[i*d+c] - sk[i*d+c]
				prob.Grad(i, xk[i*d:(i+1)*d], g)
				rhs += gamma * g[c]
			}
			for m := range st.Messages() {
				if m.Channel == "s" {
					rhs += float64(m.Factor * m.Noise[c])
				}
			}
			if math.Abs(lhs-rhs) > 1e-9*(1+math.Abs(lhs)) {
				t.Fatalf("k=%d coordinate %d: 1ᵀ(s_{k+1}−s_k) = %.15g, γ_k·1ᵀ∇F + 1ᵀW_oβη = %.15g", k, c, lhs, rhs)
			}
		}
	}
}

// One noisy step equals the compact form (4) computed densely:
// s_{k+1} = W s_k + W_o β_k η_k + γ_k ∇F(x_k),
// x_{k+1} = W x_k + W_o β_k ξ_k − α(s_{k+1} − s_k),
// with β_k η_i recovered from any message i sent (noise / weight). A node
// mixes its own clean state: its own noise never enters its update.
func TestCompactForm(t *testing.T) {
	s, _ := scenario.PresetScenario("gtdp-rendezvous")
	b, err := scenario.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	alg, prob, W := b.Algorithm, b.Env.Problem, b.Env.Weights
	n, d := prob.Agents(), prob.Dim()
	alpha := 0.1
	for range 3 {
		before := alg.State()
		x, sv := before[0].Data, before[1].Data
		st := alg.Advance()
		eta, xi := noiseOf(st, n, d)
		after := alg.State()
		g := make([]float64, d)
		for i := range n {
			prob.Grad(i, x[i*d:(i+1)*d], g)
			for c := range d {
				sWant, xMix := 0.0, 0.0
				for j := range n {
					sWant += float64(W.At(i, j) * sv[j*d+c])
					xMix += float64(W.At(i, j) * x[j*d+c])
					if j != i {
						sWant += float64(W.At(i, j) * eta[j*d+c])
						xMix += float64(W.At(i, j) * xi[j*d+c])
					}
				}
				sWant += g[c]
				xWant := xMix - float64(alpha*(sWant-sv[i*d+c]))
				if math.Abs(after[1].Data[i*d+c]-sWant) > 1e-12 || math.Abs(after[0].Data[i*d+c]-xWant) > 1e-12 {
					t.Fatalf("agent %d: got s=%v x=%v, compact form s=%v x=%v", i, after[1].Data[i*d+c], after[0].Data[i*d+c], sWant, xWant)
				}
			}
		}
	}
}

// noiseOf returns β_k η_i and β_k ξ_i of every agent from its releases.
func noiseOf(st *sim.Step, n, d int) (eta, xi []float64) {
	eta, xi = make([]float64, n*d), make([]float64, n*d)
	for _, r := range st.Releases {
		dst := eta
		if r.Channel == "x" {
			dst = xi
		}
		copy(dst[r.From*d:(r.From+1)*d], r.Noise)
	}
	return eta, xi
}

// Every agent releases s_i + β_k η_i and x_i + β_k ξ_i once per
// iteration; the per-link view carries w_ji times that to each neighbour
// j, and nothing else travels.
func TestReleasesAndLinkView(t *testing.T) {
	s, _ := scenario.PresetScenario("gtdp-rendezvous-rgg")
	b, err := scenario.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	alg, g, W := b.Algorithm, b.Env.Graph, b.Env.Weights
	n, d := g.N, b.Env.Problem.Dim()
	for range 3 {
		before := alg.State()
		st := alg.Advance()
		if len(st.Releases) != 2*n {
			t.Fatalf("%d releases, want 2 per agent (%d)", len(st.Releases), 2*n)
		}
		for _, r := range st.Releases {
			clean := before[0].Data[r.From*d : (r.From+1)*d] // x
			if r.Channel == "s" {
				clean = before[1].Data[r.From*d : (r.From+1)*d]
			}
			for c := range d {
				if r.Sent[c]-r.Noise[c] != clean[c] && math.Abs(r.Sent[c]-r.Noise[c]-clean[c]) > 1e-12*(1+math.Abs(clean[c])) {
					t.Fatalf("agent %d channel %s: sent − noise = %v, state %v", r.From, r.Channel, r.Sent[c]-r.Noise[c], clean[c])
				}
			}
		}
		links := 0
		var pay []float64
		for m := range st.Messages() {
			links++
			if !g.HasLink(m.From, m.To) || m.From == m.To {
				t.Fatalf("message %d→%d on no link", m.From, m.To)
			}
			if m.Factor != W.At(m.To, m.From) {
				t.Fatalf("message %d→%d has factor %v, w_ji = %v", m.From, m.To, m.Factor, W.At(m.To, m.From))
			}
			pay = m.Payload(pay)
			for c := range d {
				if pay[c] != m.Factor*m.Sent[c] {
					t.Fatalf("payload %v ≠ factor·sent", pay)
				}
			}
		}
		if want := 2 * g.Links(); links != want || st.Links() != want {
			t.Fatalf("%d per-link messages (Links() = %d), want 2 per directed link = %d", links, st.Links(), want)
		}
	}
}

// trace is what the golden files hold: metrics and final states.
type trace struct {
	Optimality []float64   `json:"optimality"`
	Consensus  []float64   `json:"consensus"`
	Final      [][]float64 `json:"final"`
}

func runTrace(t *testing.T, preset string, iters int) trace {
	s, err := scenario.PresetScenario(preset)
	if err != nil {
		t.Fatal(err)
	}
	s.Iterations = iters
	s.Record.Checkpoints = nil
	b, err := scenario.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	r := runner.New(b)
	if err := r.Run(); err != nil {
		t.Fatal(err)
	}
	var tr trace
	ser := r.Metrics.Series
	tr.Optimality = ser.Optimality
	tr.Consensus = ser.Consensus
	for _, v := range b.Algorithm.State() {
		tr.Final = append(tr.Final, v.Data)
	}
	return tr
}

// The same scenario and seeds give the same trace natively and under
// js/wasm: both runs compare against the golden file written natively
// (go test ./core/gtdp -run Golden -update). The noise streams, schedules
// and losses use core/num, so the runs are in fact bit-identical; the
// tolerance is the promised 1e-12.
func TestGoldenTraces(t *testing.T) {
	for _, c := range []struct {
		preset string
		iters  int
	}{{"gtdp-rendezvous-noisefree", 2000}, {"gtdp-rendezvous", 400}, {"gtdp-paper-fig1", 500}} {
		got := runTrace(t, c.preset, c.iters)
		path := filepath.Join("testdata", c.preset+".golden.json")
		if *update {
			js, _ := json.MarshalIndent(got, "", " ")
			if err := os.WriteFile(path, js, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		js, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (regenerate with -update)", err)
		}
		var want trace
		if err := json.Unmarshal(js, &want); err != nil {
			t.Fatal(err)
		}
		cmp := func(what string, a, b []float64) {
			if len(a) != len(b) {
				t.Fatalf("%s %s: %d values, golden has %d", c.preset, what, len(a), len(b))
			}
			for i := range a {
				if d := math.Abs(a[i] - b[i]); d > 1e-12*math.Max(1, math.Abs(b[i])) {
					t.Fatalf("%s %s[%d] = %.17g, golden %.17g (diff %g)", c.preset, what, i, a[i], b[i], d)
				}
			}
		}
		cmp("optimality", got.Optimality, want.Optimality)
		cmp("consensus", got.Consensus, want.Consensus)
		for v := range want.Final {
			cmp("final state", got.Final[v], want.Final[v])
		}
	}
}

// BenchmarkIteration is one GT-DP iteration at dimension 10: at N = 50 on
// a random geometric graph (574 directed links, like the papers'
// experiments), with and without noise, and at N = 1000 on a ring and on
// a random geometric graph (≈ 13 k links), so that the cost per link and
// dimension can be seen to stay flat as N grows (ns/link·dim). Run it
// natively and under js/wasm; ./test.sh checks the wasm/native ratio, and
// bench/gtdp compares it with a vectorised NumPy iteration.
func BenchmarkIteration(b *testing.B) {
	for _, c := range []struct {
		name  string
		graph scenario.Graph
		scale float64
	}{
		{"rgg50", scenario.Graph{Kind: "random-geometric", N: 50, Radius: 0.3}, 0.1},
		{"rgg50-noisefree", scenario.Graph{Kind: "random-geometric", N: 50, Radius: 0.3}, 0},
		{"ring1000", scenario.Graph{Kind: "ring", N: 1000}, 0.1},
		{"rgg1000", scenario.Graph{Kind: "random-geometric", N: 1000, Radius: 0.066}, 0.1},
	} {
		b.Run(c.name, func(b *testing.B) {
			// The scenario bench/gtdp's NumPy reference also reads.
			js, err := os.ReadFile("../../../bench/gtdp/rgg50.json")
			if err != nil {
				b.Fatal(err)
			}
			s, err := scenario.Parse(js)
			if err != nil {
				b.Fatal(err)
			}
			s.Graph = c.graph
			s.Noise["eta"].Scale, s.Noise["xi"].Scale = c.scale, c.scale
			bl, err := scenario.Build(s)
			if err != nil {
				b.Fatal(err)
			}
			alg := bl.Algorithm
			links := bl.Env.Graph.Links()
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				alg.Advance()
			}
			b.ReportMetric(float64(links), "links")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(links*10), "ns/link·dim")
		})
	}
}
