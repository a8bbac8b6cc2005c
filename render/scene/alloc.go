package scene

import (
	"fmt"
	"image/color"
	"math"
	"strings"
)

// Allocation is the extra data of a resource-allocation problem (economic
// dispatch): which agents allocate (generators) and which only consume
// (loads), every agent's optimal allocation, capacity and demand, and the
// optimal price. With it the network draws generators as squares and
// loads as discs, labelled with their output and optimum or their demand,
// and a panel shows the supply–demand gauge, each generator's output
// against its optimum, and every agent's price converging to λ*.
type Allocation struct {
	Generator []bool
	Optimum   []float64 // w_i*
	Capacity  []float64 // the top of each generator's range (0 for loads)
	Demand    []float64
	Price     float64 // λ*
	Names     []string
	// Unit labels the quantities, e.g. "MW"; may be empty.
	Unit string
}

// PriceLen is the number of recorded iterations the price plot keeps.
const PriceLen = 240

// Box is a filled rectangle with an optional outline of width LineW
// drawn inside it.
type Box struct {
	Rect
	Fill  color.RGBA
	Line  color.RGBA
	LineW float64
}

// Label is one text label over the canvas, in canvas pixels. The scene
// only places labels; the page writes them (crisp text in the user's
// font, readable by screen readers). Align is "left", "center" or
// "right" about X; Valign "top", "middle" or "bottom" about Y; Size is the
// font size in canvas pixels; Class names the kind of label for styling
// ("name", "value", "muted", "title", "good", "warn").
type Label struct {
	X, Y   float64
	Text   string
	Align  string
	Valign string
	Size   float64
	Class  string
}

// Colours of the allocation view.
var (
	LoadFill   = color.RGBA{0xdc, 0xe1, 0xea, 0xff}
	LoadLine   = color.RGBA{0x8a, 0x93, 0xa6, 0xff}
	TrackFill  = color.RGBA{0xee, 0xf1, 0xf6, 0xff}
	SupplyOK   = color.RGBA{0x2f, 0x9e, 0x6f, 0xff}
	SupplyOff  = color.RGBA{0xd9, 0x8a, 0x1c, 0xff}
	DemandInk  = color.RGBA{0x2b, 0x30, 0x3b, 0xff}
	OptimumTic = color.RGBA{0x2b, 0x30, 0x3b, 0xff}
	PriceLoad  = color.RGBA{0xa7, 0xb0, 0xc2, 0xff}
)

// SetAllocation makes the model draw a resource-allocation problem (nil:
// none). Call it before recording.
func (m *Model) SetAllocation(a *Allocation) {
	m.alloc = a
	m.priceHist = nil
	m.priceHead, m.priceCount = 0, 0
	if a != nil {
		m.priceHist = make([]float64, PriceLen*m.g.N)
	}
}

// Allocation returns the allocation data, nil for other problems.
func (m *Model) Allocation() *Allocation { return m.alloc }

// Prices returns the latest recorded prices, agent-major (nil when the
// algorithm reports none). The slice must not be modified.
func (m *Model) Prices() []float64 { return m.prices }

// recordPrices keeps the step's prices and, for the allocation view, one
// row of the price history.
func (m *Model) recordPrices(prices []float64, dim int) {
	m.prices = append(m.prices[:0], prices...)
	if m.alloc == nil {
		return
	}
	n := m.g.N
	row := m.priceHist[m.priceHead*n : (m.priceHead+1)*n]
	for i := range row {
		row[i] = math.NaN()
		if dim > 0 && (i+1)*dim <= len(prices) {
			row[i] = prices[i*dim]
		}
	}
	m.priceHead = (m.priceHead + 1) % PriceLen
	m.priceCount = min(m.priceCount+1, PriceLen)
}

// fmtVal writes a quantity with four significant digits, or "—".
func fmtVal(v float64) string {
	switch {
	case math.IsNaN(v):
		return "—"
	case math.IsInf(v, 0):
		return "∞"
	case v == 0:
		return "0"
	case math.Abs(v) >= 1e5 || math.Abs(v) < 1e-3:
		return fmt.Sprintf("%.3g", v)
	}
	return fmt.Sprintf("%.4g", v)
}

