package weights

import (
	"math/rand/v2"
	"testing"

	"dpsim/core/graph"
)

// BenchmarkAnalyze times the whole analysis at the size limits, where the
// dense spectral part dominates: a symmetric matrix at MaxEigenN and a
// nonsymmetric one at MaxGeneralEigenN.
func BenchmarkAnalyze(b *testing.B) {
	src := rand.New(rand.NewPCG(3, 4))
	rgg, err := graph.RandomGeometric(MaxEigenN, 0.1, 100, src)
	if err != nil {
		b.Fatal(err)
	}
	ringN := MaxGeneralEigenN
	var es []graph.Edge
	for i := range ringN {
		es = append(es, graph.Edge{From: i, To: (i + 1) % ringN})
	}
	for i := 0; i < ringN; i += 7 {
		es = append(es, graph.Edge{From: i, To: (i*31 + 5) % ringN})
	}
	dg, err := graph.New(ringN, es, true)
	if err != nil {
		b.Fatal(err)
	}
	mh, _ := Metropolis(rgg)
	ldp, _ := LDPLaplacian(rgg, 0.05)
	row, _ := RowStochastic(dg)
	col, _ := ColumnStochastic(dg)
	for _, bc := range []struct {
		name string
		m    *Matrix
		g    *graph.Graph
	}{
		{"metropolis-rgg-600", mh, rgg},
		{"ldp-rgg-600", ldp, rgg},
		{"row-stochastic-digraph-500", row, dg},
		{"column-stochastic-digraph-500", col, dg},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				Analyze(bc.m, bc.g)
			}
		})
	}
}
