package scene

import (
	"image/color"
	"math"
	"slices"
	"strconv"
)

// Rect is an axis-aligned rectangle in canvas pixels.
type Rect struct{ X, Y, W, H float64 }

// Contains reports whether (x, y) lies in r (borders included).
func (r Rect) Contains(x, y float64) bool {
	return x >= r.X && x <= r.X+r.W && y >= r.Y && y <= r.Y+r.H
}

// Disc is a filled circle with an optional outline of width LineW drawn
// outside radius R.
type Disc struct {
	X, Y, R float64
	Fill    color.RGBA
	Line    color.RGBA
	LineW   float64
}

// Segment is a straight line of width W.
type Segment struct {
	X0, Y0, X1, Y1, W float64
	Color             color.RGBA
}

// Star is a five-pointed star of outer radius R with an outline.
type Star struct {
	X, Y, R float64
	Fill    color.RGBA
	Line    color.RGBA
	LineW   float64
}

// LegendTick marks where a ratio sits on the legend ramp.
type LegendTick struct {
	X     float64
	Ratio float64
}

// Legend is the colour ramp of the noise ratio, drawn left (RatioLow) to
// right (RatioHigh) in Rect. The page writes the labels under the ticks.
type Legend struct {
	Rect
	Ticks []LegendTick
}

// View is the window of the plane view, in data coordinates; it maps onto
// Frame.PlaneBox with y pointing up.
type View struct{ X0, Y0, X1, Y1 float64 }

// Frame is one picture as plain data, in canvas pixels with y down. The
// renderer draws the lists in this order: panels, Edges, Packets, Rings,
// Nodes, the legend, then Grid, Targets, Trails, Estimates, Optimum.
type Frame struct {
	W, H       int
	Background color.RGBA

	NetPanel Rect
	Edges    []Segment // links, with arrowheads for directed graphs
	Rings    []Disc    // halos around the active agents (when not all are)
	Nodes    []Disc
	// Packets holds one disc per Model.Packets entry, in the same order;
	// past MaxPackets, one per stride-th entry.
	// Packets outside their round's time window are fully transparent.
	Packets []Disc
	// InFlight counts the packets drawn with non-zero opacity.
	InFlight int
	// PacketOf[k] is the Model.Packets index of Packets[k]; NodeAt[i] is
	// agent i's centre and NodeR the nodes' radius: what the page's
	// inspector hit-tests.
	PacketOf []int
	NodeAt   [][2]float64
	NodeR    float64
	Legend   Legend

	// NodeBoxes are square nodes: the generators of a resource-allocation
	// problem (its loads stay in Nodes).
	NodeBoxes []Box

	// The allocation panel (resource-allocation problems): the gauge and
	// bars, then the lines (demand mark, optimum ticks, λ*, price curves).
	HasAlloc   bool
	AllocPanel Rect
	AllocBoxes []Box
	AllocLines []Segment
	// Labels are the texts the page writes over the canvas.
	Labels []Label

	HasPlane   bool
	PlanePanel Rect
	PlaneBox   Rect // the square plotting area
	View       View
	Grid       []Segment // grid lines, axes and the box
	Targets    []Segment // a cross per target
	Trails     []Segment
	Optimum    Star
	Estimates  []Disc
}

// MaxTrailSegments bounds the trail segments of a frame, roughly: with
// many agents each trail is shorter than TrailLen.
const MaxTrailSegments = 1600

// NetSplit is the share of the width the network panel takes when the
// plane view is shown.
const NetSplit = 0.58

// PortraitAspect is the height-to-width ratio above which the panels
// stack (network on top) instead of standing side by side.
const PortraitAspect = 1.15

// PortraitMax is the largest share of a tall canvas's height the network
// panel takes, and PortraitLegend the height (in CSS pixels) its legend,
// margins and paddings add to a square drawing area.
const (
	PortraitMax    = 0.66
	PortraitLegend = 56
)

// AllocSplit is the network panel's share beside the allocation panel,
// whose bars and captions need less width than the network's labels.
const AllocSplit = 0.61

