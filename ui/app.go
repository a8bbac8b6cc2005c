//go:build js && wasm

package ui

import (
	"dpsim/core/jsonout"
	"errors"
	"fmt"
	"math"
	"strconv"
	"syscall/js"
	"time"

	"github.com/norunners/vert"

	"dpsim/core/check"
	"dpsim/core/method"
	"dpsim/core/metrics"
	"dpsim/core/privacy"
	"dpsim/core/runner"
	"dpsim/core/scenario"
	"dpsim/core/sim"
	"dpsim/render/scene"
	"dpsim/ui/datafiles"
	"dpsim/ui/query"
)

// MaxSeed is the largest seed the page accepts: JavaScript numbers hold
// integers exactly up to 2^53.
const MaxSeed = query.MaxSeed

// App is the running lab: the current scenario, its runner, the player
// that paces it and the model the view draws.
type App struct {
	// cands keeps the comparison candidates of the scenario on screen
	// (compareCandidates: built once per scenario and files).
	cands  candidateCache
	game   *scene.Driver
	scen   *scenario.Scenario // as loaded, before any seed override
	seed   int64              // −1: the scenario's own four seeds
	built  *scenario.Built
	run    *runner.Runner
	player *scene.Player
	speed  float64
	fast   bool
	// live is the plot's decimated history and headline metric.
	live *Live
	rate rateMeter
	// published is when window.dpsimState was last replaced.
	published time.Time
	warnings  []string
	lastErr   string
	state     State

	// publishSoon republishes the state in a task of its own (onFrame);
	// queued: one is pending.
	publishSoon js.Func
	queued      bool

	// data is the session's cache of fetched dataset files; deferred a
	// URL preset left to the page until it has fetched its datasets.
	data     datafiles.Provided
	deferred *deferredQuery
	// spy is the eavesdropper panel's tap (ui/eavesdrop.go).
	spy spy
	// ghost is the noise-free twin of the run (nil without noise);
	// loads counts installs, so the page knows a scenario was (re)built.
	ghost *Ghost
	// ghostOf is the scenario whose ghost is still to be built: it is
	// built when the run first advances, not with the scenario, so that
	// the page's first frame does not wait for it.
	ghostOf *scenario.Scenario
	loads   int
	// slow is slow motion (SlowPerTurn seconds per sender or round).
	slow bool
	// cmp is the live comparison, nil when none (ui/comparebridge.go).
	cmp *Compare
	// share is what the URL left for the page's share panel (ui/share.go).
	share share
	// viewOut is the last picture handed to the view (ui/viewbridge.go).
	viewOut viewOut
	// rem is the run computed in a Web Worker (a heavy scenario), nil
	// when the run is the page's own (a.run); next is a heavy scenario
	// being built in a Worker, which replaces the run on show once built
	// (ui/remote.go).
	rem, next *remote
	// assumptions are the run's verdicts on its algorithm's assumptions
	// (scenario.Built.Assumptions), decided once per build.
	assumptions []method.Checked
	// twin is the noise-free run the packets' colours compare with (nil
	// without one: ui/twin.go).
	twin *Twin
	// noiseFor is the build (loads) whose noise warning was said.
	noiseFor int
	// workers is the page's Workers setting for heavy runs: pool.Auto
	// (the machine's cores, once an iteration is long enough to gain),
	// 1 (the run's Worker alone) or a count (ui/farm.go).
	workers int
}

// DefaultSpeed is the speed a newly loaded scenario plays at, in
// iterations per second.
const DefaultSpeed = 4

