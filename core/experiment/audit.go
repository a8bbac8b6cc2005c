package experiment

import (
	"context"
	"errors"
	"fmt"
	"math"

	"dpsim/core/audit"
	"dpsim/core/check"
	"dpsim/core/jsonout"
	"dpsim/core/jsonstrict"
	"dpsim/core/method"
	"dpsim/core/noise"
	"dpsim/core/objective"
	"dpsim/core/privacy"
	"dpsim/core/runner"
	"dpsim/core/scenario"
	"dpsim/core/sim"
)

// Audit makes an experiment a privacy audit: the distinguishing
// experiment of docs/privacy-truth.md. The engine makes its two series
// itself — the base scenario on its data D, and on the neighbour D′ in
// which one agent's data changed within the algorithm's adjacency (the
// problem makes it: objective.Neighbouring) — runs each `runs` times with
// fresh noise and the scenario's own data, graph and algorithm seeds,
// computes an eavesdropper's statistics on the agent's messages in every
// run, and turns their false-positive and false-negative rates into a
// lower bound on ε with its confidence (Result.Audit).
type Audit struct {
	// Agent is the audited agent; nil: the one the ledger charges most.
	Agent *int `json:"agent,omitempty"`
	// Delta is the δ at which ε is bounded; nil: the ledger's δ of the
	// agent (0 for a pure ε-DP ledger).
	Delta *float64 `json:"delta,omitempty"`
	// Confidence of the lower bound (default 0.95); each of the two tests
	// is taken at half the risk, so that the larger bound holds at it.
	Confidence float64 `json:"confidence,omitempty"`
	// Adjacency replaces the algorithm's own (method.Adjacent): needed
	// for an algorithm that states none, and a way to plant a leak (a
	// bound twice the paper's doubles the sensitivity).
	Adjacency *objective.Adjacency `json:"adjacency,omitempty"`
	// Leak, in (0, 1), plants a leak: the runs draw every noise at Leak
	// times the scenario's scale while the ledger still charges the
	// scenario's — an implementation that draws less noise than it
	// claims, which the audit must catch (0: none).
	Leak float64 `json:"leak,omitempty"`
	// ROCPoints bounds the points of each ROC curve (default 101).
	ROCPoints int `json:"roc_points,omitempty"`
}

// The audit's series and per-run quantities.
const (
	AuditD         = "D"
	AuditNeighbour = "neighbour"
	// QuantityLR and QuantityProjection are the eavesdropper's
	// statistics of a run (audit.Listener); QuantityClaim and
	// QuantityClaimLog10 the ledger's ε of the audited agent after the
	// run, and its log10.
	QuantityLR         = "audit_likelihood_ratio"
	QuantityProjection = "audit_projection"
	QuantityClaim      = "audit_epsilon"
	QuantityClaimLog10 = "audit_epsilon_log10"
)

// MaxAuditValues bounds the numbers one noise-free transcript of the
// audited agent may hold (the audit keeps two): 2²⁴ numbers, 128 MiB.
const MaxAuditValues = 1 << 24

var auditQuantities = []string{QuantityLR, QuantityProjection, QuantityClaim, QuantityClaimLog10}

// validateAudit checks an audit experiment: the keys an audit makes
// itself must be absent.
func (e *Experiment) validateAudit() error {
	a := e.Audit
	if err := e.validateRunsSeed(); err != nil {
		return err
	}
	for _, f := range []struct {
		key string
		set bool
	}{{"series", e.Series != nil}, {"x", e.X.Kind != "" || e.X.Label != ""}, {"metrics", e.Metrics != nil},
		{"quantities", e.Quantities != nil}, {"statistic", e.Statistic != ""}, {"figure", e.Figure.Title != "" || e.Figure.Y.Label != ""},
		{"expectations", e.Expectations != nil}, {"noise_seeds", e.NoiseSeeds != ""}} {
		if f.set {
			return check.Errorf(f.key, "an audit makes its own series (D and its neighbour), axis, statistics and figure (the ROC curves): leave %q out", f.key)
		}
	}
	if a.Agent != nil {
		if err := check.IntRange("audit.agent", *a.Agent, 0, 4999); err != nil {
			return err
		}
	}
	if a.Delta != nil && !(*a.Delta >= 0 && *a.Delta < 1) {
		return check.Errorf("audit.delta", "must be in [0, 1) (got %v)", *a.Delta)
	}
	if a.Confidence != 0 && !(a.Confidence >= 0.5 && a.Confidence < 1) {
		return check.Errorf("audit.confidence", "must be in [0.5, 1) (got %v)", a.Confidence)
	}
	if a.Adjacency != nil {
		if err := a.Adjacency.Validate("audit.adjacency"); err != nil {
			return err
		}
	}
	if a.Leak != 0 && !(a.Leak > 0 && a.Leak < 1) {
		return check.Errorf("audit.leak", "must be in (0, 1): the factor on every noise scale of the runs (got %v)", a.Leak)
	}
	if a.ROCPoints != 0 {
		if err := check.IntRange("audit.roc_points", a.ROCPoints, 2, 10000); err != nil {
			return err
		}
	}
	if e.Runs < 4 {
		return check.Errorf("runs", "an audit needs at least 4 runs on each data set (got %d); a few thousand make a useful bound", e.Runs)
	}
	return nil
}

