package main

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"dpsim/core/experiment"
	"dpsim/core/jsonout"
	"dpsim/core/scenario"
	"dpsim/core/tour"
)

// TestLandingRecomputed reruns the landing's lesson with the sweep
// engine and requires exactly the numbers results.json holds: the
// committed tour is what the command gives (the other lessons take
// minutes; go run ./cmd/mktour -check reruns them all).
func TestLandingRecomputed(t *testing.T) {
	var l tour.Lesson
	for _, x := range tour.Lessons() {
		if x.Preset == scenario.DefaultPreset {
			l = x
		}
	}
	if l.Preset == "" {
		t.Fatalf("the landing %s is no lesson", scenario.DefaultPreset)
	}
	f, err := find(context.Background(), l, runtime.NumCPU())
	if err != nil {
		t.Fatal(err)
	}
	if len(f.problems) > 0 {
		t.Fatalf("the preset disagrees with its sweep: %v", f.problems)
	}
	rs, err := tour.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range rs.Lessons {
		if c.Preset != l.Preset {
			continue
		}
		got, _ := jsonout.Marshal(f.res)
		want, _ := jsonout.Marshal(c)
		if !bytes.Equal(got, want) {
			t.Errorf("%s recomputed:\n%s\nresults.json:\n%s", l.Preset, got, want)
		}
		if !f.res.Meaningful || !f.res.Knee.Holds {
			t.Errorf("the landing does not learn at a meaningful ε: %s", summary(f.res))
		}
	}
	// The committed figure is the one drawn from these numbers.
	have, err := os.ReadFile(filepath.Join("..", "..", imgDir, l.Frontier+".svg"))
	if err != nil || !bytes.Equal(have, f.svg) {
		t.Errorf("%s/%s.svg differs from the figure the sweep draws (run go run ./cmd/mktour -write)", imgDir, l.Frontier)
	}
}

// TestKnee checks the knee: the smallest ε from which every point of
// the grid learns; a lucky point below a failing one is not the knee.
func TestKnee(t *testing.T) {
	pt := func(learns ...bool) []tour.Point {
		var ps []tour.Point
		for i, b := range learns {
			ps = append(ps, tour.Point{Ratio: tour.Ratio{Epsilon: tour.Num(i + 1)}, Learns: b})
		}
		return ps
	}
	for _, c := range []struct {
		pts  []tour.Point
		want int
	}{
		{pt(false, false, true, true), 2},
		{pt(true, true, true), 0},
		{pt(false, true, false, true), 3},
		{pt(true, false), -1},
		{pt(), -1},
	} {
		if got := kneeOf(c.pts); got != c.want {
			t.Errorf("kneeOf(%v) = %d, want %d", c.pts, got, c.want)
		}
	}
}

// TestPointMargin checks the per-point margin: m tests at
// Φ(−z_m) = Φ(−3)/m, so that the grid's family keeps a 3-σ tail.
func TestPointMargin(t *testing.T) {
	for _, c := range []struct {
		m    int
		want float64
	}{{1, 3}, {9, 3.6153}, {12, 3.6892}} {
		z := pointMargin(c.m)
		if math.Abs(z-c.want) > 1e-4 {
			t.Errorf("pointMargin(%d) = %.5f, want %.4f", c.m, z, c.want)
		}
		if a := float64(experiment.Alpha(z) * float64(c.m)); math.Abs(a-experiment.Alpha(tour.FamilyMargin)) > 1e-12 {
			t.Errorf("pointMargin(%d): family tail %g", c.m, a)
		}
	}
}

// TestPointLearns checks one point's verdict: the mean ratio below the
// threshold at the margin, and no run without a final value.
func TestPointLearns(t *testing.T) {
	for _, c := range []struct {
		ratios []float64
		want   bool
	}{
		{[]float64{0.05, 0.06, 0.04, 0.05, 0.055, 0.045}, true},
		{[]float64{0.05, 0.06, 0.04, 0.05, 0.055, math.NaN()}, false}, // a diverged run
		{[]float64{0.09, 0.11, 0.1, 0.095}, false},                    // not significantly below
		{[]float64{0.5, 0.6}, false},
	} {
		if got := pointOf(1, c.ratios, 3).Learns; got != c.want {
			t.Errorf("pointOf(%v).Learns = %v, want %v", c.ratios, got, c.want)
		}
	}
}

// TestGenerated checks docs/tour.md's generated part against
// results.json, and that the command refuses a document without its
// markers.
func TestGenerated(t *testing.T) {
	rs, err := tour.Load()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile(filepath.Join("..", "..", docPath))
	if err != nil {
		t.Fatal(err)
	}
	got, err := replaceGenerated(doc, generated(rs))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, doc) {
		t.Errorf("%s's generated part is not what results.json gives (run go run ./cmd/mktour -write)", docPath)
	}
	if _, err := replaceGenerated([]byte("# no markers\n"), "x"); err == nil || !strings.Contains(err.Error(), "markers") {
		t.Errorf("a document without markers: %v", err)
	}
	js, err := resultsJSON(rs)
	if err != nil {
		t.Fatal(err)
	}
	var back tour.Results
	if err := json.Unmarshal(js, &back); err != nil || len(back.Lessons) != len(rs.Lessons) {
		t.Errorf("results.json does not read back: %v", err)
	}
}
