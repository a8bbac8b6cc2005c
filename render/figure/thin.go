package figure

import (
	"context"
	"math"

	"dpsim/core/experiment"
	"dpsim/core/num"
)

// Columns is the number of columns the thinning divides a figure's x
// range into: more than the PNG's 880 pixels across (8 in at 110 dpi),
// so that a column is narrower than a pixel (and than 0.6 pt in the SVG
// and PDF, 8 in wide).
const Columns = 1024

// thinAbove is the number of points above which a series is thinned:
// thinning keeps at most 10 points per column, so smaller series (every
// preset's figure) are drawn point for point and keep their bytes.
const thinAbove = 8 * Columns

// thin returns fd with every series of more than thinAbove points, whose
// x values do not decrease, reduced to what can be seen at Columns
// columns across the x range: in each column, the first and the last
// point, and the points where the line, each band edge and the right
// axis's curve reach their least and greatest drawn values. Each
// polyline then covers exactly the same vertical span in every column
// and joins the next column from the same points, so the drawing does
// not change at that resolution, while 10 series of 10⁵ points cost
// milliseconds instead of seconds in gonum/plot. The extent of every
// curve (hence the axes) and the log floor are kept too. ctx is looked
// at between series.
func thin(ctx context.Context, fd experiment.FigureData) (experiment.FigureData, error) {
	// The x range over every series, in the axis's coordinate.
	nx := func(x float64) float64 {
		if fd.XLog {
			return num.Log(x)
		}
		return x
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	big := false
	for _, s := range fd.Series {
		big = big || len(s.X) > thinAbove
		for _, x := range s.X {
			if valid(x, fd.XLog) {
				lo, hi = math.Min(lo, nx(x)), math.Max(hi, nx(x))
			}
		}
	}
	if !big || !(hi > lo) {
		return fd, nil
	}
	out := fd
	out.Series = append([]experiment.FigureSeries(nil), fd.Series...)
	for i, s := range fd.Series {
		if err := ctx.Err(); err != nil {
			return fd, err
		}
		if len(s.X) <= thinAbove || !nondecreasing(s.X, fd.XLog) {
			continue
		}
		keep := thinIndices(fd, s, func(x float64) int {
			c := int(float64(nx(x)-lo) / (hi - lo) * Columns)
			return min(max(c, 0), Columns-1)
		})
		out.Series[i] = pick(s, keep)
	}
	return out, nil
}

// nondecreasing reports whether the valid x values never decrease.
func nondecreasing(xs []float64, log bool) bool {
	last := math.Inf(-1)
	for _, x := range xs {
		if !valid(x, log) {
			continue
		}
		if x < last {
			return false
		}
		last = x
	}
	return true
}

// thinIndices returns, in order, the indices of s to keep: per column,
// the first and last valid points and each curve's extremes there.
func thinIndices(fd experiment.FigureData, s experiment.FigureSeries, column func(float64) int) []int {
	// drawn returns the height curve k is drawn at for point j (larger is
	// higher), or NaN where it is not drawn: a band's lower end that is
	// not positive on a log axis is drawn at the floor, below everything.
	curves := []experiment.Fs{s.Y, s.Lo, s.Hi, s.Y2}
	drawn := func(k, j int) float64 {
		c := curves[k]
		if j >= len(c) {
			return math.NaN()
		}
		v := c[j]
		log := fd.YLog
		if k == 3 {
			log = fd.Y2Log
		}
		if k == 1 && fd.YLog && !(v > 0) && !math.IsNaN(v) {
			return math.Inf(-1)
		}
		if !valid(v, log) {
			return math.NaN()
		}
		return v
	}
	var keep []int
	col := -1
	var first, last int
	var minAt, maxAt [4]int
	flush := func() {
		if col < 0 {
			return
		}
		idx := []int{first, last}
		for k := range curves {
			if minAt[k] >= 0 {
				idx = append(idx, minAt[k], maxAt[k])
			}
		}
		// In order, each once.
		for len(idx) > 0 {
			m := 0
			for q := range idx {
				if idx[q] < idx[m] {
					m = q
				}
			}
			if len(keep) == 0 || keep[len(keep)-1] != idx[m] {
				keep = append(keep, idx[m])
			}
			idx = append(idx[:m], idx[m+1:]...)
		}
	}
	for j, x := range s.X {
		if !valid(x, fd.XLog) {
			continue
		}
		if c := column(x); c != col {
			flush()
			col, first = c, j
			for k := range curves {
				minAt[k], maxAt[k] = -1, -1
			}
		}
		last = j
		for k := range curves {
			v := drawn(k, j)
			if math.IsNaN(v) {
				continue
			}
			if minAt[k] < 0 || v < drawn(k, minAt[k]) {
				minAt[k] = j
			}
			if maxAt[k] < 0 || v > drawn(k, maxAt[k]) {
				maxAt[k] = j
			}
		}
	}
	flush()
	return keep
}

// pick returns s with only the points keep (in order).
func pick(s experiment.FigureSeries, keep []int) experiment.FigureSeries {
	sel := func(v experiment.Fs) experiment.Fs {
		if v == nil {
			return nil
		}
		out := make(experiment.Fs, len(keep))
		for q, j := range keep {
			out[q] = math.NaN()
			if j < len(v) {
				out[q] = v[j]
			}
		}
		return out
	}
	out := s
	out.X, out.Y, out.Lo, out.Hi, out.Y2 = sel(s.X), sel(s.Y), sel(s.Lo), sel(s.Hi), sel(s.Y2)
	if s.N != nil {
		out.N = make([]int, len(keep))
		for q, j := range keep {
			if j < len(s.N) {
				out.N[q] = s.N[j]
			}
		}
	}
	return out
}
