package method

import "dpsim/core/privacy"

// Theory is what an algorithm's source proves about one configuration,
// computed before the run and recorded with it, so that the page and the
// export can set the measured numbers beside the predicted ones.
type Theory struct {
	// Source cites the paper the statements come from.
	Source string `json:"source"`
	// Convergence says which of the source's convergence results applies
	// to these parameters, in words (e.g. "Theorem 1, case 1 …").
	Convergence string `json:"convergence"`
	// Error is the predicted steady-state error, when the source gives one.
	Error *PredictedError `json:"predicted_error,omitempty"`
	// InfiniteHorizon is the source's budget for an unbounded number of
	// iterations, when it gives one.
	InfiniteHorizon *Budget `json:"infinite_horizon,omitempty"`
}

// PredictedError is a theorem's bound on the steady-state error. When the
// theorem does not apply, Available is false and Reason says why.
type PredictedError struct {
	Available bool   `json:"available"`
	Reason    string `json:"reason,omitempty"`
	Source    string `json:"source"`
	Formula   string `json:"formula"`
	// Bound bounds limsup_k E‖x_k − 1⊗x*‖², summed over the agents.
	Bound float64 `json:"bound"`
	// PerAgent is Bound/n, on the scale of the optimality metric
	// (1/n)·Σ_i‖x_i − x*‖².
	PerAgent float64 `json:"per_agent"`
	// Rate is the linear rate ρ(A) the theorem proves (0 when none).
	Rate float64 `json:"rate"`
	// Inputs are the quantities the bound was computed from.
	Inputs []privacy.Input `json:"inputs"`
}

// Budget is a closed-form privacy budget, or the reason there is none.
type Budget struct {
	Available bool           `json:"available"`
	Reason    string         `json:"reason,omitempty"`
	Source    string         `json:"source"`
	Formula   string         `json:"formula"`
	Epsilon   privacy.Amount `json:"epsilon"`
	// Agent is the agent whose budget is the largest.
	Agent  int             `json:"agent"`
	Inputs []privacy.Input `json:"inputs"`
}
