package pld

import (
	"math"
	"strings"
	"testing"
)

// TestLedger: agents with equal multisets share one composition, whatever
// the order of their releases; each agent's bound is its own composition's;
// bad agents and releases are refused naming the field.
func TestLedger(t *testing.T) {
	l := NewLedger(4)
	lap := func(b float64) Release { return Release{Mechanism: Laplace, Scale: b, Sensitivity: 1} }
	for k := range 200 {
		b := 20 * math.Exp(-float64(k)/200)
		must := func(err error) {
			if err != nil {
				t.Fatal(err)
			}
		}
		must(l.Add(0, lap(b)))
		must(l.Add(1, lap(20*math.Exp(-float64(199-k)/200)))) // agent 0's releases in reverse order
		must(l.Add(2, lap(2*b)))
		must(l.Add(3, Release{Mechanism: Gaussian, Scale: b, Sensitivity: 1}))
	}
	cs, err := l.Compose(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if cs[0] != cs[1] || cs[0] == cs[2] || cs[3].method != MethodGaussian {
		t.Errorf("sharing: %p %p %p, agent 3 %q", cs[0], cs[1], cs[2], cs[3].method)
	}
	bs, err := l.Bounds(1e-6, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range cs {
		want, _ := c.Epsilon(1e-6)
		if bs[i] != want || c.Releases() != 200 {
			t.Errorf("agent %d: bound %+v, composition's %+v, %d releases", i, bs[i], want, c.Releases())
		}
	}
	if !(bs[2].Epsilon < bs[0].Epsilon) {
		t.Errorf("twice the noise gives ε %g, not below %g", bs[2].Epsilon, bs[0].Epsilon)
	}
	if err := l.Add(4, lap(1)); err == nil || !strings.HasPrefix(err.Error(), "agent:") {
		t.Errorf("agent 4: %v", err)
	}
	if err := l.Add(1, lap(-1)); err == nil || !strings.HasPrefix(err.Error(), "agents[1].release.scale:") {
		t.Errorf("scale −1: %v", err)
	}
}