// expandAudit returns the experiment the engine runs for audit e: two
// series with one point each, no metrics.
func (e *Experiment) expandAudit() *Experiment {
	x := *e
	one := &Sweep{Fields: []string{}, Values: []float64{0}}
	x.Series = []Series{
		{Name: AuditD, Label: "D: the scenario's data", Sweep: one},
		{Name: AuditNeighbour, Label: "D′: the audited agent's data changed", Sweep: one},
	}
	x.X = Axis{Kind: XField, Label: "data set"}
	x.Metrics = []Metric{}
	x.Statistic = StatMean
	x.Figure = Figure{Title: e.Title, Y: YAxis{Label: "true-positive rate"}}
	return &x
}

// auditPlan is what an audit plan holds besides the sweep: the audited
// agent, the neighbour, the two noise-free references and the law.
type auditPlan struct {
	agent      int
	adjacency  objective.Adjacency
	adjFrom    string
	neighbour  objective.Neighbour
	d, n       *audit.Transcript
	law        audit.Law
	lawText    string
	lawOK      bool
	delta      float64
	deltaFrom  string
	confidence float64
	leak       float64
	claim      privacy.Amount
	notion     string
	noise      map[string]*noise.Spec
	algorithm  string
	problem    string
	tight      *privacy.TightEntry
	tightNote  string
	rocPoints  int
	// params are D's decoded problem parameters (for Neighbour.Pin).
	params any
}

