package scenario

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"dpsim/core/check"
	"dpsim/core/method"
	"dpsim/core/weights"
)

// Memory budgets: a scenario whose estimate exceeds the budget of the
// place it runs in is refused before anything is allocated. The page's is
// smaller because a browser tab shares the machine's memory with
// everything else and a WebAssembly instance cannot grow past 4 GiB.
const (
	CLIBudget  = 4 << 30   // bytes, for dpsim run, validate and sweep
	PageBudget = 512 << 20 // bytes, for the browser page
)

// SpillKeep is the number of metric points a CLI run holds in memory;
// older points wait in a temporary file (metrics.Series.Spill).
const SpillKeep = 1 << 16

// Estimate is a scenario's memory footprint, computed from the scenario
// alone, before any graph, matrix, problem or algorithm is built.
type Estimate struct {
	// Agents and Links are the expected network size (for random graphs
	// an upper bound from the radius or the link probability).
	Agents, Links int64
	Dim           int64
	// Parts lists the footprint's parts, largest first.
	Parts []Part
	// Total is the sum of the parts, in bytes.
	Total int64
	// Pinned is the size of the pinned scenario the export will hold.
	Pinned int64

	pinnedLinks, pinnedData int64
	graphFields             []string
}

// pinnedBytes estimates the pinned scenario's text: about 40 bytes per
// edge and weight entry, and 24 per number of the initial states and
// problem data (dataBytes counts the problem's data twice: held and
// pinned).
func pinnedBytes(agents, links, nd, states, dataBytes int64) (network, data int64) {
	return 40*(agents+links) + 4096, 24 * (nd*states + dataBytes/16)
}

// Part is one part of an estimate: what it is, the scenario fields that
// drive it, and its size in bytes.
type Part struct {
	What   string
	Fields []string
	Bytes  int64
}

// String lists the parts: "12.0 MB: agents' states (graph.n × problem.params.dim); …".
func (e Estimate) String() string {
	var b strings.Builder
	for i, p := range e.Parts {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "%s %s (%s)", Bytes(p.Bytes), p.What, strings.Join(p.Fields, " × "))
	}
	return b.String()
}

// Bytes formats a byte count for people, in binary units like the
// budgets: 512 B, 3.2 MiB, 16.0 GiB.
func Bytes(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	case n < 1<<30:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	}
	return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
}

// EstimateOf estimates the memory a run of s needs: in the CLI (inPage
// false: metrics spill to disk beyond SpillKeep points) or in the page
// (metrics held, animation buffers per link). The algorithm's factory and
// the problem's parameters must already be known.
func EstimateOf(s *Scenario, f *method.Factory, dim int, dataBytes int64, inPage bool) Estimate {
	e := Estimate{Dim: int64(max(dim, 1))}
	var graphFields []string
	e.Agents, e.Links, graphFields = networkSize(&s.Graph)
	n, l, d := e.Agents, e.Links, e.Dim
	nd := n * d
	add := func(what string, bytes int64, fields ...string) {
		if bytes > 0 {
			e.Parts = append(e.Parts, Part{What: what, Fields: fields, Bytes: bytes})
		}
	}
	add("network and weights", 48*(n+l), graphFields...)
	if n <= weights.MaxEigenN {
		add("spectral analysis", 48*n*n, "graph.n²")
	}
	add("problem data", dataBytes, "problem.params")
	states := int64(2*len(f.States) + 4)
	if f.Footprint != nil {
		add("algorithm state", f.Footprint(int(n), int(l), int(d)), append(graphFields, "problem.params.dim")...)
	} else {
		add("algorithm state", 8*states*nd, append(graphFields, "problem.params.dim")...)
	}
	points := int64(s.Iterations)/int64(max(s.Record.Every, 1)) + 2
	if !inPage {
		points = min(points, SpillKeep)
	}
	// Eight columns of float64 (iteration, the three generic metrics, the
	// three communication counters, stationarity), with room for the
	// slices' growth.
	add("recorded metrics", 96*points, "iterations", "1/record.every")
	// Beside those asked for, a run a stop rule ends saves its last state.
	// (An interrupted CLI run saves one too, when it ends: the state it
	// copies is counted as the algorithm's.)
	saved := int64(len(s.Record.Checkpoints))
	if s.Stop != nil {
		saved++
	}
	add("checkpoints", checkpointBytes(saved, int64(len(f.States)+len(f.Shared)), n, d), "record.checkpoints", "graph.n", "problem.params.dim")
	// The pinned scenario in the export: weight entries, initial states
	// and problem data as text.
	e.pinnedLinks, e.pinnedData = pinnedBytes(n, l, nd, int64(len(f.States)), dataBytes)
	e.Pinned = e.pinnedLinks + e.pinnedData
	e.graphFields = graphFields
	if e.pinnedData > e.pinnedLinks {
		add("export", e.Pinned, "graph.n", "problem.params.dim")
	} else {
		add("export", e.Pinned, graphFields...)
	}
	if inPage {
		// Packets, discs and mesh vertices for every link.
		add("animation", 1200*l, graphFields...)
	}
	sort.SliceStable(e.Parts, func(i, j int) bool { return e.Parts[i].Bytes > e.Parts[j].Bytes })
	for _, p := range e.Parts {
		e.Total = satAdd(e.Total, p.Bytes)
	}
	return e
}

