package main

import (
	"fmt"
	"strconv"
	"strings"

	"dpsim/core/scenario"
	"dpsim/core/tour"
)

// algorithmTitle is an algorithm's title without its citation.
func algorithmTitle(kind string) string {
	for _, f := range scenario.Factories() {
		if f.Name == kind {
			t, _, _ := strings.Cut(f.Title, " (")
			return t
		}
	}
	return kind
}

// epsText is a lesson's ε with its δ, as the docs print it.
func epsText(r tour.Result) string {
	if r.Epsilon == nil {
		return "none on the grid"
	}
	s := exact(*r.Epsilon)
	if r.Delta > 0 {
		s += " (δ = " + exact(r.Delta) + ")"
	}
	return s
}

// exact writes a value of a grid or a parameter as given: 1500, 1e-5.
func exact(v float64) string {
	return strings.Replace(strconv.FormatFloat(v, 'g', -1, 64), "e-0", "e-", 1)
}

// summary is one line per lesson for the terminal.
func summary(r tour.Result) string {
	s := fmt.Sprintf("learns from ε = %s", epsText(r))
	if r.Knee != nil {
		s += fmt.Sprintf("; at the knee, final ÷ initial %s [%s, %s] over %d fresh runs (t = %s, confirmed: %v)",
			num(r.Knee.Mean), num(r.Knee.Lo), num(r.Knee.Hi), r.Knee.N, num(r.Knee.T), r.Knee.Holds)
	}
	return s + fmt.Sprintf("; ghost %s", num(r.Ghost.Mean))
}

// table is the terminal's table of every lesson.
func table(rs *tour.Results) string {
	var b strings.Builder
	for _, r := range rs.Lessons {
		fmt.Fprintf(&b, "%-12s %-10s ε = %-20s", r.Preset, algorithmTitle(r.Algorithm), epsText(r))
		for _, p := range r.Points {
			mark := " "
			if p.Learns {
				mark = "*"
			}
			fmt.Fprintf(&b, " %s:%s%s", num(p.Epsilon), num(p.Mean), mark)
		}
		b.WriteString("\n")
	}
	return b.String()
}

// generated is docs/tour.md's generated part: the lessons' table, then
// each frontier with its figure.
func generated(rs *tour.Results) string {
	var b strings.Builder
	b.WriteString("\n| lesson | algorithm | problem | ε (δ) | runs | final error | initial error | final ÷ initial, mean [95 % CI] | the ghost: final error (÷ initial) | learns at ε ≤ 10 |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|\n")
	for _, r := range rs.Lessons {
		learns := "yes"
		if !r.Meaningful {
			learns = "no: [the frontier](#" + r.Frontier + ") stands in"
		}
		final, initial, ratio := "—", "—", "—"
		if k := r.Knee; k != nil {
			final, initial = num(k.Final), num(k.Initial)
			ratio = fmt.Sprintf("%s [%s, %s]", num(k.Mean), num(k.Lo), num(k.Hi))
			if !k.Holds {
				ratio += " (not confirmed)"
			}
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | **%s** | %d | %s | %s | %s | %s (%s) | %s |\n",
			r.Preset, algorithmTitle(r.Algorithm), r.Problem, epsText(r), r.Runs, final, initial, ratio,
			num(r.Ghost.Final), num(r.Ghost.Mean), learns)
	}
	b.WriteString("\nThe errors are the headline metric (optimality, or stationarity where the problem has no known optimum), means over the runs at the knee with fresh noise (the frontier's series `knee`); the ghost is the same runs without noise.\n")
	for _, r := range rs.Lessons {
		fmt.Fprintf(&b, "\n### %s\n\n", r.Frontier)
		fmt.Fprintf(&b, "%s on `%s`, %d runs per ε, each point tested at a margin of %s standard errors (%.2g one-sided, the family's %g-σ tail shared by its %d points). ",
			algorithmTitle(r.Algorithm), r.Preset, r.Runs, num(r.Margin), alphaOf(r.Margin), tour.FamilyMargin, len(r.Points))
		if r.Meaningful {
			fmt.Fprintf(&b, "It learns from ε = %s.\n\n", epsText(r))
		} else if r.Epsilon != nil {
			fmt.Fprintf(&b, "**No ε ≤ %g learns**: the smallest ε that does is %s, and this frontier stands in for the lesson.\n\n", tour.Meaningful, epsText(r))
		} else {
			fmt.Fprintf(&b, "**No ε of the grid learns.**\n\n")
		}
		b.WriteString("| ε | final ÷ initial, mean [95 % CI] | t | learns |\n|---|---|---|---|\n")
		for _, p := range r.Points {
			learns := "no"
			if p.Learns {
				learns = "yes"
			}
			if r.Epsilon != nil && float64(p.Epsilon) == *r.Epsilon {
				learns = "**yes: the knee**"
			}
			miss := ""
			if p.Missing > 0 {
				miss = fmt.Sprintf(" (%d runs diverged)", p.Missing)
			}
			fmt.Fprintf(&b, "| %s | %s [%s, %s]%s | %s | %s |\n", exact(float64(p.Epsilon)), num(p.Mean), num(p.Lo), num(p.Hi), miss, num(p.T), learns)
		}
		fmt.Fprintf(&b, "\n![%s: final error ÷ initial against ε](img/%s.svg)\n", r.Frontier, r.Frontier)
	}
	return b.String() + "\n"
}