// nodeFont is the size of the node labels of the allocation view.
func nodeFont(u float64) float64 { return 10.5 * u }

// labelInset is the room the layout leaves around the nodes for their
// labels (one line, about 12 characters): none without allocation.
func (m *Model) labelInset(u float64) float64 {
	if m.alloc == nil {
		return 0
	}
	return 2.2 * nodeFont(u)
}

// allocNodes draws the network's nodes for a resource-allocation problem:
// generators as squares in their colour, loads as pale discs, each with
// its number inside (bus k is agent k−1 when the names say "bus k") and
// one label on the side away from the centre of the layout: output and
// optimum "w / w*" for a generator, the demand for a load.
func (m *Model) allocNodes(f *Frame, at func(int) (float64, float64), r, lw, u float64) {
	a := m.alloc
	fs := nodeFont(u)
	var cx, cy float64
	for i := range m.g.N {
		x, y := at(i)
		cx, cy = cx+x/float64(m.g.N), cy+y/float64(m.g.N)
	}
	for i := range m.g.N {
		x, y := at(i)
		gen := i < len(a.Generator) && a.Generator[i]
		name := fmt.Sprint(i)
		if i < len(a.Names) && a.Names[i] != "" {
			name = a.Names[i]
		}
		short := name
		if k := strings.LastIndexByte(name, ' '); k >= 0 {
			short = name[k+1:]
		}
		rr := float64(0.8 * r)
		var text, cls, inner string
		if gen {
			rr = float64(0.9 * r)
			f.NodeBoxes = append(f.NodeBoxes, Box{Rect{x - rr, y - rr, 2 * rr, 2 * rr}, NodeColor(i), NodeLine, lw})
			w := math.NaN()
			if m.dim > 0 && (i+1)*m.dim <= len(m.est) {
				w = m.est[i*m.dim]
			}
			text, cls, inner = fmt3(w)+" / "+fmt3(a.Optimum[i])+"*", "value", "inner-gen"
		} else {
			f.Nodes = append(f.Nodes, Disc{X: x, Y: y, R: rr, Fill: LoadFill, Line: LoadLine, LineW: lw})
			d := 0.0
			if i < len(a.Demand) {
				d = a.Demand[i]
			}
			text, cls, inner = "load "+fmt3(d), "muted", "inner-load"
		}
		if len(short) <= 3 && rr >= 0.7*fs {
			f.Labels = append(f.Labels, Label{X: x, Y: y, Text: short, Align: "center", Valign: "middle", Size: min(fs, 1.1*rr), Class: inner})
		} else {
			text = name + " " + text
		}
		dx, dy := x-cx, y-cy
		gap := rr + float64(3*u)
		l := Label{Text: text, Size: fs, Class: cls}
		switch {
		case math.Abs(dy) >= 2*math.Abs(dx) && dy >= 0: // below
			l.X, l.Y, l.Align, l.Valign = x, y+gap, "center", "top"
		case math.Abs(dy) >= 2*math.Abs(dx): // above
			l.X, l.Y, l.Align, l.Valign = x, y-gap, "center", "bottom"
		case dx >= 0: // beside, on the outer side
			l.X, l.Y, l.Align, l.Valign = x+gap, y, "left", "middle"
		default:
			l.X, l.Y, l.Align, l.Valign = x-gap, y, "right", "middle"
		}
		f.Labels = append(f.Labels, l)
	}
}

