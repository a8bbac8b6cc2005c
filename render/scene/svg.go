package scene

import (
	"bufio"
	"fmt"
	"html"
	"io"
	"math"
)

// WriteSVG writes frame f as an SVG picture: the same triangles the
// ebiten view draws (Mesh), consecutive triangles of one colour merged
// into one path, then the labels as text. The page shows it as the
// scenario's poster before the simulator's first frame (cmd/mkposter
// renders one per preset at build time), so that the picture is on
// screen at once and is the picture the simulator then draws.
func WriteSVG(w io.Writer, f *Frame) error {
	var m Mesh
	m.Build(f)
	b := bufio.NewWriter(w)
	fmt.Fprintf(b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="%d" height="%d">`+"\n", f.W, f.H, f.W, f.H)
	bg := f.Background
	fmt.Fprintf(b, `<rect width="%d" height="%d" fill="#%02x%02x%02x"/>`+"\n", f.W, f.H, bg.R, bg.G, bg.B)
	open := ""
	flush := func() {
		if open != "" {
			b.WriteString(`"/>` + "\n")
			open = ""
		}
	}
	for _, sp := range m.Spans {
		vs := m.Vertices[sp.V0:sp.V1]
		ix := m.Indices[sp.I0:sp.I1]
		for t := 0; t+2 < len(ix); t += 3 {
			a, c, d := vs[ix[t]], vs[ix[t+1]], vs[ix[t+2]]
			col := svgColor(a, c, d)
			if col == "" {
				continue
			}
			if col != open {
				flush()
				fmt.Fprintf(b, `<path %s d="`, col)
				open = col
			}
			fmt.Fprintf(b, "M%s %sL%s %sL%s %sZ", num(a.X), num(a.Y), num(c.X), num(c.Y), num(d.X), num(d.Y))
		}
	}
	flush()
	for _, l := range f.Labels {
		anchor := map[string]string{"center": "middle", "right": "end"}[l.Align]
		if anchor == "" {
			anchor = "start"
		}
		base := map[string]string{"middle": "central", "bottom": "text-after-edge"}[l.Valign]
		if base == "" {
			base = "text-before-edge"
		}
		weight := ""
		if l.Class == "name" || l.Class == "title" || l.Class == "good" || l.Class == "warn" {
			weight = ` font-weight="600"`
		}
		fmt.Fprintf(b, `<text x="%s" y="%s" font-size="%s" text-anchor="%s" dominant-baseline="%s" font-family="system-ui,sans-serif" fill="#2b303b"%s>%s</text>`+"\n",
			num(float32(l.X)), num(float32(l.Y)), num(float32(math.Max(8, l.Size))), anchor, base, weight, html.EscapeString(l.Text))
	}
	b.WriteString("</svg>\n")
	return b.Flush()
}

// svgColor returns the fill attributes of a triangle: the mean of its
// vertices' premultiplied colours (the legend's ramp shades across a
// triangle), "" when it is invisible.
func svgColor(vs ...Vertex) string {
	var r, g, bl, a float32
	for _, v := range vs {
		r, g, bl, a = r+v.R, g+v.G, bl+v.B, a+v.A
	}
	n := float32(len(vs))
	r, g, bl, a = r/n, g/n, bl/n, a/n
	if a <= 0.004 {
		return ""
	}
	// Un-premultiply.
	c := func(x float32) int { return int(math.Round(float64(min(1, x/a) * 255))) }
	s := fmt.Sprintf(`fill="#%02x%02x%02x"`, c(r), c(g), c(bl))
	if a < 0.996 {
		s += fmt.Sprintf(` fill-opacity="%.3g"`, a)
	}
	return s
}

// num formats a coordinate to a tenth of a pixel.
func num(x float32) string {
	v := math.Round(float64(x)*10) / 10
	if v == math.Trunc(v) {
		return fmt.Sprintf("%d", int64(v))
	}
	return fmt.Sprintf("%.1f", v)
}