// State is what window.dpsimState holds (docs/bridge.md).
type State struct {
	Ready      bool    `js:"ready"`
	Draws      int     `js:"draws"`
	Running    bool    `js:"running"`
	Iter       int     `js:"iter"`
	Iterations int     `js:"iterations"`
	Optimality float64 `js:"optimality"`
	Consensus  float64 `js:"consensus"`
	// Stationarity is ‖(1/n)·Σ_i ∇f_i(x_i)‖² for a problem without a
	// known optimum, NaN otherwise.
	Stationarity float64 `js:"stationarity"`
	// Headline is the plot's first curve, "optimality" or "stationarity"
	// (a problem without a known optimum); HeadlineLabel what it is, in
	// symbols; ConsensusLabel the same for consensus; MetricNote why
	// there is no ‖x − x*‖ ("" when there is).
	Headline       string `js:"headline"`
	HeadlineLabel  string `js:"headlineLabel"`
	ConsensusLabel string `js:"consensusLabel"`
	MetricNote     string `js:"metricNote"`
	// StopReason says which stop rule ended the run (status "stopped").
	StopReason string `js:"stopReason"`
	// Messages and Activations are the run's communication counters:
	// per-link messages sent, and activations of the most active agent.
	Messages    float64 `js:"messages"`
	Activations float64 `js:"activations"`
	Epsilon     float64 `js:"epsilon"`
	// EpsilonKind says what Epsilon means: "dp" (the accountant's ε),
	// "none" (no noise: no guarantee, nothing hidden) or "unaccounted"
	// (noise, but no DP guarantee: the algorithm claims none);
	// EpsilonReason is the ledger's reason for an infinite ε and
	// EpsilonSource the theorem it comes from.
	EpsilonKind   string `js:"epsilonKind"`
	EpsilonReason string `js:"epsilonReason"`
	EpsilonSource string `js:"epsilonSource"`
	// EpsilonFree says why the accountant counts the first messages as
	// free, from the algorithm's words (method.Words.FreeMessages).
	EpsilonFree string `js:"epsilonFree"`
	// EpsilonText is the ledger's maximum as people read it (5.4, 10^312.4,
	// ∞): Epsilon is +Inf both beyond float64 and without a guarantee.
	EpsilonText string `js:"epsilonText"`
	// EpsilonNote summarises the ledger's infinite-horizon bounds, when
	// the accountant offers one (DP-DGT); "" otherwise.
	EpsilonNote string `js:"epsilonNote"`
	// EpsilonTight… are the tight bound beside the paper's (TightView):
	// the most exposed agent's, with its δ, error and iteration, or why
	// there is none.
	EpsilonTight       float64 `js:"epsilonTight"`
	EpsilonTightText   string  `js:"epsilonTightText"`
	EpsilonTightDelta  float64 `js:"epsilonTightDelta"`
	EpsilonTightError  float64 `js:"epsilonTightError"`
	EpsilonTightIter   int     `js:"epsilonTightIter"`
	EpsilonTightReason string  `js:"epsilonTightReason"`
	EpsilonTightNote   string  `js:"epsilonTightNote"`
	Status             string  `js:"status"`
	Error              string  `js:"error"`
	Scenario           string  `js:"scenario"`
	Title              string  `js:"title"`
	// Description is the scenario's description, in words.
	Description string `js:"description"`
	// Loads counts scenario builds (load, preset, reset, seed,
	// calibration): the page drops what it said about an earlier one.
	Loads int `js:"loads"`
	// GhostIter is how far the noise-free ghost run got (0: no ghost).
	GhostIter int     `js:"ghostIter"`
	Algorithm string  `js:"algorithm"`
	Nodes     int     `js:"nodes"`
	Links     int     `js:"links"`
	Packets   int     `js:"packets"`
	Speed     float64 `js:"speed"`
	Fast      bool    `js:"fast"`
	// Slow is slow motion; SlowSeconds how long the current iteration's
	// messages take (SlowPerTurn per turn), Turns its turns.
	Slow        bool     `js:"slow"`
	SlowSeconds float64  `js:"slowSeconds"`
	Turns       int      `js:"turns"`
	Rate        float64  `js:"rate"`
	HistoryRev  int      `js:"historyRev"`
	Seed        float64  `js:"seed"`
	Warnings    []string `js:"warnings"`
	Channels    []string `js:"channels"`
	// Key describes the packets: each channel, pushed or pulled.
	Key string `js:"key"`
	// Allocation is true for a resource-allocation problem (the
	// allocation panel is drawn); Reading says how the scenario's directed
	// edge list reads ("" for other graphs).
	Allocation bool `js:"allocation"`
	// Large is true when the network is drawn as a flow picture
	// (scene.LargeN): links coloured by noise ÷ signal, agents by spread.
	Large   bool   `js:"large"`
	Reading string `js:"reading"`
	// Labels are the texts to write over the canvas (positions as
	// fractions of its size, sizes in CSS pixels).
	Labels []LabelJS `js:"labels"`
	// Remote says what a Web Worker does for the page: a heavy scenario
	// built, or the run's next iterations computed, there (ui/remote.go).
	Remote RemoteJS `js:"remote"`
	// Legend is the key under the network, from the plug-ins' words
	// (ui.KeyOf); PictureWhere says where the picture stands ("beside",
	// "below" or ""); Panels lists the panels that apply (ui.Panel…).
	Legend       string   `js:"legend"`
	PictureWhere string   `js:"pictureWhere"`
	Panels       []string `js:"panels"`
	// AlgorithmKind and ProblemKind are the plug-ins' names, which the
	// glossary puts first.
	AlgorithmKind string `js:"algorithmKind"`
	ProblemKind   string `js:"problemKind"`
	// Outcome is "worse" or "diverged" once the headline error ended (or,
	// diverging, already is) above its start, "" otherwise; OutcomeText
	// says it with the numbers (Live.Outcome).
	Outcome     string `js:"outcome"`
	OutcomeText string `js:"outcomeText"`
	// HeadlineStart is the headline error at iteration 0 and
	// RoundingFloor the error below which it is floating-point rounding
	// (RoundingShare of the start): a noise-free run below it is compared
	// with nothing.
	HeadlineStart float64 `js:"headlineStart"`
	RoundingFloor float64 `js:"roundingFloor"`
	// NoiseWarning says, once per build, that the noise dominates the run
	// against the noise-free ghost (ui.NoiseWarning), or "".
	NoiseWarning string `js:"noiseWarning"`

	// Delta is the δ of the ledger's (ε, δ) guarantee (the largest over
	// the agents), 0 for pure ε-DP: the page's sentence about ε says it.
	Delta float64 `js:"delta"`
}

// New returns an app with nothing loaded yet.
func New() *App {
	a := &App{seed: -1, speed: DefaultSpeed, spy: spy{agent: -1}}
	a.game = scene.NewDriver(a.onFrame)
	return a
}

