package ui

import (
	"math"
	"testing"

	"dpsim/core/graph"
	"dpsim/core/metrics"
	"dpsim/core/privacy"
	"dpsim/core/sim"
	"dpsim/render/scene"
)

// TestInspect checks the inspector's hit test: on a held packet it reads
// the message's signal and noise apart, its sender and receiver and the
// sender's ε; on a node, the agent; elsewhere, nothing.
func TestInspect(t *testing.T) {
	g, err := graph.Ring(4)
	if err != nil {
		t.Fatal(err)
	}
	m := scene.NewModel(g, nil)
	m.Record(&sim.Step{Iter: 3, Dim: 2, Estimates: []float64{1, 2, 3, 4, 5, 6, 7, 8}, Releases: []sim.Release{
		{From: 1, To: []int{2}, Channel: "x", Sent: []float64{6, 8}, Noise: []float64{6, 0}},
	}})
	m.Hold = true
	const ratio = 2
	f := m.Frame(1, 800, 800)
	led := privacy.Ledger{Agents: []privacy.Entry{{Agent: 0, Epsilon: privacy.Of(1)}, {Agent: 1, Epsilon: privacy.Of(2.5)}}}
	c := metrics.NewCounters(4)
	c.Add(&sim.Step{Iter: 1})
	pk := f.Packets[0]
	in := Inspect(m, f, ratio, pk.X/ratio, pk.Y/ratio, led, "dp", c)
	const tol = 1e-12
	if in.Kind != "message" || in.Agent != 1 || in.To != 2 || in.Channel != "x" || in.Epsilon != "2.5" ||
		math.Abs(in.SignalNorm-8) > tol || math.Abs(in.NoiseNorm-6) > tol || in.Signal[1] != 8 || in.Noise[0] != 6 {
		t.Errorf("on the packet: %+v", in)
	}
	if len(in.State) != 2 || in.State[0] != 3 {
		t.Errorf("sender's state %v, want [3 4]", in.State)
	}
	if in.Rounds != 1 || in.Round != 0 {
		t.Errorf("one-round step: round %d of %d, want 0 of 1", in.Round, in.Rounds)
	}
	n0 := f.NodeAt[0]
	in = Inspect(m, f, ratio, n0[0]/ratio, n0[1]/ratio, led, "unaccounted", c)
	if in.Kind != "node" || in.Agent != 0 || in.Epsilon != "noise, but no DP guarantee" || in.Activations != 1 {
		t.Errorf("on node 0: %+v", in)
	}
	if in = Inspect(m, f, ratio, 0, 0, led, "dp", c); in.Kind != "" {
		t.Errorf("in a corner: %+v, want nothing", in)
	}

	// A two-round step (DPP²'s y then z): the inspector says which round
	// of how many, so the page can name round 1 of 2 as well as 2 of 2.
	m.Record(&sim.Step{Iter: 4, Dim: 2, Estimates: []float64{1, 2, 3, 4, 5, 6, 7, 8}, Releases: []sim.Release{
		{From: 1, To: []int{2}, Channel: "y", Round: 0, Sent: []float64{6, 8}, Noise: []float64{6, 0}},
		{From: 1, To: []int{2}, Channel: "z", Round: 1, Sent: []float64{6, 8}, Noise: []float64{6, 0}},
	}})
	f = m.Frame(0.1, 800, 800) // early in the first turn: round 0's packet
	if len(f.Packets) == 0 {
		t.Fatal("no packet drawn for the two-round step")
	}
	pk = f.Packets[0]
	if in = Inspect(m, f, ratio, pk.X/ratio, pk.Y/ratio, led, "dp", c); in.Kind != "message" || in.Rounds != 2 {
		t.Errorf("two-round step: %+v, want a message with rounds = 2", in)
	}
}