func (f *Frame) reset(w, h int) {
	*f = Frame{
		W: w, H: h, Background: Background,
		Edges: f.Edges[:0], Rings: f.Rings[:0], Nodes: f.Nodes[:0], Packets: f.Packets[:0],
		PacketOf: f.PacketOf[:0], NodeAt: f.NodeAt[:0],
		Legend:    Legend{Ticks: f.Legend.Ticks[:0]},
		NodeBoxes: f.NodeBoxes[:0], AllocBoxes: f.AllocBoxes[:0], AllocLines: f.AllocLines[:0], Labels: f.Labels[:0],
		Grid:    f.Grid[:0],
		Targets: f.Targets[:0], Trails: f.Trails[:0], Estimates: f.Estimates[:0],
	}
}

// Frame lays out the current picture for a w×h canvas with the latest
// iteration's packets at phase (0 at their senders, 1 at their receivers;
// eased). The returned Frame is owned by the model and reused by the next
// call.
func (m *Model) Frame(phase float64, w, h int) *Frame {
	m.summarise()
	f := &m.frame
	w, h = max(w, 1), max(h, 1)
	f.reset(w, h)
	u := m.PixelRatio
	if !(u > 0) {
		u = 1
	}
	W, H := float64(w), float64(h)
	mg := min(10*u, 0.04*min(W, H))
	switch {
	case (m.alloc != nil || m.plane != nil) && H > PortraitAspect*W:
		// A tall canvas (a phone held upright): the network on top, the
		// other panel under it, so that neither is squeezed to a strip.
		share := NetSplit
		if m.alloc != nil {
			share = AllocSplit
		}
		// The network takes at least its share, and more, up to
		// PortraitMax, until its drawing area (above the legend) is as
		// tall as it is wide: a ring then spans the phone's width.
		split := math.Round(H * max(share, min(PortraitMax, (W+float64(PortraitLegend*u))/H)))
		f.NetPanel = Rect{mg, mg, W - float64(2*mg), split - float64(1.5*mg)}
		other := Rect{mg, split + float64(0.5*mg), W - float64(2*mg), H - split - float64(1.5*mg)}
		if m.alloc != nil {
			f.HasAlloc, f.AllocPanel = true, other
		} else {
			f.HasPlane, f.PlanePanel = true, other
		}
	case m.alloc != nil:
		split := math.Round(W * AllocSplit)
		f.NetPanel = Rect{mg, mg, split - float64(1.5*mg), H - float64(2*mg)}
		f.HasAlloc = true
		f.AllocPanel = Rect{split + float64(0.5*mg), mg, W - split - float64(1.5*mg), H - float64(2*mg)}
	case m.plane != nil:
		split := math.Round(W * NetSplit)
		f.NetPanel = Rect{mg, mg, split - float64(1.5*mg), H - float64(2*mg)}
		f.HasPlane = true
		f.PlanePanel = Rect{split + float64(0.5*mg), mg, W - split - float64(1.5*mg), H - float64(2*mg)}
	default:
		f.NetPanel = Rect{mg, mg, W - 2*mg, H - 2*mg}
	}
	m.network(f, phase, u)
	if f.HasPlane {
		m.planeView(f, u)
	}
	if f.HasAlloc {
		m.allocView(f, u)
	}
	return f
}

