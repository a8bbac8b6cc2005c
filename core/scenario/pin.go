package scenario

import (
	"encoding/json"
	"maps"

	"dpsim/core/jsonout"
	"dpsim/core/weights"
)

// Pinned returns the scenario with every random or derived choice written
// out: the edge list (and node positions, if any), the weight matrix (its
// nonzero entries, kind "entries"), the problem data and the initial
// state of every variable, shared ones included (one row each). Running the pinned
// scenario gives the same trace as running the original; another
// implementation can replay it without dpsim's random streams (except the
// noise, which follows the seeds).
func (b *Built) Pinned() *Scenario {
	s := *b.Scenario
	if b.Calibration != nil {
		// The calibrated scales are written out, so the replay needs no
		// calibration (which could move a scale by an ulp), neither the
		// scenario's nor the algorithm's own target (set to 0: none).
		s.Calibrate = nil
		s.Noise = maps.Clone(b.Env.Noise)
		if t := b.Target; t != nil {
			s.Algorithm.Params = withoutTarget(s.Algorithm.Params, t.Param)
		}
	}
	g := b.Env.Graph
	// A directed edge list keeps the reading the scenario chose, so that
	// the export says which convention its pairs follow.
	reading := ""
	if g.Directed {
		reading = b.Scenario.Graph.Reading
	}
	edges := make([][2]int, len(g.Edges))
	for i, e := range g.Edges {
		edges[i] = [2]int{e.From, e.To}
		if reading == ReadToFrom {
			edges[i] = [2]int{e.To, e.From}
		}
	}
	s.Graph = Graph{Kind: "edges", N: g.N, Directed: g.Directed, Reading: reading, Edges: edges, Positions: g.Pos}
	if b.Env.Matrices == nil {
		s.Weights = pinWeights(b.Env.Weights)
	} else {
		s.Weights = Weights{}
		for _, r := range b.Factory.Matrices {
			w := pinWeights(b.Env.Matrices[r.Role])
			s.Weights.setRole(r.Role, &w)
		}
	}
	pinned, err := jsonout.Marshal(b.ProblemFactory.Pinned(b.Env.Problem, b.ProblemParams))
	if err != nil {
		panic("scenario: pinning the problem: " + err.Error()) // plain data, validated finite
	}
	s.Problem = Problem{Kind: b.Scenario.Problem.Kind, Params: pinned}
	s.Init = maps.Clone(s.Init)
	if s.Init == nil {
		s.Init = map[string][][]float64{}
	}
	for _, v := range b.initial {
		// A per-agent variable has one row per agent; a shared one
		// (method.Factory.Shared) is one row of its own length.
		rows := make([][]float64, len(v.Data)/max(v.Dim, 1))
		for i := range rows {
			rows[i] = v.Data[i*v.Dim : (i+1)*v.Dim]
		}
		s.Init[v.Name] = rows
	}
	return &s
}

// pinWeights writes m as its nonzero entries, not its dense rows: n²
// numbers would make the export of a few thousand agents hundreds of
// megabytes, beyond what Parse reads back.
func pinWeights(m *weights.Matrix) Weights {
	es := m.Entries()
	triples := make([][]float64, len(es))
	flat := make([]float64, 3*len(es))
	for k, e := range es {
		t := flat[3*k : 3*k+3 : 3*k+3]
		t[0], t[1], t[2] = float64(e.I), float64(e.J), e.W
		triples[k] = t
	}
	return Weights{Kind: weights.KindEntries, Entries: triples}
}

// withoutTarget returns the algorithm's params with key set to 0, the
// value by which a plug-in's target parameter asks for no calibration.
func withoutTarget(params json.RawMessage, key string) json.RawMessage {
	m := map[string]json.RawMessage{}
	if len(params) > 0 {
		if err := json.Unmarshal(params, &m); err != nil {
			panic("scenario: pinning the algorithm's params: " + err.Error()) // decoded strictly at build
		}
	}
	m[key] = json.RawMessage("0")
	out, err := jsonout.Marshal(m)
	if err != nil {
		panic("scenario: pinning the algorithm's params: " + err.Error())
	}
	return out
}
