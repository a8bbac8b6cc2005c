package experiment

import (
	"fmt"
	"math"
	"sort"
)

// evaluate checks expectation i against the grouped runs. Every
// comparison is a one-sided test of the claimed direction at the
// expectation's margin (default 3 standard errors); the expectation holds
// when every comparison does, does not hold when any comparison is
// significant the other way, and is inconclusive otherwise.
func (p *Plan) evaluate(i int, res *Result, g *groups) ExpectationResult {
	e := p.Exp
	x := e.Expectations[i]
	out := ExpectationResult{Expectation: x, Comparisons: []Comparison{}}
	id := x.Metric
	if id == "" {
		id = e.Figure.Y.Metric
	}
	margin := x.Margin
	if margin == 0 {
		margin = 3
	}
	test := x.Test
	if test == "" {
		test = TestMean
	}
	s := e.seriesIndex(x.Series)
	// values returns the metric at point index pt of series si, by run.
	values := func(si, pt int) []float64 {
		if e.X.alongRun() {
			return g.curveAt(si, id, pt)
		}
		return g.final(si, pt, id)
	}
	label := func(si, pt int) string {
		name := e.Series[si].Name
		xv := float64(res.Series[si].Points[pt].X)
		switch e.X.Kind {
		case XIteration:
			return fmt.Sprintf("%s at iteration %g", name, xv)
		case XCommunication:
			return fmt.Sprintf("%s at %s = %g", name, e.X.Counter, xv)
		case XDerived:
			return fmt.Sprintf("%s at %s = %.4g (value %g)", name, e.X.Quantity, xv, p.series[si].points[pt].value)
		}
		return fmt.Sprintf("%s at x = %g", name, xv)
	}
	greater := func(aS, aP, bS, bP int) Comparison {
		a, b := values(aS, aP), values(bS, bP)
		var c Comparison
		if test == TestRank {
			c = RankTest(a, b, margin)
		} else {
			c = PairedMean(a, b, margin)
		}
		c.What = fmt.Sprintf("%s > %s", label(bS, bP), label(aS, aP))
		return c
	}
	order := p.xOrder(res, s)
	atPoints := func(si int) []int {
		o := p.xOrder(res, si)
		if x.At == "all" {
			return o
		}
		return o[len(o)-1:]
	}
	switch x.Kind {
	case ExpectIncreasing, ExpectDecreasing:
		pairs := [][2]int{}
		if e.X.alongRun() {
			pairs = append(pairs, [2]int{order[0], order[len(order)-1]})
		} else {
			for j := 1; j < len(order); j++ {
				pairs = append(pairs, [2]int{order[j-1], order[j]})
			}
		}
		for _, pr := range pairs {
			if x.Kind == ExpectIncreasing {
				out.Comparisons = append(out.Comparisons, greater(s, pr[0], s, pr[1]))
			} else {
				out.Comparisons = append(out.Comparisons, greater(s, pr[1], s, pr[0]))
			}
		}
	case ExpectBelow, ExpectAbove:
		t := e.seriesIndex(x.Than)
		ps, pt := atPoints(s), atPoints(t)
		if len(ps) != len(pt) {
			out.Verdict = Inconclusive
			out.Summary = fmt.Sprintf("series %s has %d points and %s has %d: they cannot be compared point by point", x.Series, len(ps), x.Than, len(pt))
			return out
		}
		for j := range ps {
			if x.Kind == ExpectBelow {
				out.Comparisons = append(out.Comparisons, greater(s, ps[j], t, pt[j]))
			} else {
				out.Comparisons = append(out.Comparisons, greater(t, pt[j], s, ps[j]))
			}
		}
	case ExpectAtMost, ExpectAtLeast:
		for _, pt := range atPoints(s) {
			v := values(s, pt)
			thr := *x.Value
			if x.Kind == ExpectAtLeast {
				neg := make([]float64, len(v))
				for r := range v {
					neg[r] = -v[r]
				}
				v, thr = neg, -thr
			}
			var c Comparison
			if test == TestRank {
				c = SignTest(v, thr, margin)
			} else {
				c = BelowMean(v, thr, margin)
			}
			rel := "≤"
			if x.Kind == ExpectAtLeast {
				rel = "≥"
			}
			c.What = fmt.Sprintf("%s %s %g", label(s, pt), rel, *x.Value)
			out.Comparisons = append(out.Comparisons, c)
		}
	}
	out.Verdict, out.Summary = overall(out.Comparisons, margin)
	return out
}

// xOrder returns series si's point indices in increasing x (sweep order
// for equal or missing x; the iteration axis is in order already).
func (p *Plan) xOrder(res *Result, si int) []int {
	pts := res.Series[si].Points
	o := make([]int, len(pts))
	for i := range o {
		o[i] = i
	}
	sort.SliceStable(o, func(a, b int) bool {
		xa, xb := float64(pts[o[a]].X), float64(pts[o[b]].X)
		if math.IsNaN(xa) || math.IsNaN(xb) {
			return !math.IsNaN(xa) && math.IsNaN(xb)
		}
		return xa < xb
	})
	return o
}

func overall(cs []Comparison, margin float64) (string, string) {
	if len(cs) == 0 {
		return Inconclusive, "nothing to compare"
	}
	held, failed := 0, 0
	minZ := math.Inf(1)
	for _, c := range cs {
		switch c.Verdict {
		case Holds:
			held++
		case Fails:
			failed++
		}
		if z := float64(c.Z); !math.IsNaN(z) && z < minZ {
			minZ = z
		}
	}
	z := "no finite statistic"
	if !math.IsInf(minZ, 1) {
		z = fmt.Sprintf("weakest z = %.3g", minZ)
	}
	switch {
	case failed > 0:
		return Fails, fmt.Sprintf("%d of %d comparisons go significantly the other way (%s; margin %g standard errors)", failed, len(cs), z, margin)
	case held == len(cs):
		return Holds, fmt.Sprintf("all %d comparisons hold by more than %g standard errors (%s)", len(cs), margin, z)
	}
	return Inconclusive, fmt.Sprintf("%d of %d comparisons hold by more than %g standard errors, none goes significantly the other way (%s)", held, len(cs), margin, z)
}
