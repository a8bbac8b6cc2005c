package experiment_test

import (
	"context"
	"fmt"

	"dpsim/core/experiment"
)

// An experiment's problems name the field and the rule.
func ExampleParse() {
	_, err := experiment.Parse([]byte(`{"format":"dpsim-experiment/1","name":"x","title":"t",
	 "base":{"preset":"gtdp-rendezvous"},"series":[{"name":"a"}],
	 "x":{"kind":"iteration","label":"k"},"runs":0,"seed":1,
	 "metrics":[{"name":"optimality"}],"statistic":"mean",
	 "figure":{"title":"t","y":{"metric":"optimality","label":"e"}}}`))
	fmt.Println(err)
	// Output: runs: must be an integer from 1 to 100000 (got 0)
}

// Run r shares its data, graph and algorithm seeds across series and
// points; its noise seed is its own.
func ExampleRunSeeds() {
	a := experiment.RunSeeds(1, 7, "decaying", 0)
	b := experiment.RunSeeds(1, 7, "constant", 3)
	fmt.Println(a.Data == b.Data, a.Graph == b.Graph, a.Algorithm == b.Algorithm, a.Noise == b.Noise)
	// Output: true true true false
}

// A sweep: plan the runs, execute them on two workers, assemble the
// statistics and check the claims.
func ExampleNewPlan() {
	e, err := experiment.PresetExperiment("gtdp-error-bands")
	if err != nil {
		panic(err)
	}
	e.Runs = 20 // a quick look; the preset asks for 200
	p, err := experiment.NewPlan(e)
	if err != nil {
		panic(err)
	}
	recs, err := p.Execute(context.Background(), p.AllTasks(), 2, nil)
	if err != nil {
		panic(err)
	}
	res, err := experiment.Assemble(p, recs, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println(res.Tasks, "runs,", len(res.Series), "series of", len(res.Series[0].Points), "points")
	for _, x := range res.Expectations {
		fmt.Println(x.Verdict+":", x.Claim)
	}
	// Output:
	// 60 runs, 3 series of 101 points
	// holds: The error falls over the iterations even at b = 10 (Theorem 1 case 1: exact convergence)
	// holds: At the last iteration the error with b = 0.1 is below the error with b = 1
	// holds: At the last iteration the error with b = 1 is below the error with b = 10
}
