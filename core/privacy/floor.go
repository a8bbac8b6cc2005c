package privacy

import (
	"math"

	"dpsim/core/pld"
)

// The smallest privacy loss of one release that the ledgers represent.
// Below it the loss underflows float64 somewhere on its way to the page:
// a Laplace release's ε = Δ/b is 0 below 4.9e-324 (and has few digits
// below 2.2e-308), and a Gaussian release's ρ = μ²/2 (zCDP) is 0 once
// μ = Δ/σ is below 1e-162. A ledger then reads ε = 0 and the tight
// accountant "no release depends on the agent's data", although every
// release does: a false privacy figure, which validation refuses
// (FloorProbe says where it looks).
const (
	LaplaceFloor  = 1e-300 // ε = Δ/b of one Laplace release
	GaussianFloor = 1e-150 // μ = Δ/σ of one Gaussian release: ρ = μ²/2 ≥ 5e-301
)

// FloorProbe is how many iterations from the start BelowFloor reads: a
// data-dependent release comes within the first two in every plug-in
// (within the first few activations of a random walk), and the scales
// of a decay change little over so few, so that what it finds there
// holds for the run; it costs a few releases per agent.
const FloorProbe = 16

// Underflow is what BelowFloor found: the release of an agent whose loss
// is the largest of its data-dependent releases and still below Floor.
type Underflow struct {
	Charge    Charge  // the release, its agent and channel
	Iteration int     // the iteration it was charged at
	Loss      float64 // its Δ/scale: Laplace ε, Gaussian μ
}

// BelowFloor looks at the releases r charges each of agents agents over
// the first min(iterations, FloorProbe) iterations, at the run's own
// scales. It returns the first agent whose releases depend on its data
// (a sensitivity above 0 and a finite scale) but whose largest loss is
// below Floor, and false when every agent has a release at or above it,
// or none that depends on its data (nothing to misreport). An agent's
// search stops at its first release at or above the floor, so a run
// that passes costs a few releases per agent.
func BelowFloor(r Releaser, agents, iterations int) (Underflow, bool) {
	probe := min(iterations, FloorProbe)
	var buf []Charge
	for i := range agents {
		var worst Underflow
		found, ok := false, false
		for k := 0; k < probe && !ok; k++ {
			buf = r.Releases(buf[:0], i, k, k+1, 1)
			for _, c := range buf {
				rel := c.Release
				if !(rel.Sensitivity > 0) || math.IsInf(rel.Scale, 1) {
					continue // says nothing about the agent's data
				}
				floor := LaplaceFloor
				if rel.Mechanism == pld.Gaussian {
					floor = GaussianFloor
				}
				l := rel.Sensitivity / rel.Scale // +Inf without noise
				if l >= floor {
					ok = true
					break
				}
				if !found || l > worst.Loss {
					worst, found = Underflow{Charge: c, Iteration: k, Loss: l}, true
				}
			}
		}
		if found && !ok {
			return worst, true
		}
	}
	return Underflow{}, false
}