// Driver returns the driver that plays the run and builds its pictures.
func (a *App) Driver() *scene.Driver { return a.game }

// Load validates s and makes it the current scenario, at iteration 0 and
// paused. On error nothing changes.
func (a *App) Load(s *scenario.Scenario) error {
	scenario.PinFiles(s) // name the user's files by content (ui/userfiles.go)
	// A deep copy: building fills defaults into its sections, which must
	// not mark the loaded preset as edited (TestPresetLinkAfterBuild).
	cp := buildCopy(s, a.seed)
	if why := heavy(cp); why != "" {
		return a.loadRemote(s, cp, why)
	}
	if err := a.checkData(cp); err != nil {
		return err
	}
	b, err := scenario.BuildFor(cp, scenario.Page)
	if err != nil {
		return err
	}
	a.scen = s
	if a.seed < 0 && s.Seed != nil {
		a.seed = int64(*s.Seed)
	}
	a.install(b)
	return nil
}

func (a *App) install(b *scenario.Built) {
	a.stopRemote() // a run of the page's own ends one in a Worker (ui/remote.go)
	model := newModel(b)
	recs := []sim.Recorder{model}
	// The noise-free twin the packets' colours compare with, when the
	// picture draws single packets of a problem small enough.
	a.twin = nil
	if !model.Large() {
		if a.twin = NewTwin(b); a.twin != nil {
			model.SetReference(a.twin)
			recs = append(recs, a.twin)
		}
	}
	run := newRun(b, append(recs, a.taps(b)...)...)
	run.Start()
	player := scene.NewPlayer(run)
	// Fast-forward never outlives a scenario: a new one starts at its
	// speed, to be watched.
	a.fast = false
	player.SetSpeed(a.speed)
	model.Slow = a.slow
	a.built, a.run, a.player = b, run, player
	a.live = NewLive(b, HistoryBuckets)
	a.ghost, a.ghostOf = nil, b.Scenario
	a.loads++
	a.rate = rateMeter{}
	a.warnings = a.warnings[:0]
	for _, w := range b.Warnings {
		a.warnings = append(a.warnings, w.String())
	}
	a.lastErr = ""
	a.game.Set(player, model)
	a.cmp = nil // a scenario of its own ends a comparison
	a.assumptions = b.Assumptions()
	a.publish()
}

// reset rebuilds the current scenario from its seeds.
func (a *App) reset() error {
	if a.scen == nil {
		return errors.New("no scenario is loaded")
	}
	if a.cmp != nil {
		return a.loadCompare(a.cmp.Source, a.cmp.View)
	}
	return a.Load(a.scen)
}

// LoadText parses and loads a scenario's JSON text.
func (a *App) LoadText(text []byte) error {
	s, err := scenario.Parse(text)
	if err != nil {
		return err
	}
	return a.loadNew(s)
}

// loadNew loads another scenario with its own seed.
func (a *App) loadNew(s *scenario.Scenario) error {
	old, speed, slow := a.seed, a.speed, a.slow
	// A new scenario starts at the default speed, without slow motion
	// (fast-forward is off after every build).
	a.seed, a.speed, a.slow = -1, DefaultSpeed, false
	if err := a.Load(s); err != nil && !errors.Is(err, errPending) {
		a.seed, a.speed, a.slow = old, speed, slow
		return err
	}
	return nil
}

// loading is err, or errPending when a load that succeeded left its
// scenario building in a Worker (loadNew reports that as success to
// Go's callers), so that the page's result says pending.
func (a *App) loading(err error) error {
	if err == nil && a.next != nil {
		return errPending
	}
	return err
}

// LoadPreset loads a built-in scenario.
func (a *App) LoadPreset(name string) error {
	s, err := scenario.PresetScenario(name)
	if err != nil {
		return err
	}
	return a.loadNew(s)
}

// Calibrate sets the current scenario's equal-privacy target: every noise
// scale is multiplied by the factor that makes the algorithm's own
// accountant report ε = eps after the scenario's iterations. eps = 0 (or
// not a number) removes the calibration. On error nothing changes.
func (a *App) Calibrate(eps float64) error {
	if a.scen == nil {
		return errors.New("no scenario is loaded")
	}
	if a.cmp != nil {
		return a.CalibrateAll(eps)
	}
	cp := *a.scen
	cp.Calibrate = nil
	if eps != 0 && !math.IsNaN(eps) {
		cp.Calibrate = &scenario.Calibrate{Epsilon: eps}
	}
	return a.Load(&cp)
}

