package metrics

import (
	"math"
	"testing"
)

func TestHistoryBoundedAndKeepsExtremes(t *testing.T) {
	for _, c := range []struct{ buckets, points int }{{8, 3}, {8, 8}, {8, 9}, {8, 1000}, {64, 100000}, {5, 77}} {
		h := NewHistory(c.buckets)
		gmin, gmax := math.Inf(1), math.Inf(-1)
		for k := range c.points {
			v := 1 + float64(math.Sin(float64(k)*0.37)*float64(k%17)) // spiky
			if k == c.points/2 {
				v = 1e9 // a spike that must survive
			}
			gmin, gmax = min(gmin, v), max(gmax, v)
			h.Add(Point{Iter: 10 * k, Optimality: v, Consensus: math.NaN(), Objective: -v})
		}
		it, opt, cons, obj := h.Points()
		want := c.buckets + c.buckets%2
		if len(it) > 2*want || len(it) != len(opt) || len(opt) != len(cons) || len(cons) != len(obj) {
			t.Fatalf("%+v: %d x, %d/%d/%d y: want equal lengths ≤ %d", c, len(it), len(opt), len(cons), len(obj), 2*want)
		}
		if c.points <= want && len(it) != c.points {
			t.Errorf("%+v: %d points kept, want all %d", c, len(it), c.points)
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		for k := range it {
			if k > 0 && it[k] < it[k-1] {
				t.Fatalf("%+v: x not ordered at %d: %v then %v", c, k, it[k-1], it[k])
			}
			lo, hi = min(lo, opt[k]), max(hi, opt[k])
			if !math.IsNaN(cons[k]) || obj[k] != -opt[k] && (obj[k] > -lo || obj[k] < -hi) {
				t.Fatalf("%+v: point %d: consensus %v (want NaN), objective %v", c, k, cons[k], obj[k])
			}
		}
		if lo != gmin || hi != gmax {
			t.Errorf("%+v: decimated range [%v, %v], true [%v, %v]", c, lo, hi, gmin, gmax)
		}
		if it[0] != 0 || it[len(it)-1] != float64(10*(c.points-1)) {
			t.Errorf("%+v: x spans [%v, %v], want [0, %d]", c, it[0], it[len(it)-1], 10*(c.points-1))
		}
		if h.Len() != c.points {
			t.Errorf("Len %d, want %d", h.Len(), c.points)
		}
	}
}
