package scenario

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"dpsim/core/check"
	"dpsim/core/data"
	"dpsim/core/method"
	"dpsim/core/pool"
	"dpsim/core/privacy"
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
	// Shared is the part a process holds once however many runs it
	// makes (the decoded datasets), and Room the collector's room (the
	// CLI's estimates only; see CollectorRoom): a sweep counts each once.
	Shared, Room int64
	// Datasets holds each committed dataset split the problem reads
	// ("mnist/train") with its bytes, the parts of Shared.
	Datasets map[string]int64
	// Pinned is the size of the pinned scenario the export will hold.
	Pinned int64
	// Exported is the part only a run that writes its export holds (the
	// pinned scenario's text and the replay arrays); a sweep's runs write
	// none.
	Exported int64

	// Scratch is what one gradient call holds while it runs
	// (objective.Factory.Scratch), and Gradients the gradients counted as
	// running at once (WithGradients).
	Scratch, Gradients int64

	pinnedLinks, pinnedData int64
	graphFields             []string
	// dimField names the parameter behind the problem's dimension.
	dimField string
}

// pinnedBytes estimates the pinned scenario's text: about 40 bytes per
// edge and weight entry, 24 per number of the initial states, and what
// the problem writes of its data (objective.Factory.PinnedBytes: drawn
// targets and samples; a dataset is named, never written).
func pinnedBytes(agents, links, nd, states, problem int64) (network, data int64) {
	return 40*(agents+links) + 4096, satAdd(satMul(24, satMul(nd, states)), problem)
}

// Bytes the export's text costs in memory while it is written (measured
// by cmd/dpsim's TestMemoryEstimatesCoverMeasuredPeaks): the pinned
// scenario's text is held textCopies times (jsonout.MarshalIndent's
// compact copy and its indented copy's buffer, twice the compact text),
// and a replay value replayValueBytes: a float64 as the run drew it, up
// to as much again in its slice's growth, and its 24 bytes of text held
// textCopies times.
const (
	textCopies       = 3
	replayValueBytes = 8 + 8 + textCopies*24
)

// CollectorRoom is the room the CLI's estimates leave the garbage
// collector beyond what a run holds: a quarter of it, and 64 MiB for the
// runtime, the binary and the standard streams' buffers. The CLI holds
// its process to the estimate with that room (runtime/debug's memory
// limit, unless GOMEMLIMIT is set), so that the collector's growth — two
// to five times the live heap at GOGC 100 to 400 — never carries a run
// or a sweep that fits its estimate past it.
func CollectorRoom(held int64) int64 { return satAdd(held/4, 64<<20) }

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
	e.dimField = "problem.params"
	if pf, params, err := decodeProblem(&s.Problem); err == nil {
		e.dimField, _ = dimField(params, dim)
		if pf.Scratch != nil {
			e.Scratch = pf.Scratch(params)
		}
	}
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
	// The decoded datasets the problem reads, held once per process, and
	// their compressed text while one is decoded.
	e.Datasets = datasetBytes(s)
	for _, b := range e.Datasets {
		e.Shared = satAdd(e.Shared, b)
	}
	add("datasets", e.Shared, "problem.params.dataset")
	states := int64(2*len(f.States) + 4)
	if f.Footprint != nil {
		add("algorithm state", f.Footprint(int(n), int(l), int(d)), append(graphFields, e.dimField)...)
	} else {
		add("algorithm state", 8*states*nd, append(graphFields, e.dimField)...)
	}
	// The copy of every state variable as it started, which the built
	// run keeps for the export's pinned scenario (Built.Pinned).
	add("initial states, kept for the export", 8*(int64(len(f.States))*nd+int64(len(f.Shared))*d), "graph.n", e.dimField)
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
	e.pinnedLinks, e.pinnedData = pinnedBytes(n, l, nd, int64(len(f.States)), problemPinned(s, n))
	e.Pinned = e.pinnedLinks + e.pinnedData
	e.graphFields = graphFields

	// Written, the pinned scenario's text is held compact and indented at
	// once (jsonout.MarshalIndent: the indented copy's buffer is twice the
	// compact text).
	e.Exported = satMul(textCopies, e.Pinned)
	if e.pinnedData > e.pinnedLinks {
		add("export", e.Exported, "graph.n", e.dimField)
	} else {
		add("export", e.Exported, graphFields...)
	}
	// The replay arrays (chooseReplay) are known only once the problem is
	// built: count the most the run may write — DefaultReplayValues when
	// record.replay is left out, MaxReplayValues when asked (ReplayValues
	// bounds what it writes: TestReplayValuesBoundWhatIsWritten).
	if r := s.Record.Replay; r == nil || *r {
		values := int64(DefaultReplayValues)
		if r != nil {
			values = MaxReplayValues
		}
		add("replay arrays, at most", satMul(replayValueBytes, values), "record.replay")
		e.Exported = satAdd(e.Exported, satMul(replayValueBytes, values))
	}
	if inPage {
		// Packets, discs and mesh vertices for every link.
		add("animation", 1200*l, graphFields...)
	}
	// The gradients running at once: one in the page (one thread; a
	// helper Worker holds its own copy), every core in the CLI's default
	// (pool.Auto) — WithGradients sets another count.
	e.Gradients = 1
	if !inPage {
		e.Gradients = int64(pool.Widest(pool.Auto, int(n)))
	}
	add(scratchWhat, satMul(e.Gradients, e.Scratch), scratchFields...)
	return e.total(!inPage)
}

// scratchWhat and scratchFields name the part of an estimate the
// gradients running at once hold.
const scratchWhat = "gradients' scratch, one per gradient running at once"

var scratchFields = []string{"--workers", "problem.params"}