// TheoryView is what the page's theory card shows (window.dpsim.theory()).
type TheoryView struct {
	Algorithm string `json:"algorithm"`
	// Paper cites the algorithm's source, with its confidence for the
	// baselines.
	Paper  string             `json:"paper"`
	Theory *method.Theory     `json:"theory,omitempty"`
	Steady runner.SteadyState `json:"steady_state"`
	// OptimalityMetric and ConsensusMetric say what the two metrics are
	// for this problem and algorithm, in symbols (metrics.Describe).
	OptimalityMetric string `json:"optimality_metric"`
	ConsensusMetric  string `json:"consensus_metric"`
	// MetricNote says why a metric is missing (no ‖x − x*‖ for a problem
	// without a known optimum), and StationarityMetric what is recorded
	// instead; both empty otherwise.
	MetricNote         string               `json:"metric_note,omitempty"`
	StationarityMetric string               `json:"stationarity_metric,omitempty"`
	Calibration        *privacy.Calibration `json:"calibration,omitempty"`
	Target             float64              `json:"target_epsilon"`
	// Assumptions are the algorithm's source's assumptions, each with
	// whether it holds for this run.
	Assumptions []method.Checked `json:"assumptions"`
	// Outcome and OutcomeText are State's: a run that ended (or is
	// diverging) above its start contradicts any convergence claim.
	Outcome     string         `json:"outcome,omitempty"`
	OutcomeText string         `json:"outcome_text,omitempty"`
	RhoW        *float64       `json:"rho_w"`
	RhoWo       *float64       `json:"rho_wo"`
	Epsilon     privacy.Amount `json:"epsilon"`
}

func (a *App) theoryView() TheoryView {
	return theoryOf(a.built, a.run, a.assumptions, a.state.Outcome, a.state.OutcomeText)
}

// theoryOf is the theory card of run, a run of b, with the verdicts on
// its algorithm's assumptions and how its headline error ended.
func theoryOf(b *scenario.Built, run *runner.Runner, assumptions []method.Checked, outcome, outcomeText string) TheoryView {
	v := TheoryView{Algorithm: b.Factory.Title, Paper: b.Factory.Paper, Theory: b.Theory,
		Steady: run.SteadyState(), Calibration: b.Calibration, Epsilon: run.LedgerWithin(runner.LiveTightEvery).Max,
		Assumptions: assumptions, Outcome: outcome, OutcomeText: outcomeText}
	if v.Assumptions == nil {
		v.Assumptions = []method.Checked{}
	}
	d := metrics.Describe(b.Env.Problem, b.Factory.Output != "")
	v.OptimalityMetric, v.ConsensusMetric, v.MetricNote, v.StationarityMetric = d.Optimality, d.Consensus, d.Note, d.Stationarity
	if c := b.Scenario.Calibrate; c != nil {
		v.Target = c.Epsilon
	}
	if r := b.Env.Report; r.HasRhoW {
		v.RhoW = &r.RhoW
	}
	if r := b.Env.Report; r.HasRhoWo {
		v.RhoWo = &r.RhoWo
	}
	return v
}

// SetSeed sets the scenario's seed to n (the four stream seeds derive from
// it, as for "seed": n in a scenario file) and resets.
func (a *App) SetSeed(n float64) error {
	if math.IsNaN(n) || n != math.Trunc(n) || n < 0 || n > MaxSeed {
		return check.Errorf("seed", "must be a whole number from 0 to %d (got %v)", int64(MaxSeed), n)
	}
	old := a.seed
	a.seed = int64(n)
	if err := a.reset(); err != nil && !errors.Is(err, errPending) {
		a.seed = old
		return err
	}
	return nil
}

// PublishEvery is how often, at most, a frame republishes the state: vert
// builds the JS object by reflection, a few milliseconds each time, which
// fast-forward would rather spend on iterations. Calls from the page
// publish at once.
const PublishEvery = 100 * time.Millisecond

func (a *App) onFrame() {
	a.pace()
	a.compareFrame()
	a.remoteFrame()
	a.state.Draws = a.game.Draws()
	now := time.Now()
	switch {
	case a.state.Draws <= 3:
		a.publish()
	case now.Sub(a.published) >= PublishEvery && !a.queued:
		// In a task of its own, after the frame's: reading the ledger of
		// thousands of agents and building the state object take
		// milliseconds that would lengthen the frame's task past 50 ms.
		if a.publishSoon.IsUndefined() {
			a.publishSoon = js.FuncOf(func(js.Value, []js.Value) any {
				a.queued = false
				a.publish()
				return nil
			})
		}
		a.queued = true
		js.Global().Call("setTimeout", a.publishSoon, 0)
	}
}

// pace sizes slow motion to the latest step: SlowPerTurn seconds per
// turn (sender, or round), so that every message travels for over a
// second however many agents speak.
func (a *App) pace() {
	m := a.game.Model()
	if a.player == nil || m == nil {
		return
	}
	m.Slow = a.slow
	d := 0.0
	if a.slow {
		d = SlowPerTurn * float64(m.Groups())
	}
	if a.player.Slow() != d {
		a.player.SetSlow(d)
	}
}

