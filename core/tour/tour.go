// Package tour holds the page's guided tour of the five papers: one
// lesson per paper, each a scenario preset at the smallest privacy
// budget ε at which the paper's algorithm still learns, and the
// experiment preset whose sweep found it (its privacy–utility frontier),
// with the numbers that sweep measured.
//
// "Learns" is one criterion for every paper: the run's headline error
// (the optimality error, or the stationarity where the problem has no
// known optimum) ends at most Threshold times its value at iteration 0,
// within MaxIterations iterations. It is judged on the mean over seeded
// runs with a one-sided Student t test, at a margin shared by every
// point of the frontier's grid, and confirmed on fresh runs at the knee
// (docs/tour.md). cmd/mktour runs the sweeps and writes results.json and
// docs/tour.md; the page reads the results through dpsim.tour().
package tour

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"

	"dpsim/core/num"
	"dpsim/core/scenario"
)

// The criterion and what the tour calls meaningful privacy.
const (
	// Threshold: a run learns when its final error is at most this
	// fraction of its initial error.
	Threshold = 0.1
	// MaxIterations bounds the horizon of every tour preset.
	MaxIterations = 10000
	// Meaningful is the largest ε the tour calls meaningful privacy:
	// a lesson whose knee lies above it shows its frontier instead.
	Meaningful = 10.0
	// FamilyMargin is the margin, in standard errors of a normal tail,
	// of the whole search over a frontier's grid: each of its m points
	// is tested at the tail Φ(−FamilyMargin)/m (Bonferroni), so that
	// calling any point "learns" wrongly has probability at most
	// Φ(−FamilyMargin). The confirmation at the knee, one test, uses
	// FamilyMargin itself.
	FamilyMargin = 3.0
)

// Lesson is one paper's lesson: the scenario preset the page opens and
// the experiment preset whose sweep is its frontier.
type Lesson struct {
	Preset   string `json:"preset"`
	Frontier string `json:"frontier"`
}

// Lessons lists the tour in the order the page shows it, one per paper:
// scenario.TourPresets (which the preset menu also reads), each with the
// experiment preset named after it that is its frontier.
func Lessons() []Lesson {
	var ls []Lesson
	for _, p := range scenario.TourPresets() {
		ls = append(ls, Lesson{Preset: p, Frontier: p + "-frontier"})
	}
	return ls
}

// Format tags the results file.
const Format = "dpsim-tour/1"

// Results is what cmd/mktour measured for every lesson (results.json).
type Results struct {
	Format    string   `json:"format"`
	Threshold float64  `json:"threshold"`
	Lessons   []Result `json:"lessons"`
}

// Result is one lesson's measurement.
type Result struct {
	Lesson
	// Algorithm and Problem are the preset's kinds.
	Algorithm string `json:"algorithm"`
	Problem   string `json:"problem"`
	// Field is the scenario field the frontier sweeps ε through
	// (calibrate.epsilon, or a plug-in's own target).
	Field string `json:"field"`
	// Metric is the headline error: "optimality" or "stationarity".
	Metric string `json:"metric"`
	// Iterations is the preset's horizon.
	Iterations int `json:"iterations"`
	// Epsilon is the knee: the smallest ε of the grid at which the
	// algorithm learns; nil when no point of the grid does.
	Epsilon *float64 `json:"epsilon"`
	// Delta is the δ of the ledger's (ε, δ) guarantee, 0 for pure ε-DP.
	Delta float64 `json:"delta"`
	// Meaningful reports a knee at ε ≤ Meaningful.
	Meaningful bool `json:"meaningful"`
	// Runs is the number of seeded runs per point; Margin the per-point
	// margin of the grid's search (FamilyMargin shared by its points).
	Runs   int     `json:"runs"`
	Margin float64 `json:"margin"`
	// Points is the frontier, in increasing ε.
	Points []Point `json:"points"`
	// Knee is the confirmation at the knee, on runs with fresh noise;
	// nil without a knee.
	Knee *Measure `json:"knee"`
	// Ghost is the same run without noise.
	Ghost Measure `json:"ghost"`
}

