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

// overall decides an expectation from its comparisons, each judged alone
// at α = Alpha(margin) (see Comparison.judge):
//
//   - it holds when every comparison holds: an intersection–union test,
//     whose error rate is α without any correction, since a false claim
//     must pass its false comparison;
//   - it does not hold when Holm's step-down procedure over the
//     one-sided p-values against the claim rejects one: sorted ascending,
//     the i-th smallest (from 0) is rejected while it is below α/(m − i).
//     A true claim is then called "does not hold" with probability at
//     most α, however many comparisons it has (ten comparisons at a
//     3-σ margin each once gave ten chances to fail).
//
// Comparisons that go the other way alone but not under Holm become
// inconclusive. The summary says how many runs the verdict rests on.
func overall(cs []Comparison, margin float64) (string, string) {
	if len(cs) == 0 {
		return Inconclusive, "nothing to compare"
	}
	alpha := Alpha(margin)
	m := len(cs)
	against := make([]float64, m)
	order := make([]int, m)
	for i, c := range cs {
		order[i] = i
		against[i] = math.NaN()
		if z := float64(c.Z); !math.IsNaN(z) {
			against[i] = c.tail(-z)
		}
	}
	sort.SliceStable(order, func(a, b int) bool {
		pa, pb := against[order[a]], against[order[b]]
		if math.IsNaN(pa) || math.IsNaN(pb) {
			return !math.IsNaN(pa) && math.IsNaN(pb)
		}
		return pa < pb
	})
	rejected := make([]bool, m)
	for k, i := range order {
		if !(against[i] < alpha/float64(m-k)) {
			break
		}
		rejected[i] = true
	}
	held, failed := 0, 0
	minZ := math.Inf(1)
	nLo, nHi, nT := math.MaxInt, 0, 0
	for i := range cs {
		c := &cs[i]
		if c.Verdict == Fails && !rejected[i] {
			c.Verdict = Inconclusive
		}
		if rejected[i] {
			c.Verdict = Fails
		}
		switch c.Verdict {
		case Holds:
			held++
		case Fails:
			failed++
		}
		if z := float64(c.Z); !math.IsNaN(z) && z < minZ {
			minZ = z
		}
		n := c.N
		if c.Test == "rank" {
			n = min(c.Na, c.Nb) // runs per group, not values in all
		}
		nLo, nHi = min(nLo, n), max(nHi, n)
		if c.DF > 0 {
			nT++
		}
	}
	z := "no finite statistic"
	if !math.IsInf(minZ, 1) {
		name := "t or z"
		switch nT {
		case 0:
			name = "z"
		case m:
			name = "t"
		}
		z = fmt.Sprintf("weakest %s = %.3g", name, minZ)
	}
	runs := fmt.Sprintf("%d runs", nLo)
	if nHi != nLo {
		runs = fmt.Sprintf("%d–%d runs", nLo, nHi)
	}
	if nHi == 1 {
		runs = "1 run"
	}
	rate := fmt.Sprintf("one-sided error rate %.3g, the tail of %g standard errors", alpha, margin)
	inf, infMean := 0, 0
	for _, c := range cs {
		inf += c.Infinite
		if c.Infinite > 0 && c.Test == "paired-mean" {
			infMean++
		}
	}
	if infMean > 0 {
		// An overflowed value has no mean: say so rather than hide it
		// behind an "inconclusive" whose z reads like a measurement.
		runs += fmt.Sprintf("; %d values are infinite (overflow), so %d mean comparisons decide nothing: the rank test (\"test\": \"rank\") orders them", inf, infMean)
	}
	switch {
	case failed > 0:
		return Fails, fmt.Sprintf("%d of %d comparisons go significantly the other way (Holm over %d, %s; %s; rests on %s per comparison)", failed, m, m, rate, z, runs)
	case held == m:
		return Holds, fmt.Sprintf("all %d comparisons hold (%s; %s; rests on %s per comparison)", m, rate, z, runs)
	}
	return Inconclusive, fmt.Sprintf("%d of %d comparisons hold, none goes significantly the other way after Holm's correction (%s; %s; rests on %s per comparison)", held, m, rate, z, runs)
}
