// Package figure draws an experiment's figure with gonum.org/v1/plot: the
// series' lines (mean or median) with their bands, log scales where the
// experiment asks, a legend, an optional right axis, and the expectations'
// verdicts under the plot.
//
// It is shared by the CLI (dpsim sweep writes SVG, PNG and PDF) and the
// solver wasm (the page's SVG and PNG downloads), so a figure from the
// page and one from the CLI are the same file. For that, every number
// that places a mark is computed with core/num's portable logarithm or
// with exact arithmetic: the axes' scales and ticks here replace gonum's,
// which use math.Log (assembly on amd64, pure Go in the browser).
package figure

import (
	"bytes"
	"context"
	"fmt"
	"image/color"
	"io"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"dpsim/core/experiment"
)

// Formats a figure can be written in.
const (
	SVG = "svg"
	PNG = "png"
	PDF = "pdf" // natively only: the browser offers SVG and PNG
)

// Size of every figure, and the resolution of PNGs.
const (
	Width      = 8 * vg.Inch
	PlotHeight = 5 * vg.Inch
	DPI        = 110
)

const (
	noteSize   = 9 * vg.Length(1)
	noteLine   = 13 * vg.Length(1)
	y2Margin   = 0.75 * vg.Inch
	axisTitle  = 20 * vg.Length(1)
	bandAlpha  = 0x38
	lineWidth  = 1.6
	markRadius = 2.4
)

// Palette is Okabe and Ito's colour-blind-safe palette (yellow left out:
// too light on white), in the order series take it.
var Palette = []color.NRGBA{
	{0x00, 0x72, 0xB2, 0xff}, // blue
	{0xD5, 0x5E, 0x00, 0xff}, // vermillion
	{0x00, 0x9E, 0x73, 0xff}, // bluish green
	{0xCC, 0x79, 0xA7, 0xff}, // reddish purple
	{0xE6, 0x9F, 0x00, 0xff}, // orange
	{0x56, 0xB4, 0xE9, 0xff}, // sky blue
	{0x00, 0x00, 0x00, 0xff}, // black
}

// Bytes returns the figure of fd in format.
func Bytes(fd experiment.FigureData, format string) ([]byte, error) {
	return BytesContext(context.Background(), fd, format)
}

// BytesContext is Bytes that stops with ctx's error once ctx is done.
func BytesContext(ctx context.Context, fd experiment.FigureData, format string) ([]byte, error) {
	var b bytes.Buffer
	if err := WriteContext(ctx, &b, fd, format); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// Write writes the figure of fd in format to w.
func Write(w io.Writer, fd experiment.FigureData, format string) error {
	return WriteContext(context.Background(), w, fd, format)
}

// WriteContext is Write that stops with ctx's error, writing nothing,
// once ctx is done: it is looked at between series (while they are
// thinned and while they are added to the plot), before the plot is
// drawn and before it is encoded. Series of more than thinAbove points
// are first thinned to what Columns columns can show (thin), so that no
// single step takes long.
func WriteContext(ctx context.Context, w io.Writer, fd experiment.FigureData, format string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	fd, err := thin(ctx, fd)
	if err != nil {
		return err
	}
	notes := noteLines(fd)
	h := PlotHeight + vg.Length(vg.Length(len(notes))*noteLine) + noteLine/2
	var c vg.CanvasWriterTo
	switch format {
	case SVG:
		c = vgsvg.NewWith(vgsvg.UseWH(Width, h))
	case PNG:
		c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(Width, h), vgimg.UseDPI(DPI), vgimg.UseBackgroundColor(color.White))}
	case PDF:
		if c, err = pdfCanvas(Width, h); err != nil {
			return err
		}
	default:
		return fmt.Errorf("figure format %q: must be svg, png or pdf", format)
	}
	if err := draw1(ctx, draw.New(c), fd, notes); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	_, err = c.WriteTo(w)
	return err
}

// seriesAdded, when not nil, is called after series i is added to the
// plot (tests: the order of cancellation).
var seriesAdded func(i int)

type note struct {
	text  string
	color color.Color
}

