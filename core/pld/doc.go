// Package pld is a tight numerical privacy accountant: it composes an
// agent's releases — each a Laplace or Gaussian mechanism with its noise
// scale and the sensitivity its paper's analysis gives — through their
// privacy loss distributions, and answers ε(δ) and δ(ε) as upper bounds on
// the composition's exact values, with an estimate of how far above they
// may be.
//
// Gaussian releases alone compose in closed form (μ = √Σ(Δ_k/σ_k)²). Any
// Laplace release brings the numerical path: each release's loss is
// discretized by the pessimistic connect-the-dots construction (Doroshenko,
// Ghazi, Kamath, Kumar & Manurangsi 2022), releases of nearby ε are
// rounded up into buckets (and down, to measure what that cost), and all
// are composed in the Fourier domain at once: the product of every
// group's transform raised to its count, a Laplace release's in closed
// form, and one inverse transform (Koskela, Jälkö & Honkela 2020; Gopi,
// Lee & Wutschitz 2021; Google's dp_accounting). The tails beyond
// Bernstein's bound are counted at +∞, and the whole is computed on a
// grid and on twice it, whose difference is the error estimate. docs/privacy-truth.md describes the method, what the
// bound means and does not mean, and the tests that check it against
// independent references.
//
// Compose composes one sequence; a Ledger keeps every agent's releases as
// a run goes and composes each distinct multiset once.
package pld
