package scenario

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"dpsim/core/check"
	"dpsim/core/graph"
	"dpsim/core/method"
	"dpsim/core/param"
	"dpsim/core/rng"
	"dpsim/core/weights"
)

// MaxPairDraws bounds the work of drawing a random graph: redraws × node
// pairs, so that a scenario cannot ask for minutes of retries.
const MaxPairDraws = graph.MaxPairDraws

// graphParams returns the declared parameters of a graph kind, for
// readersOf.
func graphParams(k *graph.Kind) any { return k.NewParams() }

// weightParams returns the declared parameters of a weight builder, for
// readersOf.
func weightParams(b *weights.Builder) any { return b.NewParams() }

// buildGraph finds the graph section's kind, reads and checks the
// parameters it declares (refusing any key it does not read), then calls
// before (the memory estimate: nothing is allocated until every field is
// known to be in range), then builds the network. A directed graph must be
// strongly connected unless rooted is set (the algorithm checks a
// spanning-tree condition itself); then it must still be weakly connected.
func buildGraph(gs *Graph, seeds rng.Seeds, rooted bool, before func() error) (*graph.Graph, error) {
	k, ok := graphKinds.byName[gs.Kind]
	switch {
	case gs.Kind == "":
		return nil, check.Errorf("graph.kind", "is required: one of %v", graphKinds.names)
	case !ok:
		return nil, check.Errorf("graph.kind", "must be one of %v (got %q)", graphKinds.names, gs.Kind)
	}
	params := k.NewParams()
	if err := kindParams("graph", k.Name, params, gs, gs.given, graphCommonKeys, readersOf(graphKinds, graphParams)); err != nil {
		return nil, err
	}
	if k.Check != nil {
		if err := k.Check(params); err != nil {
			return nil, err
		}
	}
	if err := param.Validate("graph", params); err != nil {
		return nil, err
	}
	if err := before(); err != nil {
		return nil, err
	}
	g, err := k.Build(params, rng.New(seeds.Graph, "graph"))
	var ce *check.Error
	if errors.As(err, &ce) {
		return nil, err
	}
	if err != nil {
		return nil, check.Errorf("graph", "%v", err)
	}
	if gs.Positions != nil {
		if len(gs.Positions) != g.N {
			return nil, check.Errorf("graph.positions", "must list one position per node: %d, got %d", g.N, len(gs.Positions))
		}
		for i, p := range gs.Positions {
			for j, x := range p {
				// The page maps [0,1]² onto the drawing; a point outside
				// would be drawn off the canvas.
				if x >= 0 && x <= 1 {
					continue // the common case, without formatting a field name
				}
				field := check.Index(check.Index("graph.positions", i), j)
				if err := check.Finite(field, x); err != nil {
					return nil, err
				}
				return nil, check.Errorf(field, "must be from 0 to 1: positions are [x, y] in the unit square (got %v)", x)
			}
		}
		g.Pos = gs.Positions
	}
	if g.N < 2 {
		return nil, check.Errorf(sizeField(params), "a network needs at least 2 agents: with one, nothing is exchanged, so there is nothing decentralized to simulate and no privacy to account (got %d)", g.N)
	}
	if g.Directed && !rooted {
		if !g.StronglyConnected() {
			return nil, check.Errorf("graph", "the directed graph is not strongly connected: some agent can never hear from another")
		}
	} else if !g.Connected() {
		return nil, check.Errorf("graph", "the graph is not connected: it has %d components, and agents in different components can never agree", g.Components())
	}
	return g, nil
}

// sizeField names the key that sets a graph's size: n, or the kind's
// first key (a grid's rows) when it reads no n.
func sizeField(params any) string {
	fs := param.Describe(params)
	for _, f := range fs {
		if f.Name == "n" {
			return "graph.n"
		}
	}
	if len(fs) > 0 {
		return "graph." + fs[0].Name
	}
	return "graph"
}