// network fills the network panel: edges, nodes, packets and the legend.
func (m *Model) network(f *Frame, phase, u float64) {
	p := f.NetPanel
	pad := min(12*u, 0.06*min(p.W, p.H))

	// The legend sits at the bottom left, its numbers under its ticks.
	lh := min(8*u, 0.04*p.H)
	lw := min(220*u, p.W-2*pad)
	labels := min(18*u, 0.08*p.H)
	f.Legend.Rect = Rect{p.X + pad, p.Y + p.H - pad - labels - lh, max(lw, 0), lh}
	for _, r := range legendRatios {
		f.Legend.Ticks = append(f.Legend.Ticks, LegendTick{X: f.Legend.X + float64(RatioT(r)*f.Legend.W), Ratio: r})
	}
	m.legendLabels(f, labels, u)

	// The graph area above the legend, as a centred square.
	area := Rect{p.X + pad, p.Y + pad, p.W - float64(2*pad), f.Legend.Y - float64(4*u) - p.Y - pad}
	area.H = max(area.H, 1)
	side0 := max(1, min(area.W, area.H))
	n := m.g.N
	// Sizes follow the drawn side of the layout square; the square shrinks
	// so that nodes and offset packets keep inside: fit once with the
	// sizes for side0, then size again for the smaller side.
	var r, pr, lane float64
	sizes := func(side float64) (inset float64) {
		r = min(16*u, max(2.5*u, 0.36*m.spacing*side), max(1, 0.08*side))
		pr = min(5*u, max(min(2*u, r), 0.4*r)) // packet base radius
		lane = 2 * pr
		return r + float64(1.5*u) + float64(1.6*pr) + float64(lane*float64(max(1, len(m.channels)))) + m.labelInset(u)
	}
	side := max(1, min(side0, (float64(side0/2)-sizes(side0))/(0.5-LayoutMargin)))
	sizes(side)
	ox := area.X + float64((area.W-side)/2)
	oy := area.Y + float64((area.H-side)/2)
	at := func(i int) (float64, float64) { return ox + float64(m.pos[i][0]*side), oy + float64(m.pos[i][1]*side) }

	// Edges: thinner and lighter as they get many.
	ne := float64(len(m.g.Edges))
	ew := u * min(1.6, max(0.7, 1.6*math.Sqrt(60/max(ne, 1))))
	ec := withAlpha(EdgeColor, min(1, max(0.3, math.Sqrt(300/max(ne, 1)))))
	large := m.Large()
	var flow []float64 // large: the latest noise ÷ signal each agent sent (−1: silent)
	if large {
		flow = m.senderRatios()
		ew = max(ew, 1.5*u)
	}
	// The large picture's dots: radius dr, covering a disc of radius
	// cover around their centre (a square dot, its inscribed one).
	dr := max(r, 1.5*u)
	cover := dr
	if dr <= DotRadius {
		cover = dr * math.Sqrt(math.Pi) / 2
	}
	for _, e := range m.g.Edges {
		ax, ay := at(e.From)
		bx, by := at(e.To)
		if large {
			if m.alloc == nil && hidden(math.Hypot(bx-ax, by-ay), ew, cover) {
				continue // wholly under its two end dots, drawn over it
			}
			// Per-link flow: the link in the colour of the latest messages
			// on it (either direction's larger ratio), faded.
			rr := max(flow[e.From], flow[e.To])
			c := withAlpha(EdgeColor, 0.35)
			if rr >= 0 {
				c = withAlpha(RatioColor(rr), 0.55)
			}
			f.Edges = append(f.Edges, Segment{ax, ay, bx, by, ew, c})
			continue
		}
		f.Edges = append(f.Edges, Segment{ax, ay, bx, by, ew, ec})
		if m.g.Directed {
			dx, dy := bx-ax, by-ay
			d := math.Hypot(dx, dy)
			if d > float64(2*r)+float64(8*u) {
				dx, dy = dx/d, dy/d
				tx, ty := bx-float64(dx*(r+float64(2*u))), by-float64(dy*(r+float64(2*u))) // tip, just outside the node
				l, s := 6*u, 3.5*u
				ac := withAlpha(EdgeColor, 1)
				f.Edges = append(f.Edges,
					Segment{tx, ty, tx - float64(dx*l) - float64(dy*s), ty - float64(dy*l) + float64(dx*s), ew * 1.2, ac},
					Segment{tx, ty, tx - float64(dx*l) + float64(dy*s), ty - float64(dy*l) - float64(dx*s), ew * 1.2, ac})
			}
		}
	}

	f.NodeR = r
	for i := range n {
		x, y := at(i)
		f.NodeAt = append(f.NodeAt, [2]float64{x, y})
	}
	lw2 := max(1, 1.3*u)
	if r < 4*u {
		lw2 = max(0.6, 0.8*u)
	}
	var keep []bool
	if m.alloc == nil && large {
		keep = m.lastPerPixel(f.W, f.H, n, at)
	}
	for i := range n {
		x, y := at(i)
		if m.hasActive && m.active[i] {
			f.Rings = append(f.Rings, Disc{X: x, Y: y, R: r + 2*u, Line: ActiveRing, LineW: 3 * u})
		}
		if m.alloc == nil && large {
			// A plain dot in the colour of its spread (no outline: half the
			// triangles).
			// Dots hidden by a later one in the same pixel are left out.
			if keep[i] {
				f.Nodes = append(f.Nodes, Disc{X: x, Y: y, R: dr, Fill: RatioColor(spreadOf(m, i))})
			}
		} else if m.alloc == nil {
			f.Nodes = append(f.Nodes, Disc{X: x, Y: y, R: r, Fill: NodeColor(i), Line: NodeLine, LineW: lw2})
		}
	}
	if m.alloc != nil {
		m.allocNodes(f, at, r, lw2, u)
	}

	// Packets travel centre to centre, eased, offset sideways by their
	// channel's lane; the two directions of a link use opposite sides.
	phase = min(1, max(0, phase))
	if math.IsNaN(phase) {
		phase = 1
	}
	rounds := float64(max(1, m.rounds))
	if m.Slow {
		rounds = float64(m.Groups())
	}
	pks := m.Packets()
	// Past HaloLimit packets the halos go: they double the triangles of a
	// crowded frame, and among so many packets they no longer separate one
	// packet from another.
	halo := max(1, 1.2*u)
	if len(pks) > HaloLimit {
		halo = 0
	}
	// Past MaxPackets a frame draws every stride-th packet, starting at an
	// offset that moves with the iteration, so that over a few frames every
	// link shows its traffic while a frame's triangles stay bounded.
	stride, offset := 1, 0
	if len(pks) > MaxPackets {
		stride = (len(pks) + MaxPackets - 1) / MaxPackets
		offset = m.iter % stride
	}
	if large && !m.Slow {
		pks = nil // the links carry the flow
	}
	for k, pk := range pks {
		if k%stride != offset {
			continue
		}
		ax, ay := at(pk.From)
		bx, by := at(pk.To)
		// The normal of the link's canonical direction (low → high index).
		lo, hi := min(pk.From, pk.To), max(pk.From, pk.To)
		lx, ly := at(lo)
		hx, hy := at(hi)
		dx, dy := hx-lx, hy-ly
		d := math.Hypot(dx, dy)
		nx, ny := 0.0, 0.0
		if d > 0 {
			nx, ny = -dy/d, dx/d
		}
		off := (float64(pk.lane) + 0.5) * lane
		if pk.From > pk.To {
			off = -off
		}
		turn := pk.Round
		if m.Slow {
			turn = pk.Group
		}
		t := float64(phase*rounds) - float64(turn)
		alpha := 1.0
		switch {
		case m.Hold && phase >= 1:
			t = 0.5 // held half-way, to be seen and inspected
		case t < 0 || t > 1:
			alpha = 0
		case t > 0.88 && !m.Slow:
			alpha = (1 - t) / 0.12 // fade out on arrival
		case t > 0.94:
			alpha = (1 - t) / 0.06 // slow motion: stays until nearly there
		}
		t = min(1, max(0, t))
		e := t * t * (3 - 2*t)
		x := ax + float64((bx-ax)*e) + float64(nx*off)
		y := ay + float64((by-ay)*e) + float64(ny*off)
		c := RatioColor(pk.Ratio)
		pd := Disc{
			X: x, Y: y, R: pr * RatioSize(pk.Ratio),
			Fill: withAlpha(c, alpha), Line: withAlpha(PacketHalo, alpha), LineW: halo,
		}
		if pk.Pull {
			// Pulled: a ring in the ratio's colour around a white core.
			pd.Fill, pd.Line, pd.LineW = withAlpha(PanelFill, alpha), withAlpha(c, alpha), max(1.5, 0.45*pd.R)
			pd.R *= 0.75
		}
		f.Packets = append(f.Packets, pd)
		f.PacketOf = append(f.PacketOf, k)
		if alpha > 0 {
			f.InFlight++
		}
	}
}

