package dpp2

import (
	"math"
	"testing"

	"dpsim/core/eavesdrop"
)

// TestEavesdropperExact checks spec §3.2's derived consequence: an
// eavesdropper on agent i's links who knows P, ρ and η^k reconstructs
// x_i^k and ∇f_i(x_i^k) exactly without noise (to 1e-12 relative), and
// x_i + w_i, ∇f_i + e_i with noise, for drawn and constant η, every agent.
func TestEavesdropperExact(t *testing.T) {
	for _, tc := range []struct {
		name string
		u    float64
		eta  float64
	}{{"no noise, drawn η", 0, 0}, {"no noise, constant η", 0, 0.4}, {"noise, drawn η", 0.5, 0}} {
		p := *Defaults()
		p.Eta = tc.eta
		in := newInstance(t, p, tc.u, 0.9, 4, nil)
		var recs []*eavesdrop.Recorder
		for i := range in.alg.n {
			r, err := eavesdrop.New(in.prob, in.alg, i, 1)
			if err != nil {
				t.Fatal(err)
			}
			recs = append(recs, r)
			r.Record(in.alg.Initial())
		}
		for range 200 {
			st := in.alg.Advance()
			for _, r := range recs {
				r.Record(st)
			}
		}
		for _, r := range recs {
			if inv, _ := r.Inverts(); !inv || len(r.Frames) != 200 {
				t.Fatalf("%s: agent %d: inverts %v, %d frames", tc.name, r.Agent, inv, len(r.Frames))
			}
			for _, f := range r.Frames {
				sx := math.Max(1, maxAbs(f.X))
				sg := math.Max(1, maxAbs(f.Grad))
				if f.ResidualX > 1e-12*sx || f.ResidualGrad > 1e-12*sg {
					t.Fatalf("%s: agent %d, iteration %d: residuals %g and %g (scales %g, %g)", tc.name, r.Agent, f.Iter, f.ResidualX, f.ResidualGrad, sx, sg)
				}
				if tc.u == 0 && (f.ShieldX != 0 || f.ShieldGrad != 0) {
					t.Fatalf("%s: noise-free run shows a shield %g, %g", tc.name, f.ShieldX, f.ShieldGrad)
				}
				if tc.u > 0 && f.Iter == 0 && !(f.ShieldX > 0 && f.ShieldGrad > 0) {
					t.Fatalf("%s: noisy run shows no shield at k = 0", tc.name)
				}
			}
		}
	}
}

// TestEavesdropperRounds checks that the frames of iterations 0 and 1 hold
// both rounds on the agent's links: its own y (round 0) and z (round 1),
// and its neighbours' y and z addressed to it.
func TestEavesdropperRounds(t *testing.T) {
	in := newInstance(t, *Defaults(), 0.2, 0.9, 4, nil)
	r, err := eavesdrop.New(in.prob, in.alg, 0, 50)
	if err != nil {
		t.Fatal(err)
	}
	r.Record(in.alg.Initial())
	for range 101 {
		r.Record(in.alg.Advance())
	}
	iters := []int{}
	for _, f := range r.Frames {
		iters = append(iters, f.Iter)
	}
	if len(iters) != 4 || iters[0] != 0 || iters[1] != 1 || iters[2] != 50 || iters[3] != 100 {
		t.Fatalf("frames at %v, want [0 1 50 100]", iters)
	}
	deg := 0
	for j := range in.p[0] {
		if j != 0 && in.p[0][j] != 0 {
			deg++
		}
	}
	for _, f := range r.Frames[:2] {
		if len(f.Sent) != 2 || f.Sent[0].Channel != "y" || f.Sent[0].Round != 0 || f.Sent[1].Channel != "z" || f.Sent[1].Round != 1 {
			t.Errorf("iteration %d: sent %+v, want y in round 0 then z in round 1", f.Iter, f.Sent)
		}
		if len(f.Received) != 2*deg {
			t.Errorf("iteration %d: %d messages received, want %d", f.Iter, len(f.Received), 2*deg)
		}
		for k, m := range f.Received {
			if want := k / deg; m.Round != want {
				t.Errorf("iteration %d: received message %d in round %d, want %d", f.Iter, k, m.Round, want)
			}
		}
	}
}