// publish replaces window.dpsimState.
func (a *App) publish() {
	a.published = time.Now()
	st := &a.state
	st.Ready = st.Draws > 0
	st.Draws = a.game.Draws()
	st.Speed = a.speed
	st.Fast = a.fast
	st.Seed = float64(a.seed)
	st.Warnings = a.warnings
	st.Remote = a.remoteState()
	if a.rem != nil {
		a.publishRemote(st)
	} else if a.built != nil {
		b := a.built
		st.Scenario, st.Title, st.Algorithm = b.Scenario.Name, b.Scenario.Title, b.Factory.Title
		st.Description, st.Loads = b.Scenario.Description, a.loads
		st.Iterations = b.Scenario.Iterations
		st.Nodes, st.Links = b.Env.Graph.N, b.Env.Graph.Links()
		st.Iter = a.run.Iter()
		a.live.Feed(&a.run.Metrics.Series)
		st.HistoryRev = a.histRev()
		st.Rate = a.rate.update(st.Iter)
		last := a.run.Metrics.Latest()
		st.Optimality, st.Consensus = last.Optimality, last.Consensus
		st.Stationarity = a.live.Stationarity(last)
		st.Headline, st.HeadlineLabel = a.live.Headline()
		st.ConsensusLabel, st.MetricNote = a.live.Desc.Consensus, a.live.Desc.Note
		c := a.run.Counters()
		_, most := c.MaxActivations()
		st.Messages, st.Activations = float64(c.Messages), float64(most)
		led := a.ledger()
		mx := led.Max
		st.Epsilon, st.EpsilonText = mx.Value(), mx.String()
		st.setTight(tightOf(led))
		st.EpsilonKind, st.EpsilonReason, st.EpsilonSource = epsilonKind(b, led), "", led.Source
		st.EpsilonFree = b.Factory.Words.FreeMessages
		if mx.NoGuarantee() {
			st.EpsilonReason = ledgerReason(led)
		}
		st.Delta = maxDelta(led)
		st.EpsilonNote = ""
		if sm, ok := b.Accountant.(interface{ Summary() string }); ok {
			st.EpsilonNote = sm.Summary()
		}
		st.Running = a.player.Running()
		st.Slow, st.SlowSeconds = a.slow, a.player.Slow()
		a.modelState(st)
		st.Reading = readingText(b)
		st.AlgorithmKind, st.ProblemKind = b.Factory.Name, b.ProblemFactory.Name
		k := KeyOf(b, a.game.Model(), a.game.Frame())
		st.Legend, st.PictureWhere, st.Panels = k.Text, k.Where, k.Panels
		start, _ := a.live.Ends(&a.run.Metrics.Series)
		st.HeadlineStart, st.RoundingFloor = start, start*RoundingShare
		status, why := Status(a.run, st.Running, a.live)
		a.endState(st, &a.run.Metrics.Series, status, why, a.run.Err(), a.run.Done())
		budget := 3 * time.Millisecond
		if a.fast {
			budget = 0 // fast-forward's time is the run's: the ghost waits
		}
		if a.ghostOf != nil && st.Iter > 0 {
			a.ghost, a.ghostOf = NewGhost(a.ghostOf), nil
		}
		st.GhostIter = a.ghost.CatchUp(st.Iter, budget)
		if a.noiseFor != a.loads {
			st.NoiseWarning = ""
			it, own, g := a.live.NoiseAt(&a.run.Metrics.Series, a.ghost)
			if w := NoiseWarning(st.Headline, it, own, g, st.RoundingFloor); w != "" {
				st.NoiseWarning, a.noiseFor = w, a.loads // said once per build
			}
		}
	}
	js.Global().Set("dpsimState", vert.ValueOf(st).JSValue())
}

// endState sets the run's status and what goes with it, for a run whose
// recorded series is s, whose error is runErr (nil unless it diverged)
// and which is done or not: the error of a diverged run, the stop rule's
// reason, how its headline error ended (Live.Outcome), fast-forward
// turned off at the end.
func (a *App) endState(st *State, s *metrics.Series, status, why string, runErr error, done bool) {
	st.Error, st.StopReason, st.Status = a.lastErr, "", status
	switch status {
	case "diverged":
		if runErr != nil { // else the error grew: Outcome says it
			st.Error = why
		}
	case "stopped":
		st.StopReason = why
	}
	st.Outcome, st.OutcomeText = a.live.Outcome(s)
	if !done && runErr == nil && st.Outcome != OutcomeDiverged {
		// Part-way, noise lifts the error above its start for a
		// while: only growth without bound contradicts a claim yet.
		st.Outcome, st.OutcomeText = "", ""
	}
	if runErr != nil {
		st.Outcome, st.OutcomeText = OutcomeDiverged, why
	}
	if a.fast && (done || runErr != nil) {
		// The run has ended: the next one starts at the chosen speed.
		a.fast = false
		a.player.SetFast(false)
	}
	st.Fast = a.fast
}

// modelState fills what the state says of the picture's model: its
// turns, packets, channels and panels, and the labels over the canvas.
func (a *App) modelState(st *State) {
	st.Turns = 0
	if m := a.game.Model(); m != nil {
		st.Turns = m.Groups()
		st.Packets = m.PacketCount()
		st.Channels = m.Channels()
		st.Key = packetKey(m)
		st.Allocation = m.Allocation() != nil
		st.Large = m.Large()
	}
	st.Labels = labelsOf(a.game.Frame(), cssRatio(a.game.Model()), st.Labels[:0])
}

// rateMeter measures iterations per second over about the last second.
type rateMeter struct {
	t0   time.Time
	it0  int
	rate float64
}

func (r *rateMeter) update(iter int) float64 {
	now := time.Now()
	switch {
	case r.t0.IsZero() || iter < r.it0:
		r.t0, r.it0, r.rate = now, iter, 0
	case now.Sub(r.t0) >= time.Second:
		r.rate = float64(iter-r.it0) / now.Sub(r.t0).Seconds()
		r.t0, r.it0 = now, iter
	}
	return r.rate
}