// legendRatios are the ratios the legend marks and numbers.
var legendRatios = []float64{0.01, 0.1, 1, 10, 100}

// legendLabels numbers the legend's ticks under the ramp (the ends as
// ≤ and ≥: the ramp is clamped there) and names what it measures beside
// it, where there is room: a classroom reads the picture without the
// page's key. A short ramp keeps its ends and 1 only; a very short one
// keeps none.
func (m *Model) legendLabels(f *Frame, room, u float64) {
	l := f.Legend
	if l.W < 70*u {
		return
	}
	tl := max(3, 0.5*l.H)
	y := l.Y + l.H + 1 + tl + u
	fs := min(10.5*u, room-tl-2*u)
	if fs < 7*u {
		return
	}
	for i, t := range l.Ticks {
		if l.W < 150*u && i%2 == 1 {
			continue
		}
		text, align := fmtRatio(t.Ratio), "center"
		switch i {
		case 0:
			text, align = "≤"+text, "left"
		case len(l.Ticks) - 1:
			text, align = "≥"+text, "right"
		}
		f.Labels = append(f.Labels, Label{X: t.X, Y: y, Text: text, Align: align, Valign: "top", Size: fs, Class: "legend"})
	}
	caption := "noise ÷ signal"
	if m.Large() && m.alloc == nil {
		caption = "links: noise ÷ signal · dots: spread ÷ median"
	}
	x := l.X + l.W + float64(8*u)
	p := f.NetPanel
	if p.X+p.W-x >= float64(float64(len([]rune(caption)))*0.55*fs)+float64(4*u) {
		f.Labels = append(f.Labels, Label{X: x, Y: l.Y + float64(l.H/2), Text: caption, Align: "left", Valign: "middle", Size: fs, Class: "legend"})
	}
}

