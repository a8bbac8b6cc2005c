package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strings"

	"dpsim/core/experiment"
	"dpsim/core/jsonstrict"
	"dpsim/core/scenario"
)

const auditHelp = `Usage: dpsim audit [--runs N] [--agent I] [--delta D] [--confidence C] [--iterations K] [--leak F] [--seed S] [--workers N] [--out NAME.json] [--shard i/n] [--quiet] SCENARIO

Measures a lower bound on the privacy loss ε of a scenario from its
messages (docs/privacy-truth.md): runs the scenario N/2 times on its data
D and N/2 times on a neighbour D′ — one agent's data changed within its
algorithm's adjacency, as far as the adjacency allows — with fresh noise
each time and the scenario's own data, graph and algorithm seeds; lets an
eavesdropper on the agent's messages tell D′ from D (the likelihood ratio
of the noise law, and a projection on the change that needs no law); and
turns the tests' error rates, with Clopper–Pearson bounds, into a lower
bound on ε at the ledger's δ, beside the ledger's own ε. A bound above the
ledger's is a finding.

It writes NAME.json (format dpsim-sweep/1 with an "audit" section: the
bound, each test's rates and their confidence bounds, its ROC curve, and
every run's statistics), NAME.csv and the ROC curves as NAME.svg, .png and
.pdf. Runs go on every core; --shard and "dpsim merge" split them over a
cluster as for a sweep (docs/cluster.md).

SCENARIO is a scenario file, "-" for standard input, preset:NAME, or an
audit experiment (a dpsim-experiment/1 file with an "audit" section,
docs/experiments.md); the flags given replace its settings. Ctrl-C stops
handing out runs and writes what finished, marked "partial": true. Every
output is checked before the first run, and each file is written whole
or not at all (docs/guarantees.md).

`

// Bounds of dpsim audit's flags.
const (
	// DefaultAuditRuns is --runs' default: enough for a bound near ε when
	// ε is a few units; docs/privacy-truth.md recommends 10⁵ for a
	// single release.
	DefaultAuditRuns = 10_000
	// MaxAuditRuns is 2·experiment.MaxRuns: the runs on D and D′ together.
	MaxAuditRuns = 2 * experiment.MaxRuns
)

func cmdAudit(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	env, stop := processEnv()
	defer stop()
	defer collectSeldom()() // as a sweep: many small runs
	return auditCommand(env, args, stdin, stdout, stderr)
}

