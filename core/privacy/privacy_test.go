package privacy

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

// A budget like DPP²'s c̃·Σ r^{−k} overflows float64 long before a run
// ends; Sum must carry it in log space without losing precision.
func TestSumOverflowsIntoLogSpace(t *testing.T) {
	var s Sum
	const r, K = 0.5, 2000
	for k := 1; k <= K; k++ {
		s.AddLog(float64(k) * math.Log(1/r)) // r^{−k}
	}
	// Σ_{k=1..K} 2^k = 2^{K+1} − 2, so log10 ≈ (K+1)·log10 2.
	want := float64(float64(K+1) * math.Log10(2))
	if got := s.Amount().Log10(); math.Abs(got-want) > 1e-9 {
		t.Errorf("log10 = %.12f, want %.12f", got, want)
	}
	if txt := s.Amount().String(); !strings.HasPrefix(txt, "10^602.") {
		t.Errorf("shown as %q", txt)
	}
	var small Sum
	small.Add(2.2)
	small.Add(3.2)
	if v := small.Amount().Value(); math.Abs(v-5.4) > 1e-15 {
		t.Errorf("5.4 became %v", v)
	}
}

func TestAmountJSON(t *testing.T) {
	for _, c := range []struct {
		a    Amount
		want string
	}{
		{Of(5.4), `{"value":5.4,"log10":0.7323937598229684,"text":"5.4"}`},
		{Infinite(), `{"text":"∞"}`},
		{Of(0), `{"value":0,"text":"0"}`},
		{OfLog10(400), `{"log10":400,"text":"10^400.0"}`},
	} {
		js, err := json.Marshal(c.a)
		if err != nil || string(js) != c.want {
			t.Errorf("%v: %s (%v), want %s", c.a, js, err, c.want)
		}
	}
	if m := MaxOf([]Entry{{Epsilon: Of(3)}, {Epsilon: Infinite()}, {Epsilon: Of(7)}}); !m.IsInf() {
		t.Errorf("max with an infinite entry = %v", m)
	}
}

// An Amount reads back exactly what it writes: finite, zero, beyond
// float64, infinite and undefined.
func TestAmountJSONRoundTrip(t *testing.T) {
	for _, a := range []Amount{Of(5.4), Of(0), Of(1e-300), OfLog10(312.4), Infinite(), {v: math.NaN(), log10: math.NaN()}} {
		js, err := json.Marshal(a)
		if err != nil {
			t.Fatal(err)
		}
		var b Amount
		if err := json.Unmarshal(js, &b); err != nil {
			t.Fatal(err)
		}
		same := func(x, y float64) bool { return x == y || (math.IsNaN(x) && math.IsNaN(y)) }
		if !same(a.v, b.v) || !same(a.log10, b.log10) {
			t.Errorf("%s: read back as %v (log10 %v), wrote %v (log10 %v)", js, b.v, b.log10, a.v, a.log10)
		}
	}
}

// Two infinite terms once made the sum NaN (∞ − ∞ in the log-sum-exp),
// and a NaN entry was skipped by the maximum, so a run with every agent
// undefined reported max ε = 0. Every aggregate must read ∞ instead.
func TestOverflowIsNeverZero(t *testing.T) {
	var s Sum
	s.Add(1)
	s.AddLog(math.Inf(1))
	s.AddLog(math.Inf(1))
	s.Add(2)
	if a := s.Amount(); !a.IsInf() || a.IsUndefined() {
		t.Errorf("1 + ∞ + ∞ + 2 = %v, want ∞", a)
	}
	var n Sum
	n.Add(math.NaN())
	if a := n.Amount(); !a.IsInf() {
		t.Errorf("a NaN term gives %v, want ∞", a)
	}
	var l Sum
	l.AddLog(math.NaN())
	l.AddLog(5)
	if a := l.Amount(); !a.IsInf() {
		t.Errorf("a NaN log-term gives %v, want ∞", a)
	}
	undef := Amount{v: math.NaN(), log10: math.NaN()}
	for _, c := range []struct {
		name string
		es   []Entry
	}{
		{"all undefined", []Entry{{Epsilon: undef}, {Epsilon: undef}}},
		{"undefined then finite", []Entry{{Epsilon: undef}, {Epsilon: Of(3)}}},
		{"finite then undefined", []Entry{{Epsilon: Of(3)}, {Epsilon: undef}}},
		{"zero and undefined", []Entry{{Epsilon: Of(0)}, {Epsilon: undef}}},
	} {
		if m := MaxOf(c.es); !m.IsInf() || m.Value() == 0 {
			t.Errorf("%s: MaxOf = %v, want ∞", c.name, m)
		}
	}
	eps := []Amount{Of(1), undef, OfLog10(400)}
	if m := MaxDistinct(len(eps), func(i int) int { return i }, func(i int) Amount { return eps[i] }); !m.IsInf() {
		t.Errorf("MaxDistinct with an undefined agent = %v, want ∞", m)
	}
	if m := Max(Of(7), OfLog10(400)); m.Log10() != 400 {
		t.Errorf("Max(7, 10^400) = %v", m)
	}
}