// fmtRatio writes a legend ratio as people read it (0.01, 0.1, 1, 10, 100).
func fmtRatio(r float64) string { return strconv.FormatFloat(r, 'f', -1, 64) }

// HaloLimit is the number of packets above which they are drawn without
// their halos.
const HaloLimit = 800

// MaxPackets bounds the packets one frame draws.
const MaxPackets = 1200

// LargeN is the number of agents above which the network is drawn as a
// flow picture: no packets (unless in slow motion), each link coloured by
// the noise ÷ signal of its latest messages and faded, each node a plain
// dot coloured by its distance to the agents' mean estimate relative to
// the median distance (the page labels that scale), the plane without
// trails. It keeps a 5,000-node ring readable and its frames cheap.
const LargeN = 400

// Large reports whether the model draws its network as a flow picture
// (more than LargeN agents).
func (m *Model) Large() bool { return m.g.N > LargeN }

// spread returns each agent's distance to the mean estimate divided by
// the median distance (1 for every agent when they all agree), for the
// large picture's node colours.
func (m *Model) spread() []float64 {
	n, d := m.g.N, m.dim
	out := m.spreadBuf[:0]
	if d <= 0 || len(m.est) < n*d {
		for range n {
			out = append(out, 1)
		}
		m.spreadBuf = out
		return out
	}
	mean := make([]float64, d)
	for i := range n {
		for k := range d {
			mean[k] += m.est[i*d+k] / float64(n)
		}
	}
	for i := range n {
		ss := 0.0
		for k := range d {
			v := m.est[i*d+k] - mean[k]
			ss += float64(v * v)
		}
		out = append(out, math.Sqrt(ss))
	}
	m.spreadBuf = out
	sorted := append(m.spreadSort[:0], out...)
	m.spreadSort = sorted
	slices.Sort(sorted)
	med := sorted[len(sorted)/2]
	for i := range out {
		switch {
		case med > 0 && !math.IsInf(med, 0):
			out[i] /= med
		default:
			out[i] = 1
		}
	}
	return out
}

