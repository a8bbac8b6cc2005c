package scene

import (
	"image/color"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"dpsim/core/graph"
	"dpsim/core/sim"
)

func TestRatio(t *testing.T) {
	for _, c := range []struct {
		name           string
		payload, noise []float64
		want           float64
	}{
		{"no noise slice", []float64{1, 2}, nil, 0},
		{"zero noise", []float64{1, 2}, []float64{0, 0}, 0},
		{"zero noise zero signal", []float64{0, 0}, []float64{0, 0}, 0},
		{"zero signal", []float64{0.5, -1}, []float64{0.5, -1}, RatioCap},
		{"tenth", []float64{3.3, 4.4}, []float64{0.3, 0.4}, 0.1},
		{"equal", []float64{6, 8}, []float64{3, 4}, 1},
		{"longer payload", []float64{3.3, 4.4, 12}, []float64{0.3, 0.4}, 0.5 / 13},
		{"huge but finite", []float64{2e300, 0}, []float64{1e300, 0}, 1},
		{"tiny", []float64{2e-300, 0}, []float64{1e-300, 0}, 1},
		{"large ratio capped", []float64{1e9 + 1e-6, 0}, []float64{1e9, 0}, RatioCap},
		{"inf noise", []float64{math.Inf(1), 0}, []float64{math.Inf(1), 0}, RatioCap},
		{"nan", []float64{math.NaN(), 1}, []float64{1, 1}, RatioCap},
	} {
		got := Ratio(c.payload, c.noise)
		if math.Abs(got-c.want) > 1e-9*math.Max(1, c.want) {
			t.Errorf("%s: Ratio = %v, want %v", c.name, got, c.want)
		}
	}
}