// Ratio is the final error over the initial one at one ε, over a
// series of runs, with the test of "its mean is below Threshold".
type Ratio struct {
	Epsilon Num `json:"epsilon"`
	// Mean, Lo and Hi: the mean ratio and its 95 % confidence interval.
	Mean Num `json:"mean"`
	Lo   Num `json:"lo"`
	Hi   Num `json:"hi"`
	N    int `json:"n"`
	// Missing counts runs without a final value (diverged); a series
	// with any does not learn.
	Missing int `json:"missing"`
	// T and P are the test's statistic (Student's t) and one-sided
	// p-value.
	T Num `json:"t"`
	P Num `json:"p"`
}

// Point is one ε of the frontier.
type Point struct {
	Ratio
	// Learns: the test holds at the grid's margin and no run is missing.
	Learns bool `json:"learns"`
}

// Measure is a series of runs at one ε (the knee's, the ghost's) with
// the mean final and initial errors behind its ratio.
type Measure struct {
	Ratio
	// Holds: the test holds at FamilyMargin and no run is missing.
	Holds bool `json:"holds"`
	// Final and Initial are the mean headline error at the last
	// iteration and at iteration 0.
	Final   Num `json:"final"`
	Initial Num `json:"initial"`
}

// Num is a number that a results file writes null when it is not
// finite (a mean over no runs, the ghost's ε) and reads back as NaN.
type Num float64

// MarshalJSON writes n, or null when it is NaN or infinite.
func (n Num) MarshalJSON() ([]byte, error) {
	if math.IsNaN(float64(n)) || math.IsInf(float64(n), 0) {
		return []byte("null"), nil
	}
	return json.Marshal(float64(n))
}

// UnmarshalJSON reads a number, or null as NaN.
func (n *Num) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*n = Num(math.NaN())
		return nil
	}
	var f float64
	err := json.Unmarshal(b, &f)
	*n = Num(f)
	return err
}

//go:embed results.json
var resultsJSON []byte

// ResultsJSON returns the results as committed (what the page shows).
func ResultsJSON() []byte { return resultsJSON }

// Load parses the committed results.
func Load() (*Results, error) {
	var r Results
	if err := json.Unmarshal(resultsJSON, &r); err != nil {
		return nil, fmt.Errorf("tour: results.json: %w", err)
	}
	if r.Format != Format {
		return nil, fmt.Errorf("tour: results.json: format %q, want %q", r.Format, Format)
	}
	return &r, nil
}

// superscripts writes an integer exponent in superscript digits.
var superscripts = strings.NewReplacer("-", "⁻", "0", "⁰", "1", "¹", "2", "²", "3", "³", "4", "⁴", "5", "⁵", "6", "⁶", "7", "⁷", "8", "⁸", "9", "⁹")

// EpsilonText writes a privacy budget as the preset titles say it, and
// whether that is exact ("=") or rounded ("≈"): two significant digits,
// plain from 0.01 to below 10⁴ (6, 12, 1500), else with a power of ten (2·10⁴, 10⁵,
// 4·10⁷, 2.4·10¹⁵¹); ∞ for an infinite budget. δ is written the same
// way (10⁻⁵).
func EpsilonText(v float64) (text string, exact bool) {
	switch {
	case math.IsInf(v, 1):
		return "∞", true
	case math.IsNaN(v):
		return "?", false
	case v == 0:
		return "0", true
	}
	e := math.Floor(num.Log10(math.Abs(v)))
	m := math.Round(v/num.Pow(10, e-1)) / 10 // two significant digits
	if m >= 10 {
		m, e = m/10, e+1
	}
	r := float64(m * num.Pow(10, e))
	exact = math.Abs(r-v) <= 1e-9*math.Abs(v)
	if e >= 4 || e <= -3 {
		ms := strconv.FormatFloat(m, 'f', -1, 64)
		p := "10" + superscripts.Replace(strconv.Itoa(int(e)))
		if ms == "1" {
			return p, exact
		}
		return ms + "·" + p, exact
	}
	return strconv.FormatFloat(r, 'f', -1, 64), exact
}

// Phrase is how a title states the budget: "ε = 6", "ε ≈ 4·10⁷", with
// "(δ = 10⁻⁵)" after it when delta > 0.
func Phrase(eps, delta float64) string {
	t, exact := EpsilonText(eps)
	op := " = "
	if !exact {
		op = " ≈ "
	}
	s := "ε" + op + t
	if delta > 0 {
		d, _ := EpsilonText(delta)
		s += " (δ = " + d + ")"
	}
	return s
}