// result is what load, loadPreset and setSeed return to the page.
type result struct {
	OK       bool     `js:"ok"`
	Error    string   `js:"error"`
	Warnings []string `js:"warnings"`
	// Pending says the scenario is being built in a Web Worker: it
	// replaces the run on show once built (its warnings, or its error,
	// come then, with dpsimState.loads or .error).
	Pending bool `js:"pending"`
}

func (a *App) result(err error) any {
	r := result{OK: err == nil, Warnings: []string{}}
	if errors.Is(err, errPending) {
		r.OK, r.Pending = true, true
	} else if err != nil {
		r.Error = err.Error()
		a.lastErr = r.Error
	} else {
		r.Warnings = append(r.Warnings, a.warnings...)
	}
	a.publish()
	return vert.ValueOf(r).JSValue()
}

// Register installs window.dpsim, then announces readiness. Call it
// before ebiten.RunGame, which never returns in the browser.
func (a *App) Register() {
	api := js.Global().Get("Object").New()
	fn := func(name string, f func(args []js.Value) any) {
		api.Set(name, js.FuncOf(func(_ js.Value, args []js.Value) (out any) {
			// A Go panic would stop the program for good: report it instead.
			defer func() {
				if r := recover(); r != nil {
					a.lastErr = fmt.Sprintf("internal error in %s: %v", name, r)
					out = js.Global().Get("Error").New(a.lastErr)
				}
			}()
			return f(args)
		}))
	}
	fn("play", func([]js.Value) any {
		if a.player != nil {
			a.player.Play()
		}
		a.publish()
		return nil
	})
	fn("pause", func([]js.Value) any {
		if a.player != nil {
			a.player.Pause()
		}
		a.publish()
		return nil
	})
	fn("step", func([]js.Value) any {
		if a.rem != nil {
			a.rem.step()
		} else if a.player != nil {
			a.player.StepOnce()
		}
		a.publish()
		return nil
	})
	fn("reset", func([]js.Value) any { return a.result(a.reset()) })
	fn("setSpeed", func(args []js.Value) any {
		if len(args) > 0 && args[0].Type() == js.TypeNumber {
			v := args[0].Float()
			if !math.IsNaN(v) {
				a.speed = math.Min(math.Max(v, scene.MinSpeed), scene.MaxSpeed)
				if a.player != nil {
					a.player.SetSpeed(a.speed)
				}
			}
		}
		a.publish()
		return nil
	})
	fn("setFast", func(args []js.Value) any {
		if len(args) > 0 && args[0].Type() == js.TypeBoolean {
			a.fast = args[0].Bool()
			if a.fast {
				// The twin would double fast-forward's work: it stops, and
				// the colours compare each fresh noise with its message.
				a.twin.Stop()
				a.slow = false // fast-forward and slow motion exclude each other
				a.pace()
			}
			if a.player != nil {
				a.player.SetFast(a.fast)
			}
		}
		a.publish()
		return nil
	})
	fn("setSlow", func(args []js.Value) any {
		if len(args) > 0 && args[0].Type() == js.TypeBoolean {
			a.slow = args[0].Bool()
			if a.slow && a.fast {
				a.fast = false
				if a.player != nil {
					a.player.SetFast(false)
				}
			}
			a.pace()
		}
		a.publish()
		return nil
	})
	fn("inspect", func(args []js.Value) any {
		if (a.run == nil && a.rem == nil) || len(args) < 2 || args[0].Type() != js.TypeNumber || args[1].Type() != js.TypeNumber {
			return `{"kind":""}`
		}
		m := a.game.Model()
		led, kind, counters := a.privacyNow()
		in := Inspect(m, a.game.Frame(), cssRatio(m), args[0].Float(), args[1].Float(), led, kind, counters)
		out, _ := jsonout.Marshal(in)
		return string(out)
	})
	fn("badges", func([]js.Value) any {
		m, f := a.game.Model(), a.game.Frame()
		if (a.run == nil && a.rem == nil) || m == nil || f == nil {
			return "[]"
		}
		led, kind, counters := a.privacyNow()
		out, _ := jsonout.Marshal(Badges(f, cssRatio(m), led, kind, counters))
		return string(out)
	})
	fn("packetsOnScreen", func([]js.Value) any {
		m, f := a.game.Model(), a.game.Frame()
		if m == nil || f == nil {
			return "[]"
		}
		out, _ := jsonout.Marshal(OnScreen(m, f, cssRatio(m)))
		return string(out)
	})
	fn("history", func([]js.Value) any {
		o := js.Global().Get("Object").New()
		var it, opt, cons, obj, stat []float64
		if s := a.series(); s != nil && a.live != nil {
			a.live.Feed(s)
			it, opt, cons, obj, stat = a.live.Points()
			o.Set("rev", a.histRev())
		}
		setColumns(o, it, opt, cons, obj, stat)
		a.compareHistory(o, it, opt, stat)
		if a.rem != nil {
			if g := a.rem.ghostAt(it); g != nil {
				o.Set("ghost", float64sToJS(g))
			}
		} else if a.ghost != nil {
			if !a.fast {
				a.ghost.CatchUp(a.run.Iter(), 3*time.Millisecond)
			}
			o.Set("ghost", float64sToJS(a.ghost.At(it, stat != nil)))
		}
		return o
	})
	fn("setWorkers", func(args []js.Value) any {
		num, isNum, shown := 0.0, false, "nothing"
		if len(args) > 0 {
			isNum = args[0].Type() == js.TypeNumber
			if isNum {
				num = args[0].Float()
			} else {
				shown = jsShown(args[0])
			}
		}
		n, err := CheckWorkers(num, isNum, shown)
		if err == nil {
			a.workers = n
		}
		return a.result(err)
	})
	fn("workersMax", func([]js.Value) any { return MaxWorkers })
	fn("setSeed", func(args []js.Value) any {
		if len(args) == 0 || args[0].Type() != js.TypeNumber {
			return a.result(check.Errorf("seed", "must be a whole number from 0 to %d", int64(MaxSeed)))
		}
		return a.result(a.SetSeed(args[0].Float()))
	})
	fn("load", func(args []js.Value) any {
		if len(args) == 0 || args[0].Type() != js.TypeString {
			return a.result(errors.New("load needs the scenario's JSON text"))
		}
		return a.result(a.loading(a.LoadText([]byte(args[0].String()))))
	})
	fn("loadPreset", func(args []js.Value) any {
		if len(args) == 0 || args[0].Type() != js.TypeString {
			return a.result(errors.New("loadPreset needs a preset name"))
		}
		return a.result(a.loading(a.LoadPreset(args[0].String())))
	})
	fn("presets", func([]js.Value) any {
		arr := js.Global().Get("Array").New()
		for _, p := range scenario.Presets() {
			o := js.Global().Get("Object").New()
			o.Set("name", p.Name)
			o.Set("title", p.Title)
			arr.Call("push", o)
		}
		return arr
	})
	fn("scenario", func([]js.Value) any {
		if a.rem != nil {
			return string(a.rem.head.Scenario)
		}
		if a.built == nil {
			return ""
		}
		return string(a.built.Scenario.JSON())
	})
	fn("metrics", func(args []js.Value) any {
		from := 0
		if len(args) > 0 && args[0].Type() == js.TypeNumber {
			from = max(args[0].Int(), 0)
		}
		o := js.Global().Get("Object").New()
		var it, opt, cons, obj, stat []float64
		if s := a.series(); s != nil {
			for i := from; i < s.Len(); i++ {
				it = append(it, float64(s.Iter[i]))
			}
			if from < s.Len() {
				opt, cons, obj = s.Optimality[from:], s.Consensus[from:], s.Objective[from:]
			}
			stat = a.live.StationarityColumn(s, from)
		}
		setColumns(o, it, opt, cons, obj, stat)
		return o
	})
	fn("ledger", func([]js.Value) any {
		if a.rem != nil {
			return string(a.rem.sum.Ledger)
		}
		if a.run == nil {
			return ""
		}
		js, _ := jsonout.Marshal(a.run.Ledger())
		return string(js)
	})
	fn("calibrate", func(args []js.Value) any {
		eps := 0.0
		if len(args) > 0 && args[0].Type() == js.TypeNumber {
			eps = args[0].Float()
		}
		return a.result(a.Calibrate(eps))
	})
	fn("calibratePreview", func(args []js.Value) any {
		if a.rem != nil {
			// Previewing builds the scenario twice and runs a trial: for a
			// heavy scenario that is the Worker's work, when it calibrates.
			return `{"remote":true,"large":false}`
		}
		if a.built == nil || len(args) == 0 || args[0].Type() != js.TypeNumber {
			return `{"error":"calibratePreview needs a target ε"}`
		}
		eps := args[0].Float()
		if !(eps > 0) || math.IsInf(eps, 0) {
			return fmt.Sprintf(`{"error":%q}`, check.Errorf("target ε", "must be a number > 0 (got %v)", eps).Error())
		}
		p, err := PreviewCalibration(a.built.Scenario, eps)
		if err != nil {
			return fmt.Sprintf(`{"error":%q}`, err.Error())
		}
		out, _ := jsonout.Marshal(p)
		return string(out)
	})
	fn("theory", func([]js.Value) any {
		if a.rem != nil {
			return a.rem.theory(a.state.Outcome, a.state.OutcomeText)
		}
		if a.run == nil {
			return ""
		}
		js, _ := jsonout.Marshal(a.theoryView())
		return string(js)
	})
	fn("glossary", func([]js.Value) any {
		g := GlossaryOf(a.built)
		if r := a.rem; r != nil {
			g = glossaryFor(factoryNamed(r.head.AlgorithmKind), problemNamed(r.head.ProblemKind))
		}
		out, _ := jsonout.Marshal(g)
		return string(out)
	})
	fn("presetMenu", func([]js.Value) any {
		out, _ := jsonout.Marshal(scenario.PresetMenu())
		return string(out)
	})
	fn("plugins", func([]js.Value) any {
		js, err := jsonout.Marshal(scenario.Plugins())
		if err != nil {
			a.lastErr = "plugins: " + err.Error()
			return ""
		}
		return string(js)
	})
	a.registerData(fn)
	a.registerExport(fn)
	a.registerEavesdrop(fn)
	a.registerCompare(fn)
	a.registerTour(fn)
	a.registerShare(fn)
	a.registerBuilder(fn)
	a.registerView(fn)
	a.registerRemote(fn)
	a.registerInspect(fn)
	js.Global().Set("dpsim", api)
	a.publish()
	js.Global().Set("dpsimReady", true)
	js.Global().Call("dispatchEvent", js.Global().Get("Event").New("dpsim-ready"))
}