// setupAudit prepares an audit plan from D's point pp before its points
// are built: a probe run on D (its ledger names the agent, the claim and
// δ; its noise checks the law), the neighbour, and the noise-free
// references on D and D′.
func (p *Plan) setupAudit(ctx context.Context, pp pointPlan) error {
	e := p.Exp
	a := e.Audit
	seeds := RunSeeds(e.Seed, 0, "audit-probe", 0)
	b, err := p.buildRaw(ctx, &pp, nil, e.Series[0], seeds)
	if err != nil {
		return err
	}
	ap := &auditPlan{confidence: a.Confidence, leak: a.Leak, noise: b.Env.Noise, rocPoints: a.ROCPoints,
		algorithm: b.Factory.Title, problem: b.ProblemFactory.Title, params: b.ProblemParams}
	if ap.confidence == 0 {
		ap.confidence = 0.95
	}
	if ap.rocPoints == 0 {
		ap.rocPoints = 101
	}
	n := b.Env.Problem.Agents()
	if method.NoiseOff(b.Factory, b.Env.Noise) {
		return check.Errorf("base", "%s adds no noise in this scenario: there is no mechanism to audit", b.Factory.Title)
	}
	// The adjacency: the audit's own, or the algorithm's.
	switch adj, ok := b.Algorithm.(method.Adjacent); {
	case a.Adjacency != nil:
		ap.adjacency, ap.adjFrom = *a.Adjacency, "audit.adjacency"
	case ok:
		ap.adjacency, ap.adjFrom = adj.Adjacency(), b.Factory.Title+"'s privacy analysis"
	default:
		return check.Errorf("audit.adjacency", "%s states no adjacency (it has no privacy analysis to audit): give one to audit it against", b.Factory.Title)
	}
	if err := ap.adjacency.Validate("audit.adjacency"); err != nil {
		return fmt.Errorf("the adjacency of %s: %w", ap.adjFrom, err)
	}
	// A probe run on D: the ledger with its tight bound, and the noise
	// actually drawn.
	probe := probeRunner(b)
	if a.Agent != nil {
		ap.agent = *a.Agent
		if err := objective.CheckAgent(ap.agent, n); err != nil {
			return err
		}
	}
	if err := runAll(ctx, probe); err != nil {
		return err
	}
	led := probe.Ledger()
	if a.Agent == nil {
		ap.agent = mostExposed(led)
	}
	// The law of each of the agent's messages: which noise channel it
	// carries, fitted on a second probe with the same seeds (the same run).
	names, laws := channelLaws(b.Factory, b.Env.Noise, ap.agent)
	fit := audit.NewLawFit(ap.agent, names, laws)
	if b, err = p.buildRaw(ctx, &pp, nil, e.Series[0], seeds); err != nil {
		return err
	}
	if err := runAll(ctx, runner.New(b, fit)); err != nil {
		return err
	}
	ap.law, ap.lawText, ap.lawOK = fittedLaw(fit.Fits(), laws)
	ap.claim, ap.notion = entryOf(led, ap.agent).Epsilon, led.Notion
	ap.tight, ap.tightNote = tightOf(led, ap.agent)
	ap.delta, ap.deltaFrom = entryOf(led, ap.agent).Delta, "the ledger's δ"
	if a.Delta != nil {
		ap.delta, ap.deltaFrom = *a.Delta, "audit.delta"
	}
	// The neighbour.
	nb, ok := b.Env.Problem.(objective.Neighbouring)
	if !ok {
		return check.Errorf("problem.kind", "%s", objective.NoNeighbour(b.Env.Problem.Kind(), ap.adjacency, "it declares no way to change one agent's data (objective.Neighbouring)"))
	}
	adj := ap.adjacency
	if adj.Kind == objective.AdjacentSample {
		// The sample the stream draws exactly once, earliest: its change is
		// one time slot, heard from then on. Every run draws the same
		// samples (the data seed is the scenario's).
		adj.Sample = onceDrawn(b.Env.Samples(ap.agent))
	}
	if ap.neighbour, err = nb.Neighbour(ap.agent, adj); err != nil {
		var ce *check.Error
		if errors.As(err, &ce) {
			return err
		}
		return check.Errorf("audit", "%v", err)
	}
	p.audit = ap
	// The noise-free references.
	free := pp
	free.parsed = pp.parsed.NoiseFree()
	for i, tr := range []**audit.Transcript{&ap.d, &ap.n} {
		s := e.Series[i]
		bf, err := p.buildRaw(ctx, &free, nil, s, seeds)
		if err != nil {
			return fmt.Errorf("the noise-free reference on %s: %w", s.Name, err)
		}
		*tr = audit.NewTranscript(ap.agent, MaxAuditValues)
		if err := runAll(ctx, runner.New(bf, *tr)); err != nil {
			return fmt.Errorf("the noise-free reference on %s: %w", s.Name, err)
		}
		if err := (*tr).Err(); err != nil {
			return check.Errorf("iterations", "%v", err)
		}
	}
	if audit.Difference(ap.d, ap.n) == 0 {
		return check.Errorf("audit", "the neighbour (%s) changes none of agent %d's noise-free messages: there is nothing to tell apart", ap.neighbour.Change, ap.agent)
	}
	return nil
}

// probeRunner returns the audit's probe run on b, with the tight bound
// beside its ledger when it fits the CLI's memory as a run's does
// (scenario.Built.KeepTight), and otherwise a ledger that says why: a long
// run whose noise decays holds one release per agent and iteration, and
// its audit ran out of memory over them.
func probeRunner(b *scenario.Built) *runner.Runner {
	r := runner.New(b)
	_, off := b.KeepTight(b.Estimate(scenario.CLI), scenario.CLI)
	r.TrackTightUnless(off)
	return r
}

// onceDrawn returns the sample cursor c drew exactly once, earliest (nil:
// none, or no cursor).
func onceDrawn(c *method.Cursor) *int {
	if c == nil {
		return nil
	}
	best, at := -1, -1
	for k := range c.Size() {
		if n, first := c.Drawn(k); n == 1 && (best < 0 || first < best) {
			best, at = first, k
		}
	}
	if at < 0 {
		return nil
	}
	return &at
}