func noteLines(fd experiment.FigureData) []note {
	grey := color.Gray{0x55}
	var ns []note
	// add appends text wrapped to the figure's width, continuation lines
	// indented.
	add := func(text string, c color.Color) {
		for i, l := range wrap(text, noteWidth) {
			if i > 0 {
				l = "      " + l
			}
			ns = append(ns, note{l, c})
		}
	}
	add(fd.Subtitle, grey)
	if fd.YNote != "" {
		add(fd.YNote, grey)
	}
	if fd.Partial {
		ns = append(ns, note{fmt.Sprintf("PARTIAL: %d of %d runs finished", fd.Finished, fd.Tasks), Palette[1]})
	}
	for _, v := range fd.Verdicts {
		c := color.Color(grey)
		mark := "?"
		switch v.Verdict {
		case experiment.Holds:
			c, mark = color.NRGBA{0x00, 0x7a, 0x4d, 0xff}, "holds"
		case experiment.Fails:
			c, mark = color.NRGBA{0xb0, 0x1c, 0x1c, 0xff}, "DOES NOT HOLD"
		case experiment.Inconclusive:
			c, mark = color.NRGBA{0x8a, 0x5a, 0x00, 0xff}, "inconclusive"
		}
		add(fmt.Sprintf("[%s] %s — %s", mark, v.Claim, v.Summary), c)
	}
	return ns
}

// noteWidth is how many characters of 9-point text fit across a figure.
const noteWidth = 140

// wrap breaks s at spaces into lines of at most n runes (a longer word
// gets a line of its own).
func wrap(s string, n int) []string {
	var lines []string
	var cur []rune
	for _, w := range strings.Fields(s) {
		rw := []rune(w)
		if len(cur) > 0 && len(cur)+1+len(rw) > n {
			lines = append(lines, string(cur))
			cur = nil
		}
		if len(cur) > 0 {
			cur = append(cur, ' ')
		}
		cur = append(cur, rw...)
	}
	if len(cur) > 0 || len(lines) == 0 {
		lines = append(lines, string(cur))
	}
	return lines
}