// ApplyQuery reads the page's URL (parsed by package query; docs/url.md)
// and applies its parameters in the order of query.Keys: the scenario,
// comparison or preset, its seed, its target ε, the speed. (The parts to
// hide are the page's: public/share.js.) A bad value is reported in
// dpsimState.error and by dpsim.shareErrors, and otherwise ignored.
func (a *App) ApplyQuery() {
	q, errs := query.Parse(js.Global().Get("location").Get("search").String())
	errs = a.applyRun(q, errs)
	if q.Speed != nil {
		a.speed = *q.Speed
		if a.player != nil {
			a.player.SetSpeed(a.speed)
		}
	}
	a.share.errs = a.share.errs[:0]
	for _, e := range errs {
		a.share.errs = append(a.share.errs, e.Error())
	}
	if len(errs) > 0 {
		a.lastErr = query.Describe(errs)
	}
	a.publish()
}

// LabelJS is one label of window.dpsimState.labels: X and Y are fractions
// of the canvas's width and height, Size a font size in CSS pixels.
type LabelJS struct {
	X      float64 `js:"x"`
	Y      float64 `js:"y"`
	Text   string  `js:"text"`
	Align  string  `js:"align"`
	Valign string  `js:"valign"`
	Size   float64 `js:"size"`
	Class  string  `js:"cls"`
}