// TestBadges checks the slow-motion badges: one per agent with its ε and
// activations, "no DP" for noise without a guarantee, none past
// BadgeLimit agents.
func TestBadges(t *testing.T) {
	g, _ := graph.Ring(4)
	m := scene.NewModel(g, nil)
	m.Record(&sim.Step{Iter: 1, Dim: 1, Estimates: []float64{1, 2, 3, 4}, Active: []int{2}})
	f := m.Frame(1, 400, 400)
	led := privacy.Ledger{Agents: []privacy.Entry{{Epsilon: privacy.Of(1)}, {Epsilon: privacy.Of(2)}, {Epsilon: privacy.Of(3)}, {Epsilon: privacy.Of(4)}}}
	c := metrics.NewCounters(4)
	c.Add(&sim.Step{Iter: 1, Active: []int{2}})
	bs := Badges(f, 2, led, "dp", c)
	if len(bs) != 4 || bs[2].Epsilon != "ε 3" || bs[2].Activations != 1 || bs[0].Activations != 0 || bs[1].X != f.NodeAt[1][0]/2 {
		t.Errorf("badges %+v", bs)
	}
	if bs := Badges(f, 2, led, "unaccounted", c); bs[0].Epsilon != "no DP" {
		t.Errorf("unaccounted: %q", bs[0].Epsilon)
	}
	big, _ := graph.Ring(BadgeLimit + 1)
	mb := scene.NewModel(big, nil)
	if bs := Badges(mb.Frame(1, 400, 400), 1, led, "dp", nil); len(bs) != 0 {
		t.Errorf("%d badges past the limit", len(bs))
	}
}

// TestInspectAgent checks the keyboard's inspection of an agent chosen
// by index: the agent as a node, where it is drawn, and the messages it
// released in the latest iteration with their signal and noise apart
// (two rounds, a broadcast counted once); a silent agent sent nothing;
// an index out of range is nothing.
func TestInspectAgent(t *testing.T) {
	g, _ := graph.Ring(4)
	m := scene.NewModel(g, nil)
	m.Record(&sim.Step{Iter: 7, Dim: 2, Estimates: []float64{1, 2, 3, 4, 5, 6, 7, 8}, Releases: []sim.Release{
		{From: 1, To: []int{0, 2}, Channel: "y", Round: 0, Sent: []float64{6, 8}, Noise: []float64{6, 0}},
		{From: 2, To: []int{1}, Channel: "y", Round: 0, Sent: []float64{1, 1}, Noise: []float64{0, 0}},
		{From: 1, To: []int{0, 2}, Channel: "z", Round: 1, Sent: []float64{3, 4}, Noise: []float64{0, 4}},
	}})
	const ratio = 2
	f := m.Frame(1, 800, 800)
	led := privacy.Ledger{Agents: []privacy.Entry{{Epsilon: privacy.Of(1)}, {Epsilon: privacy.Of(2.5)}, {Epsilon: privacy.Of(3)}, {Epsilon: privacy.Of(4)}}}
	in := InspectAgent(m, f, ratio, 1, led, "dp", nil)
	if in.Kind != "node" || in.Agent != 1 || in.Iter != 7 || in.Epsilon != "2.5" || in.X != f.NodeAt[1][0]/ratio || in.R != f.NodeR/ratio {
		t.Errorf("agent 1: %+v", in)
	}
	if len(in.State) != 2 || in.State[0] != 3 || in.Rounds != 2 {
		t.Errorf("agent 1's state %v, rounds %d", in.State, in.Rounds)
	}
	const tol = 1e-12
	if len(in.Sent) != 2 {
		t.Fatalf("agent 1 sent %d messages, want 2 (a broadcast once per release): %+v", len(in.Sent), in.Sent)
	}
	y, z := in.Sent[0], in.Sent[1]
	if y.Channel != "y" || y.Round != 0 || len(y.Receivers) != 2 || math.Abs(y.SignalNorm-8) > tol || math.Abs(y.NoiseNorm-6) > tol || y.Noise[0] != 6 {
		t.Errorf("y: %+v", y)
	}
	if z.Channel != "z" || z.Round != 1 || math.Abs(z.SignalNorm-3) > tol || math.Abs(z.NoiseNorm-4) > tol || math.Abs(z.Ratio-4.0/3) > tol {
		t.Errorf("z: %+v", z)
	}
	if in := InspectAgent(m, f, ratio, 3, led, "dp", nil); in.Kind != "node" || len(in.Sent) != 0 {
		t.Errorf("silent agent 3: %+v", in)
	}
	for _, i := range []int{-1, 4} {
		if in := InspectAgent(m, f, ratio, i, led, "dp", nil); in.Kind != "" {
			t.Errorf("agent %d: %+v, want nothing", i, in)
		}
	}
	at := Agents(f, ratio)
	if len(at) != 4 || at[2].X != f.NodeAt[2][0]/ratio || at[2].Y != f.NodeAt[2][1]/ratio || at[0].R != f.NodeR/ratio {
		t.Errorf("agents %+v", at)
	}
}