// total sorts e's parts, largest first, and sums them, with the
// collector's room when room (the CLI's estimates).
func (e Estimate) total(room bool) Estimate {
	sort.SliceStable(e.Parts, func(i, j int) bool { return e.Parts[i].Bytes > e.Parts[j].Bytes })
	e.Total, e.Room = 0, 0
	for _, p := range e.Parts {
		e.Total = satAdd(e.Total, p.Bytes)
	}
	if room {
		// Last, whatever its size: it follows from the others, and the
		// largest part names the fields to lower.
		e.Room = CollectorRoom(e.Total)
		e.Parts = append(e.Parts, Part{What: roomWhat, Fields: []string{"a quarter of the rest, and 64 MiB for the runtime"}, Bytes: e.Room})
		e.Total = satAdd(e.Total, e.Room)
	}
	return e
}

const roomWhat = "the collector's room"

// Plus returns e with one more part (what the built run holds beside the
// scenario's own estimate: the tight bound's releases, say).
func (e Estimate) Plus(what string, bytes int64, fields ...string) Estimate {
	if bytes <= 0 {
		return e
	}
	return e.replace("", Part{What: what, Fields: fields, Bytes: bytes})
}

// replace returns e without its part named drop, with p, summed again
// (total: the collector's room recomputed when e had one).
func (e Estimate) replace(drop string, p Part) Estimate {
	parts := make([]Part, 0, len(e.Parts)+1)
	for _, q := range e.Parts {
		if q.What != drop && q.What != roomWhat {
			parts = append(parts, q)
		}
	}
	e.Parts = append(parts, p)
	return e.total(e.Room > 0)
}

// KeepTight returns e with the tight bound's releases counted
// (privacy.TightBytes: what a run that keeps the tight bound beside the
// paper's holds) when they fit place's budget beside the rest of the run,
// and otherwise e unchanged with one line saying why the run keeps no
// tight bound: a long run whose noise decays holds one release per agent
// and iteration (59 GiB for 10⁷ iterations of 50 agents), and the run
// itself, which fits, is worth more than the bound beside its ledger.
func (b *Built) KeepTight(e Estimate, place Place) (Estimate, string) {
	budget, where := int64(CLIBudget), "in the CLI"
	if place == Page {
		budget, where = PageBudget, "in the browser"
	}
	need := privacy.TightBytes(b.Accountant, b.Env.Graph.N, b.Scenario.Iterations)
	t := e.Plus("the tight bound's releases", need, "iterations", "graph.n")
	if t.Total <= budget || e.Total > budget {
		return t, ""
	}
	return e, fmt.Sprintf("not kept for this run: its releases would need about %s (iterations × graph.n), and with them the run would pass the %s a run %s may use",
		Bytes(need), Bytes(budget), where)
}

// WithGradients returns e with n gradients running at once (a run's
// pool.Widest; one for a sweep's run), each holding e.Scratch.
func (e Estimate) WithGradients(n int) Estimate {
	n = max(n, 1)
	if int64(n) == e.Gradients || e.Scratch == 0 {
		e.Gradients = int64(n)
		return e
	}
	e.Gradients = int64(n)
	return e.replace(scratchWhat, Part{What: scratchWhat, Fields: scratchFields, Bytes: satMul(e.Gradients, e.Scratch)})
}

// datasetBytes is the memory of the committed dataset splits s's
// problem reads (objective.Factory.Datasets), by split: each decoded —
// its raw bytes, which the labels keep, and for float32 features their
// decoded copy (core/data's decode) — and its compressed bytes while it
// is.
func datasetBytes(s *Scenario) map[string]int64 {
	pf, params, err := decodeProblem(&s.Problem)
	if err != nil || pf.Datasets == nil {
		return nil
	}
	out := map[string]int64{}
	for _, ds := range pf.Datasets(params) {
		name, split, _ := strings.Cut(ds, "/")
		d, err := data.Info(name)
		if err != nil {
			continue // Build names the dataset
		}
		for _, f := range d.Splits {
			if f.Split == split {
				held := int64(f.RawBytes)
				if d.Kind == "float32" {
					held *= 2
				}
				out[ds] = held + int64(f.Bytes)
			}
		}
	}
	return out
}

// problemPinned is what s's problem writes of its data in the pinned
// scenario for agents agents (objective.Factory.PinnedBytes).
func problemPinned(s *Scenario, agents int64) int64 {
	pf, params, err := decodeProblem(&s.Problem)
	if err != nil || pf.PinnedBytes == nil {
		return 0
	}
	return pf.PinnedBytes(params, int(agents))
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
		field := e.dimField
		what := "initial states and problem data: graph.n × " + field + " numbers"
		if e.pinnedLinks > e.pinnedData {
			field, what = e.graphFields[0], "edges and weight entries: "+strings.Join(e.graphFields, ", ")
		}
		return check.Errorf(field, "the run's export would pin a scenario of about %s (mostly %s), over the %s a scenario file may have, so it could not be replayed: make the network or the problem smaller",
			Bytes(e.Pinned), what, Bytes(MaxBytes))
	}
	return nil
}

// CheckCLI refuses an estimate of a built run (WithGradients, KeepTight)
// above the CLI's budget, in one line naming the fields behind its
// largest part (--workers for the gradients' scratch).
func CheckCLI(e Estimate) error {
	return checkBudget(e, CLIBudget, "in the CLI")
}

// Estimate returns the memory estimate Build checked for the built
// scenario b at place (validate prints it; tests measure it).
func (b *Built) Estimate(place Place) Estimate {
	dim, dataBytes := 1, int64(0)
	if b.ProblemFactory.Size != nil {
		dim, dataBytes = b.ProblemFactory.Size(b.ProblemParams, b.Env.Graph.N)
	}
	return EstimateOf(b.Scenario, b.Factory, dim, dataBytes, place == Page)
}
