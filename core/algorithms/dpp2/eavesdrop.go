package dpp2

import (
	"dpsim/core/eavesdrop"
	"dpsim/core/sim"
)

// Listener implements eavesdrop.Inverter: an eavesdropper on every link of
// agent i who knows P, ρ and η^k (public in the paper's threat model, App.
// E) rebuilds d_i and q_i with (19) and reads, from y_i, z_i and the
// neighbours' y_j (spec §3.2, derived consequence),
//
//	x_i^k + w_i^k = y_i^k − (1 − η^k)·d_i^k,   ∇f_i(x_i^k) + e_i^k = z_i^k − η^k·q_i^k − ρ·Σ_j p_ij y_j^k.
func (a *Algorithm) Listener(agent int) eavesdrop.Listener {
	return &listener{a: a, i: agent, d: make([]float64, a.d), q: make([]float64, a.d),
		x: make([]float64, a.d), g: make([]float64, a.d), acc: make([]float64, a.d)}
}

type listener struct {
	a         *Algorithm
	i         int
	d, q      []float64 // the rebuilt d_i, q_i
	x, g, acc []float64
}

// Channels implements eavesdrop.Listener.
func (l *listener) Channels() (string, string) { return "y", "z" }

// Inputs implements eavesdrop.Listener.
func (l *listener) Inputs() string { return "P, ρ and η^k" }

// Hear implements eavesdrop.Listener: only the releases on agent i's
// links (its own y_i, z_i and its neighbours' y_j) and public inputs.
func (l *listener) Hear(st *sim.Step) ([]float64, []float64) {
	a, i := l.a, l.i
	eta, rho := a.Eta(), a.p.Rho
	var yi, zi []float64
	for c := range l.acc {
		l.acc[c] = 0
	}
	pRow := func(j int) float64 {
		if j == i {
			return a.diag[i]
		}
		for k := a.start[i]; k < a.start[i+1]; k++ {
			if a.col[k] == j {
				return a.val[k]
			}
		}
		return 0
	}
	for r := range st.Releases {
		rel := &st.Releases[r]
		heard := rel.From == i
		if !heard {
			for _, to := range rel.To {
				heard = heard || to == i
			}
		}
		if !heard {
			continue
		}
		switch rel.Channel {
		case "y":
			if rel.From == i {
				yi = rel.Sent
			}
			p := pRow(rel.From)
			for c, v := range rel.Sent {
				l.acc[c] += float64(p * v)
			}
		case "z":
			if rel.From == i {
				zi = rel.Sent
			}
		}
	}
	for c := range l.x {
		l.x[c] = yi[c] - float64((1-eta)*l.d[c])
		l.g[c] = zi[c] - float64(eta*l.q[c]) - float64(rho*l.acc[c])
		l.d[c] = float64(eta*l.d[c]) + yi[c]
		l.q[c] = float64(eta*l.q[c]) + float64(rho*l.acc[c])
	}
	return l.x, l.g
}

var _ eavesdrop.Inverter = (*Algorithm)(nil)