func ring(t *testing.T, n int) *graph.Graph {
	t.Helper()
	g, err := graph.Ring(n)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func planeFor(n int) *Plane {
	p := &Plane{Optimum: [2]float64{0.2, -0.1}, HasOptimum: true}
	for i := range n {
		a := 2 * math.Pi * float64(i) / float64(n)
		p.Targets = append(p.Targets, [2]float64{math.Cos(a), math.Sin(a)})
	}
	return p
}

// link is a release with one receiver.
func link(from, to int, ch string, round int, sent, noise []float64) sim.Release {
	return sim.Release{From: from, Channel: ch, Round: round, Sent: sent, Noise: noise, To: []int{to}}
}

// stepFor makes a 2-D step on a ring of n: every agent sends channel "x"
// to both neighbours, and channel "s" to the next one.
func stepFor(n, iter int) *sim.Step {
	s := &sim.Step{Iter: iter, Dim: 2, Estimates: make([]float64, 2*n)}
	for i := range n {
		s.Estimates[2*i] = math.Cos(float64(i+iter)) * 1.5
		s.Estimates[2*i+1] = math.Sin(float64(i + iter))
		for _, j := range []int{(i + 1) % n, (i + n - 1) % n} {
			s.Releases = append(s.Releases, link(i, j, "x", 0, []float64{1 + float64(0.1*float64(i)), 2}, []float64{0.1 * float64(i), 0}))
		}
		s.Releases = append(s.Releases, link(i, (i+1)%n, "s", 0, []float64{5, 5}, []float64{4, 4}))
	}
	return s
}

func TestRecordCopies(t *testing.T) {
	const n = 6
	m := NewModel(ring(t, n), planeFor(n))
	s := stepFor(n, 1)
	m.Record(s)
	f := m.Frame(0.5, 800, 500)
	est := append([]Disc(nil), f.Estimates...)
	pk := append([]Disc(nil), f.Packets...)
	_, data := m.Estimates()
	data0 := append([]float64(nil), data...)
	packets := append([]Packet(nil), m.Packets()...)

	// The algorithm reuses its buffers.
	for i := range s.Estimates {
		s.Estimates[i] = 1e6
	}
	for k := range s.Releases {
		s.Releases[k].Sent[0] = 77
		s.Releases[k].Noise[0] = 99
		s.Releases[k].From, s.Releases[k].To[0] = 0, 1
	}
	s.Releases = s.Releases[:1]

	_, data = m.Estimates()
	for i := range data0 {
		if data[i] != data0[i] {
			t.Fatalf("estimate %d changed from %v to %v", i, data0[i], data[i])
		}
	}
	if len(m.Packets()) != len(packets) {
		t.Fatalf("packets %d, want %d", len(m.Packets()), len(packets))
	}
	for k, p := range m.Packets() {
		if p != packets[k] {
			t.Fatalf("packet %d changed: %+v → %+v", k, packets[k], p)
		}
	}
	f = m.Frame(0.5, 800, 500)
	for i := range est {
		if f.Estimates[i] != est[i] {
			t.Fatalf("estimate disc %d moved", i)
		}
	}
	for i := range pk {
		if f.Packets[i] != pk[i] {
			t.Fatalf("packet disc %d moved", i)
		}
	}
	if len(packets) != 3*n {
		t.Errorf("%d packets, want %d", len(packets), 3*n)
	}
	if got := packets[2]; got.Channel != "s" || got.Ratio != 4.0/1 {
		t.Errorf("third packet %+v, want channel s ratio 4", got)
	}
	if ch := m.Channels(); len(ch) != 2 || ch[0] != "x" || ch[1] != "s" {
		t.Errorf("channels %v", ch)
	}
}

func TestTrailRing(t *testing.T) {
	const n = 3
	m := NewModel(ring(t, n), planeFor(n))
	for it := range TrailLen + 15 {
		m.Record(stepFor(n, it))
	}
	f := m.Frame(0, 600, 400)
	if got, want := len(f.Trails), n*(TrailLen-1); got != want {
		t.Errorf("%d trail segments, want %d", got, want)
	}
	// The newest trail segment of agent 0 ends at its estimate dot.
	last := f.Trails[TrailLen-2]
	if e := f.Estimates[0]; math.Abs(last.X1-e.X) > 1e-9 || math.Abs(last.Y1-e.Y) > 1e-9 {
		t.Errorf("trail ends at (%v, %v), estimate at (%v, %v)", last.X1, last.Y1, e.X, e.Y)
	}
	if !(f.Trails[0].Color.A < last.Color.A) {
		t.Errorf("trail does not fade: oldest alpha %d, newest %d", f.Trails[0].Color.A, last.Color.A)
	}
	// A reset (Iter going back) clears the trail.
	m.Record(stepFor(n, 0))
	if f = m.Frame(0, 600, 400); len(f.Trails) != 0 {
		t.Errorf("%d trail segments after a reset", len(f.Trails))
	}
}

func checkFrameInside(t *testing.T, name string, f *Frame) {
	t.Helper()
	canvas := Rect{0, 0, float64(f.W), float64(f.H)}
	inDisc := func(r Rect, d Disc, what string, i int) {
		t.Helper()
		e := d.R + d.LineW
		if !r.Contains(d.X-e, d.Y-e) || !r.Contains(d.X+e, d.Y+e) {
			t.Errorf("%s %dx%d: %s %d at (%.1f, %.1f) r %.1f leaves %+v", name, f.W, f.H, what, i, d.X, d.Y, e, r)
		}
	}
	for _, r := range []Rect{f.NetPanel, f.PlanePanel, f.Legend.Rect} {
		if r.W > 0 && (!canvas.Contains(r.X, r.Y) || !canvas.Contains(r.X+r.W, r.Y+r.H)) {
			t.Errorf("%s %dx%d: rect %+v leaves the canvas", name, f.W, f.H, r)
		}
	}
	for i, d := range f.Nodes {
		inDisc(f.NetPanel, d, "node", i)
	}
	for i, d := range f.Packets {
		inDisc(f.NetPanel, d, "packet", i)
	}
	if !f.NetPanel.Contains(f.Legend.X, f.Legend.Y) || !f.NetPanel.Contains(f.Legend.X+f.Legend.W, f.Legend.Y+f.Legend.H) {
		t.Errorf("%s %dx%d: legend %+v leaves the network panel", name, f.W, f.H, f.Legend.Rect)
	}
	for i, s := range f.Edges {
		if !f.NetPanel.Contains(s.X0, s.Y0) || !f.NetPanel.Contains(s.X1, s.Y1) {
			t.Errorf("%s: edge %d leaves the panel", name, i)
		}
	}
	if !f.HasPlane {
		return
	}
	if f.PlaneBox.X < f.PlanePanel.X || f.PlaneBox.X+f.PlaneBox.W > f.PlanePanel.X+f.PlanePanel.W+1e-9 {
		t.Errorf("%s: plane box %+v outside its panel %+v", name, f.PlaneBox, f.PlanePanel)
	}
	// Side by side, or stacked on a tall canvas (PortraitAspect).
	if f.PlanePanel.X < f.NetPanel.X+f.NetPanel.W && f.PlanePanel.Y < f.NetPanel.Y+f.NetPanel.H {
		t.Errorf("%s: panels overlap", name)
	}
	for _, list := range [][]Segment{f.Grid, f.Targets, f.Trails} {
		for i, s := range list {
			if !f.PlanePanel.Contains(s.X0, s.Y0) || !f.PlanePanel.Contains(s.X1, s.Y1) {
				t.Errorf("%s: plane segment %d leaves the panel", name, i)
			}
		}
	}
	for i, d := range f.Estimates {
		if !f.PlaneBox.Contains(d.X, d.Y) {
			t.Errorf("%s: estimate %d outside the plot", name, i)
		}
	}
	if f.Optimum.R > 0 && !f.PlaneBox.Contains(f.Optimum.X, f.Optimum.Y) {
		t.Errorf("%s: optimum outside the plot", name)
	}
}

func TestFrameInsideCanvas(t *testing.T) {
	rgg, err := graph.RandomGeometric(200, 0.15, 100, rand.New(rand.NewPCG(7, 8)))
	if err != nil {
		t.Fatal(err)
	}
	cmp, _ := graph.Complete(30)
	star, _ := graph.Star(12)
	path, _ := graph.Path(50)
	dir, _ := graph.New(4, edges(0, 1, 1, 2, 2, 3, 3, 0, 1, 0), true)
	sizes := [][2]int{{100, 100}, {100, 400}, {400, 100}, {160, 120}, {800, 600}, {1000, 600}, {1920, 1080}, {3000, 1200}}
	for _, c := range []struct {
		name  string
		g     *graph.Graph
		plane bool
	}{
		{"ring8", ring(t, 8), true}, {"ring8-flat", ring(t, 8), false}, {"rgg200", rgg, true},
		{"complete30", cmp, false}, {"star12", star, true}, {"path50", path, false}, {"directed", dir, true},
	} {
		var pl *Plane
		if c.plane {
			pl = planeFor(c.g.N)
		}
		for _, ratio := range []float64{1, 2} {
			m := NewModel(c.g, pl)
			m.PixelRatio = ratio
			// Messages on every link both ways, two channels, wild ratios.
			s := &sim.Step{Iter: 1, Dim: 2, Estimates: make([]float64, 2*c.g.N)}
			for i := range c.g.N {
				s.Estimates[2*i] = float64(i%5) * 3 // far outside the targets
				s.Estimates[2*i+1] = math.Inf(1)
			}
			s.Estimates[1] = -1e9
			for _, e := range c.g.Edges {
				for _, ch := range []string{"y", "z"} {
					s.Releases = append(s.Releases,
						link(e.From, e.To, ch, 0, []float64{1, 1}, []float64{1, 1}),
						link(e.To, e.From, ch, 1, []float64{1, 1}, []float64{0, 0}))
				}
			}
			m.Record(s)
			// Past MaxPackets a frame draws every stride-th packet.
			wantPk := s.Links()
			if wantPk > MaxPackets {
				stride := (wantPk + MaxPackets - 1) / MaxPackets
				wantPk = (wantPk - s.Iter%stride + stride - 1) / stride
			}
			for _, wh := range sizes {
				for _, ph := range []float64{0, 0.3, 0.5, 0.77, 1} {
					f := m.Frame(ph, wh[0], wh[1])
					checkFrameInside(t, c.name, f)
					if len(f.Nodes) != c.g.N || len(f.Packets) != wantPk || f.HasPlane != c.plane {
						t.Fatalf("%s: %d nodes, %d packets, plane %v", c.name, len(f.Nodes), len(f.Packets), f.HasPlane)
					}
				}
			}
		}
	}
}

func TestPacketTravelsSenderToReceiver(t *testing.T) {
	g := ring(t, 8)
	m := NewModel(g, nil)
	s := &sim.Step{Iter: 1, Dim: 1, Estimates: make([]float64, 8), Releases: []sim.Release{
		link(2, 3, "x", 0, []float64{1}, []float64{0.5}),
		link(3, 2, "x", 0, []float64{1}, []float64{0.5}),
		link(2, 3, "s", 0, []float64{1}, []float64{0.5}),
	}}
	m.Record(s)
	const w, h = 900, 600
	f := m.Frame(0, w, h)
	n2, n3 := f.Nodes[2], f.Nodes[3]
	edgeLen := math.Hypot(n3.X-n2.X, n3.Y-n2.Y)
	maxOff := 0.0
	check := func(ph float64, k int, at Disc, what string) {
		t.Helper()
		f := m.Frame(ph, w, h)
		p := f.Packets[k]
		d := math.Hypot(p.X-at.X, p.Y-at.Y)
		maxOff = max(maxOff, d)
		if d > 0.25*edgeLen {
			t.Errorf("phase %v packet %d is %.1f px from its %s (edge %.1f px)", ph, k, d, what, edgeLen)
		}
	}
	check(0, 0, n2, "sender")
	check(1, 0, n3, "receiver")
	check(0, 1, n3, "sender")
	check(1, 1, n2, "receiver")
	check(0, 2, n2, "sender")
	check(1, 2, n3, "receiver")
	if maxOff == 0 {
		t.Error("packets are not offset sideways")
	}

	// Half-way: the three packets are distinct; the two directions on
	// opposite sides of the link, the two channels on the same side.
	f = m.Frame(0.5, w, h)
	side := func(p Disc) float64 { return float64((n3.X-n2.X)*(p.Y-n2.Y)) - float64((n3.Y-n2.Y)*(p.X-n2.X)) }
	a, b, c := f.Packets[0], f.Packets[1], f.Packets[2]
	if side(a)*side(b) >= 0 {
		t.Errorf("the two directions are on the same side: %v %v", side(a), side(b))
	}
	if side(a)*side(c) <= 0 || math.Hypot(a.X-c.X, a.Y-c.Y) < a.R {
		t.Errorf("the two channels are not in separate lanes: %+v %+v", a, c)
	}
	// Easing: at phase ¼ the packet has gone less than ¼ of the way.
	f = m.Frame(0.25, w, h)
	p := f.Packets[0]
	along := (float64((p.X-n2.X)*(n3.X-n2.X)) + float64((p.Y-n2.Y)*(n3.Y-n2.Y))) / (edgeLen * edgeLen)
	if !(along > 0 && along < 0.25) {
		t.Errorf("at phase 0.25 the packet is %.3f of the way", along)
	}
	if f.InFlight != 3 {
		t.Errorf("InFlight %d, want 3", f.InFlight)
	}
}

func TestRoundsShareThePhase(t *testing.T) {
	m := NewModel(ring(t, 4), nil)
	m.Record(&sim.Step{Iter: 1, Dim: 1, Estimates: make([]float64, 4), Releases: []sim.Release{
		link(0, 1, "y", 0, []float64{1}, []float64{0}),
		link(1, 2, "z", 1, []float64{1}, []float64{0}),
	}})
	f := m.Frame(0.25, 600, 400)
	if f.Packets[0].Fill.A == 0 || f.Packets[1].Fill.A != 0 || f.InFlight != 1 {
		t.Errorf("phase 0.25: round 0 alpha %d, round 1 alpha %d", f.Packets[0].Fill.A, f.Packets[1].Fill.A)
	}
	f = m.Frame(0.75, 600, 400)
	if f.Packets[0].Fill.A != 0 || f.Packets[1].Fill.A == 0 || f.InFlight != 1 {
		t.Errorf("phase 0.75: round 0 alpha %d, round 1 alpha %d", f.Packets[0].Fill.A, f.Packets[1].Fill.A)
	}
}

func TestColourRampMonotone(t *testing.T) {
	prev := RatioColor(0)
	prevSize := RatioSize(0)
	for e := -4.0; e <= 4; e += 0.05 {
		r := math.Pow(10, e)
		c := RatioColor(r)
		if c.R < prev.R {
			t.Fatalf("red falls from %d to %d at ratio %g", prev.R, c.R, r)
		}
		if s := RatioSize(r); s < prevSize {
			t.Fatalf("size falls at ratio %g", r)
		}
		prev, prevSize = c, RatioSize(r)
	}
	low, mid, high := RatioColor(0.001), RatioColor(1), RatioColor(1000)
	if low != RatioColor(0) || low != RatioColor(RatioLow) || high != RatioColor(RatioCap) || high != RatioColor(math.NaN()) {
		t.Error("the ramp is not clamped at its ends")
	}
	if !(low.B > low.R && low.G > low.R) {
		t.Errorf("low ratio colour %v is not blue-green", low)
	}
	if !(mid.R > 200 && mid.G > 120 && mid.B < 80) {
		t.Errorf("ratio 1 colour %v is not amber", mid)
	}
	if !(high.R > 200 && high.G < 80) {
		t.Errorf("high ratio colour %v is not red", high)
	}
	if !(low.R < mid.R && mid.R <= high.R) {
		t.Errorf("red does not grow: %d %d %d", low.R, mid.R, high.R)
	}
	if RatioSize(RatioCap) <= RatioSize(0) {
		t.Error("size does not grow with the ratio")
	}
}

func TestMeshSpans(t *testing.T) {
	g, _ := graph.Complete(40)
	m := NewModel(g, planeFor(40))
	s := &sim.Step{Iter: 1, Dim: 2, Estimates: make([]float64, 80)}
	for _, e := range g.Edges {
		s.Releases = append(s.Releases, link(e.From, e.To, "x", 0, []float64{1, 2}, []float64{0.1, 0}))
	}
	m.Record(s)
	f := m.Frame(0.4, 1000, 600)
	for _, limit := range []int{0, 1000, 100} {
		var mesh Mesh
		mesh.MaxBatch = limit
		mesh.Build(f)
		if limit == 0 {
			limit = DefaultBatch
		}
		if len(mesh.Spans) == 0 || mesh.Spans[0].V0 != 0 || mesh.Spans[len(mesh.Spans)-1].V1 != len(mesh.Vertices) ||
			mesh.Spans[len(mesh.Spans)-1].I1 != len(mesh.Indices) {
			t.Fatalf("limit %d: spans %v do not cover the mesh", limit, mesh.Spans)
		}
		for k, sp := range mesh.Spans {
			if k > 0 && (sp.V0 != mesh.Spans[k-1].V1 || sp.I0 != mesh.Spans[k-1].I1) {
				t.Fatalf("span %d is not contiguous", k)
			}
			if sp.V1-sp.V0 > limit {
				t.Fatalf("span %d holds %d vertices, limit %d", k, sp.V1-sp.V0, limit)
			}
			if (sp.I1-sp.I0)%3 != 0 {
				t.Fatalf("span %d has %d indices", k, sp.I1-sp.I0)
			}
			for _, ix := range mesh.Indices[sp.I0:sp.I1] {
				if int(ix) >= sp.V1-sp.V0 {
					t.Fatalf("span %d: index %d out of %d vertices", k, ix, sp.V1-sp.V0)
				}
			}
		}
		for i, v := range mesh.Vertices {
			if v.X < -0.01 || v.Y < -0.01 || v.X > 1000.01 || v.Y > 600.01 || v.A < 0 || v.A > 1 || v.R > v.A+1e-6 {
				t.Fatalf("vertex %d %+v is off the canvas or not premultiplied", i, v)
			}
		}
		if limit == 100 && len(mesh.Spans) < 10 {
			t.Errorf("only %d spans at limit 100 for %d vertices", len(mesh.Spans), len(mesh.Vertices))
		}
	}
	// Reuse: a second Build with the same frame gives the same mesh.
	var a, b Mesh
	a.Build(f)
	b.Build(f)
	b.Build(f)
	if len(a.Vertices) != len(b.Vertices) || len(a.Indices) != len(b.Indices) || len(b.Spans) != 1 {
		t.Errorf("rebuilding changed the mesh: %d/%d vertices, %d spans", len(a.Vertices), len(b.Vertices), len(b.Spans))
	}
}

func BenchmarkFrameAndMesh(b *testing.B) {
	g, _ := graph.RandomGeometric(200, 0.15, 100, rand.New(rand.NewPCG(7, 8)))
	m := NewModel(g, planeFor(200))
	for it := range TrailLen {
		s := &sim.Step{Iter: it + 1, Dim: 2, Estimates: make([]float64, 400)}
		for i := range s.Estimates {
			s.Estimates[i] = math.Sin(float64(i * it))
		}
		for _, e := range g.Edges {
			s.Releases = append(s.Releases,
				link(e.From, e.To, "x", 0, []float64{1, 2}, []float64{0.1, 0}),
				link(e.To, e.From, "x", 0, []float64{1, 2}, []float64{3, 0}))
		}
		m.Record(s)
	}
	var mesh Mesh
	b.ReportAllocs()
	for b.Loop() {
		mesh.Build(m.Frame(0.5, 1000, 600))
	}
}

// BenchmarkFrameAndMeshRing5000 is the large-network view's Go-side cost
// per frame: a 5,000-node ring in fast-forward (flow picture, no packets).
func BenchmarkFrameAndMeshRing5000(b *testing.B) {
	const n = 5000
	g, err := graph.Ring(n)
	if err != nil {
		b.Fatal(err)
	}
	m := NewModel(g, nil)
	s := &sim.Step{Iter: 1, Dim: 2, Estimates: make([]float64, 2*n)}
	for i := range s.Estimates {
		s.Estimates[i] = math.Sin(float64(i))
	}
	for _, e := range g.Edges {
		s.Releases = append(s.Releases,
			link(e.From, e.To, "x", 0, []float64{1, 2}, []float64{0.1, 0}),
			link(e.To, e.From, "x", 0, []float64{1, 2}, []float64{3, 0}))
	}
	m.Record(s)
	var mesh Mesh
	b.ReportAllocs()
	for b.Loop() {
		mesh.Build(m.Frame(0.5, 1000, 600))
	}
}

// A broadcast release becomes one packet per receiver, all with the
// release's ratio: the receiver's factor scales signal and noise alike.
func TestBroadcastReleaseExpands(t *testing.T) {
	m := NewModel(ring(t, 5), nil)
	m.Record(&sim.Step{Iter: 1, Dim: 2, Estimates: make([]float64, 10), Releases: []sim.Release{{
		From: 0, Channel: "x", Sent: []float64{4, 3}, Noise: []float64{1, 0},
		To: []int{1, 4}, Factor: []float64{0.25, 0.5},
	}}})
	pk := m.Packets()
	want := Ratio([]float64{4, 3}, []float64{1, 0})
	if len(pk) != 2 || pk[0].To != 1 || pk[1].To != 4 || pk[0].Ratio != want || pk[1].Ratio != want {
		t.Fatalf("packets %+v, want two (to 1 and 4) with ratio %v", pk, want)
	}
	if math.Abs(want-1/math.Sqrt(9+9)) > 1e-15 {
		t.Errorf("ratio %v, want ‖(1,0)‖/‖(3,3)‖", want)
	}
}

// Fast-forward records many steps per frame: the packets are those of the
// last step recorded, summarised once, when the frame asks.
func TestPacketsFollowTheLastStep(t *testing.T) {
	m := NewModel(ring(t, 4), nil)
	for k := 1; k <= 3; k++ {
		m.Record(&sim.Step{Iter: k, Dim: 1, Estimates: make([]float64, 4), Releases: []sim.Release{
			link(k%4, (k+1)%4, "x", 0, []float64{1}, []float64{float64(k)}),
		}})
	}
	f := m.Frame(0.5, 400, 300)
	pk := m.Packets()
	if len(pk) != 1 || pk[0].From != 3 || pk[0].To != 0 || pk[0].Ratio != 1.5 || len(f.Packets) != 1 {
		t.Fatalf("packets %+v, want the last step's one packet 3→0", pk)
	}
}

// TestSlowGroupsAndMessage checks slow motion's turns (one sender at a
// time; rounds for a multi-round step), the Hold of a paused picture, and
// the inspector's split of a message into signal and noise.
func TestSlowGroupsAndMessage(t *testing.T) {
	m := NewModel(ring(t, 4), nil)
	st := &sim.Step{Iter: 1, Dim: 2, Estimates: make([]float64, 8), Releases: []sim.Release{
		link(0, 1, "x", 0, []float64{3, 4}, []float64{0, 4}), // signal (3, 0), noise (0, 4)
		link(0, 3, "x", 0, []float64{3, 4}, []float64{0, 4}),
		link(2, 1, "x", 0, []float64{1, 1}, nil),
	}}
	m.Record(st)
	if g := m.Groups(); g != 2 {
		t.Fatalf("Groups() = %d, want 2 senders", g)
	}
	m.Slow = true
	visible := func(phase float64) (v []int) {
		f := m.Frame(phase, 400, 400)
		for k, d := range f.Packets {
			if d.Fill.A > 0 {
				v = append(v, m.Packets()[f.PacketOf[k]].From)
			}
		}
		return v
	}
	for _, c := range []struct {
		phase float64
		hold  bool
		want  []int
	}{
		{0.25, false, []int{0, 0}}, // agent 0's turn
		{0.75, false, []int{2}},    // agent 2's
		{1, false, nil},            // all arrived
		{1, true, []int{0, 0, 2}},  // paused: held on screen
	} {
		m.Hold = c.hold
		if got := visible(c.phase); !slices.Equal(got, c.want) {
			t.Errorf("phase %v hold %v: senders on screen %v, want %v", c.phase, c.hold, got, c.want)
		}
	}
	msg, ok := m.Message(0)
	if !ok || msg.From != 0 || !slices.Equal(msg.To, []int{1}) || msg.Dim != 2 {
		t.Fatalf("Message(0) = %+v, %v", msg, ok)
	}
	const tol = 1e-12
	if math.Abs(msg.SignalNorm-3) > tol || math.Abs(msg.NoiseNorm-4) > tol ||
		!slices.Equal(msg.Signal, []float64{3, 0}) || !slices.Equal(msg.Noise, []float64{0, 4}) {
		t.Errorf("Message(0): signal %v (‖%v‖) noise %v (‖%v‖), want (3, 0) ‖3‖ and (0, 4) ‖4‖",
			msg.Signal, msg.SignalNorm, msg.Noise, msg.NoiseNorm)
	}
	if _, ok := m.Message(3); ok {
		t.Error("Message(3) of a 3-release step reported ok")
	}
}

// TestPortraitStacks checks that a tall canvas stacks the network above
// the plane panel, each the canvas's full width, and a wide one keeps
// them side by side.
func TestPortraitStacks(t *testing.T) {
	m := NewModel(ring(t, 8), planeFor(8))
	f := m.Frame(1, 390, 700)
	if !(f.PlanePanel.Y > f.NetPanel.Y+f.NetPanel.H-1) || f.NetPanel.W < 350 || f.PlanePanel.W < 350 {
		t.Errorf("390×700: network %+v, plane %+v: want stacked, full width", f.NetPanel, f.PlanePanel)
	}
	f = m.Frame(1, 800, 500)
	if !(f.PlanePanel.X > f.NetPanel.X+f.NetPanel.W-1) {
		t.Errorf("800×500: network %+v, plane %+v: want side by side", f.NetPanel, f.PlanePanel)
	}
}

// TestPortraitRingFillsWidth checks that on a phone's canvas (the view
// of a 390 px wide page, taller than wide) the ring spans most of the
// width: the network panel grows until its drawing area is square,
// rather than leaving the ring small in the top half.
func TestPortraitRingFillsWidth(t *testing.T) {
	m := NewModel(ring(t, 8), planeFor(8))
	for _, wh := range [][2]int{{358, 640}, {358, 468}} {
		f := m.Frame(1, wh[0], wh[1])
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, p := range f.NodeAt {
			lo, hi = min(lo, p[0]-f.NodeR), max(hi, p[0]+f.NodeR)
		}
		want := 0.7
		if wh[1] < 500 {
			want = 0.55 // a short view leaves the plane its share
		}
		if span := (hi - lo) / float64(wh[0]); span < want {
			t.Errorf("%d×%d: the ring spans %.2f of the width, want ≥ %.2f", wh[0], wh[1], span, want)
		}
		if f.PlanePanel.H < 0.3*float64(wh[1]) {
			t.Errorf("%d×%d: the plane is %.0f px tall, want ≥ 30%% of the canvas", wh[0], wh[1], f.PlanePanel.H)
		}
	}
}

// TestLegendNumbered checks that the colour ramp in the picture carries
// its numbers (a projector shows the picture without the page's key),
// under its ticks and inside the network panel, and names what it
// measures.
func TestLegendNumbered(t *testing.T) {
	m := NewModel(ring(t, 8), planeFor(8))
	for _, wh := range [][2]int{{1200, 700}, {358, 640}, {1920, 1080}} {
		for _, ratio := range []float64{1, 2} {
			m.PixelRatio = ratio
			f := m.Frame(1, int(ratio)*wh[0], int(ratio)*wh[1])
			got := map[string]Label{}
			for _, l := range f.Labels {
				if l.Class == "legend" {
					got[l.Text] = l
				}
			}
			for i, want := range []string{"≤0.01", "0.1", "1", "10", "≥100"} {
				l, ok := got[want]
				if !ok {
					t.Errorf("%v at ×%v: no legend label %q (have %v)", wh, ratio, want, got)
					continue
				}
				if x := f.Legend.Ticks[i].X; math.Abs(l.X-x) > 1e-9 || l.Y <= f.Legend.Y+f.Legend.H || !f.NetPanel.Contains(l.X, l.Y) {
					t.Errorf("%v: label %q at (%.1f, %.1f), its tick at %.1f under the ramp %+v", wh, want, l.X, l.Y, x, f.Legend.Rect)
				}
				if l.Size < 7*ratio {
					t.Errorf("%v: label %q is %.1f px", wh, want, l.Size)
				}
			}
			if _, ok := got["noise ÷ signal"]; !ok {
				t.Errorf("%v: the legend does not say what it measures", wh)
			}
		}
	}
}

// TestLargeFlowPicture checks the large network's picture: no packets
// (the links carry the flow, coloured by their latest noise ÷ signal),
// plain dots coloured by the spread, and far fewer vertices than the
// detailed picture would need; slow motion still shows its packets.
func TestLargeFlowPicture(t *testing.T) {
	const n = 5000
	g := ring(t, n)
	m := NewModel(g, planeFor(n))
	s := &sim.Step{Iter: 1, Dim: 2, Estimates: make([]float64, 2*n)}
	for i := range n {
		s.Estimates[2*i] = float64(i % 7)
		s.Releases = append(s.Releases, sim.Release{From: i, To: []int{(i + 1) % n, (i + n - 1) % n}, Channel: "x",
			Sent: []float64{1, 1}, Noise: []float64{float64(i%2) * 10, 0}})
	}
	m.Record(s)
	f := m.Frame(0.5, 1200, 800)
	if len(f.Packets) != 0 || len(f.Trails) != 0 {
		t.Fatalf("large: %d packets, %d trail segments; want 0, 0", len(f.Packets), len(f.Trails))
	}
	// One dot per pixel: every agent's pixel holds a dot, and no pixel
	// holds two (four or five agents share a pixel on this ring).
	drawn := map[[2]int]int{}
	for _, d := range f.Nodes {
		drawn[[2]int{int(d.X), int(d.Y)}]++
	}
	for i, c := range f.NodeAt {
		if drawn[[2]int{int(c[0]), int(c[1])}] != 1 {
			t.Fatalf("agent %d's pixel holds %d dots, want 1", i, drawn[[2]int{int(c[0]), int(c[1])}])
		}
	}
	if len(f.Nodes) >= n/2 {
		t.Errorf("%d dots for %d agents on a ring a few hundred pixels across", len(f.Nodes), n)
	}
	// A link is left out only when its end dots cover it.
	if want := len(g.Edges) - hiddenLinks(f, g); len(f.Edges) != want {
		t.Errorf("%d links drawn, want %d", len(f.Edges), want)
	}
	// Where they show, links touching a noisy sender are in the ratio's
	// colour, not grey.
	m5 := NewModel(ring(t, 500), nil)
	s5 := &sim.Step{Iter: 1, Dim: 2, Estimates: make([]float64, 1000), Releases: []sim.Release{{From: 1, To: []int{0, 2}, Channel: "x",
		Sent: []float64{1, 1}, Noise: []float64{10, 0}}}}
	m5.Record(s5)
	f5 := m5.Frame(0.5, 3000, 2000) // links longer than the dots
	if len(f5.Edges) != 500 || f5.Edges[0].Color == withAlpha(EdgeColor, 0.35) {
		t.Errorf("ring of 500: %d links drawn (want 500), link 0–1 grey although agent 1 sent noise 10× its signal", len(f5.Edges))
	}
	var mesh Mesh
	mesh.Build(f)
	if len(mesh.Vertices) > 120000 {
		t.Errorf("%d vertices for a 5,000-node ring: want ≤ 120,000", len(mesh.Vertices))
	}
	m.Slow = true
	if f := m.Frame(0.0001, 1200, 800); f.InFlight == 0 {
		t.Error("slow motion on a large network shows no packet")
	}
}

// hiddenLinks counts the links of g whose two end dots in f cover them.
func hiddenLinks(f *Frame, g *graph.Graph) int {
	k := 0
	for _, e := range g.Edges {
		a, b := f.NodeAt[e.From], f.NodeAt[e.To]
		r := f.Nodes[0].R
		if r <= DotRadius {
			r *= math.Sqrt(math.Pi) / 2
		}
		if hidden(math.Hypot(b[0]-a[0], b[1]-a[1]), 1.5, r) {
			k++
		}
	}
	return k
}

// The background and the panels tile the canvas: every pixel is painted
// once, in the colour the old layering (background, then each panel's
// border, then its fill) showed — one full-canvas layer instead of five.
func TestMeshTilesCanvas(t *testing.T) {
	for _, c := range []struct {
		name string
		f    Frame
	}{
		{"alone", Frame{W: 64, H: 40, NetPanel: Rect{3, 3, 58, 34}}},
		{"side by side", Frame{W: 90, H: 50, NetPanel: Rect{4, 4, 47.5, 42}, HasPlane: true, PlanePanel: Rect{54.5, 4, 31.5, 42}}},
		{"stacked", Frame{W: 40, H: 90, NetPanel: Rect{2, 2, 36, 50}, HasAlloc: true, AllocPanel: Rect{2, 55, 36, 33}}},
	} {
		f := c.f
		f.Background = Background
		var mesh Mesh
		mesh.Build(&f)
		count := make([]int, f.W*f.H)
		col := make([]Vertex, f.W*f.H)
		for q := 0; q+3 < len(mesh.Vertices); q += 4 {
			v := mesh.Vertices[q : q+4]
			x0, x1 := min(v[0].X, v[2].X), max(v[0].X, v[2].X)
			y0, y1 := min(v[0].Y, v[2].Y), max(v[0].Y, v[2].Y)
			for y := range f.H {
				for x := range f.W {
					if cx, cy := float32(x)+0.5, float32(y)+0.5; cx >= x0 && cx < x1 && cy >= y0 && cy < y1 {
						count[y*f.W+x]++
						col[y*f.W+x] = v[0]
					}
				}
			}
		}
		want := func(x, y float64) color.RGBA {
			in := func(r Rect) bool { return x >= r.X && x < r.X+r.W && y >= r.Y && y < r.Y+r.H }
			for _, p := range []Rect{f.NetPanel, f.PlanePanel, f.AllocPanel} {
				if p.W > 0 && in(p) {
					if in(Rect{p.X + 1, p.Y + 1, p.W - 2, p.H - 2}) {
						return PanelFill
					}
					return PanelLine
				}
			}
			return Background
		}
		for y := range f.H {
			for x := range f.W {
				k := y*f.W + x
				w := fc(want(float64(x)+0.5, float64(y)+0.5))
				if got := col[k]; count[k] != 1 || got.R != w.r || got.G != w.g || got.B != w.b {
					t.Fatalf("%s: pixel (%d, %d) painted %d times, last %v; want once, %v", c.name, x, y, count[k], got, w)
				}
			}
		}
	}
}