// buildAllWeights builds the scenario's weight matrix and its analysis, or,
// for an algorithm that declares roles, one matrix per role (the first
// role's also returned as the single matrix, for what reads only one).
func buildAllWeights(ws *Weights, g *graph.Graph, f *method.Factory) (*weights.Matrix, weights.Report, map[string]*weights.Matrix, map[string]weights.Report, error) {
	var none weights.Report
	if len(f.Matrices) == 0 {
		for _, role := range Roles() {
			if ws.Role(role) != nil {
				return nil, none, nil, nil, check.Errorf(check.Join("weights", role), "%s mixes with one matrix: give its kind directly (\"weights\": {\"kind\": …}), not a %q section", f.Title, role)
			}
		}
		w, err := buildWeights(ws, g, "weights")
		if err != nil {
			return nil, none, nil, nil, err
		}
		return w, weights.AnalyzeShared(w, g), nil, nil, nil
	}
	var names []string
	for _, r := range f.Matrices {
		names = append(names, r.Role)
	}
	for _, key := range presentKeys(ws, ws.given) {
		if key != "pull" && key != "push" {
			return nil, none, nil, nil, check.Errorf(check.Join("weights", key), "%s mixes with %d matrices, one per role: give them as sections %v (each optional; the defaults are %s)", f.Title, len(names), names, roleDefaults(f))
		}
	}
	for _, role := range Roles() {
		if ws.Role(role) != nil && !slices.Contains(names, role) {
			return nil, none, nil, nil, check.Errorf(check.Join("weights", role), "%s has no %q matrix: its roles are %v", f.Title, role, names)
		}
	}
	mats := map[string]*weights.Matrix{}
	reports := map[string]weights.Report{}
	for _, r := range f.Matrices {
		sec := ws.Role(r.Role)
		if sec == nil {
			sec = &Weights{Kind: r.Default}
		}
		field := check.Join("weights", r.Role)
		if sec.Pull != nil || sec.Push != nil {
			return nil, none, nil, nil, check.Errorf(field, "a role's section holds one matrix (kind and its parameters), not further roles")
		}
		w, err := buildWeights(sec, g, field)
		if err != nil {
			return nil, none, nil, nil, err
		}
		mats[r.Role], reports[r.Role] = w, weights.AnalyzeShared(w, g)
	}
	first := f.Matrices[0].Role
	return mats[first], reports[first], mats, reports, nil
}

func roleDefaults(f *method.Factory) string {
	var parts []string
	for _, r := range f.Matrices {
		parts = append(parts, fmt.Sprintf("%s: %s", r.Role, r.Default))
	}
	return strings.Join(parts, ", ")
}

// buildWeights builds one matrix from its section with the builder its
// kind names, refusing any key the builder does not read; field names the
// section in errors ("weights", or "weights.pull" for a role).
func buildWeights(ws *Weights, g *graph.Graph, field string) (*weights.Matrix, error) {
	b, ok := weightBuilders.byName[ws.Kind]
	switch {
	case ws.Kind == "":
		return nil, check.Errorf(check.Join(field, "kind"), "is required: one of %v", weightBuilders.names)
	case !ok:
		q := make([]string, len(weightBuilders.names))
		for i, n := range weightBuilders.names {
			q[i] = strconv.Quote(n)
		}
		return nil, check.Errorf(check.Join(field, "kind"), "must be one of %s (got %q)", strings.Join(q, ", "), ws.Kind)
	}
	params := b.NewParams()
	if err := kindParams(field, b.Name, params, ws, ws.given, weightsCommonKeys, readersOf(weightBuilders, weightParams)); err != nil {
		return nil, err
	}
	if err := param.Validate(field, params); err != nil {
		return nil, err
	}
	m, err := b.Build(params, g)
	if err != nil {
		var ce *check.Error
		if errors.As(err, &ce) {
			// The weights package names the fields of a section called
			// "weights"; a role's section has its own name.
			if rest, ok := strings.CutPrefix(ce.Field, "weights"); ok {
				return nil, &check.Error{Field: field + rest, Rule: ce.Rule}
			}
			return nil, err
		}
		return nil, check.Errorf(field, "%v", err)
	}
	return m, nil
}
