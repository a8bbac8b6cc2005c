package scene

import (
	"image/color"
	"math"
	"slices"
)

// Vertex is one mesh vertex: a position in canvas pixels and an
// alpha-premultiplied colour with components in [0, 1].
type Vertex struct {
	X, Y       float32
	R, G, B, A float32
}

// Span is one draw call's share of a Mesh: Vertices[V0:V1] and
// Indices[I0:I1], whose values count from V0.
type Span struct{ V0, V1, I0, I1 int }

// DefaultBatch is the default number of vertices per draw call.
const DefaultBatch = 1<<16 - 1

// Mesh is a Frame tessellated into triangles, in drawing order, split into
// spans of at most MaxBatch vertices (DefaultBatch when zero). The slices
// are reused by the next Build.
type Mesh struct {
	MaxBatch int
	Vertices []Vertex
	Indices  []uint32
	Spans    []Span
}

// Build replaces the mesh's contents with f's picture.
func (m *Mesh) Build(f *Frame) {
	m.Vertices, m.Indices, m.Spans = m.Vertices[:0], m.Indices[:0], m.Spans[:0]
	// The background and the panels tile the canvas without overlapping:
	// under a software GPU each full-canvas layer costs several
	// milliseconds a frame, and an opaque layer under another is wasted.
	panels := [2]Rect{f.NetPanel}
	np := 1
	if f.HasPlane {
		panels[np], np = f.PlanePanel, np+1
	} else if f.HasAlloc {
		panels[np], np = f.AllocPanel, np+1
	}
	m.around(float64(f.W), float64(f.H), panels[:np], f.Background)
	for _, p := range panels[:np] {
		m.panel(p)
	}
	for _, s := range f.Edges {
		m.segment(s)
	}
	for _, d := range f.Packets { // under the nodes: they leave and enter them
		m.disc(d)
	}
	for _, d := range f.Rings {
		m.disc(d)
	}
	for _, d := range f.Nodes {
		m.disc(d)
	}
	for _, b := range f.NodeBoxes {
		m.box(b)
	}
	m.legend(f.Legend)
	if f.HasPlane {
		for _, s := range f.Grid {
			m.segment(s)
		}
		for _, s := range f.Targets {
			m.segment(s)
		}
		for _, s := range f.Trails {
			m.segment(s)
		}
		// The estimates go over the optimum, so that agents meeting
		// there stay visible.
		m.star(f.Optimum)
		for _, d := range f.Estimates {
			m.disc(d)
		}
	}
	if f.HasAlloc {
		for _, b := range f.AllocBoxes {
			m.box(b)
		}
		for _, s := range f.AllocLines {
			m.segment(s)
		}
	}
	m.close()
}

// box draws the outline (inside the rectangle), then the fill.
func (m *Mesh) box(b Box) {
	r := b.Rect
	if b.LineW > 0 && b.Line.A > 0 {
		m.rect(r, b.Line)
		r = Rect{r.X + b.LineW, r.Y + b.LineW, r.W - 2*b.LineW, r.H - 2*b.LineW}
	}
	m.rect(r, b.Fill)
}

// reserve makes room for k more vertices in the current span, starting a
// new span when needed, and returns the index the first of them will have
// within its span.
func (m *Mesh) reserve(k int) uint32 {
	limit := m.MaxBatch
	if limit <= 0 {
		limit = DefaultBatch
	}
	if len(m.Spans) == 0 {
		m.Spans = append(m.Spans, Span{})
	}
	s := &m.Spans[len(m.Spans)-1]
	if n := len(m.Vertices) - s.V0; n > 0 && n+k > limit {
		m.close()
		m.Spans = append(m.Spans, Span{V0: len(m.Vertices), V1: len(m.Vertices), I0: len(m.Indices), I1: len(m.Indices)})
		s = &m.Spans[len(m.Spans)-1]
	}
	return uint32(len(m.Vertices) - s.V0)
}

// close sets the current span's ends.
func (m *Mesh) close() {
	if len(m.Spans) == 0 {
		return
	}
	s := &m.Spans[len(m.Spans)-1]
	s.V1, s.I1 = len(m.Vertices), len(m.Indices)
}

// fcolor is a colour as vertex components.
type fcolor struct{ r, g, b, a float32 }

func fc(c color.RGBA) fcolor {
	return fcolor{float32(c.R) / 255, float32(c.G) / 255, float32(c.B) / 255, float32(c.A) / 255}
}

func (m *Mesh) vertex(x, y float64, c fcolor) {
	m.Vertices = append(m.Vertices, Vertex{X: float32(x), Y: float32(y), R: c.r, G: c.g, B: c.b, A: c.a})
}

func (m *Mesh) quad(x0, y0, x1, y1, x2, y2, x3, y3 float64, col color.RGBA) {
	b := m.reserve(4)
	c := fc(col)
	m.vertex(x0, y0, c)
	m.vertex(x1, y1, c)
	m.vertex(x2, y2, c)
	m.vertex(x3, y3, c)
	m.Indices = append(m.Indices, b, b+1, b+2, b, b+2, b+3)
}