// planeView fills the plane panel: the plotting square, its grid, the
// targets, the optimum, and the agents' estimates with their trails.
func (m *Model) planeView(f *Frame, u float64) {
	p := f.PlanePanel
	pad := min(14*u, 0.08*min(p.W, p.H))
	side := max(1, min(p.W, p.H)-2*pad)
	box := Rect{p.X + float64((p.W-side)/2), p.Y + float64((p.H-side)/2), side, side}
	f.PlaneBox = box

	// The window: the targets and the optimum with some room, grown to
	// take in the recent estimates, but at most 4× as large, square.
	pl := m.plane
	c, half := m.centre, m.planeHalf
	if !(half > 0) || math.IsInf(half, 0) {
		half = max(1, 0.1*math.Max(math.Abs(c[0]), math.Abs(c[1])))
	}
	half = max(half, 1e-9*math.Max(math.Abs(c[0]), math.Abs(c[1])))
	base := half
	n := m.g.N
	for k := range m.trailCount {
		half = max(half, 1.08*m.trailExt[k]) // the row's largest offset (Record)
	}
	half = min(half, 4*base)
	// Snap the window to the grid step, so grid lines meet the box
	// evenly, and keep it square.
	step := niceStep(2 * half / 5)
	v := View{c[0] - half, c[1] - half, c[0] + half, c[1] + half}
	if step > 0 && step < half {
		v = View{
			float64(math.Floor(v.X0/step) * step), float64(math.Floor(v.Y0/step) * step),
			float64(math.Ceil(v.X1/step) * step), float64(math.Ceil(v.Y1/step) * step),
		}
		wx, wy := v.X1-v.X0, v.Y1-v.Y0
		if wx < wy {
			v.X0 -= float64(math.Floor(float64((wy-wx)/step/2)+1e-9) * step)
			v.X1 = v.X0 + wy
		} else {
			v.Y0 -= float64(math.Floor(float64((wx-wy)/step/2)+1e-9) * step)
			v.Y1 = v.Y0 + wx
		}
	}
	f.View = v
	to := func(q [2]float64) (float64, float64) {
		x := box.X + float64((q[0]-v.X0)/(v.X1-v.X0)*box.W)
		y := box.Y + box.H - float64((q[1]-v.Y0)/(v.Y1-v.Y0)*box.H)
		if math.IsNaN(x) || math.IsNaN(y) {
			return box.X + float64(box.W/2), box.Y + float64(box.H/2)
		}
		return min(box.X+box.W, max(box.X, x)), min(box.Y+box.H, max(box.Y, y))
	}

	// Grid lines at the step, the axes through 0, and the box.
	gw := max(1, u)
	near := float64(4 * u) // grid lines this close to the box are left out
	for k, g := 0, math.Ceil(v.X0/step)*step; g <= v.X1 && step > 0 && k < 40; k, g = k+1, g+step {
		if x, _ := to([2]float64{g, v.Y0}); x > box.X+near && x < box.X+box.W-near {
			f.Grid = append(f.Grid, Segment{x, box.Y, x, box.Y + box.H, gw, GridColor})
		}
	}
	for k, g := 0, math.Ceil(v.Y0/step)*step; g <= v.Y1 && step > 0 && k < 40; k, g = k+1, g+step {
		if _, y := to([2]float64{v.X0, g}); y > box.Y+near && y < box.Y+box.H-near {
			f.Grid = append(f.Grid, Segment{box.X, y, box.X + box.W, y, gw, GridColor})
		}
	}
	ax, ay := to([2]float64{0, 0})
	if v.X0 < 0 && v.X1 > 0 && ax > box.X+near && ax < box.X+box.W-near {
		f.Grid = append(f.Grid, Segment{ax, box.Y, ax, box.Y + box.H, gw, AxisColor})
	}
	if v.Y0 < 0 && v.Y1 > 0 && ay > box.Y+near && ay < box.Y+box.H-near {
		f.Grid = append(f.Grid, Segment{box.X, ay, box.X + box.W, ay, gw, AxisColor})
	}
	bw := max(1, 1.2*u)
	x0, y0, x1, y1 := box.X+float64(bw/2), box.Y+float64(bw/2), box.X+box.W-float64(bw/2), box.Y+box.H-float64(bw/2)
	f.Grid = append(f.Grid,
		Segment{x0 - float64(bw/2), y0, x1 + float64(bw/2), y0, bw, AxisColor},
		Segment{x0 - float64(bw/2), y1, x1 + float64(bw/2), y1, bw, AxisColor},
		Segment{x0, y0, x0, y1, bw, AxisColor},
		Segment{x1, y0, x1, y1, bw, AxisColor})

	cs, cw := float64(4.5*u), max(1, 1.6*u)
	large := m.Large()
	var keep []bool
	if large {
		// Targets are dots of one colour: one per pixel draws the same.
		keep = m.lastPerPixel(f.W, f.H, len(pl.Targets), func(i int) (float64, float64) {
			if !finite2(pl.Targets[i]) {
				return -1, -1
			}
			return to(pl.Targets[i])
		})
	}
	for k, t := range pl.Targets {
		if !finite2(t) {
			continue
		}
		x, y := to(t)
		if large {
			if !keep[k] {
				continue
			}
			f.Targets = append(f.Targets, Segment{x - cw, y, x + cw, y, 2 * cw, TargetInk}) // a dot
			continue
		}
		f.Targets = append(f.Targets,
			Segment{x - cs, y - cs, x + cs, y + cs, cw, TargetInk},
			Segment{x - cs, y + cs, x + cs, y - cs, cw, TargetInk})
	}

	// Trails, oldest first, fading in towards the newest point; shorter
	// when there are many agents (about MaxTrailSegments in all).
	tw := max(1, 1.4*u)
	tl := min(m.trailCount, max(4, MaxTrailSegments/max(n, 1)+1))
	if tl > 1 && !large {
		for i := range n {
			col := NodeColor(i)
			var px, py float64
			first := true
			for a := range tl {
				row := (m.trailHead - tl + a + TrailLen) % TrailLen
				q := m.trail[row*n+i]
				if !finite2(q) {
					continue
				}
				x, y := to(q)
				if !first {
					age := float64(a) / float64(tl-1)
					f.Trails = append(f.Trails, Segment{px, py, x, y, tw, withAlpha(col, 0.05+float64(0.55*age))})
				}
				px, py, first = x, y, false
			}
		}
	}

	if pl.HasOptimum {
		ox, oy := to(pl.Optimum)
		f.Optimum = Star{X: ox, Y: oy, R: 9 * u, Fill: OptimumInk, Line: NodeLine, LineW: max(1, 1.2*u)}
	}

	er := min(4.5*u, max(2*u, 0.02*side*math.Sqrt(8/float64(max(n, 8)))))
	if m.trailCount > 0 {
		row := (m.trailHead - 1 + TrailLen) % TrailLen
		if large {
			// Converged estimates fall on a few pixels: the last dot in
			// each is the one seen.
			keep = m.lastPerPixel(f.W, f.H, n, func(i int) (float64, float64) {
				if q := m.trail[row*n+i]; finite2(q) {
					return to(q)
				}
				return -1, -1
			})
		}
		for i := range n {
			q := m.trail[row*n+i]
			if !finite2(q) {
				continue
			}
			x, y := to(q)
			if large {
				if !keep[i] {
					continue
				}
				f.Estimates = append(f.Estimates, Disc{X: x, Y: y, R: er, Fill: RatioColor(spreadOf(m, i))})
				continue
			}
			f.Estimates = append(f.Estimates, Disc{X: x, Y: y, R: er, Fill: NodeColor(i), Line: NodeLine, LineW: max(0.8, u)})
		}
	}
}

