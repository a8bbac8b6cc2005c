package privacy_test

import (
	"math"
	"testing"

	"dpsim/core/pld"
	"dpsim/core/privacy"
	"dpsim/core/sim"
)

// listed releases, per agent, the releases rel(agent, k) of each
// iteration k.
type listed struct {
	rel   func(agent, k int) []pld.Release
	asked int // releases handed out
}

func (l *listed) Record(*sim.Step)       {}
func (l *listed) Ledger() privacy.Ledger { return privacy.Ledger{} }
func (l *listed) Adjacency() string      { return "test" }
func (l *listed) Releases(dst []privacy.Charge, agent, from, to int, factor float64) []privacy.Charge {
	for k := from; k < to; k++ {
		for _, r := range l.rel(agent, k) {
			r.Scale *= factor
			dst = append(dst, privacy.Charge{Agent: agent, Channel: "m", Release: r})
			l.asked++
		}
	}
	return dst
}

func lap(sens, scale float64) pld.Release {
	return pld.Release{Mechanism: pld.Laplace, Sensitivity: sens, Scale: scale}
}

func gauss(sens, scale float64) pld.Release {
	return pld.Release{Mechanism: pld.Gaussian, Sensitivity: sens, Scale: scale}
}

// TestBelowFloor: an agent whose data-dependent releases all have a loss
// below the floor (Laplace ε < 1e-300, Gaussian μ < 1e-150 — ρ = μ²/2
// then underflows) is found, with its largest such release; releases
// that depend on nothing (Δ = 0), say nothing (scale +Inf) or have no
// noise are not; one release at the floor within the probe clears the
// agent.
func TestBelowFloor(t *testing.T) {
	const n = 3
	for _, c := range []struct {
		name  string
		rel   func(agent, k int) []pld.Release
		agent int // the agent found; −1 for none
		loss  float64
	}{
		{"the issue's release: 1.4e-323/1e12 reads 0", func(_, k int) []pld.Release { return []pld.Release{lap(1.4e-323, 1e12)} }, 0, 0},
		{"a loss of 1e-305 is below 1e-300", func(_, k int) []pld.Release { return []pld.Release{lap(1e-293, 1e12)} }, 0, 1e-305},
		{"a loss of 1e-290 is fine", func(_, k int) []pld.Release { return []pld.Release{lap(1e-278, 1e12)} }, -1, 0},
		{"nothing depends on the data", func(_, k int) []pld.Release { return []pld.Release{lap(0, 1e12), gauss(0, 1)} }, -1, 0},
		{"no noise", func(_, k int) []pld.Release { return []pld.Release{lap(1, 0)} }, -1, 0},
		{"an infinite scale says nothing", func(_, k int) []pld.Release { return []pld.Release{lap(1e-320, math.Inf(1))} }, -1, 0},
		{"the first data-dependent release comes at k = 1", func(_, k int) []pld.Release {
			if k == 0 {
				return []pld.Release{lap(0, 1e12)}
			}
			return []pld.Release{lap(1e-320, 1e12)}
		}, 0, 0},
		{"one release above the floor clears the agent", func(_, k int) []pld.Release {
			return []pld.Release{lap(1e-320, 1e12), lap(1e-10, 1e12)}
		}, -1, 0},
		{"the largest loss below the floor is named", func(_, k int) []pld.Release {
			return []pld.Release{lap(1e-320, 1e12), lap(float64(k+1)*1e-295, 1e12)}
		}, 0, 16e-307},
		{"Gaussian μ = 1e-160: ρ = μ²/2 underflows", func(_, k int) []pld.Release { return []pld.Release{gauss(1e-148, 1e12)} }, 0, 1e-160},
		{"Gaussian μ = 1e-140 is fine", func(_, k int) []pld.Release { return []pld.Release{gauss(1e-128, 1e12)} }, -1, 0},
		{"only agent 2 underflows", func(agent, k int) []pld.Release {
			if agent == 2 {
				return []pld.Release{lap(1e-320, 1e12)}
			}
			return []pld.Release{lap(1, 1e12)}
		}, 2, 0},
	} {
		l := &listed{rel: c.rel}
		u, found := privacy.BelowFloor(l, n, 1000)
		switch {
		case found != (c.agent >= 0):
			t.Errorf("%s: found %v (%+v)", c.name, found, u)
		case found && (u.Charge.Agent != c.agent || math.Abs(u.Loss-c.loss) > 1e-6*c.loss):
			t.Errorf("%s: agent %d, loss %g; want agent %d, loss %g", c.name, u.Charge.Agent, u.Loss, c.agent, c.loss)
		}
		if l.asked > 2*n*privacy.FloorProbe {
			t.Errorf("%s: read %d releases, more than the probe's %d iterations", c.name, l.asked, privacy.FloorProbe)
		}
	}
	// A run shorter than the probe is read to its end only.
	l := &listed{rel: func(_, k int) []pld.Release {
		if k < 2 {
			return []pld.Release{lap(1e-320, 1)}
		}
		return []pld.Release{lap(1, 1)}
	}}
	if _, found := privacy.BelowFloor(l, 1, 2); !found {
		t.Error("a run of 2 iterations: its releases at 1e-320 were not found")
	}
}