// allocView fills the allocation panel: the supply–demand gauge at the
// top, each generator's output against its optimum, and the price plot.
func (m *Model) allocView(f *Frame, u float64) {
	a := m.alloc
	p := f.AllocPanel
	pad := min(14*u, 0.06*min(p.W, p.H))
	x0, w := p.X+pad, p.W-2*pad
	fs := min(12*u, max(8*u, 0.035*p.H))
	lh := float64(1.35 * fs)
	y := p.Y + pad
	n := m.g.N
	unit := ""
	if a.Unit != "" {
		unit = " " + a.Unit
	}

	// Gauge: total generation against total demand, on 0 … 1.25·demand.
	gen, dem := 0.0, 0.0
	for i := range n {
		if i < len(a.Demand) {
			dem += a.Demand[i]
		}
		if i < len(a.Generator) && a.Generator[i] && m.dim > 0 && (i+1)*m.dim <= len(m.est) {
			gen += m.est[i*m.dim]
		}
	}
	f.Labels = append(f.Labels, Label{X: x0, Y: y, Text: "Supply and demand", Align: "left", Valign: "top", Size: fs, Class: "title"})
	y += lh
	top := math.Max(1.25*math.Abs(dem), 1)
	scale := func(v float64) float64 { return x0 + float64(w*min(1, max(0, v/top))) }
	bh := max(8*u, 1.3*fs)
	f.AllocBoxes = append(f.AllocBoxes, Box{Rect{x0, y, w, bh}, TrackFill, PanelLine, max(1, u)})
	gap := gen - dem
	fill := SupplyOK
	if math.Abs(gap) > 0.01*math.Max(math.Abs(dem), 1) || math.IsNaN(gap) {
		fill = SupplyOff
	}
	if gw := scale(gen) - x0; gw > 0 {
		f.AllocBoxes = append(f.AllocBoxes, Box{Rect: Rect{x0, y, gw, bh}, Fill: fill})
	}
	dx := scale(dem)
	f.AllocLines = append(f.AllocLines, Segment{dx, y - float64(3*u), dx, y + bh + float64(3*u), max(2, 2*u), DemandInk})
	y += bh + float64(3*u)
	class := "good"
	if fill == SupplyOff {
		class = "warn"
	}
	f.Labels = append(f.Labels,
		Label{X: x0, Y: y, Text: "generation Σw = " + fmtVal(gen) + unit, Align: "left", Valign: "top", Size: fs, Class: class},
		Label{X: x0, Y: y + lh, Text: "demand Σd = " + fmtVal(dem) + unit + " (gap " + signed(gap) + ")", Align: "left", Valign: "top", Size: fs, Class: "value"})
	y += float64(2*lh) + float64(0.6*lh)

	// Generators: output bar (to its capacity), a tick at the optimum.
	var gens []int
	for i := range n {
		if i < len(a.Generator) && a.Generator[i] {
			gens = append(gens, i)
		}
	}
	f.Labels = append(f.Labels, Label{X: x0, Y: y, Text: "Output (bar), optimum (tick)" + unitParen(a.Unit), Align: "left", Valign: "top", Size: fs, Class: "title"})
	y += lh
	nameW := float64(3.6 * fs)
	valW := float64(7.6 * fs)
	rowH := min(float64(1.6*fs)+float64(4*u), max(fs, (p.Y+float64(p.H*0.56)-y)/math.Max(1, float64(len(gens)))))
	for _, i := range gens {
		name := fmt.Sprint(i)
		if i < len(a.Names) && a.Names[i] != "" {
			name = a.Names[i]
		}
		cap := a.Capacity[i]
		if !(cap > 0) {
			cap = math.Max(1, 1.5*math.Abs(a.Optimum[i]))
		}
		bx, bw := x0+nameW, w-nameW-valW
		hh := float64(0.7 * rowH)
		by := y + float64((rowH-hh)/2)
		f.AllocBoxes = append(f.AllocBoxes, Box{Rect{bx, by, bw, hh}, TrackFill, PanelLine, max(1, u)})
		wi := math.NaN()
		if m.dim > 0 && (i+1)*m.dim <= len(m.est) {
			wi = m.est[i*m.dim]
		}
		if fw := bw * min(1, max(0, wi/cap)); fw > 0 {
			f.AllocBoxes = append(f.AllocBoxes, Box{Rect: Rect{bx, by, fw, hh}, Fill: NodeColor(i)})
		}
		tx := bx + float64(bw*min(1, max(0, a.Optimum[i]/cap)))
		f.AllocLines = append(f.AllocLines, Segment{tx, by - float64(2*u), tx, by + hh + float64(2*u), max(2, 2*u), OptimumTic})
		f.Labels = append(f.Labels,
			Label{X: x0, Y: y + float64(rowH/2), Text: name, Align: "left", Valign: "middle", Size: fs, Class: "name"},
			Label{X: x0 + w, Y: y + float64(rowH/2), Text: fmtVal(wi) + " / " + fmtVal(a.Optimum[i]), Align: "right", Valign: "middle", Size: fs, Class: "value"})
		y += rowH
	}
	y += float64(0.6 * lh)

	// Prices: every agent's price over the recorded iterations kept, with
	// λ*; the window zooms to the recent range, so the spread around λ*
	// stays visible as it shrinks.
	f.Labels = append(f.Labels, Label{X: x0, Y: y, Text: "Prices w̃_i → λ* = " + fmtVal(a.Price) + " (line)", Align: "left", Valign: "top", Size: fs, Class: "title"})
	y += lh
	box := Rect{x0 + float64(3.2*fs), y, w - float64(3.2*fs), p.Y + p.H - pad - y - lh}
	if box.H < 2*fs || box.W < 2*fs {
		return
	}
	f.AllocBoxes = append(f.AllocBoxes, Box{box, PanelFill, PanelLine, max(1, u)})
	lo, hi := a.Price, a.Price
	for k := range m.priceCount {
		for _, v := range m.priceHist[k*n : (k+1)*n] {
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	span := hi - lo
	if !(span > 0) {
		span = math.Max(1e-6, 1e-3*math.Abs(a.Price))
	}
	lo, hi = lo-float64(0.08*span), hi+float64(0.08*span)
	yOf := func(v float64) float64 {
		t := (v - lo) / (hi - lo)
		return box.Y + box.H - float64(box.H*min(1, max(0, t)))
	}
	cnt := m.priceCount
	xOf := func(k int) float64 { // k-th oldest kept row
		return box.X + box.W*float64(k)/float64(max(1, PriceLen-1))
	}
	ly := yOf(a.Price)
	f.AllocLines = append(f.AllocLines, Segment{box.X, ly, box.X + box.W, ly, max(2, 2*u), OptimumInk})
	f.Labels = append(f.Labels, Label{X: box.X + box.W - float64(3*u), Y: ly - float64(2*u), Text: "λ*", Align: "right", Valign: "bottom", Size: fs, Class: "name"})
	lwp := max(1, 1.2*u)
	// Loads first, generators over them.
	for pass := range 2 {
		for i := range n {
			gen := i < len(a.Generator) && a.Generator[i]
			if gen != (pass == 1) {
				continue
			}
			col := PriceLoad
			if gen {
				col = NodeColor(i)
			}
			var px, py float64
			first := true
			for k := range cnt {
				row := (m.priceHead - cnt + k + PriceLen) % PriceLen
				v := m.priceHist[row*n+i]
				if math.IsNaN(v) || math.IsInf(v, 0) {
					first = true
					continue
				}
				x, yy := xOf(k), yOf(v)
				if !first {
					f.AllocLines = append(f.AllocLines, Segment{px, py, x, yy, lwp, col})
				}
				px, py, first = x, yy, false
			}
		}
	}
	f.Labels = append(f.Labels,
		Label{X: box.X - float64(4*u), Y: box.Y, Text: fmtVal(hi), Align: "right", Valign: "top", Size: 0.9 * fs, Class: "muted"},
		Label{X: box.X - float64(4*u), Y: box.Y + box.H, Text: fmtVal(lo), Align: "right", Valign: "bottom", Size: 0.9 * fs, Class: "muted"},
		Label{X: box.X + box.W, Y: box.Y + box.H + 2*u, Text: fmt.Sprintf("last %d recorded iterations → %d", PriceLen, m.iter), Align: "right", Valign: "top", Size: 0.9 * fs, Class: "muted"})
}

// fmt3 writes a quantity with three significant digits (node labels are
// small; the panel gives four).
func fmt3(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) || v == 0 || math.Abs(v) >= 1e5 || math.Abs(v) < 1e-3 {
		return fmtVal(v)
	}
	return fmt.Sprintf("%.3g", v)
}

// signed writes v with its sign.
func signed(v float64) string {
	if v > 0 {
		return "+" + fmtVal(v)
	}
	return fmtVal(v)
}

// unitParen writes " (MW)" for unit "MW", nothing for none.
func unitParen(unit string) string {
	if unit == "" {
		return ""
	}
	return ", " + unit
}

// PriceRows returns the number of recorded iterations the price plot
// holds (at most PriceLen; a reset starts it again).
func (m *Model) PriceRows() int { return m.priceCount }
