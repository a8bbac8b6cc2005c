package privacy

import (
	"math"
	"strings"
	"testing"
)

// Rescale and ProportionalFactor invert each other; 0 and +∞ have no
// factor; MaxDistinct evaluates each distinct key once and stops at ∞.
func TestProportional(t *testing.T) {
	e := Of(40)
	for _, target := range []float64{1e-3, 1, 40, 1e6} {
		f, err := ProportionalFactor(e, 10, target)
		if err != nil {
			t.Fatal(err)
		}
		if got := Rescale(e, f).Value(); math.Abs(got-target) > 1e-9*target {
			t.Errorf("target %g: factor %g gives %g", target, f, got)
		}
	}
	for _, c := range []struct {
		e    Amount
		want string
	}{{Infinite(), "infinite at every scale"}, {Of(0), "nothing sensitive"}} {
		if _, err := ProportionalFactor(c.e, 3, 1); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ε = %v: error %v, want one saying %q", c.e, err, c.want)
		}
	}
	if !Rescale(Infinite(), 2).IsInf() || Rescale(Of(0), 2).Value() != 0 {
		t.Error("Rescale changed 0 or ∞")
	}

	var calls []int
	eps := []float64{1, 5, 1, 3, 5}
	got := MaxDistinct(len(eps), func(i int) float64 { return eps[i] }, func(i int) Amount {
		calls = append(calls, i)
		return Of(eps[i])
	})
	if got.Value() != 5 || len(calls) != 3 {
		t.Errorf("max %v after calls %v, want 5 after 3", got, calls)
	}
	calls = nil
	inf := MaxDistinct(4, func(i int) int { return i }, func(i int) Amount {
		calls = append(calls, i)
		if i == 1 {
			return Infinite()
		}
		return Of(1)
	})
	if !inf.IsInf() || len(calls) != 2 {
		t.Errorf("got %v after calls %v, want ∞ after 2", inf, calls)
	}
}
