package figure

import (
	"bytes"
	"context"
	"flag"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"dpsim/core/experiment"
)

var update = flag.Bool("update", false, "rewrite the golden figures in testdata/")

// small is a two-series sweep with a right axis, cut short to run fast.
const small = `{"format":"dpsim-experiment/1","name":"fig-test","title":"Figure test",
 "reproduces":{"paper":"Test paper","figure":"Fig. 0"},
 "base":{"preset":"gtdp-rendezvous"},"set":{"iterations":150},
 "series":[{"name":"a","label":"series a"},{"name":"b","label":"series b","set":{"algorithm.params.alpha":0.05}}],
 "x":{"kind":"field","fields":["noise.eta.scale","noise.xi.scale"],"values":[0.1,1,10],"label":"noise scale b","unit":"units of x","scale":"log"},
 "runs":8,"seed":4,"metrics":[{"name":"optimality"}],"statistic":"mean",
 "figure":{"title":"Figure test","y":{"metric":"optimality","label":"final error","unit":"(units of x)²","scale":"log"},
   "y2":{"quantity":"epsilon","label":"ε","unit":"nats","scale":"log"}},
 "expectations":[{"claim":"error grows with b","kind":"increasing","series":"a"}]}`

func figureData(t *testing.T) experiment.FigureData {
	t.Helper()
	e, err := experiment.Parse([]byte(small))
	if err != nil {
		t.Fatal(err)
	}
	p, err := experiment.NewPlan(e)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := p.Execute(context.Background(), p.AllTasks(), 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := experiment.Assemble(p, recs, nil)
	if err != nil {
		t.Fatal(err)
	}
	return p.Figure(r)
}

// TestGoldenFigures pins the SVG and PNG byte for byte; under GOOS=js the
// same files prove that the page's downloads equal the CLI's. Regenerate
// with go test ./render/figure -update (and look at the PNG).
func TestGoldenFigures(t *testing.T) {
	fd := figureData(t)
	for _, f := range []string{SVG, PNG} {
		got, err := Bytes(fd, f)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join("testdata", "small."+f)
		if *update {
			os.WriteFile(path, got, 0o644)
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run with -update)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from %s (%d vs %d bytes)", f, path, len(got), len(want))
		}
	}
}

// TestFigureContents: the SVG has its title, axis titles with units, a
// legend, the right axis and the verdicts; the PNG is a real image.
func TestFigureContents(t *testing.T) {
	fd := figureData(t)
	svg, err := Bytes(fd, SVG)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Figure test", "noise scale b (units of x)", "final error ((units of x)²)",
		"series a", "series b", "ε (nats) (dashed)", "] error grows with b — ", "Test paper, Fig. 0", "<path"} {
		if !strings.Contains(string(svg), want) {
			t.Errorf("the SVG lacks %q", want)
		}
	}
	pngData, err := Bytes(fd, PNG)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(pngData))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != int(Width/vg.Inch*DPI) || b.Dy() < int(PlotHeight/vg.Inch*DPI) {
		t.Errorf("PNG is %v", b)
	}
	// Coloured pixels: the series and bands were drawn.
	coloured := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y += 2 {
		for x := b.Min.X; x < b.Max.X; x += 2 {
			r, g, bl, _ := img.At(x, y).RGBA()
			if max(r, g, bl)-min(r, g, bl) > 0x3000 {
				coloured++
			}
		}
	}
	if coloured < 500 {
		t.Errorf("only %d coloured pixels: is the figure blank?", coloured)
	}
	if _, err := Bytes(fd, "gif"); err == nil {
		t.Error("an unknown format was accepted")
	}
}

func TestWrap(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want []string
	}{
		{"a bb ccc dddd", 6, []string{"a bb", "ccc", "dddd"}},
		{"", 5, []string{""}},
		{"toolongword x", 4, []string{"toolongword", "x"}},
	} {
		if got := wrap(c.in, c.n); strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("wrap(%q, %d) = %q, want %q", c.in, c.n, got, c.want)
		}
	}
}