// checkpointBytes is the memory of count checkpoints of states state
// variables of agents agents in dimension dim: every checkpoint held (a
// row of dim float64s and its slice header per agent and variable, and
// the activation counters), plus the text of the one being written (the
// export streams them one at a time; measured by the runner's
// TestCheckpointEstimate: MarshalIndent's compact and indented copies
// with their growth, about 170 B a row and 80 B a value).
func checkpointBytes(count, states, agents, dim int64) int64 {
	if count == 0 {
		return 0
	}
	// Rows, counters, and the growth rule's window (runner.Window peaks).
	held := states*agents*(24+8*dim) + 8*agents + 8*201
	writing := states * agents * (200 + 100*dim)
	return satAdd(satMul(count, held), writing)
}

// satMul is a·b for nonnegative a and b, saturating at MaxInt64.
func satMul(a, b int64) int64 {
	if a != 0 && b > math.MaxInt64/a {
		return math.MaxInt64
	}
	return a * b
}

func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// networkSize returns the number of agents and an upper bound on the
// directed links of the graph s describes, without building it, and the
// fields that set them: what the graph's kind declares (graph.Kind.Size).
// The section has been checked (buildGraph calls the estimate after).
func networkSize(g *Graph) (agents, links int64, fields []string) {
	k, ok := graphKinds.byName[g.Kind]
	if !ok {
		return 0, 0, []string{"graph.kind"}
	}
	params := k.NewParams()
	if err := kindParams("graph", k.Name, params, g, g.given, graphCommonKeys, func(string) []string { return nil }); err != nil {
		return 0, 0, []string{"graph"}
	}
	agents, links = k.Size(params)
	for _, key := range k.SizeKeys {
		fields = append(fields, check.Join("graph", key))
	}
	return agents, links, fields
}

// checkBudget refuses an estimate above budget with an error naming the
// fields behind the largest part, and a run whose export could not be
// replayed because its pinned scenario would exceed MaxBytes.
func checkBudget(e Estimate, budget int64, where string) error {
	if e.Total > budget {
		big := e.Parts[0]
		return check.Errorf(big.Fields[0], "this scenario needs about %s of memory, more than the %s a run %s may use; the largest part is %s for %s (%s). Estimate: %s",
			Bytes(e.Total), Bytes(budget), where, Bytes(big.Bytes), big.What, strings.Join(big.Fields, " × "), e)
	}
	if e.Pinned > MaxBytes {
		field, what := "problem.params.dim", "initial states and problem data: graph.n × problem.params.dim numbers"
		if e.pinnedLinks > e.pinnedData {
			field, what = e.graphFields[0], "edges and weight entries: "+strings.Join(e.graphFields, ", ")
		}
		return check.Errorf(field, "the run's export would pin a scenario of about %s (mostly %s), over the %s a scenario file may have, so it could not be replayed: make the network or the problem smaller",
			Bytes(e.Pinned), what, Bytes(MaxBytes))
	}
	return nil
}
