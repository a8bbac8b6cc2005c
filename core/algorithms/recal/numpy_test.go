package recal_test

import (
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"dpsim/core/algorithms/dpmradmm"
	"dpsim/core/algorithms/recal"
	"dpsim/core/problems/logistic"
	"dpsim/core/scenario"
)

var (
	numpyOut   = flag.String("numpy.out", "", "TestNumPyExport: write the bench scenarios' resolved parameters (and, with -numpy.iters, a noise-free run's state) to this directory for bench/recal/numpy_bench.py")
	numpyIters = flag.Int("numpy.iters", 0, "TestNumPyExport: iterations of the noise-free run exported for bench/recal/check.sh (0: none)")
)

// numpyExport is what bench/recal/numpy_bench.py reads of one bench
// scenario: everything it needs to run the same update, as dpsim resolved
// it, so that nothing is recomputed or guessed on the NumPy side.
type numpyExport struct {
	Dataset   string   `json:"dataset"`
	Algorithm string   `json:"algorithm"`
	Kind      string   `json:"kind"`
	N         int      `json:"n"`
	Dim       int      `json:"dim"`
	Shards    [][2]int `json:"shards"` // [lo, hi) rows of the train split
	L         float64  `json:"L"`      // max_i L_i, the problem's
	Mu        float64  `json:"mu"`     // μ, the f_i's strong convexity
	L2        float64  `json:"l2"`     // λ, the ℓ2 weight inside every f_i
	RL1       float64  `json:"r_l1"`
	RL2       float64  `json:"r_l2"`
	// W is the mixing matrix, dense; Neighbors the ring's.
	W         [][]float64 `json:"W"`
	Neighbors [][]int     `json:"neighbors"`
	// Inputs are the ledger's numeric inputs by name (α, τ, ρ, σ_1, R, …).
	Inputs map[string]float64 `json:"inputs"`
	// Alphas and Beta are DP-RECAL's α_i and β.
	Alphas []float64 `json:"alphas,omitempty"`
	Beta   float64   `json:"beta,omitempty"`
	// Check is a noise-free run of Iters iterations: the holders (walks
	// only) and every state variable afterwards.
	Check *numpyCheck `json:"check,omitempty"`
}

type numpyCheck struct {
	Iters   int                  `json:"iters"`
	Holders []int                `json:"holders,omitempty"`
	State   map[string][]float64 `json:"state"`
}

// TestNumPyExport is a tool, not a test: with -numpy.out it writes, for
// every algorithm and dataset of the benchmarks, the parameters dpsim
// resolved (bench/recal/compare.sh and check.sh run it); without, it is
// skipped.
func TestNumPyExport(t *testing.T) {
	if *numpyOut == "" {
		t.Skip("a tool for bench/recal: give -numpy.out")
	}
	for _, ds := range []string{"ijcnn1", "mnist-01"} {
		for _, alg := range benchAlgorithms {
			e := exportOf(t, benchBuild(t, alg, ds))
			e.Dataset, e.Algorithm, e.Kind = ds, alg.name, alg.kind
			if iters := *numpyIters; iters > 0 {
				if alg.kind == "dp-mradmm" {
					// Its odd iterations solve exactly: tens of
					// gradients per agent each.
					iters = min(iters, 20)
				}
				off := alg
				off.private = false
				e.Check = checkRun(t, benchBuild(t, off, ds), iters)
			}
			js, err := json.Marshal(e)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(*numpyOut, ds+"-"+alg.name+".json"), js, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func exportOf(t *testing.T, bl *scenario.Built) *numpyExport {
	env := bl.Env
	var prob *logistic.Model
	switch p := env.Problem.(type) {
	case *logistic.Composite:
		prob = p.Model
	case *logistic.Model:
		prob = p
	default:
		t.Fatalf("the bench problem is a %T, not the least squares", env.Problem)
	}
	var pp struct {
		L2  float64 `json:"l2"`
		Reg string  `json:"regularizer"`
		L1  float64 `json:"r_l1"`
		RL2 float64 `json:"r_l2"`
	}
	if err := json.Unmarshal(bl.Scenario.Problem.Params, &pp); err != nil {
		t.Fatal(err)
	}
	if pp.Reg == "none" {
		pp.L1, pp.RL2 = 0, 0
	}
	n := prob.Agents()
	mu, l := prob.Smoothness()
	e := &numpyExport{N: n, Dim: prob.Dim(), L: l, Mu: mu, L2: pp.L2, RL1: pp.L1, RL2: pp.RL2, Inputs: map[string]float64{}}
	for i := range n {
		sh := prob.Shard(i)
		lo := sh.Row(0)
		for k := range sh.Len() {
			if sh.Row(k) != lo+k {
				t.Fatalf("agent %d's shard is not contiguous at row %d", i, k)
			}
		}
		e.Shards = append(e.Shards, [2]int{lo, lo + sh.Len()})
		row := make([]float64, n)
		row[i] = env.Weights.Diag[i]
		cols, vals := env.Weights.Row(i)
		for k, j := range cols {
			row[j] = vals[k]
		}
		e.W = append(e.W, row)
		e.Neighbors = append(e.Neighbors, env.Graph.Neighbors(i))
	}
	for _, in := range bl.Accountant.Ledger().Inputs {
		if in.Text == "" {
			e.Inputs[in.Name] = in.Value
		}
	}
	if _, ok := bl.Algorithm.(*dpmradmm.Algorithm); ok {
		e.Inputs["inner"] = float64(dpmradmm.Defaults().Inner)
	}
	if a, ok := bl.Algorithm.(*recal.Algorithm); ok {
		e.Alphas, e.Beta = a.Alphas(), a.Beta()
		e.Inputs["σ_1"] = a.Sigma1(0)
	}
	return e
}

// checkRun runs bl's algorithm iters iterations and returns its holders
// and state.
func checkRun(t *testing.T, bl *scenario.Built, iters int) *numpyCheck {
	a := bl.Algorithm
	a.Initial()
	c := &numpyCheck{Iters: iters, State: map[string][]float64{}}
	for range iters {
		st := a.Advance()
		if len(st.Active) == 1 {
			c.Holders = append(c.Holders, st.Active[0])
		}
	}
	for _, v := range a.State() {
		c.State[v.Name] = v.Data
	}
	return c
}
