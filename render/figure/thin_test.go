package figure

import (
	"bytes"
	"context"
	"errors"
	"math"
	"testing"

	"dpsim/core/experiment"
	"dpsim/core/num"
)

// bigFigure is series × points of a noisy decaying curve on log axes
// (iteration against error), with a band, a right-axis curve, and a few
// points an axis cannot show (zero, NaN), like a long iteration figure.
func bigFigure(series, points int) experiment.FigureData {
	fd := experiment.FigureData{Title: "big", XLabel: "iteration k", YLabel: "error", Y2Label: "ε",
		XLog: true, YLog: true, Y2Log: false, Statistic: "mean", Band: "95 % CI"}
	state := uint64(7)
	u := func() float64 {
		state = state*6364136223846793005 + 1442695040888963407
		return float64(state>>11) * 0x1p-53
	}
	for s := range series {
		fs := experiment.FigureSeries{Name: "s", Label: "series"}
		for j := range points {
			x := float64(j + 1)
			y := num.Exp(-float64(j)/float64(points)*5) * (1 + float64(0.5*u())) * float64(s+1)
			fs.X = append(fs.X, x)
			fs.Y = append(fs.Y, y)
			fs.Lo = append(fs.Lo, float64(y*(0.5+float64(0.3*u())))-float64(0.2*u()))
			fs.Hi = append(fs.Hi, y*(1.5+u()))
			fs.Y2 = append(fs.Y2, float64(j)*(1+float64(0.01*u())))
			fs.N = append(fs.N, 10)
		}
		fs.Y[points/3] = 0
		fs.Y[points/2] = math.NaN()
		fd.Series = append(fd.Series, fs)
	}
	return fd
}

// TestThinKeepsEnvelope checks the thinning: at most 10 points per
// column, and in every column the same first and last x and the same
// least and greatest drawn value of the line, each band edge and the
// right-axis curve as the full series; a series under the threshold is
// not touched.
func TestThinKeepsEnvelope(t *testing.T) {
	fd := bigFigure(2, 100000)
	th, err := thin(context.Background(), fd)
	if err != nil {
		t.Fatal(err)
	}
	lo, hi := num.Log(1), num.Log(100000)
	column := func(x float64) int { return min(max(int(float64(num.Log(x)-lo)/(hi-lo)*Columns), 0), Columns-1) }
	type env struct {
		first, last float64
		min, max    [4]float64
	}
	envelope := func(s experiment.FigureSeries) map[int]*env {
		m := map[int]*env{}
		for j, x := range s.X {
			c := column(x)
			e := m[c]
			if e == nil {
				e = &env{first: x}
				for k := range 4 {
					e.min[k], e.max[k] = math.Inf(1), math.Inf(-1)
				}
				m[c] = e
			}
			e.last = x
			for k, v := range []float64{s.Y[j], s.Lo[j], s.Hi[j], s.Y2[j]} {
				log := k < 3
				if k == 1 && !(v > 0) && !math.IsNaN(v) {
					v = math.Inf(-1) // drawn at the floor
				} else if !valid(v, log) {
					continue
				}
				e.min[k], e.max[k] = math.Min(e.min[k], v), math.Max(e.max[k], v)
			}
		}
		return m
	}
	for i := range fd.Series {
		full, got := envelope(fd.Series[i]), envelope(th.Series[i])
		if n := len(th.Series[i].X); n > 10*Columns || n >= len(fd.Series[i].X) {
			t.Errorf("series %d: %d points after thinning (of %d)", i, n, len(fd.Series[i].X))
		}
		if len(got) != len(full) {
			t.Errorf("series %d: %d columns after thinning, %d before", i, len(got), len(full))
		}
		for c, e := range full {
			if g := got[c]; g == nil || *g != *e {
				t.Fatalf("series %d, column %d: envelope %+v after thinning, %+v before", i, c, g, e)
			}
		}
	}
	small := bigFigure(1, thinAbove)
	if th, _ := thin(context.Background(), small); len(th.Series[0].X) != thinAbove {
		t.Errorf("a series of %d points was thinned to %d", thinAbove, len(th.Series[0].X))
	}
}

// TestCancelBetweenSeries checks that drawing a figure of 10 series of
// 10⁵ points stops at the first look at its context after a cancel: a
// cancel while series 2 is added is the last series added, nothing is
// written and the error is the context's. A context cancelled before
// the call stops it before any series.
func TestCancelBetweenSeries(t *testing.T) {
	fd := bigFigure(10, 100000)
	ctx, cancel := context.WithCancel(context.Background())
	var added []int
	seriesAdded = func(i int) {
		added = append(added, i)
		if i == 2 {
			cancel()
		}
	}
	t.Cleanup(func() { seriesAdded = nil })
	var w bytes.Buffer
	err := WriteContext(ctx, &w, fd, SVG)
	if !errors.Is(err, context.Canceled) || w.Len() != 0 {
		t.Fatalf("cancelled at series 2: error %v, %d bytes written", err, w.Len())
	}
	if len(added) != 3 || added[2] != 2 {
		t.Errorf("series added %v, want [0 1 2] and no more after the cancel", added)
	}
	added = nil
	if err := WriteContext(ctx, &w, fd, PNG); !errors.Is(err, context.Canceled) || len(added) != 0 || w.Len() != 0 {
		t.Errorf("already cancelled: error %v, series added %v, %d bytes", err, added, w.Len())
	}
	// Not cancelled, the big figure is drawn.
	seriesAdded = nil
	b, err := Bytes(fd, SVG)
	if err != nil || len(b) == 0 {
		t.Fatalf("big figure: %d bytes, error %v", len(b), err)
	}
}

// BenchmarkBigFigure draws 10 series of 10⁵ points as SVG and PNG.
func BenchmarkBigFigure(b *testing.B) {
	fd := bigFigure(10, 100000)
	for _, f := range []string{SVG, PNG} {
		b.Run(f, func(b *testing.B) {
			for range b.N {
				if _, err := Bytes(fd, f); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