// runAll runs r to its end; a divergence is not an error here (the
// ledger and the transcript so far stand).
func runAll(ctx context.Context, r *runner.Runner) error {
	for i := 0; ; i++ {
		if i%cancelEvery == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		if _, err := r.Advance(); err != nil {
			if errors.Is(err, runner.ErrDone) {
				return nil
			}
			var d *runner.Diverged
			if errors.As(err, &d) {
				return nil
			}
			return err
		}
	}
}

// channelLaws returns the noise channels of f in chans as candidate laws
// of agent's messages: channel c at iteration k has scale
// Base(agent)·decay(k).
func channelLaws(f *method.Factory, chans map[string]*noise.Spec, agent int) ([]string, []audit.Law) {
	var names []string
	var laws []audit.Law
	for _, ch := range f.Channels {
		sp := chans[ch.Name]
		if sp == nil {
			continue
		}
		names = append(names, ch.Name)
		laws = append(laws, func(k int, _ string) (string, float64) { return sp.Dist, sp.ScaleAt(agent, k) })
	}
	return names, laws
}

// fittedLaw is the law of each message channel as the probe found it, in
// words, and whether every channel's noise fits its law.
func fittedLaw(fits []audit.Fit, laws []audit.Law) (audit.Law, string, bool) {
	by := map[string]audit.Law{}
	ok := true
	text := "as the scenario's noise channels declare it, each message matched to its channel on a probe run:"
	for i, f := range fits {
		sep := " "
		if i > 0 {
			sep = "; "
		}
		switch {
		case f.Law < 0:
			by[f.Channel] = func(int, string) (string, float64) { return noise.Laplace, 0 }
			text += fmt.Sprintf("%s%s carries no noise", sep, f.Channel)
		default:
			by[f.Channel] = laws[f.Law]
			text += fmt.Sprintf("%s%s ← %s (the drawn noise averages %.3f times its scale over %d coordinates)", sep, f.Channel, f.Name, f.Mean, f.N)
			if !f.OK {
				ok = false
				text += " — NOT its law: the likelihood ratio is then only a heuristic test, still valid"
			}
		}
	}
	return func(k int, ch string) (string, float64) {
		if l := by[ch]; l != nil {
			return l(k, ch)
		}
		return noise.Laplace, 0
	}, text, ok
}

// mostExposed returns the agent the ledger charges most (the first of
// equals; 0 for an empty ledger).
func mostExposed(l privacy.Ledger) int {
	rank := func(a privacy.Amount) float64 {
		if a.NoGuarantee() {
			return math.Inf(1)
		}
		return a.Log10()
	}
	at, best := 0, math.Inf(-1)
	for i, en := range l.Agents {
		if r := rank(en.Epsilon); i == 0 || r > best {
			at, best = en.Agent, r
		}
	}
	return at
}

// entryOf returns agent's ledger entry (a zero entry when the ledger has
// none).
func entryOf(l privacy.Ledger, agent int) privacy.Entry {
	for _, en := range l.Agents {
		if en.Agent == agent {
			return en
		}
	}
	return privacy.Entry{Agent: agent, Epsilon: privacy.Infinite()}
}

// provideNeighbour implements scenario.ProblemProvider for the neighbour's
// series: every build gets the neighbouring instance.
func (ap *auditPlan) provideNeighbour(string, int64, func() (objective.Problem, []check.Warning, error)) (objective.Problem, []check.Warning, error) {
	return ap.neighbour.Problem, nil, nil
}

