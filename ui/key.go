package ui

import (
	"fmt"
	"strings"

	"dpsim/core/glossary"
	"dpsim/core/method"
	"dpsim/core/objective"
	"dpsim/core/scenario"
	"dpsim/render/scene"
)

// Panels the page shows beside the network and the plot, by the names
// State.Panels lists (docs/bridge.md).
const (
	// PanelPlane is the plane of a planar problem (targets, optimum,
	// estimates with their trails).
	PanelPlane = "plane"
	// PanelGauge is the allocation panel of a resource-allocation
	// problem: the supply–demand gauge, the outputs, the prices.
	PanelGauge = "gauge"
	// PanelCurve says that no picture stands beside the network: the
	// error plot is the run's learning curve.
	PanelCurve = "curve"
	// PanelAttack is the gradient-leakage attack panel, shown only for
	// an algorithm whose words say the attack applies.
	PanelAttack = "attack"
)

// Places of the picture relative to the network (Key.Where).
const (
	Beside = "beside"
	Below  = "below"
)

// Key is the legend under the network and the panels the page shows for
// one run, every sentence from the plug-ins' words (method.Words,
// objective.Words) and the picture's layout. It holds no syscall/js, so
// that it is tested natively over every preset.
type Key struct {
	// Text is the legend, in sentences.
	Text string
	// Messages is the algorithm's: what a link carries.
	Messages string
	// Where is where the picture stands: Beside or Below the network,
	// "" when there is none (or no frame is laid out yet).
	Where string
	// Panels lists the panels that apply to this run (Panel…).
	Panels []string
}

// KeyOf composes the legend of run b as model m draws it in frame f
// (nil before the first picture).
func KeyOf(b *scenario.Built, m *scene.Model, f *scene.Frame) Key {
	return keyOf(b.Factory, b.ProblemFactory, b.Env.Graph.N, b.Env.Problem.Dim(), m, f)
}

// keyOf is KeyOf from the plug-ins, the number of agents and the
// problem's dimension (a run built in a Worker: ui/remote.go).
func keyOf(af *method.Factory, pf *objective.Factory, agents, dim int, m *scene.Model, f *scene.Frame) Key {
	aw, pw := af.Words, pf.Words
	k := Key{Messages: aw.Messages}
	var s []string
	if m != nil && m.Large() && m.Allocation() == nil {
		s = append(s, fmt.Sprintf("Large network (%d agents): the messages are shown as flow — each link in the colour of the noise ÷ signal of its latest messages, faded; "+
			"each agent a dot coloured by its distance to the agents' mean estimate divided by the median distance (same ramp: ≤0.01 … ≥100 × the median). Slow motion still shows single messages.", agents))
	} else if m != nil && m.Referencing() {
		s = append(s, "Each packet is one message; its colour and size show noise ÷ signal: how far it is from the message the same run without noise sends, relative to that message.")
	} else {
		s = append(s, "Each packet is one message; its colour and size show noise ÷ signal: the noise it adds, relative to the rest of it.")
	}
	if aw.Messages != "" {
		s = append(s, aw.Messages)
	} else {
		s = append(s, af.Title+" does not describe its messages.")
	}
	if pw.Nodes != "" {
		s = append(s, "In the network, "+pw.Nodes+".")
	}
	plane := m != nil && m.Plane() != nil
	gauge := m != nil && m.Allocation() != nil
	switch {
	case plane || gauge:
		if plane {
			k.Panels = append(k.Panels, PanelPlane)
		} else {
			k.Panels = append(k.Panels, PanelGauge)
		}
		k.Where = where(f)
		pic := pw.Picture
		if plane && !m.Plane().HasOptimum {
			pic += " (no optimum ★: none is known)"
		}
		lead := "Beside the network"
		if k.Where == Below {
			lead = "Below the network"
		}
		s = append(s, lead+": "+pic+".")
	default:
		k.Panels = append(k.Panels, PanelCurve)
		why := "Nothing is drawn beside the network"
		if pw.Picture != "" {
			why += fmt.Sprintf(" (its picture needs 2 dimensions, this problem has %d)", dim)
		}
		s = append(s, why+"; "+pw.Curve+".")
	}
	if aw.Attack != "" {
		k.Panels = append(k.Panels, PanelAttack)
	}
	k.Text = strings.Join(s, " ")
	return k
}

// where says where the frame lays the picture out: below the network
// when the panels stack, beside it otherwise.
func where(f *scene.Frame) string {
	if f == nil || (!f.HasPlane && !f.HasAlloc) {
		return ""
	}
	p := f.PlanePanel
	if f.HasAlloc {
		p = f.AllocPanel
	}
	if p.Y >= f.NetPanel.Y+f.NetPanel.H {
		return Below
	}
	return Beside
}

// GlossaryGroup is one plug-in's glossary entries (window.dpsim.glossary()).
type GlossaryGroup struct {
	// Title names the plug-in; Role says "algorithm" or "problem".
	Title string `json:"title"`
	Role  string `json:"role"`
	// Current marks the run's own algorithm and problem.
	Current bool            `json:"current"`
	Terms   []glossary.Term `json:"terms"`
}

// GlossaryOf lists every plug-in's glossary entries, the run's algorithm
// and problem first (b may be nil: none is current).
func GlossaryOf(b *scenario.Built) []GlossaryGroup {
	if b == nil {
		return glossaryFor(nil, nil)
	}
	return glossaryFor(b.Factory, b.ProblemFactory)
}

// glossaryFor is GlossaryOf with the run's algorithm and problem given
// (nil: none is current), as for a run built in a Worker.
func glossaryFor(af *method.Factory, pf *objective.Factory) []GlossaryGroup {
	var cur, rest []GlossaryGroup
	add := func(g GlossaryGroup) {
		if g.Terms == nil {
			g.Terms = []glossary.Term{}
		}
		if g.Current {
			cur = append(cur, g)
		} else {
			rest = append(rest, g)
		}
	}
	for _, f := range scenario.Factories() {
		add(GlossaryGroup{Title: f.Title, Role: "algorithm", Terms: f.Words.Symbols, Current: af == f})
	}
	for _, f := range scenario.Problems() {
		add(GlossaryGroup{Title: f.Title, Role: "problem", Terms: f.Words.Symbols, Current: pf == f})
	}
	return append(cur, rest...)
}