// An axis title longer than its axis is shrunk, then wrapped onto more
// lines at its own size — never cut — so that it never runs off the
// canvas; a short one is kept.
func TestFitText(t *testing.T) {
	sty := draw.TextStyle{Font: font.From(plot.DefaultFont, 12), Handler: plot.New().Title.TextStyle.Handler}
	long := strings.Repeat("optimality error, mean of the last 1000 iterations ", 3)
	for _, c := range []struct {
		txt   string
		max   vg.Length
		lines int     // 0: more than one
		size  float64 // the font's size; 0: shrunk below minLabelSize
	}{
		{"iteration k", 300, 1, 12},
		{long[:80], 300, 1, -1}, // shrunk, between minLabelSize and 12
		{long, 300, 0, 12},
		{long, 10, 0, 0},
	} {
		got, txt := fitText(sty, c.txt, c.max)
		for _, l := range strings.Split(txt, "\n") {
			if w := got.Width(l); w > c.max {
				t.Errorf("%q in %v: line %q is %v wide", c.txt, c.max, l, w)
			}
		}
		if strings.Join(strings.Fields(txt), " ") != strings.Join(strings.Fields(c.txt), " ") {
			t.Errorf("%q in %v: words lost or changed: %q", c.txt, c.max, txt)
		}
		n, size := lineCount(txt), float64(got.Font.Size)
		if (c.lines == 1) != (n == 1) {
			t.Errorf("%q in %v: %d lines", c.txt, c.max, n)
		}
		switch {
		case c.size > 0 && size != c.size,
			c.size < 0 && !(size < 12 && size >= float64(minLabelSize)),
			c.size == 0 && size >= float64(minLabelSize):
			t.Errorf("%q in %v: at %v pt", c.txt, c.max, size)
		}
	}
}

// The legend goes to the corner where it covers the least of the curves
// and their bands, ties in the order top right, top left, bottom right,
// bottom left; on a log axis a band with no positive lower end reaches
// down to the floor.
func TestLegendCorner(t *testing.T) {
	da := draw.Canvas{Rectangle: vg.Rectangle{Max: vg.Point{X: 500, Y: 300}}}
	series := func(pts ...[4]float64) experiment.FigureSeries { // x, y, lo, hi
		s := experiment.FigureSeries{Label: "a series"}
		for _, q := range pts {
			s.X, s.Y, s.Lo, s.Hi = append(s.X, q[0]), append(s.Y, q[1]), append(s.Lo, q[2]), append(s.Hi, q[3])
		}
		return s
	}
	line := func(pts ...[2]float64) experiment.FigureSeries {
		var qs [][4]float64
		for _, q := range pts {
			qs = append(qs, [4]float64{q[0], q[1], q[1], q[1]})
		}
		return series(qs...)
	}
	for _, c := range []struct {
		name      string
		log       bool
		s         []experiment.FigureSeries
		top, left bool
	}{
		{"empty: top right", false, nil, true, false},
		{"falling curve: top right", false, []experiment.FigureSeries{line([2]float64{0, 10}, [2]float64{10, 0})}, true, false},
		{"rising curve: top left", false, []experiment.FigureSeries{line([2]float64{0, 0}, [2]float64{10, 10})}, true, true},
		{"a flat line at the top: bottom right", false, []experiment.FigureSeries{line([2]float64{0, 9.9}, [2]float64{10, 9.9})}, false, false},
		{"a band over the bottom right: bottom left", false, []experiment.FigureSeries{
			line([2]float64{0, 9.9}, [2]float64{10, 9.9}),
			series([4]float64{0, 5, 5, 5}, [4]float64{5, 5, 5, 5}, [4]float64{6, 5, 0, 5}, [4]float64{10, 5, 0, 5})}, false, true},
		{"log: a band down to the floor on the right: bottom left", true, []experiment.FigureSeries{
			line([2]float64{0, 999}, [2]float64{10, 999}),
			series([4]float64{0, 1, 0.5, 2}, [4]float64{5, 1, 0.5, 2}, [4]float64{6, 1, -1, 2}, [4]float64{10, 1, -1, 2})}, false, true},
	} {
		p := plot.New()
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = 0, 10, 0, 10
		floor := 0.0
		if c.log {
			p.Y.Scale = plot.LogScale{}
			p.Y.Min, p.Y.Max, floor = 1e-3, 1e3, 1e-3
		}
		for _, s := range c.s {
			l, _ := plotter.NewLine(plotter.XYs{{X: 0, Y: 1}})
			p.Legend.Add(s.Label, l)
		}
		top, left := legendCorner(experiment.FigureData{YLog: c.log, Series: c.s}, p, da, floor)
		if top != c.top || left != c.left {
			t.Errorf("%s: top %v left %v, want top %v left %v", c.name, top, left, c.top, c.left)
		}
	}
}
