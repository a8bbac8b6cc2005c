package ui

import (
	"math"
	"time"

	"dpsim/core/data"
	"dpsim/core/runner"
	"dpsim/core/scenario"
	"dpsim/render/scene"
	"dpsim/render/sceneof"
)

// Compare is a live comparison on the page: every entry of a
// scenario.Comparison runs on the same problem instance, graph and
// seeds. One entry, View, is the page's run (the player paces it, the
// view animates it, the readout describes it); the others follow it,
// catching up to its iteration frame by frame, so that all advance
// together. Every entry records into its own scene model from the
// start, so the view can switch to any of them without replaying. It
// holds no syscall/js, so that it is tested natively.
type Compare struct {
	// Source is the comparison as loaded (before the page's seed
	// override); Cmp is what runs.
	Source, Cmp *scenario.Comparison
	Built       *scenario.CompareBuilt
	Entries     []*CompareEntry
	// View is the entry the view animates; Switches counts view changes
	// (so the plot's revision changes with them).
	View     int
	Switches int
}

// CompareEntry is one running entry.
type CompareEntry struct {
	Built *scenario.Built
	Run   *runner.Runner
	Live  *Live
	Model *scene.Model
	// probe reads the run as the ghost reads its own: catch-up within a
	// time budget, values at the plot's iterations.
	probe *Ghost
}

// NewCompare starts every entry of a built comparison at iteration 0.
func NewCompare(src, c *scenario.Comparison, cb *scenario.CompareBuilt) *Compare {
	out := &Compare{Source: src, Cmp: c, Built: cb}
	for _, b := range cb.Entries {
		model := scene.NewModel(b.Env.Graph, sceneof.Plane(b.Env.Problem))
		model.SetAllocation(sceneof.Allocation(b.Env.Problem))
		run := runner.New(b, model)
		run.Start()
		out.Entries = append(out.Entries, &CompareEntry{Built: b, Run: run, Live: NewLive(b, HistoryBuckets),
			Model: model, probe: &Ghost{run: run, live: NewLive(b, 1)}})
	}
	return out
}

// CatchUp advances every entry but the viewed one towards iteration
// iter, each for at most budget of wall-clock time.
func (c *Compare) CatchUp(iter int, budget time.Duration) {
	for i, e := range c.Entries {
		if i != c.View {
			e.probe.CatchUp(iter, budget)
		}
	}
}

// Progress is a number that changes whenever an entry advances or the
// view switches: the plot redraws when it does.
func (c *Compare) Progress() int {
	n := c.Switches << 28
	for _, e := range c.Entries {
		n += e.Run.Iter()
	}
	return n
}

// At returns every entry's headline metric at each of iters: the viewed
// entry's is headline (the page's own history), the others' are read
// from their series (NaN where they have not got there).
func (c *Compare) At(iters, headline []float64, stationarity bool) [][]float64 {
	out := make([][]float64, len(c.Entries))
	for i, e := range c.Entries {
		if i == c.View {
			out[i] = headline
			continue
		}
		out[i] = e.probe.At(iters, stationarity)
	}
	return out
}

// CompareCandidates lists every algorithm as the comparison card may
// add it to a comparison on base: the entry that runs it there, checked
// by building it on base in the page (scenario.Candidates), or why none
// does. The card offers only the runnable ones.
func CompareCandidates(base *scenario.Scenario) []scenario.Candidate {
	return scenario.Candidates(base, scenario.Page)
}

// CompareCandidatesOn is what the comparison card offers on s, the
// scenario on screen, and whether it is final. A comparison builds and
// runs every entry on the page's thread, even when s itself is computed
// in a Worker (remote: it trains on a dataset or the user's files); but
// the candidates of such a run are built by its Worker, where the data
// already is (WorkerCandidates, asked through worker, which says false
// until the Worker has answered): built here, they decoded the dataset
// on the page, a second copy beside the Worker's, kept for a card that
// may never be used. A scenario whose build would hold the page's
// thread for long (heavyBuild) cannot be compared, which every
// algorithm's reason then says. Before, a run computed in a Worker had
// no candidates at all, and the card called each algorithm it dropped
// "unknown".
func CompareCandidatesOn(s *scenario.Scenario, remote bool, worker func() ([]scenario.Candidate, bool)) ([]scenario.Candidate, bool) {
	if !remote {
		return CompareCandidates(s), true
	}
	if why := heavyBuild(s); why != "" {
		return scenario.Unavailable("a comparison builds and runs every entry on the page's thread, and this scenario is too heavy for it (" + why + ")"), true
	}
	return worker()
}

