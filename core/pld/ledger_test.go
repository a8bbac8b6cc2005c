package pld

import (
	"fmt"
	"math"
	"runtime"
	"slices"
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

// TestScreen: screening frequencies block by block (screen) changes no bit
// of any composition: the grids h and 2h and the buckets rounded down,
// with and without a Gaussian part (the two-pass product), for decaying,
// constant and mixed schedules.
func TestScreen(t *testing.T) {
	lap := func(b float64, n int64) Release {
		return Release{Mechanism: Laplace, Scale: b, Sensitivity: 1, Count: n}
	}
	decaying := func(k int, b0, rate float64) []Release {
		var rs []Release
		for j := range k {
			rs = append(rs, lap(b0*math.Exp(-rate*float64(j)/float64(k)), 1))
		}
		return rs
	}
	cases := []struct {
		name string
		rs   []Release
		opt  Options
	}{
		{"decaying", decaying(1000, 300, 3), Options{}},
		{"decaying, tolerance 1e-2", decaying(2000, 300, 3), Options{Tolerance: 1e-2}},
		{"decaying, large ε", decaying(500, 5, 2), Options{}},
		{"constant", []Release{lap(100, 10000)}, Options{}},
		{"mixed", append(decaying(300, 50, 1), lap(0.5, 3), lap(3, 200)), Options{}},
		{"with a Gaussian part", append(decaying(1000, 100, 2), Release{Mechanism: Gaussian, Scale: 20, Sensitivity: 1}), Options{}},
	}
	// Scales that move the last surviving frequency through a block.
	for s := range 12 {
		cases = append(cases, struct {
			name string
			rs   []Release
			opt  Options
		}{fmt.Sprintf("decaying from %d", 20+s), decaying(300, 20+float64(s), 2), Options{}})
	}
	bits := func(d *dist) []uint64 {
		if d == nil {
			return nil
		}
		out := []uint64{math.Float64bits(d.h), math.Float64bits(d.offset), uint64(d.lo), math.Float64bits(d.inf)}
		for _, v := range d.p {
			out = append(out, math.Float64bits(v))
		}
		return out
	}
	for _, c := range cases {
		with, err := Compose(c.rs, c.opt)
		if err != nil {
			t.Fatal(err)
		}
		saved := screenBlocks
		screenBlocks = nil
		without, err := Compose(c.rs, c.opt)
		screenBlocks = saved
		if err != nil {
			t.Fatal(err)
		}
		if with.method != MethodPLD {
			t.Fatalf("%s: method %q", c.name, with.method)
		}
		for _, p := range []struct {
			name string
			a, b *dist
		}{{"fine", with.fine, without.fine}, {"coarse", with.coarse, without.coarse}, {"down", with.down, without.down}} {
			if !slices.Equal(bits(p.a), bits(p.b)) {
				t.Errorf("%s, %s: the screened composition differs", c.name, p.name)
			}
		}
	}
}

// TestLedgerAgentAlone: an agent's bound does not depend on the other
// agents of its ledger, nor on how many goroutines compose them: each
// agent's bound among fifty distinct ones is the bits of its releases
// composed alone.
func TestLedgerAgentAlone(t *testing.T) {
	const agents, releases = 50, 400
	opt := Options{Tolerance: 1e-2}
	at := func(i, k int) Release {
		return Release{Mechanism: Laplace, Scale: 30 * (1 + float64(i)/agents) * math.Exp(-3*float64(k)/releases), Sensitivity: 1}
	}
	l := NewLedger(agents)
	for i := range agents {
		for k := range releases {
			if err := l.Add(i, at(i, k)); err != nil {
				t.Fatal(err)
			}
		}
	}
	var all [][]Bound
	for _, procs := range []int{1, 4} {
		prev := runtime.GOMAXPROCS(procs)
		bs, err := l.Bounds(1e-6, opt)
		runtime.GOMAXPROCS(prev)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, bs)
	}
	if !slices.Equal(all[0], all[1]) {
		t.Errorf("the bounds on 1 and 4 goroutines differ")
	}
	for _, i := range []int{0, 17, 49} {
		rs := make([]Release, releases)
		for k := range rs {
			rs[k] = at(i, k)
		}
		c, err := Compose(rs, opt)
		if err != nil {
			t.Fatal(err)
		}
		alone, err := c.Epsilon(1e-6)
		if err != nil {
			t.Fatal(err)
		}
		if all[0][i] != alone {
			t.Errorf("agent %d: %+v among %d agents, %+v alone", i, all[0][i], agents, alone)
		}
	}
}

// TestWindowReuse: a composition's values may come from windows that
// earlier compositions returned (Bounds): every value is written before
// it is read, so windows poisoned with NaN change no bit of any bound.
func TestWindowReuse(t *testing.T) {
	const agents, releases = 3, 400
	opt := Options{Tolerance: 1e-2}
	l := NewLedger(agents)
	for i := range agents {
		for k := range releases {
			r := Release{Mechanism: Laplace, Scale: 30 * (1 + float64(i)/agents) * math.Exp(-3*float64(k)/releases), Sensitivity: 1}
			if err := l.Add(i, r); err != nil {
				t.Fatal(err)
			}
		}
	}
	want, err := l.Bounds(1e-6, opt)
	if err != nil {
		t.Fatal(err)
	}
	// Only poisoned windows in the pool (the first call's are taken out).
	for k := range 19 {
		for windows[k].Get() != nil {
		}
		for range 4 {
			b := make([]float64, 1<<k)
			for i := range b {
				b[i] = math.NaN()
			}
			windows[k].Put(&b)
		}
	}
	got, err := l.Bounds(1e-6, opt)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Errorf("on poisoned windows %+v, on fresh ones %+v", got, want)
	}
}
