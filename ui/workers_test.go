package ui

import (
	"math"
	"strings"
	"testing"
)

// The Workers setting takes 0 (auto) to MaxWorkers; anything else is
// refused in one line naming the field, the rule and the value as given.
func TestCheckWorkers(t *testing.T) {
	for _, c := range []struct {
		num   float64
		isNum bool
		shown string
		want  int
		got   string // the value the error shows; "" when accepted
	}{
		{0, true, "", 0, ""},
		{1, true, "", 1, ""},
		{MaxWorkers, true, "", MaxWorkers, ""},
		{MaxWorkers + 1, true, "", 0, "9"},
		{1024, true, "", 0, "1024"},
		{1e9, true, "", 0, "1e+09"},
		{1 << 53, true, "", 0, "9.007199254740992e+15"},
		{-1, true, "", 0, "-1"},
		{1.5, true, "", 0, "1.5"},
		{math.NaN(), true, "", 0, "NaN"},
		{math.Inf(1), true, "", 0, "+Inf"},
		{0, false, `"abc"`, 0, `"abc"`},
		{0, false, "nothing", 0, "nothing"},
	} {
		n, err := CheckWorkers(c.num, c.isNum, c.shown)
		if c.got == "" {
			if err != nil || n != c.want {
				t.Errorf("%v: %d, %v; want %d", c.num, n, err, c.want)
			}
			continue
		}
		if err == nil {
			t.Errorf("%v (%s): accepted as %d", c.num, c.shown, n)
			continue
		}
		msg := err.Error()
		if !strings.HasPrefix(msg, "workers: must be a whole number from 0") || !strings.HasSuffix(msg, "(got "+c.got+")") || strings.Contains(msg, "\n") {
			t.Errorf("%v (%s): %q, want one line naming workers, the rule and %s", c.num, c.shown, msg, c.got)
		}
	}
}

// A run gets at most MaxWorkers Workers and one per agent, whatever the
// browser says its cores are.
func TestFarmSize(t *testing.T) {
	for _, c := range []struct{ workers, cores, agents, want int }{
		{0, 2, 10, 1}, {0, 4, 10, 3}, {0, 1 << 30, 100, MaxWorkers}, {0, 0, 10, 1}, {0, -5, 10, 1},
		{1, 8, 10, 1}, {4, 2, 10, 4}, {4, 8, 3, 3}, {MaxWorkers, 64, 100, MaxWorkers},
	} {
		if got := farmSize(c.workers, c.cores, c.agents); got != c.want {
			t.Errorf("farmSize(%d, %d, %d) = %d, want %d", c.workers, c.cores, c.agents, got, c.want)
		}
	}
}