func finite2(q [2]float64) bool {
	return !math.IsNaN(q[0]) && !math.IsNaN(q[1]) && !math.IsInf(q[0], 0) && !math.IsInf(q[1], 0)
}

// niceStep rounds x > 0 to a nearby number of the form 1, 2 or 5 × 10^k.
func niceStep(x float64) float64 {
	if !(x > 0) || math.IsInf(x, 0) {
		return 0
	}
	e := math.Pow(10, math.Floor(math.Log10(x)))
	switch f := x / e; {
	case f < 1.5:
		return e
	case f < 3.5:
		return 2 * e
	case f < 7.5:
		return 5 * e
	default:
		return 10 * e
	}
}

// spreadOf returns agent i's relative spread for this frame (computed
// once per frame by senderRatios' caller, network).
func spreadOf(m *Model, i int) float64 {
	if i < len(m.spreadBuf) {
		return m.spreadBuf[i]
	}
	return 1
}

// senderRatios returns, per agent, the largest noise ÷ signal of the
// latest step's releases it sent, −1 for an agent that sent none; it also
// refreshes the spread of the estimates (the large picture's colours).
func (m *Model) senderRatios() []float64 {
	m.spread()
	out := m.flowBuf[:0]
	for range m.g.N {
		out = append(out, -1)
	}
	for _, r := range m.rels {
		out[r.from] = max(out[r.from], r.ratio)
	}
	m.flowBuf = out
	return out
}

