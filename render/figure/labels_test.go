package figure

import (
	"context"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/recorder"

	"dpsim/core/experiment"
)

// placed is one string as drawn: its text and the box it covers on the
// canvas (points, origin bottom left).
type placed struct {
	text                   string
	minX, minY, maxX, maxY float64
}

// affine is a 2-D affine map: (x, y) ↦ (a·x + b·y + e, c·x + d·y + f).
type affine struct{ a, b, c, d, e, f float64 }

func (m affine) then(n affine) affine { // m ∘ n
	return affine{float64(m.a*n.a) + float64(m.b*n.c), float64(m.a*n.b) + float64(m.b*n.d), float64(m.c*n.a) + float64(m.d*n.c), float64(m.c*n.b) + float64(m.d*n.d),
		float64(m.a*n.e) + float64(m.b*n.f) + m.e, float64(m.c*n.e) + float64(m.d*n.f) + m.f}
}

func (m affine) apply(x, y float64) (float64, float64) {
	return float64(m.a*x) + float64(m.b*y) + m.e, float64(m.c*x) + float64(m.d*y) + m.f
}

// strings replays rec's actions and returns every string it fills with
// the box its glyphs cover (advance width × ascent + descent).
func drawnStrings(rec *recorder.Canvas) []placed {
	m := affine{1, 0, 0, 1, 0, 0}
	var stack []affine
	var out []placed
	for _, act := range rec.Actions {
		switch a := act.(type) {
		case *recorder.Push:
			stack = append(stack, m)
		case *recorder.Pop:
			m, stack = stack[len(stack)-1], stack[:len(stack)-1]
		case *recorder.Translate:
			m = m.then(affine{1, 0, 0, 1, float64(a.Point.X), float64(a.Point.Y)})
		case *recorder.Rotate:
			s, c := math.Sincos(a.Angle)
			m = m.then(affine{c, -s, s, c, 0, 0})
		case *recorder.Scale:
			m = m.then(affine{a.X, 0, 0, a.Y, 0, 0})
		case *recorder.FillString:
			face := font.DefaultCache.Lookup(a.Font, a.Size)
			w := float64(face.Width(a.String))
			ext := face.Extents()
			x0, y0 := float64(a.Point.X), float64(a.Point.Y)
			p := placed{text: a.String, minX: math.Inf(1), minY: math.Inf(1), maxX: math.Inf(-1), maxY: math.Inf(-1)}
			for _, q := range [][2]float64{{x0, y0 - float64(ext.Descent)}, {x0 + w, y0 - float64(ext.Descent)},
				{x0, y0 + float64(ext.Ascent)}, {x0 + w, y0 + float64(ext.Ascent)}} {
				x, y := m.apply(q[0], q[1])
				p.minX, p.maxX = math.Min(p.minX, x), math.Max(p.maxX, x)
				p.minY, p.maxY = math.Min(p.minY, y), math.Max(p.maxY, y)
			}
			out = append(out, p)
		}
	}
	return out
}

// TestLabelsNeverClipped draws figures whose axis titles are far longer
// than their axes and checks that every string lies on the canvas, none
// is cut short ("…"), and every word of each title is drawn: a title too
// long for one line is shrunk, then wrapped onto more lines, never cut.
func TestLabelsNeverClipped(t *testing.T) {
	base := figureData(t)
	long := func(s string, n int) string { return strings.TrimSpace(strings.Repeat(s+" ", n)) }
	for _, c := range []struct{ name, x, y, y2 string }{
		{"as computed", base.XLabel, base.YLabel, base.Y2Label},
		{"a long y title", base.XLabel, "optimality error, mean of the last 1000 of 6000 iterations of every run ((units of x)²)", base.Y2Label},
		{"very long titles", long("Laplace noise scale b of both messages", 5) + " (units of x)",
			long("final optimality error of the average estimate", 6) + " ((units of x)²)",
			long("ε spent by the most exposed agent", 5) + " (nats)"},
		{"no right axis", base.XLabel, long("relative error ‖x̄ − x*‖/‖x⁰ − x*‖ at the last iteration", 3), ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			fd := base
			fd.XLabel, fd.YLabel, fd.Y2Label = c.x, c.y, c.y2
			if c.y2 == "" {
				fd.Series = append([]experiment.FigureSeries(nil), fd.Series...)
				for i := range fd.Series {
					fd.Series[i].Y2 = nil
				}
			}
			notes := noteLines(fd)
			h := PlotHeight + vg.Length(vg.Length(len(notes))*noteLine) + noteLine/2
			var rec recorder.Canvas
			if err := draw1(context.Background(), draw.NewCanvas(&rec, Width, h), fd, notes); err != nil {
				t.Fatal(err)
			}
			got := drawnStrings(&rec)
			all := ""
			const tol = 0.5
			for _, p := range got {
				all += " " + p.text
				if strings.Contains(p.text, "…") {
					t.Errorf("%q is cut short", p.text)
				}
				if p.minX < -tol || p.minY < -tol || p.maxX > float64(Width)+tol || p.maxY > float64(h)+tol {
					t.Errorf("%q spills off the %.0f×%.0f canvas: x %.1f…%.1f, y %.1f…%.1f", p.text, float64(Width), float64(h), p.minX, p.maxX, p.minY, p.maxY)
				}
			}
			for _, title := range []string{c.x, c.y, c.y2} {
				for _, w := range strings.Fields(spell(title)) {
					if !strings.Contains(all, w) {
						t.Errorf("the word %q of %q is not drawn", w, title)
					}
				}
			}
		})
	}
}
