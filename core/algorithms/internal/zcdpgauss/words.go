package zcdpgauss

import "dpsim/core/glossary"

// Symbols are the glossary entries every Gaussian baseline of DP-RECAL
// prints: its noise schedule, its sensitivity and its zCDP ledger. Each
// baseline adds its own.
func Symbols() []glossary.Term {
	return []glossary.Term{
		{Symbol: "ν", Meaning: "The Gaussian noise on a published value."},
		{Symbol: "σ_1", Meaning: "The noise standard deviation of the first publication."},
		{Symbol: "R", Meaning: "The attenuation: the noise variance shrinks by 1/R per publication, σ_k² = σ_1²·R^(−(k−1)); R > 1 makes the noise summable, R = 1 leaves a noise floor."},
		{Symbol: "c", Meaning: "The gradient bound ‖∇f_i‖ ≤ c (DP-RECAL's Assumption 3): the sensitivity input of the ledger."},
		{Symbol: "Δ", Meaning: "The ℓ2 sensitivity of one publication: how much one agent's data can move it."},
		{Symbol: "ρ-zCDP", Meaning: "Zero-concentrated differential privacy: each Gaussian publication of sensitivity Δ and variance σ² costs ρ = Δ²/(2σ²) per agent, and the costs add up."},
		{Symbol: "(ε, δ)", Meaning: "The ledger's guarantee: the summed ρ converted to (ε, δ)-DP; δ is the probability with which the ε bound may fail."},
		{Symbol: "PLF", Meaning: "Privacy leakage frequency: the publications (or activations) of an agent a target ε is calibrated for."},
	}
}