func auditCommand(env sweepEnv, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("audit", auditHelp, stdout)
	runs := fs.Int("runs", DefaultAuditRuns, "run `N` runs in all, half on D and half on D′ (even)")
	agent := fs.Int("agent", 0, "audit agent `I` (default: the one the ledger charges most)")
	delta := fs.Float64("delta", 0, "bound ε at `δ` (default: the ledger's δ of the agent)")
	conf := fs.Float64("confidence", 0.95, "the bound's confidence `C`")
	iters := fs.Int("iterations", 0, "run `K` iterations instead of the scenario's (the ledger's ε is then at K)")
	leak := fs.Float64("leak", 0, "plant a leak: draw every noise at `F` times its scale while the ledger charges the scenario's (0 < F < 1)")
	seed := fs.Int64("seed", 1, "the master seed `S` of the runs' noise seeds")
	workers := fs.Int("workers", min(runtime.NumCPU(), MaxWorkers), "run `N` runs at a time")
	out := fs.String("out", "", "write `NAME.json` and, beside it, NAME.csv, .svg, .png and .pdf (default: audit-SCENARIO.json)")
	shardFlag := fs.String("shard", "", "run only shard `i/n` of the runs (0 ≤ i < n)")
	quiet := fs.Bool("quiet", false, "no progress bar and no summary on standard error")
	if err := fs.parse(args); err != nil {
		return err
	}
	// Every flag is range-checked before anything is read.
	if fs.NArg() != 1 {
		return usagef("audit", "give exactly one SCENARIO (a file, - or preset:NAME); got %d arguments", fs.NArg())
	}
	if err := intRange("runs", *runs, 8, MaxAuditRuns); err != nil {
		return err
	}
	if *runs%2 != 0 {
		return flagError("runs", "must be even: half the runs are on D and half on its neighbour", *runs)
	}
	if fs.given("agent") {
		if err := intRange("agent", *agent, 0, 4999); err != nil {
			return err
		}
	}
	if fs.given("delta") && !(*delta >= 0 && *delta < 1) {
		return flagError("delta", "must be a number in [0, 1)", *delta)
	}
	if !(*conf >= 0.5 && *conf < 1) {
		return flagError("confidence", "must be a number in [0.5, 1)", *conf)
	}
	if fs.given("iterations") {
		if err := intRange("iterations", *iters, 1, scenario.MaxIterations); err != nil {
			return err
		}
	}
	if fs.given("leak") && !(*leak > 0 && *leak < 1) {
		return flagError("leak", "must be a number in (0, 1): the factor on every noise scale", *leak)
	}
	if *seed < 0 || *seed > 1<<53 {
		return flagError("seed", fmt.Sprintf("must be between 0 and 2^53 = %d", int64(1)<<53), *seed)
	}
	if err := intRange("workers", *workers, 1, MaxWorkers); err != nil {
		return err
	}
	shard, err := shardOf(*shardFlag, fs.given("shard"), true, env.getenv)
	if err != nil {
		return err
	}
	arg := fs.Arg(0)
	e, err := loadAudit(arg, stdin)
	if err != nil {
		return err
	}
	// The flags given replace the experiment's settings.
	if fs.given("runs") || e.Audit == nil || e.Runs == 0 {
		e.Runs = *runs / 2
	}
	if e.Audit == nil {
		e.Audit = &experiment.Audit{}
	}
	if fs.given("agent") {
		e.Audit.Agent = agent
	}
	if fs.given("delta") {
		e.Audit.Delta = delta
	}
	if fs.given("confidence") {
		e.Audit.Confidence = *conf
	}
	if fs.given("leak") {
		e.Audit.Leak = *leak
	}
	if fs.given("seed") {
		e.Seed = uint64(*seed)
	}
	if fs.given("iterations") {
		if e.Set == nil {
			e.Set = experiment.Overrides{}
		}
		e.Set["iterations"] = json.RawMessage(fmt.Sprint(*iters))
	}
	if e, err = experiment.Parse(e.JSON()); err != nil {
		return fmt.Errorf("%s: %w", arg, err)
	}
	// A scenario's own data files are read beside it (or the experiment),
	// every point's as dpsim sweep reads them.
	ps, err := provideExperimentFiles(e, arg)
	if err != nil {
		return fmt.Errorf("%s: %w", arg, err)
	}
	name := e.Name
	if shard != nil {
		name = fmt.Sprintf("%s.part-%d-of-%d", e.Name, shard.Index, shard.Count)
	}
	base, err := outBase(*out, name)
	if err != nil {
		return err
	}
	if err := checkFiles(fileInputs(arg), resultOutputs(base, shard == nil)); err != nil {
		return err
	}
	return execute(env, e, ps, arg, base, shard, nil, *workers, *quiet, stdout, stderr)
}

// loadAudit reads SCENARIO: an audit experiment as it is, or a scenario
// (a file, standard input or a preset) as the base of a new audit
// experiment named audit-NAME.
func loadAudit(arg string, stdin io.Reader) (*experiment.Experiment, error) {
	var data []byte
	var err error
	preset := strings.TrimPrefix(arg, "preset:")
	switch {
	case strings.HasPrefix(arg, "preset:"):
		if data, err = scenario.PresetJSON(preset); err != nil {
			if ed, err2 := experiment.PresetJSON(preset); err2 == nil {
				data, err = ed, nil
			}
		}
	case arg == "-":
		data, err = jsonstrict.ReadAll(stdin, "standard input", experiment.MaxBytes)
	default:
		data, err = jsonstrict.ReadFile(arg, experiment.MaxBytes)
	}
	if err != nil {
		return nil, err
	}
	var head struct {
		Format string `json:"format"`
	}
	_ = json.Unmarshal(data, &head)
	if head.Format == experiment.FormatVersion {
		e, err := experiment.Parse(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", arg, err)
		}
		if e.Audit == nil {
			return nil, fmt.Errorf("%s: an experiment without an \"audit\" section is a sweep: run it with dpsim sweep", arg)
		}
		return e, nil
	}
	sc, err := scenario.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", arg, err)
	}
	e := &experiment.Experiment{Format: experiment.FormatVersion, Name: auditName(sc.Name),
		Title: "Privacy audit: " + firstNonEmpty(sc.Title, sc.Name), Seed: 1}
	if strings.HasPrefix(arg, "preset:") {
		e.Base.Preset = preset
	} else {
		var buf bytes.Buffer
		if err := json.Compact(&buf, data); err != nil {
			return nil, fmt.Errorf("%s: %w", arg, err)
		}
		e.Base.Scenario = buf.Bytes()
	}
	return e, nil
}

// auditName is "audit-" + name, cut to the 64 characters a name may have.
func auditName(name string) string {
	n := "audit-" + name
	if len(n) > 64 {
		n = strings.TrimRight(n[:64], "-_.")
	}
	return n
}

func firstNonEmpty(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