// WorkerCandidates are the comparison candidates on the scenario a
// Worker runs (text: its built scenario, as the page reads it), built in
// that Worker, which holds its data (ui.Serve's candidates).
func WorkerCandidates(text []byte) []scenario.Candidate {
	s, err := scenario.Parse(text)
	if err != nil {
		return scenario.Unavailable(err.Error())
	}
	return CompareCandidates(s)
}

// candidateCache keeps the comparison candidates of the last scenario
// they were built for: the card asks for them on every redraw, and a
// Reset or a rebuild of the same scenario must not build every
// algorithm's entry again.
type candidateCache struct {
	key, json string
}

// get returns the candidates of base: those kept when base is the
// scenario they were built for, else build's, kept unless build says
// they are not final (its data not on the page yet: asked again later).
func (c *candidateCache) get(base *scenario.Scenario, build func() (out string, final bool)) string {
	key := candidatesKey(base)
	if key == c.key {
		return c.json
	}
	out, final := build()
	if final {
		c.key, c.json = key, out
	}
	return out
}

// candidatesKey names what base's candidates were built from: its text
// and the content (sha256) of each of the user's files it names, which
// its text may name without pinning — another file picked under the
// same name is another base.
func candidatesKey(base *scenario.Scenario) string {
	key := string(base.JSON())
	for _, f := range scenario.UserFiles(base) {
		sha, _ := data.UserSHA256(f.Name)
		key += "\x00" + f.Name + "\x00" + sha
	}
	return key
}

// CompareView is what the page's comparison card shows
// (window.dpsim.compareState()).
type CompareView struct {
	Title string `json:"title"`
	// Target is the ε every entry was asked to meet (0: none).
	Target float64            `json:"target"`
	View   int                `json:"view"`
	Items  []CompareEntryView `json:"entries"`
}

// CompareEntryView is one entry of CompareView. Epsilon is the ledger's
// maximum over agents after the iterations run so far — read from the
// run, not assumed from the calibration — nil when it is not a finite
// number (EpsilonText then says ∞ or 10^x).
type CompareEntryView struct {
	Label      string   `json:"label"`
	Kind       string   `json:"kind"`
	Iter       int      `json:"iter"`
	Iterations int      `json:"iterations"`
	Epsilon    *float64 `json:"epsilon"`
	// EpsilonText is the ledger's maximum as people read it.
	EpsilonText string `json:"epsilonText"`
	// Calibrated says the entry's noise was calibrated to Target;
	// Note says why not, when a target was asked and it could not be.
	Calibrated bool   `json:"calibrated"`
	Note       string `json:"note"`
	// Headline is the entry's latest optimality (or stationarity, for a
	// problem without a known optimum), nil when not finite.
	Headline *float64 `json:"headline"`
	Status   string   `json:"status"`
}

// Report describes every entry.
func (c *Compare) Report() CompareView {
	v := CompareView{Title: c.Cmp.Title, View: c.View, Items: []CompareEntryView{}}
	if cal := c.Cmp.Calibrate; cal != nil {
		v.Target = cal.Epsilon
	} else if cal := c.Cmp.BaseScenario().Calibrate; cal != nil {
		v.Target = cal.Epsilon
	}
	for i, e := range c.Entries {
		led := e.Run.Ledger()
		ev := CompareEntryView{Label: c.Built.Labels[i], Kind: e.Built.Factory.Name, Iter: e.Run.Iter(),
			Iterations: e.Built.Scenario.Iterations, EpsilonText: led.Max.String(),
			Calibrated: e.Built.Calibration != nil, Note: c.Built.Notes[i]}
		if x := led.Max.Value(); !math.IsInf(x, 0) && !math.IsNaN(x) {
			ev.Epsilon = &x
		}
		if ev.Note == "" && !ev.Calibrated && v.Target > 0 {
			ev.Note = "not calibrated"
		}
		last := e.Run.Metrics.Latest()
		h := last.Optimality
		if e.Live.Desc.Stationarity != "" {
			e.probe.live.bind(&e.Run.Metrics.Series)
			h = e.probe.live.Stationarity(last)
		}
		if !math.IsInf(h, 0) && !math.IsNaN(h) {
			ev.Headline = &h
		}
		ev.Status, _ = Status(e.Run, false, e.Live)
		v.Items = append(v.Items, ev)
	}
	return v
}