func draw1(ctx context.Context, dc draw.Canvas, fd experiment.FigureData, notes []note) error {
	// White background for SVG and PDF too.
	dc.SetColor(color.White)
	dc.Fill(dc.Rectangle.Path())

	notesH := vg.Length(vg.Length(len(notes))*noteLine) + noteLine/2

	p := plot.New()
	useGlyphs(p)
	p.Title.Text = fd.Title
	p.Title.TextStyle.Font.Size = 13
	p.Legend.TextStyle.Font.Size = 10
	p.Add(plotter.NewGrid())

	floor := logFloor(fd)
	var ext extent
	for i, s := range fd.Series {
		if err := ctx.Err(); err != nil {
			return err
		}
		col := Palette[i%len(Palette)]
		line, band, marks := seriesXYs(fd, s, floor)
		thumbs := []plot.Thumbnailer{}
		if fd.Evaluated && len(band) > 2 {
			// Evaluated every k iterations: the band as a bar at each
			// evaluated point, nothing between them.
			fill := col
			fill.A = 2 * bandAlpha
			for k, n := 0, len(band); k < n/2; k++ {
				hi, lo := band[k], band[n-1-k]
				bar, err := plotter.NewLine(plotter.XYs{hi, lo})
				if err != nil {
					return err
				}
				bar.Color, bar.Width = fill, 3*lineWidth
				p.Add(bar)
				ext.add(hi.X, hi.Y)
				ext.add(lo.X, lo.Y)
			}
			band = nil
		}
		if len(band) > 2 {
			poly, err := plotter.NewPolygon(band)
			if err != nil {
				return err
			}
			fill := col
			fill.A = bandAlpha
			poly.Color = fill
			poly.LineStyle.Width = 0
			p.Add(poly)
			thumbs = append(thumbs, poly)
			for _, q := range band {
				ext.add(q.X, q.Y)
			}
		}
		if len(line) > 0 {
			l, err := plotter.NewLine(line)
			if err != nil {
				return err
			}
			l.Color, l.Width = col, lineWidth
			if !fd.Evaluated { // evaluated every k iterations: markers only
				p.Add(l)
				thumbs = append(thumbs, l)
			}
			if fd.Markers {
				sc, err := plotter.NewScatter(marks)
				if err != nil {
					return err
				}
				sc.GlyphStyle.Color, sc.GlyphStyle.Radius = col, markRadius
				sc.GlyphStyle.Shape = draw.CircleGlyph{}
				p.Add(sc)
				if fd.Evaluated {
					thumbs = append(thumbs, sc)
				}
			}
			for _, q := range line {
				ext.add(q.X, q.Y)
			}
		}
		p.Legend.Add(s.Label, thumbs...)
		if seriesAdded != nil {
			seriesAdded(i)
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if !ext.ok() {
		ext = extent{1, 10, 1, 10, true}
	}
	setAxis(&p.X, ext.x0, ext.x1, fd.XLog)
	setAxis(&p.Y, ext.y0, ext.y1, fd.YLog)
	lay := layOut(dc, p, fd, notesH)
	full, area := lay.full, lay.area
	p.Legend.Top, p.Legend.Left = legendCorner(fd, p, p.DataCanvas(area), floor)
	p.Legend.XOffs, p.Legend.YOffs = 0, 0
	if p.Legend.Left {
		p.Legend.XOffs = 6
	} else {
		p.Legend.XOffs = -6
	}
	p.Legend.YOffs = -6
	if !p.Legend.Top {
		p.Legend.YOffs = 6
	}
	p.Draw(area)
	da := p.DataCanvas(area)
	cx, cy := (da.Min.X+da.Max.X)/2, (da.Min.Y+da.Max.Y)/2
	full.FillText(lay.xSty, vg.Point{X: cx, Y: full.Min.Y + 4}, lay.x)
	full.FillText(lay.ySty, vg.Point{X: full.Min.X + 4, Y: cy}, lay.y)
	if fd.Y2Label != "" {
		if err := drawY2(area, p, fd, lay.y2Sty, lay.y2); err != nil {
			return err
		}
	}

	sty := draw.TextStyle{Font: font.From(plot.DefaultFont, noteSize), Handler: p.Title.TextStyle.Handler}
	for i, n := range notes {
		sty.Color = n.color
		y := notesH - vg.Length(noteLine*vg.Length(i+1))
		dc.FillText(sty, vg.Point{X: 0.3 * vg.Inch, Y: dc.Min.Y + y}, n.text)
	}
	return nil
}

// layout is where the plot goes and its axis titles, fitted.
type layout struct {
	full, area        draw.Canvas
	xSty, ySty, y2Sty draw.TextStyle
	x, y, y2          string
}

// layOut places the plot and fits its axis titles. The axis titles are
// drawn here, not by gonum: its layout places a title at the axis's
// linear midpoint, which on a log axis pads the plot by half the title's
// length. Each title is centred on its axis and must stay on the canvas
// on both sides of that centre; one wrapped onto more lines widens its
// margin by a line each, which shortens the other axis, so the fit is
// repeated until the margins settle.
func layOut(dc draw.Canvas, p *plot.Plot, fd experiment.FigureData, notesH vg.Length) layout {
	base := draw.TextStyle{Color: color.Black, Font: font.From(plot.DefaultFont, 12), Handler: p.Title.TextStyle.Handler,
		XAlign: draw.XCenter, YAlign: draw.YBottom}
	ySty := base
	ySty.Rotation, ySty.YAlign = math.Pi/2, draw.YTop
	y2Sty := ySty
	y2Sty.Rotation = -math.Pi / 2
	extra := func(sty draw.TextStyle, txt string) vg.Length {
		return vg.Length(vg.Length(lineCount(txt)-1) * sty.Font.Size)
	}
	var l layout
	l.xSty, l.x, l.ySty, l.y, l.y2Sty, l.y2 = base, fd.XLabel, ySty, fd.YLabel, y2Sty, ""
	if fd.Y2Label != "" {
		l.y2 = fd.Y2Label + " (dashed)"
	}
	for range 4 {
		right := vg.Length(0)
		if fd.Y2Label != "" {
			right = y2Margin + extra(l.y2Sty, l.y2)
		}
		l.full = draw.Crop(dc, 0, -right, notesH, -6)
		l.area = draw.Crop(l.full, axisTitle+extra(l.ySty, l.y), 0, axisTitle+extra(l.xSty, l.x), 0)
		da := p.DataCanvas(l.area)
		cx, cy := vg.Length((da.Min.X+da.Max.X)/2), vg.Length((da.Min.Y+da.Max.Y)/2)
		full := l.full
		along := vg.Length(2*min(cy-full.Min.Y, full.Max.Y-cy)) - 8
		next := l
		next.xSty, next.x = fitText(base, fd.XLabel, vg.Length(2*min(cx-full.Min.X, full.Max.X-cx))-8)
		next.ySty, next.y = fitText(ySty, fd.YLabel, along)
		if fd.Y2Label != "" {
			next.y2Sty, next.y2 = fitText(y2Sty, fd.Y2Label+" (dashed)", along)
		}
		settled := lineCount(next.x) == lineCount(l.x) && lineCount(next.y) == lineCount(l.y) && lineCount(next.y2) == lineCount(l.y2) &&
			next.xSty.Font.Size == l.xSty.Font.Size && next.ySty.Font.Size == l.ySty.Font.Size && next.y2Sty.Font.Size == l.y2Sty.Font.Size
		l.xSty, l.x, l.ySty, l.y, l.y2Sty, l.y2 = next.xSty, next.x, next.ySty, next.y, next.y2Sty, next.y2
		if settled {
			break
		}
	}
	return l
}

type extent struct {
	x0, x1, y0, y1 float64
	set            bool
}

func (e *extent) add(x, y float64) {
	if !e.set {
		*e = extent{x, x, y, y, true}
		return
	}
	e.x0, e.x1 = math.Min(e.x0, x), math.Max(e.x1, x)
	e.y0, e.y1 = math.Min(e.y0, y), math.Max(e.y1, y)
}

func (e extent) ok() bool { return e.set }

// logFloor is where a band whose lower end is not positive stops on a log
// axis: a third of the smallest positive value drawn. (A mean's confidence
// interval can reach below zero although every run's error is positive; the
// band then runs to the bottom of the axis.)
func logFloor(fd experiment.FigureData) float64 {
	if !fd.YLog {
		return math.Inf(-1)
	}
	m := math.Inf(1)
	for _, s := range fd.Series {
		for _, vs := range []experiment.Fs{s.Y, s.Lo, s.Hi} {
			for _, v := range vs {
				if v > 0 && v < m {
					m = v
				}
			}
		}
	}
	if math.IsInf(m, 1) {
		return 1
	}
	return m / 3
}

func valid(v float64, log bool) bool {
	return !math.IsNaN(v) && !math.IsInf(v, 0) && (!log || v > 0)
}

// seriesXYs returns a series' line, its band (upper edge forward, lower
// edge back) and its markers, leaving out what an axis cannot show.
func seriesXYs(fd experiment.FigureData, s experiment.FigureSeries, floor float64) (line, band, marks plotter.XYs) {
	var lo plotter.XYs
	for i, x := range s.X {
		if !valid(x, fd.XLog) {
			continue
		}
		if y := s.Y[i]; valid(y, fd.YLog) {
			line = append(line, plotter.XY{X: x, Y: y})
		}
		l, h := s.Lo[i], s.Hi[i]
		if fd.YLog && !(l > 0) && !math.IsNaN(l) {
			l = floor
		}
		if valid(l, fd.YLog) && valid(h, fd.YLog) {
			band = append(band, plotter.XY{X: x, Y: h})
			lo = append(lo, plotter.XY{X: x, Y: l})
		}
	}
	for i := len(lo) - 1; i >= 0; i-- {
		band = append(band, lo[i])
	}
	return line, band, line
}

// legendCorner puts the legend in the corner of data canvas da where it
// covers the least: the curves sampled along each segment (a point of a
// line under the box weighs 3, a band's span crossing it 1, a band with
// no positive lower end on a log axis reaching down to the floor), ties
// going to top right, top left, bottom right, bottom left in that order.
func legendCorner(fd experiment.FigureData, p *plot.Plot, da draw.Canvas, floor float64) (top, left bool) {
	r := p.Legend.Rectangle(da)
	w := float64((r.Max.X - r.Min.X + 6) / (da.Max.X - da.Min.X))
	h := float64((r.Max.Y - r.Min.Y + 6) / (da.Max.Y - da.Min.Y))
	ny := func(y float64) float64 { return p.Y.Scale.Normalize(p.Y.Min, p.Y.Max, y) }
	// corners in tie order: top right, top left, bottom right, bottom left
	type box struct{ x0, x1, y0, y1 float64 }
	corners := [4]box{{1 - w, 1, 1 - h, 1}, {0, w, 1 - h, 1}, {1 - w, 1, 0, h}, {0, w, 0, h}}
	var cost [4]int
	const steps = 8
	for _, s := range fd.Series {
		type pt struct{ x, y, lo, hi float64 }
		var pts []pt
		for i, x := range s.X {
			if !valid(x, fd.XLog) || !valid(s.Y[i], fd.YLog) {
				continue
			}
			q := pt{x: p.X.Scale.Normalize(p.X.Min, p.X.Max, x), y: ny(s.Y[i])}
			q.lo, q.hi = q.y, q.y
			if i < len(s.Lo) && i < len(s.Hi) {
				// the band as seriesXYs draws it
				l, h := s.Lo[i], s.Hi[i]
				if fd.YLog && !(l > 0) && !math.IsNaN(l) {
					l = floor
				}
				if valid(l, fd.YLog) && valid(h, fd.YLog) {
					q.lo, q.hi = ny(l), ny(h)
				}
			}
			pts = append(pts, q)
		}
		for k := range pts {
			a, b, n := pts[k], pts[k], 1
			if k+1 < len(pts) {
				b, n = pts[k+1], steps
			}
			for t := range n {
				f := float64(t) / steps
				lerp := func(u, v float64) float64 { return u + float64(f*(v-u)) }
				x, y, lo, hi := lerp(a.x, b.x), lerp(a.y, b.y), lerp(a.lo, b.lo), lerp(a.hi, b.hi)
				for c, bx := range corners {
					if x < bx.x0 || x > bx.x1 {
						continue
					}
					if y >= bx.y0 && y <= bx.y1 {
						cost[c] += 3
					}
					if hi >= bx.y0 && lo <= bx.y1 {
						cost[c]++
					}
				}
			}
		}
	}
	best := 0
	for c := range cost {
		if cost[c] < cost[best] {
			best = c
		}
	}
	return best < 2, best%2 == 1
}

// minLabelSize is the smallest font an axis title is shrunk to before it
// is wrapped onto more lines.
const minLabelSize = 8 * vg.Length(1)

// fitText returns sty and txt such that every line of txt fits in length
// max, never cutting a word: the font shrunk in half points down to
// minLabelSize; if it still does not fit, txt at sty's own size wrapped
// at spaces onto as few lines as fit ("\n" between them); and a single
// word longer than max shrinks the font further. An axis title longer
// than its axis would otherwise run off the canvas, centred as it is.
func fitText(sty draw.TextStyle, txt string, max vg.Length) (draw.TextStyle, string) {
	orig := sty.Font.Size
	size := orig
	for size > minLabelSize && sty.Width(txt) > max {
		size -= 0.5
		sty.Font = font.From(plot.DefaultFont, size)
	}
	if sty.Width(txt) <= max {
		return sty, txt
	}
	size = orig
	for {
		sty.Font = font.From(plot.DefaultFont, size)
		lines, ok := wrapWidth(sty, txt, max)
		if ok || size <= 1 {
			return sty, strings.Join(lines, "\n")
		}
		size -= 0.5
	}
}

// wrapWidth breaks txt at spaces into lines no wider than max in sty;
// ok is false when a single word is wider.
func wrapWidth(sty draw.TextStyle, txt string, max vg.Length) (lines []string, ok bool) {
	ok = true
	cur := ""
	for _, w := range strings.Fields(txt) {
		if cur != "" && sty.Width(cur+" "+w) > max {
			lines, cur = append(lines, cur), ""
		}
		if cur != "" {
			cur += " "
		}
		cur += w
		if sty.Width(w) > max {
			ok = false
		}
	}
	return append(lines, cur), ok
}

// lineCount is the number of lines of a fitted title.
func lineCount(txt string) int { return strings.Count(txt, "\n") + 1 }
