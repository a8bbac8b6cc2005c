package sceneof

import (
	"strings"
	"testing"

	"dpsim/core/runner"
	"dpsim/core/scenario"
	"dpsim/render/scene"
)

// The IEEE 14-bus dispatch drawn: generators as squares, loads as discs,
// pulled packets hollow, the allocation panel with its gauge, bars and
// price curves inside it, and the labels the page writes.
func TestAllocationView(t *testing.T) {
	s, err := scenario.PresetScenario("dpdgt-ieee14")
	if err != nil {
		t.Fatal(err)
	}
	b, err := scenario.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	a := Allocation(b.Env.Problem)
	if a == nil || a.Unit != "MW" || len(a.Names) != 14 || a.Names[0] != "bus 1" {
		t.Fatalf("allocation data %+v", a)
	}
	m := scene.NewModel(b.Env.Graph, nil)
	m.SetAllocation(a)
	r := runner.New(b, m)
	for range 30 {
		if _, err := r.Advance(); err != nil {
			t.Fatal(err)
		}
	}
	f := m.Frame(0.5, 1200, 700)
	if !f.HasAlloc || f.HasPlane {
		t.Fatalf("HasAlloc %v, HasPlane %v", f.HasAlloc, f.HasPlane)
	}
	if len(f.NodeBoxes) != 5 || len(f.Nodes) != 9 {
		t.Errorf("%d square and %d round nodes, want 5 generators and 9 loads", len(f.NodeBoxes), len(f.Nodes))
	}
	// 35 links carry a push (C has the graph's links) and a pull each.
	pulls, pushes := 0, 0
	for k, pk := range m.Packets() {
		d := f.Packets[k]
		if pk.Pull {
			pulls++
			if d.Fill != scene.PanelFill {
				t.Fatalf("pulled packet %d is not hollow: %+v", k, d)
			}
		} else {
			pushes++
			if d.Fill == scene.PanelFill {
				t.Fatalf("pushed packet %d is hollow", k)
			}
		}
	}
	if pulls != 35 || pushes != 35 {
		t.Errorf("%d pulled and %d pushed packets, want 35 each", pulls, pushes)
	}
	if !m.Pulled("w̃") || m.Pulled("s") {
		t.Errorf("channel kinds: w̃ pulled %v, s pulled %v", m.Pulled("w̃"), m.Pulled("s"))
	}
	p := f.AllocPanel
	for _, bx := range f.AllocBoxes {
		if !p.Contains(bx.X, bx.Y) || !p.Contains(bx.X+bx.W, bx.Y+bx.H) {
			t.Errorf("box %+v outside the panel %+v", bx.Rect, p)
		}
	}
	for _, sg := range f.AllocLines {
		if !p.Contains(sg.X0, sg.Y0) || !p.Contains(sg.X1, sg.Y1) {
			t.Errorf("line %+v outside the panel %+v", sg, p)
		}
	}
	var text []string
	for _, l := range f.Labels {
		text = append(text, l.Text)
	}
	all := strings.Join(text, "|")
	for _, want := range []string{"bus 1", "14", "load 55", "Supply and demand", "demand Σd = 361 MW", "λ* = 8.139", " / 76.7*", " / 76.74"} {
		if !strings.Contains(all, want) {
			t.Errorf("labels lack %q: %s", want, all)
		}
	}
	// Reset: the price history starts again.
	r2 := runner.New(b, m)
	r2.Start()
	if rows := m.PriceRows(); rows != 1 {
		t.Errorf("after a reset the price plot keeps %d rows, want 1", rows)
	}
	// The mesh builds and stays within the canvas.
	var mesh scene.Mesh
	mesh.Build(f)
	for _, v := range mesh.Vertices {
		if v.X < -1 || v.Y < -1 || v.X > 1201 || v.Y > 701 {
			t.Fatalf("vertex %+v outside the canvas", v)
		}
	}
}