func (m *Mesh) rect(r Rect, c color.RGBA) {
	if c.A == 0 || r.W <= 0 || r.H <= 0 {
		return
	}
	m.quad(r.X, r.Y, r.X+r.W, r.Y, r.X+r.W, r.Y+r.H, r.X, r.Y+r.H, c)
}

// panel is a white card with a hairline border: four strips and the
// fill, edge to edge.
func (m *Mesh) panel(r Rect) {
	if r.W <= 2 || r.H <= 2 {
		m.rect(r, PanelLine)
		return
	}
	x0, y0, x3, y3 := r.X, r.Y, r.X+r.W, r.Y+r.H
	x1, y1, x2, y2 := x0+1, y0+1, x3-1, y3-1
	m.box4(x0, y0, x3, y1, PanelLine)
	m.box4(x0, y2, x3, y3, PanelLine)
	m.box4(x0, y1, x1, y2, PanelLine)
	m.box4(x2, y1, x3, y2, PanelLine)
	m.box4(x1, y1, x2, y2, PanelFill)
}

// box4 fills the rectangle between x0 and x1, y0 and y1 (given by its
// edges, so that neighbours share theirs exactly).
func (m *Mesh) box4(x0, y0, x1, y1 float64, c color.RGBA) {
	if c.A == 0 || !(x1 > x0) || !(y1 > y0) {
		return
	}
	m.quad(x0, y0, x1, y0, x1, y1, x0, y1, c)
}

// around fills the w×h canvas outside the panels (at most two, disjoint)
// with c: in horizontal bands between the panels' top and bottom edges,
// each band filled in the gaps between the panels that span it.
func (m *Mesh) around(w, h float64, panels []Rect, c color.RGBA) {
	ys := make([]float64, 0, 6)
	ys = append(ys, 0, h)
	for _, p := range panels {
		ys = append(ys, min(h, max(0, p.Y)), min(h, max(0, p.Y+p.H)))
	}
	slices.Sort(ys)
	for k := 0; k+1 < len(ys); k++ {
		y0, y1 := ys[k], ys[k+1]
		if !(y1 > y0) {
			continue
		}
		var xs [4]float64 // the spanning panels' [left, right) pairs
		nx := 0
		for _, p := range panels {
			if p.Y <= y0 && p.Y+p.H >= y1 && p.W > 0 {
				xs[nx], xs[nx+1] = p.X, p.X+p.W
				nx += 2
			}
		}
		if nx == 4 && xs[2] < xs[0] {
			xs[0], xs[1], xs[2], xs[3] = xs[2], xs[3], xs[0], xs[1]
		}
		x := 0.0
		for j := 0; j < nx; j += 2 {
			m.box4(x, y0, xs[j], y1, c)
			x = max(x, xs[j+1])
		}
		m.box4(x, y0, w, y1, c)
	}
}

func (m *Mesh) segment(s Segment) {
	dx, dy := s.X1-s.X0, s.Y1-s.Y0
	d := math.Hypot(dx, dy)
	if s.Color.A == 0 || d == 0 || !(s.W > 0) {
		return
	}
	nx, ny := float64(-dy/d*s.W/2), float64(dx/d*s.W/2)
	m.quad(s.X0+nx, s.Y0+ny, s.X1+nx, s.Y1+ny, s.X1-nx, s.Y1-ny, s.X0-nx, s.Y0-ny, s.Color)
}

// Circles have between minSides and maxSides rim vertices, about one per
// 3.5 pixels of circumference.
const (
	minSides = 6
	maxSides = 64
)

// unit holds cos and sin of 2πi/k for every k up to maxSides.
var unit = func() (t [maxSides + 1][][2]float64) {
	for k := minSides; k <= maxSides; k++ {
		t[k] = make([][2]float64, k)
		for i := range k {
			s, c := math.Sincos(2 * math.Pi * float64(i) / float64(k))
			t[k][i] = [2]float64{c, s}
		}
	}
	return t
}()

// sides is the number of rim vertices for a circle of radius r pixels.
func sides(r float64) int {
	return min(maxSides, max(minSides, int(math.Ceil(2*math.Pi*r/3.5))))
}

// DotRadius is the radius in pixels up to which an outline-less disc is
// drawn as a square of the same area.
const DotRadius = 3

// disc draws the outline, then the fill. Over an opaque fill the outline
// is a larger disc underneath; under a translucent one it is an annulus.
func (m *Mesh) disc(d Disc) {
	fill := d.Fill.A > 0 && d.R > 0
	if fill && !(d.LineW > 0 && d.Line.A > 0) && d.R <= DotRadius {
		// A dot of a few pixels: a square of the same area reads the
		// same, in 4 vertices instead of 7 (a large network's thousands).
		h := float64(d.R * math.Sqrt(math.Pi) / 2)
		m.rect(Rect{d.X - h, d.Y - h, 2 * h, 2 * h}, d.Fill)
		return
	}
	if d.LineW > 0 && d.Line.A > 0 {
		if d.Fill.A == 0xff && fill {
			m.fan(d.X, d.Y, d.R+d.LineW, d.Line)
		} else {
			m.annulus(d.X, d.Y, d.R, d.R+d.LineW, d.Line)
		}
	}
	if fill {
		m.fan(d.X, d.Y, d.R, d.Fill)
	}
}

