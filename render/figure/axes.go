package figure

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"dpsim/core/experiment"
	"dpsim/core/num"
)

// setAxis gives an axis its range (padded by 4 %, or half a decade on a
// log axis) and its portable scale and ticks.
func setAxis(a *plot.Axis, lo, hi float64, log bool) {
	if log {
		l0, l1 := log10(lo), log10(hi)
		if l1-l0 < 1e-9 {
			l0, l1 = l0-0.5, l1+0.5
		}
		pad := float64(0.04 * (l1 - l0))
		a.Min, a.Max = pow10f(l0-pad), pow10f(l1+pad)
		a.Scale = logScale{}
		a.Tick.Marker = logTicks{}
		return
	}
	if hi-lo <= 0 {
		d := math.Max(math.Abs(lo)*0.1, 1)
		lo, hi = lo-d, hi+d
	}
	pad := float64(0.04 * (hi - lo))
	a.Min, a.Max = lo-pad, hi+pad
	a.Tick.Marker = linTicks{}
}

func log10(x float64) float64 { return num.Log(x) / math.Ln10 }

func pow10f(l float64) float64 { return num.Exp(l * math.Ln10) }

// logScale is plot.LogScale with core/num's logarithm.
type logScale struct{}

// Normalize implements plot.Normalizer.
func (logScale) Normalize(min, max, x float64) float64 {
	lmin := num.Log(min)
	return (num.Log(x) - lmin) / (num.Log(max) - lmin)
}

// logTicks puts labelled ticks at powers of ten (every second or third
// one when the axis spans many decades) and unlabelled ones at 2…9 × 10^k.
type logTicks struct{}

// Ticks implements plot.Ticker.
func (logTicks) Ticks(min, max float64) []plot.Tick {
	k0 := int(math.Floor(log10(min))) - 1
	k1 := int(math.Ceil(log10(max))) + 1
	every := 1
	if span := k1 - k0; span > 12 {
		every = 3
	} else if span > 7 {
		every = 2
	}
	var ts []plot.Tick
	for k := k0; k <= k1; k++ {
		base := math.Pow10(k) // exact
		if base >= min && base <= max {
			t := plot.Tick{Value: base}
			if k%every == 0 {
				t.Label = powLabel(k)
			}
			ts = append(ts, t)
		}
		if every == 1 {
			for m := 2; m <= 9; m++ {
				if v := float64(m) * base; v >= min && v <= max {
					ts = append(ts, plot.Tick{Value: v})
				}
			}
		}
	}
	labelled := 0
	for _, t := range ts {
		if t.Label != "" {
			labelled++
		}
	}
	if labelled < 2 {
		// Less than a decade: label the 2…9 ticks too.
		for i := range ts {
			ts[i].Label = numLabel(ts[i].Value)
		}
	}
	return ts
}

func powLabel(k int) string {
	if k >= -3 && k <= 4 {
		return strconv.FormatFloat(math.Pow10(k), 'f', -1, 64)
	}
	return "1e" + strconv.Itoa(k)
}

func numLabel(v float64) string { return strconv.FormatFloat(v, 'g', 4, 64) }

// linTicks puts labelled ticks at a "nice" step (1, 2 or 5 × 10^k) giving
// four to ten of them.
type linTicks struct{}

// Ticks implements plot.Ticker.
func (linTicks) Ticks(min, max float64) []plot.Tick {
	span := max - min
	k := int(math.Floor(log10(span))) - 1
	var step float64
	for _, m := range []float64{1, 2, 5, 10, 20, 50} {
		step = m * math.Pow10(k)
		if span/step <= 10 {
			break
		}
	}
	var ts []plot.Tick
	for i := math.Ceil(min / step); i*step <= max; i++ {
		v := i * step
		if v == 0 {
			v = 0 // no "-0"
		}
		ts = append(ts, plot.Tick{Value: v, Label: numLabel(v)})
	}
	return ts
}

// drawY2 draws the right axis and its series (dashed, in each series'
// colour) over the data area of p, which Draw has laid out.
func drawY2(area draw.Canvas, p *plot.Plot, fd experiment.FigureData, lab draw.TextStyle, label string) error {
	da := p.DataCanvas(area)
	var lo, hi float64
	first := true
	for _, s := range fd.Series {
		for i, v := range s.Y2 {
			if valid(v, fd.Y2Log) && valid(s.X[i], fd.XLog) {
				if first {
					lo, hi, first = v, v, false
				}
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	if first {
		return nil
	}
	fresh := plot.New()
	useGlyphs(fresh)
	ax := fresh.Y // a fresh axis: its range, scale and ticks
	setAxis(&ax, lo, hi, fd.Y2Log)
	xt, _ := p.Transforms(&da)
	yt := func(v float64) vg.Length {
		return da.Min.Y + vg.Length(vg.Length(ax.Scale.Normalize(ax.Min, ax.Max, v))*(da.Max.Y-da.Min.Y))
	}
	for i, s := range fd.Series {
		col := Palette[i%len(Palette)]
		var pts []vg.Point
		for j, v := range s.Y2 {
			if valid(v, fd.Y2Log) && valid(s.X[j], fd.XLog) {
				pts = append(pts, vg.Point{X: xt(s.X[j]), Y: yt(v)})
			}
		}
		if len(pts) > 1 {
			da.StrokeLines(draw.LineStyle{Color: col, Width: lineWidth, Dashes: []vg.Length{5, 3}}, pts)
		}
	}
	// The axis line, its ticks and labels, right of the data area.
	x := da.Max.X
	black := draw.LineStyle{Color: ax.LineStyle.Color, Width: ax.LineStyle.Width}
	area.StrokeLine2(black, x, da.Min.Y, x, da.Max.Y)
	tickFont := draw.TextStyle{Color: ax.Tick.Label.Color, Font: font.From(plot.DefaultFont, 10), Handler: ax.Tick.Label.Handler, YAlign: draw.YCenter}
	for _, t := range ax.Tick.Marker.Ticks(ax.Min, ax.Max) {
		y := yt(t.Value)
		n := vg.Length(4)
		if t.Label != "" {
			n = 7
			area.FillText(tickFont, vg.Point{X: x + 9, Y: y}, t.Label)
		}
		area.StrokeLine2(black, x, y, x+n, y)
	}
	// The title (fitted by layOut, which widened the margin by a line for
	// each line past the first), at the margin's right edge.
	area.FillText(lab, vg.Point{X: x + y2Margin + vg.Length(vg.Length(lineCount(label)-1)*lab.Font.Size) - 4, Y: (da.Min.Y + da.Max.Y) / 2}, label)
	return nil
}