// finish checks a built run of the audit and plants its leak: the noise
// must be the scenario's own on both data sets (a calibration that read
// the changed data would make two mechanisms, not one).
func (ap *auditPlan) finish(b *scenario.Built) (*scenario.Built, error) {
	for name, sp := range ap.noise {
		got := b.Env.Noise[name]
		if got == nil || got.Dist != sp.Dist || got.ScaleAt(ap.agent, 0) != sp.ScaleAt(ap.agent, 0) || !sameScales(got, sp) {
			return nil, check.Errorf(check.Join("noise", name), "differs between D and its neighbour (a calibration that reads the changed data): the two runs would not be the same mechanism")
		}
	}
	if ap.leak == 0 {
		return b, nil
	}
	params := b.Factory.NewParams()
	if len(b.Scenario.Algorithm.Params) > 0 {
		if err := jsonstrict.Decode(b.Scenario.Algorithm.Params, params, "algorithm.params"); err != nil {
			return nil, err
		}
	}
	claim := b.Built.Accountant
	again, _, _, err := b.Factory.Rescale(b.Env, ap.leak, params)
	if err != nil {
		return nil, fmt.Errorf("audit.leak: %w", err)
	}
	leaky := *b
	leaky.Built = *again
	leaky.Built.Accountant = claim // the ledger charges the scenario's noise
	return &leaky, nil
}

func sameScales(a, b *noise.Spec) bool {
	if a.Scale != b.Scale || len(a.Scales) != len(b.Scales) || a.Decay != b.Decay || len(a.Decays) != len(b.Decays) {
		return false
	}
	for i := range a.Scales {
		if a.Scales[i] != b.Scales[i] {
			return false
		}
	}
	for i := range a.Decays {
		if a.Decays[i] != b.Decays[i] {
			return false
		}
	}
	return true
}

// listener returns a fresh eavesdropper for one run.
func (ap *auditPlan) listener() *audit.Listener {
	return audit.NewListener(ap.agent, ap.d, ap.n, ap.law)
}

// tightOf is the tight bound of agent's releases in led (the same
// releases the paper's bound charges, composed by core/pld), or why there
// is none.
func tightOf(led privacy.Ledger, agent int) (*privacy.TightEntry, string) {
	t := led.Tight
	switch {
	case t == nil:
		return nil, "the run keeps no tight bound"
	case t.Reason != "":
		return nil, t.Reason
	case agent < 0 || agent >= len(t.Agents):
		return nil, fmt.Sprintf("no tight bound for agent %d", agent)
	case t.Agents[agent].Reason != "":
		return nil, t.Agents[agent].Reason
	}
	e := t.Agents[agent]
	return &e, ""
}

// auditRecord fills the audit's quantities of a run that ran: its
// statistics whatever its status (a run that diverged was heard until it
// did), the ledger's claim when it reached its end.
func (ap *auditPlan) auditRecord(rec *RunRecord, r *runner.Runner, l *audit.Listener) {
	if rec.Status == StatusFailed {
		return
	}
	lr, proj := l.Statistics()
	rec.Quantities[QuantityLR] = FI(lr)
	rec.Quantities[QuantityProjection] = FI(proj)
	if rec.Status == StatusDiverged {
		return
	}
	eps := entryOf(r.Ledger(), ap.agent).Epsilon
	rec.Quantities[QuantityClaim] = FI(eps.Value())
	rec.Quantities[QuantityClaimLog10] = FI(eps.Log10())
}

var _ sim.Recorder = (*audit.Listener)(nil)

// scenario returns the scenario of a task of series on sc (its seeds
// set): D's as it is; the neighbour's with the problem's parameters that
// rebuild it, when it has them.
func (ap *auditPlan) scenario(sc *scenario.Scenario, series string, noise uint64) (*scenario.Scenario, error) {
	seeds := sc.WithNoise(noise).StreamSeeds()
	for _, v := range []uint64{seeds.Data, seeds.Graph, seeds.Noise, seeds.Algorithm} {
		if v > 1<<53 {
			return nil, fmt.Errorf("the audit's runs use the scenario's own data, graph and algorithm seeds (derived from its seed) with their own noise seed, which a scenario's \"seeds\" (each at most 2^53) cannot write")
		}
	}
	sc.Seed, sc.Seeds = nil, &seeds
	if ap.leak != 0 {
		return nil, fmt.Errorf("a planted leak (audit.leak) draws less noise than the scenario's ledger charges, which no scenario file can say")
	}
	if series != AuditNeighbour {
		return sc, nil
	}
	if ap.neighbour.Pin == nil {
		return nil, fmt.Errorf("the task runs on the neighbouring data set (%s), which a scenario file cannot hold", ap.neighbour.Change)
	}
	raw, err := jsonout.Marshal(ap.neighbour.Pin(ap.params))
	if err != nil {
		return nil, err
	}
	sc.Problem.Params = raw
	return sc, nil
}