func (m *Mesh) fan(x, y, r float64, col color.RGBA) {
	k := sides(r)
	b := m.reserve(k + 1)
	c := fc(col)
	m.vertex(x, y, c)
	for _, u := range unit[k] {
		m.vertex(x+float64(r*u[0]), y+float64(r*u[1]), c)
	}
	for j := range uint32(k) {
		m.Indices = append(m.Indices, b, b+1+j, b+1+(j+1)%uint32(k))
	}
}

func (m *Mesh) annulus(x, y, r0, r1 float64, col color.RGBA) {
	if col.A == 0 || !(r1 > r0) {
		return
	}
	r0 = max(r0, 0)
	k := sides(r1)
	b := m.reserve(2 * k)
	c := fc(col)
	for _, u := range unit[k] {
		m.vertex(x+float64(r0*u[0]), y+float64(r0*u[1]), c)
		m.vertex(x+float64(r1*u[0]), y+float64(r1*u[1]), c)
	}
	n := uint32(2 * k)
	for j := uint32(0); j < n; j += 2 {
		m.Indices = append(m.Indices, b+j, b+j+1, b+(j+2)%n, b+j+1, b+(j+3)%n, b+(j+2)%n)
	}
}

// star draws a five-pointed star (inner radius 0.45 R) over a larger one
// in the outline colour.
func (m *Mesh) star(s Star) {
	if !(s.R > 0) {
		return
	}
	if s.LineW > 0 && s.Line.A > 0 {
		m.starFill(s.X, s.Y, s.R+float64(1.6*s.LineW), s.Line)
	}
	m.starFill(s.X, s.Y, s.R, s.Fill)
}

func (m *Mesh) starFill(x, y, r float64, col color.RGBA) {
	if col.A == 0 {
		return
	}
	c := fc(col)
	b := m.reserve(11)
	m.vertex(x, y, c)
	for i := range 10 {
		rr := r
		if i%2 == 1 {
			rr = 0.45 * r
		}
		s, co := math.Sincos(-math.Pi/2 + math.Pi*float64(i)/5)
		m.vertex(x+float64(rr*co), y+float64(rr*s), c)
		j := uint32(i)
		m.Indices = append(m.Indices, b, b+1+j, b+1+(j+1)%10)
	}
}

// legend draws the ramp as one quad per pair of stops (the ramp is linear
// in t between stops, so vertex colours reproduce it exactly), a hairline
// frame and the ticks.
func (m *Mesh) legend(l Legend) {
	if !(l.W > 0 && l.H > 0) {
		return
	}
	m.rect(Rect{l.X - 1, l.Y - 1, l.W + 2, l.H + 2}, PanelLine)
	k := len(ratioStops) - 1
	for i := range k {
		xa := l.X + l.W*float64(i)/float64(k)
		xb := l.X + l.W*float64(i+1)/float64(k)
		ca, cb := fc(ratioStops[i]), fc(ratioStops[i+1])
		b := m.reserve(4)
		m.vertex(xa, l.Y, ca)
		m.vertex(xb, l.Y, cb)
		m.vertex(xb, l.Y+l.H, cb)
		m.vertex(xa, l.Y+l.H, ca)
		m.Indices = append(m.Indices, b, b+1, b+2, b, b+2, b+3)
	}
	tl := max(3, 0.5*l.H)
	for _, t := range l.Ticks {
		m.segment(Segment{t.X, l.Y + l.H + 1, t.X, l.Y + l.H + 1 + tl, 1, TargetInk})
	}
}

// VertexFloats is the number of float32s PackVertices writes per vertex:
// the layout of ebiten.Vertex (DstX, DstY, SrcX, SrcY, ColorR, ColorG,
// ColorB, ColorA, Custom0…3), so that the view program draws the bytes
// as they arrive, without a conversion loop (render checks the layout
// when it compiles).
const VertexFloats = 12

// PackVertices writes vs into dst (grown as needed) in the layout of
// ebiten.Vertex, with the source texel (1, 1): the view's triangles
// sample a white pixel there. It returns dst.
func PackVertices(dst []float32, vs []Vertex) []float32 {
	n := VertexFloats * len(vs)
	if cap(dst) < n {
		dst = make([]float32, n, n+n/4)
	}
	dst = dst[:n]
	for i, v := range vs {
		d := dst[VertexFloats*i : VertexFloats*i+VertexFloats : VertexFloats*i+VertexFloats]
		d[0], d[1], d[2], d[3] = v.X, v.Y, 1, 1
		d[4], d[5], d[6], d[7] = v.R, v.G, v.B, v.A
		d[8], d[9], d[10], d[11] = 0, 0, 0, 0
	}
	return dst
}