// bounds returns the box around the targets and the optimum (infinite
// and empty when there are none).
func (pl *Plane) bounds() (lo, hi [2]float64) {
	lo, hi = [2]float64{math.Inf(1), math.Inf(1)}, [2]float64{math.Inf(-1), math.Inf(-1)}
	if pl.HasOptimum {
		lo, hi = pl.Optimum, pl.Optimum
	}
	for _, t := range pl.Targets {
		if finite2(t) {
			lo = [2]float64{min(lo[0], t[0]), min(lo[1], t[1])}
			hi = [2]float64{max(hi[0], t[0]), max(hi[1], t[1])}
		}
	}
	return lo, hi
}

// centre is the plane view's centre: the middle of the targets and the
// optimum, or the origin when there are none.
func (pl *Plane) centre() [2]float64 {
	lo, hi := pl.bounds()
	c := [2]float64{(lo[0] + hi[0]) / 2, (lo[1] + hi[1]) / 2}
	if !finite2(c) {
		c = [2]float64{0, 0}
	}
	return c
}

// halfWidth is half the side of the square around the targets and the
// optimum, with 20 % of room (before the estimates widen it).
func (pl *Plane) halfWidth() float64 {
	lo, hi := pl.bounds()
	return max(hi[0]-lo[0], hi[1]-lo[1]) / 2 * 1.2
}

// lastPerPixel returns, for n dots drawn in order at xy(i) on a w×h
// canvas, whether each is the last one centred in its canvas pixel: the
// large picture draws only those, since a later dot of the same size
// in the same pixel covers an earlier one up to a pixel's sliver. A ring
// of 5,000 agents puts four or five in a pixel; a rendezvous's converged
// estimates, thousands. The result is reused by the next call.
func (m *Model) lastPerPixel(w, h, n int, xy func(int) (float64, float64)) []bool {
	if len(m.pixStamp) != w*h {
		m.pixStamp, m.pixGen = make([]uint32, w*h), 0
	}
	m.pixGen++
	if m.pixGen == 0 { // wrapped: old stamps could match
		clear(m.pixStamp)
		m.pixGen = 1
	}
	keep := m.keep[:0]
	for range n {
		keep = append(keep, true)
	}
	m.keep = keep
	for i := n - 1; i >= 0; i-- {
		x, y := xy(i)
		if !(x >= 0 && y >= 0 && x < float64(w) && y < float64(h)) {
			continue // off the canvas or NaN: drawn as it is
		}
		c := int(y)*w + int(x)
		if m.pixStamp[c] == m.pixGen {
			keep[i] = false
			continue
		}
		m.pixStamp[c] = m.pixGen
	}
	return keep
}

// hidden reports whether a segment of length l and width w lies wholly
// inside the dots at its two ends (discs of radius r, or squares of
// half-side r: every point of the segment is within √((l/2)² + (w/2)²)
// of the nearer end): the large picture leaves such links out.
func hidden(l, w, r float64) bool {
	return float64((l/2)*(l/2))+float64((w/2)*(w/2)) <= r*r
}