// labelsOf converts the frame's labels for the page (none before the
// first frame): the frame is in canvas pixels, ratio of them per CSS
// pixel.
func labelsOf(f *scene.Frame, ratio float64, dst []LabelJS) []LabelJS {
	if f == nil || f.W <= 0 || f.H <= 0 {
		return dst
	}
	for _, l := range f.Labels {
		dst = append(dst, LabelJS{X: l.X / float64(f.W), Y: l.Y / float64(f.H), Text: l.Text,
			Align: l.Align, Valign: l.Valign, Size: l.Size / ratio, Class: l.Class})
	}
	return dst
}

// packetKey describes the packets of the latest iteration: which channels
// travel, pushed (filled) or pulled (hollow).
func packetKey(m *scene.Model) string {
	out := ""
	for _, c := range m.Channels() {
		if out != "" {
			out += " · "
		}
		if m.Pulled(c) {
			out += c + " pulled (hollow)"
		} else {
			out += c + " sent (filled)"
		}
	}
	return out
}

// readingText says which reading of the edge list is in force.
func readingText(b *scenario.Built) string {
	g := b.Scenario.Graph
	if !b.Env.Graph.Directed || g.Kind != "edges" {
		return ""
	}
	if g.Reading == scenario.ReadToFrom {
		return "edge list read \"to-from\": (i, j) is a link j → i, the DP-DGT paper's reading"
	}
	return "edge list read \"from-to\": [a, b] is a link a → b"
}

// setTight writes the tight bound beside the paper's into the state.
func (st *State) setTight(tv TightView) {
	st.EpsilonTight, st.EpsilonTightText, st.EpsilonTightDelta = tv.Value, tv.Text, tv.Delta
	st.EpsilonTightError, st.EpsilonTightIter, st.EpsilonTightReason = tv.Error, tv.Iter, tv.Reason
	st.EpsilonTightNote = tv.Note
}

// ledger is the run's ledger as the page shows it live: while the run
// plays fast, its tight bound is refreshed every runner.LiveTightEvery
// iterations; in slow motion and paused, at every iteration.
func (a *App) ledger() privacy.Ledger {
	if a.player != nil && a.player.Running() && !a.slow {
		return a.run.LedgerWithin(runner.LiveTightEvery)
	}
	return a.run.Ledger()
}

// epsilonKind says what the ledger's ε means for the page: "dp" when
// the accountant gives a finite ε, "none" without noise, and
// "unaccounted" when the run adds noise but its ε is infinite (DDGT and
// diff-DRADT carry DP-DGT's noise but claim no differential privacy).
func epsilonKind(b *scenario.Built, led privacy.Ledger) string {
	switch {
	case !led.Max.NoGuarantee():
		return "dp"
	case Noisy(b.Scenario):
		return "unaccounted"
	}
	return "none"
}

// ledgerReason returns why the ledger's ε is infinite, in its words.
func ledgerReason(led privacy.Ledger) string {
	for _, e := range led.Agents {
		if e.Reason != "" {
			return e.Reason
		}
	}
	if len(led.Notes) > 0 {
		return led.Notes[0]
	}
	return ""
}

// jsShown is a JavaScript value as a one-line error shows it: a string
// quoted (its first 40 characters), anything else by its type.
func jsShown(v js.Value) string {
	if v.Type() == js.TypeString {
		s := []rune(v.String())
		if len(s) > 40 {
			return strconv.Quote(string(s[:40])) + "…"
		}
		return strconv.Quote(string(s))
	}
	return v.Type().String()
}
