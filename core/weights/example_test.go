package weights_test

import (
	"fmt"

	"dpsim/core/graph"
	"dpsim/core/weights"
)

func Example_metropolis() {
	// Metropolis–Hastings weights on a ring of 4 agents: every agent has
	// two neighbours, so every weight is 1/(1+2) = 1/3.
	g, _ := graph.Ring(4)
	w, err := weights.Metropolis(g)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, e := range w.Entries() {
		fmt.Printf("(%d, %d) = %.3f\n", e.I, e.J, e.W)
	}
	r := weights.Analyze(w, g)
	fmt.Println("doubly stochastic:", r.DoublyStochastic)
	fmt.Printf("ρ_w = %.4f, ρ(W_o) = %.4f\n", r.RhoW, r.RhoWo)
	fmt.Print(r)
	// Output:
	// (0, 0) = 0.333
	// (0, 1) = 0.333
	// (0, 3) = 0.333
	// (1, 0) = 0.333
	// (1, 1) = 0.333
	// (1, 2) = 0.333
	// (2, 1) = 0.333
	// (2, 2) = 0.333
	// (2, 3) = 0.333
	// (3, 0) = 0.333
	// (3, 2) = 0.333
	// (3, 3) = 0.333
	// doubly stochastic: true
	// ρ_w = 0.3333, ρ(W_o) = 0.6667
	// ok      nonnegative       every off-diagonal entry is ≥ 0 (the smallest is 0)
	// ok      symmetric         w_ij = w_ji for every pair
	// ok      row-stochastic    every row sums to 1 and no entry is negative
	// ok      column-stochastic every column sums to 1 and no entry is negative
	// ok      doubly-stochastic every row and every column sums to 1 and no entry is negative
	// ok      positive-diagonal every diagonal entry is > 0 (the smallest is 0.333333, row 0)
	// ok      sparsity          the nonzero off-diagonal entries are exactly the graph's 8 links
	// fails   zero-row-sums     row 0 sums to 1 (a Laplacian-type matrix needs 0)
	// ok      eigenvalue-min    the smallest eigenvalue is -0.333333 (all lie in [-0.333333, 1])
	// ok      eigenvalue-max    the largest eigenvalue is 1 (all lie in [-0.333333, 1])
	// ok      rho-w             ρ(W − 11ᵀ/n) = 0.333333
	// ok      rho-wo            ρ(W_o) = 0.666667, with W_o = W without its diagonal
	// ok      perron-left       π = (0.25, 0.25, 0.25, 0.25), with πᵀW = πᵀ and Σπ = 1
	// ok      perron-right      π = (0.25, 0.25, 0.25, 0.25), with Wπ = π and Σπ = 1
}

func ExampleMixRow() {
	// One row of (W ⊗ I)·x without its diagonal: agent 0 of a ring of 4
	// with Metropolis weights mixes its neighbours' 2-vectors, 1/3 each.
	g, _ := graph.Ring(4)
	w, _ := weights.Metropolis(g)
	x := []float64{ // agent-major: agent j's vector at x[2j : 2j+2]
		0, 0,
		3, 6,
		100, 100,
		-3, 3,
	}
	acc := []float64{w.Diag[0] * x[0], w.Diag[0] * x[1]} // the diagonal term
	lo, hi := w.Start[0], w.Start[1]
	weights.MixRow(acc, x, w.Col[lo:hi], w.Val[lo:hi])
	fmt.Println("neighbours of agent 0:", w.Col[lo:hi])
	fmt.Printf("row 0 of W·x: [%.0f %.0f]\n", acc[0], acc[1])
	// Output:
	// neighbours of agent 0: [1 3]
	// row 0 of W·x: [0 3]
}
