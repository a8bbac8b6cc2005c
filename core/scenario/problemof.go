package scenario

import (
	"dpsim/core/check"
	"dpsim/core/objective"
)

// ProblemOf builds s's network and problem alone: the instance BuildFor
// would give its run (the same graph, seeds and data), for a worker that
// only computes the run's gradients (core/farm: the page's helper Web
// Workers). s must be one that builds; what it checks is the problem's.
func ProblemOf(s *Scenario) (objective.Problem, error) {
	f, ok := factories[s.Algorithm.Kind]
	if !ok {
		return nil, check.Errorf("algorithm.kind", "must be one of %v (got %q)", AlgorithmNames(), s.Algorithm.Kind)
	}
	pf, pparams, err := decodeProblem(&s.Problem)
	if err != nil {
		return nil, err
	}
	dataBytes := int64(0)
	if pf.Size != nil {
		_, dataBytes = pf.Size(pparams, max(s.Graph.N, s.Graph.Rows*s.Graph.Cols))
	}
	seeds := s.StreamSeeds()
	g, err := buildGraph(&s.Graph, seeds, f.RootedDigraphs, func() error { return nil })
	if err != nil {
		return nil, err
	}
	prob, _, err := buildProblem(pf, pparams, g, seeds, nil, dataBytes)
	return prob, err
}
