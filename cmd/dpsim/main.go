// Command dpsim runs dpsim scenarios without a browser.
//
//	dpsim run [--out FILE] [--csv FILE] [--workers N] SCENARIO
//	dpsim run --resume EXPORT.json [--from K] [--out FILE] [--csv FILE]
//	dpsim validate SCENARIO
//	dpsim presets
//	dpsim plugins
//	dpsim sweep [--workers N] [--out NAME.json] [--shard i/n] EXPERIMENT
//	dpsim merge --out NAME.json PART.json...
//	dpsim audit [--runs N] [--out NAME.json] [--shard i/n] SCENARIO
//	dpsim compare [--dir DIR] [--epsilon E] COMPARISON
//
// SCENARIO is a JSON file, "-" for standard input, or preset:NAME.
// Errors go to standard error as one line, with a non-zero exit status.
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"
	"time"

	"dpsim/core/check"
	_ "dpsim/core/data/files" // registers the committed datasets for data.Load
	"dpsim/core/eavesdrop"
	"dpsim/core/jsonout"
	"dpsim/core/jsonstrict"
	"dpsim/core/metrics"
	"dpsim/core/runner"
	"dpsim/core/scenario"
	"dpsim/core/version"
	"dpsim/core/weights"
)

const usage = `dpsim: differentially private decentralized optimization, headless.

Usage:
  dpsim run [--out FILE] [--csv FILE] [--quiet] [--workers N] SCENARIO
  dpsim run --resume EXPORT.json [--from K] [--out FILE] [--csv FILE]
  dpsim validate SCENARIO
  dpsim presets
  dpsim plugins
  dpsim sweep [--workers N] [--out NAME.json] [--shard i/n] [--quiet] EXPERIMENT
  dpsim merge --out NAME.json PART.json...
  dpsim audit [--runs N] [--agent I] [--out NAME.json] [--shard i/n] SCENARIO
  dpsim attack [--dataset NAME] [--target I] [--epsilon E] [--out FILE.json]
  dpsim compare [--dir DIR] [--quiet] [--workers N] [--epsilon E [--horizon K]] COMPARISON
  dpsim privacy-table
  dpsim version

SCENARIO is a JSON scenario file (docs/scenario.md), "-" for standard
input, or preset:NAME for a built-in scenario (see "dpsim presets").
EXPERIMENT is a Monte Carlo sweep (docs/experiments.md), a file, "-" or
preset:NAME.
"dpsim COMMAND --help" describes a command.
`

func main() {
	holdMemory(scenario.CLIBudget)
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is main without the process: it returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, usagef("", "give a command: run, validate, presets, plugins, sweep, merge, audit, attack, compare, privacy-table or version"))
		return 2
	}
	var err error
	switch args[0] {
	case "run":
		err = cmdRun(args[1:], stdin, stdout, stderr)
	case "validate":
		err = cmdValidate(args[1:], stdin, stdout, stderr)
	case "presets":
		err = cmdPresets(args[1:], stdout, stderr)
	case "plugins":
		err = cmdPlugins(args[1:], stdout, stderr)
	case "sweep":
		err = cmdSweep(args[1:], stdin, stdout, stderr)
	case "merge":
		err = cmdMerge(args[1:], stdout, stderr)
	case "audit":
		err = cmdAudit(args[1:], stdin, stdout, stderr)
	case "attack":
		err = cmdAttack(args[1:], stdout, stderr)
	case "privacy-table":
		err = cmdPrivacyTable(args[1:], stdout, stderr)
	case "compare":
		err = cmdCompare(args[1:], stdin, stdout, stderr)
	case "version", "--version", "-version":
		err = cmdVersion(args[1:], stdout)
	case "-h", "--help", "-help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		err = usagef("", "unknown command %q; the commands are run, validate, presets, plugins, sweep, merge, audit, attack, compare, privacy-table and version", args[0])
	}
	var ue *usageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &ue):
		fmt.Fprintln(stderr, ue.Error())
		return 2
	}
	fmt.Fprintln(stderr, "dpsim: "+check.OneLine(err.Error()))
	return 1
}

// calibration holds the --epsilon and --horizon flags, which ask for
// equal-privacy calibration as a scenario's "calibrate" section does.
type calibration struct {
	fs      *flags
	epsilon *float64
	horizon *int
}

func calibFlags(fs *flags) *calibration {
	return &calibration{
		fs:      fs,
		epsilon: fs.Float64("epsilon", 0, "calibrate every noise scale so that the algorithm's own accountant reports this `ε` (replaces the scenario's calibrate section)"),
		horizon: fs.Int("horizon", 0, "the iteration count `K` the --epsilon target holds at (default: the scenario's iterations)"),
	}
}

// given reports whether --epsilon or --horizon was given.
func (c *calibration) given() bool {
	return c != nil && (c.fs.given("epsilon") || c.fs.given("horizon"))
}

// check range-checks the flags before anything is read.
func (c *calibration) check() error {
	if c == nil {
		return nil
	}
	if c.fs.given("epsilon") {
		if err := positiveFinite("epsilon", *c.epsilon); err != nil {
			return err
		}
	}
	if c.fs.given("horizon") {
		if !c.fs.given("epsilon") {
			return usagef(c.fs.Name(), "--horizon needs --epsilon")
		}
		if err := intRange("horizon", *c.horizon, 1, scenario.MaxIterations); err != nil {
			return err
		}
	}
	return nil
}

// apply writes the flags into the scenario.
func (c *calibration) apply(s *scenario.Scenario) error {
	if !c.given() {
		return nil
	}
	s.Calibrate = &scenario.Calibrate{Epsilon: *c.epsilon, Iterations: *c.horizon}
	return nil
}

// load reads and builds a scenario from a file, stdin or a preset.
func load(arg string, stdin io.Reader) (*scenario.Built, error) {
	return loadWith(context.Background(), arg, stdin, nil)
}

// loadWith is load with the calibration flags applied before building;
// the calibration search stops when ctx is cancelled (Ctrl-C).
func loadWith(ctx context.Context, arg string, stdin io.Reader, cal *calibration) (*scenario.Built, error) {
	var data []byte
	var err error
	switch {
	case strings.HasPrefix(arg, "preset:"):
		data, err = scenario.PresetJSON(strings.TrimPrefix(arg, "preset:"))
	case arg == "-":
		data, err = jsonstrict.ReadAll(stdin, "standard input", scenario.MaxBytes)
	default:
		// Not os.ReadFile: /dev/zero or a huge file would exhaust memory,
		// and a named pipe would block forever.
		data, err = jsonstrict.ReadFile(arg, scenario.MaxBytes)
	}
	if err != nil {
		return nil, err
	}
	s, err := scenario.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", arg, err)
	}
	if err := provideFiles(dirOf(arg), s); err != nil {
		return nil, fmt.Errorf("%s: %w", arg, err)
	}
	if err := cal.apply(s); err != nil {
		return nil, err
	}
	b, err := scenario.BuildCancel(s, scenario.CLI, nil, func() bool { return ctx.Err() != nil })
	if err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("%s: interrupted while building the scenario, nothing written", arg)
		}
		return nil, fmt.Errorf("%s: %w", arg, err)
	}
	return b, nil
}

func oneArg(fs *flags) (string, error) {
	if fs.NArg() != 1 {
		return "", usagef(fs.Name(), "give exactly one SCENARIO (a file, - or preset:NAME); got %d arguments", fs.NArg())
	}
	return fs.Arg(0), nil
}

// parseAndLoad parses a command's flags and its one SCENARIO argument,
// and builds the scenario (calibrated when cal's flags ask).
func parseAndLoad(ctx context.Context, fs *flags, args []string, stdin io.Reader, cal *calibration) (*scenario.Built, error) {
	if err := fs.parse(args); err != nil {
		return nil, err
	}
	if err := cal.check(); err != nil {
		return nil, err
	}
	arg, err := oneArg(fs)
	if err != nil {
		return nil, err
	}
	return loadWith(ctx, arg, stdin, cal)
}

const runHelp = `Usage: dpsim run [--out FILE] [--csv FILE] [--quiet] [--workers N] [--epsilon E [--horizon K]] [--eavesdrop FILE [--eavesdrop-agent I] [--eavesdrop-every N]] SCENARIO
       dpsim run --resume EXPORT.json [--from K] [--out FILE] [--csv FILE] [--quiet] [--workers N]

Runs the scenario and writes the run export (JSON: the scenario with every
random choice pinned, warnings, weight-matrix findings, metrics per recorded
iteration, the privacy ledger, and the states at the checkpoints).
The same scenario and seeds always give byte-identical files.
--epsilon calibrates every noise scale by one factor so that the
algorithm's own accountant reports ε = E after K iterations (equal-privacy
comparisons); the export records what calibration did.
--resume continues the run of an export from its checkpoint at iteration
K (record.checkpoints; the last one by default) and writes the export the
uninterrupted run writes, byte for byte (docs/scenario.md, "Checkpoints
and resuming").
Ctrl-C (or SIGTERM, or SIGHUP) stops the run before its next iteration
and writes the export so far, marked "status": "paused", with a checkpoint
there: --resume continues it, bit for bit. A run a stop rule ends saves a
checkpoint where it stopped. --resume refuses, in one line naming the
field, an export that no run writes (an edited one). The outputs are
checked before the run starts and written whole or not at all
(docs/guarantees.md).
--workers runs the agents' work of each iteration (their gradients, an
inner solve each) on N goroutines; 0, the default unless DPSIM_WORKERS
says otherwise, uses every core once an iteration takes long enough to
gain (a CNN, a dataset), else one. The export is the same bytes for every
N: the workers are a setting of the machine, not of the scenario.
--eavesdrop writes what an eavesdropper on every link of agent I sees
(JSON, format dpsim-eavesdrop/1): per iteration the messages the agent
sends and receives, its true x_i and ∇f_i(x_i), and, for DPP², the
reconstruction of x_i + w_i and ∇f_i + e_i by a listener who knows η^k
(docs/dpp2-paper.md, "What the eavesdropper sees").

`

func cmdRun(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	env, stop := processEnv()
	defer stop()
	return runCommand(env, args, stdin, stdout, stderr)
}

// runCommand is "dpsim run" with the process's signals and environment
// given (tests give their own).
func runCommand(env sweepEnv, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("run", runHelp, stdout)
	out := fs.String("out", "", "write the JSON export to `FILE` (default, or -: standard output)")
	csv := fs.String("csv", "", "also write the metrics as CSV to `FILE`")
	quiet := fs.Bool("quiet", false, "do not print warnings and the summary to standard error")
	resume := fs.String("resume", "", "continue the run recorded in the export `EXPORT.json` from one of its checkpoints, instead of running a SCENARIO")
	from := fs.Int("from", -1, "with --resume, the checkpoint's iteration `K` (default: the export's last checkpoint)")
	spy := fs.String("eavesdrop", "", "also write what an eavesdropper on the links of one agent sees to `FILE` (JSON)")
	spyAgent := fs.Int("eavesdrop-agent", 0, "with --eavesdrop, the agent `I` whose links are tapped")
	spyEvery := fs.Int("eavesdrop-every", 1, "with --eavesdrop, keep every `N`-th iteration (and always 0 and 1)")
	nw := agentWorkers(fs)
	cal := calibFlags(fs)
	if err := fs.parse(args); err != nil {
		return err
	}
	if err := cal.check(); err != nil {
		return err
	}
	workers, err := workersOf(fs, *nw, env.getenv)
	if err != nil {
		return err
	}
	if *out == "-" {
		*out = "" // standard output, as without --out; any other output refuses "-"
	}
	if *spy == "" && (fs.given("eavesdrop-agent") || fs.given("eavesdrop-every")) {
		return usagef("run", "--eavesdrop-agent and --eavesdrop-every need --eavesdrop FILE")
	}
	if *spy != "" && *resume != "" {
		return usagef("run", "--eavesdrop listens from iteration 0: it does not apply to --resume")
	}
	if err := intRange("eavesdrop-every", *spyEvery, 1, scenario.MaxIterations); err != nil {
		return err
	}
	var input string
	if *resume == "" {
		if fs.given("from") {
			return usagef("run", "--from needs --resume EXPORT.json")
		}
		arg, err := oneArg(fs)
		if err != nil {
			return err
		}
		input = arg
	} else {
		if fs.NArg() != 0 {
			return usagef("run", "--resume continues the export's own scenario: give no SCENARIO (got %q)", fs.Arg(0))
		}
		if cal.given() {
			return usagef("run", "--resume continues the export's run with its noise scales: --epsilon and --horizon do not apply")
		}
		if fs.given("from") {
			if err := intRange("from", *from, 0, scenario.MaxIterations); err != nil {
				return err
			}
		}
		input = *resume
	}
	// A run may take minutes: find out now, not after it, that an output
	// cannot be written or would overwrite the input.
	var inputs []string
	if input != "-" && !strings.HasPrefix(input, "preset:") {
		inputs = append(inputs, input)
	}
	outs := []output{{"--out", *out}, {"--csv", *csv}}
	if *spy != "" {
		outs = append(outs, output{"--eavesdrop", *spy})
	}
	if err := checkFiles(inputs, outs); err != nil {
		return err
	}
	var b *scenario.Built
	var r *runner.Runner
	var spyRec *eavesdrop.Recorder
	if *resume == "" {
		var err error
		if b, err = loadWith(env.ctx, input, stdin, cal); err != nil {
			return err
		}
		if *spy != "" {
			if spyRec, err = newEavesdropper(b, *spyAgent, *spyEvery); err != nil {
				return err
			}
			r = runner.New(b, spyRec)
		} else {
			r = runner.New(b)
		}
	} else {
		var err error
		if r, err = resumeRun(*resume, *from); err != nil {
			return err
		}
		b = r.Built()
	}
	r.SetWorkers(workers)
	est, tightOff, err := estimateWith(b, workers)
	if err != nil {
		return err
	}
	defer holdMemory(est.Total)()
	if *csv != "" {
		r.TrackEpsilon() // the CSV's ε per agent (eps_agent_I)
	}
	r.TrackTightUnless(tightOff) // the tight bound beside the paper's, in the export and the summary
	if !*quiet {
		fmt.Fprint(stderr, check.Warnings(b.Warnings))
	}
	// Metrics beyond the first scenario.SpillKeep points wait in a temporary
	// file, so that a long run recorded at every iteration keeps memory flat.
	spill, cleanup, err := newSpill()
	if err != nil {
		return err
	}
	defer cleanup()
	r.Metrics.Series.Spill(spill, scenario.SpillKeep)
	env.saveOnSignal() // from here a signal writes the export so far
	interrupted, runErr := runUntil(env.ctx, r)
	// A signal after the last iteration interrupts nothing.
	interrupted = interrupted && !r.Done()
	resumable := interrupted && r.Interrupt() // a checkpoint where it stopped
	if err := r.Metrics.Series.Err(); err != nil {
		// The spilled points are lost, so no export can be complete; the
		// temporary folder is to blame, not --out.
		return tmpError(err)
	}
	if mm := (*runner.Mismatch)(nil); errors.As(runErr, &mm) {
		// The export resumed was edited: nothing of it is written.
		return fmt.Errorf("%s: %w", input, runErr)
	}
	if *out == "" {
		bw := bufio.NewWriter(stdout)
		if err := r.WriteExport(bw); err != nil {
			return err
		}
		if err := bw.Flush(); err != nil {
			return err
		}
	} else if err := writeFile("--out", *out, r.WriteExport); err != nil {
		return err
	}
	if *csv != "" {
		if err := writeFile("--csv", *csv, func(w io.Writer) error {
			return r.WriteCSV(w, runner.CSVMeta{Date: time.Now()})
		}); err != nil {
			return err
		}
	}
	if spyRec != nil {
		rep := spyRec.Report(b.Factory.Name)
		if err := writeFile("--eavesdrop", *spy, func(w io.Writer) error {
			return jsonout.Encode(w, rep, "", " ")
		}); err != nil {
			return err
		}
	}
	if runErr != nil {
		return runErr
	}
	if interrupted {
		return interruptedError(r, *out, resumable)
	}
	if !*quiet {
		last := r.Metrics.Latest()
		led := r.Ledger()
		fmt.Fprintf(stderr, "%s: %d iterations; %s, consensus %.3g; max ε %s (paper's bound)%s\n",
			b.Scenario.Name, r.Iter(), headline(last, r.Metrics.Series.ExtraNames), last.Consensus, led.Max, tightSummary(led))
		if st := r.SteadyState(); !math.IsNaN(st.Predicted[0]) {
			fmt.Fprintf(stderr, "steady-state error (mean from iteration %d) %.4g; the theory predicts ≤ %.4g\n", st.From, st.Measured, st.Predicted[0])
		}
		if c := b.Calibration; c != nil {
			fmt.Fprintf(stderr, "calibrated: %s\n", c)
		}
	}
	return nil
}

// interruptedError says where an interrupted run's export went and
// whether --resume continues it: only when the export holds the
// checkpoint that Interrupt saved where the run stopped.
func interruptedError(r *runner.Runner, out string, resumable bool) error {
	k := r.Iter()
	head := fmt.Sprintf("interrupted at iteration %d of %d: ", k, r.Built().Scenario.Iterations)
	switch {
	case !resumable:
		where := "standard output"
		if out != "" {
			where = out
		}
		return fmt.Errorf("%s%s holds the run so far, marked \"partial\": true; %s cannot resume from a checkpoint, so run it again from the start to complete it", head, where, r.Built().Factory.Title)
	case out == "":
		return fmt.Errorf("%sstandard output holds the run so far, marked \"partial\": true, with a checkpoint at iteration %d: saved to a file, dpsim run --resume FILE continues it", head, k)
	}
	return fmt.Errorf("%s%s holds the run so far, marked \"partial\": true, with a checkpoint at iteration %d: dpsim run --resume %s continues it", head, out, k, out)
}

// runUntil runs r to its end, or until ctx is cancelled (Ctrl-C, SIGTERM,
// SIGHUP: interrupted is then true) or the spill file fails. It looks at
// both before every iteration: one iteration of a large scenario can take
// a second, and a full temporary folder should stop the run at once, not
// after hours.
func runUntil(ctx context.Context, r *runner.Runner) (interrupted bool, err error) {
	for {
		if ctx.Err() != nil {
			return true, nil
		}
		if r.Metrics.Series.Err() != nil {
			return false, nil // reported by the caller
		}
		if testHookIteration != nil {
			testHookIteration(r.Iter())
		}
		if _, err := r.Advance(); err != nil {
			if errors.Is(err, runner.ErrDone) {
				return false, nil
			}
			return false, err
		}
	}
}

// testHookIteration, when set (by tests), is called before every
// iteration of dpsim run with the number of iterations run so far.
var testHookIteration func(done int)

// newSpill creates the temporary file a run's metrics spill to, and the
// function that removes it. Tests replace it.
var newSpill = func() (metrics.SpillFile, func(), error) {
	f, err := os.CreateTemp("", "dpsim-metrics-*")
	if err != nil {
		return nil, nil, tmpError(err)
	}
	// Unlinked at once where the system allows it (Unix): the open file
	// stays usable, and nothing is left behind however the process ends,
	// SIGKILL and crashes included. Elsewhere it is removed on return.
	if os.Remove(f.Name()) == nil {
		return f, func() { f.Close() }, nil
	}
	return f, func() { f.Close(); os.Remove(f.Name()) }, nil
}

// tmpError reports a failure of the temporary folder as such: a full
// TMPDIR is not the fault of --out.
func tmpError(err error) error {
	return fmt.Errorf("the temporary folder %s (TMPDIR), where a run's metrics wait: %v; free space there or set TMPDIR to a folder with room", os.TempDir(), err)
}

// MaxExportBytes bounds the export --resume reads.
const MaxExportBytes = 1 << 30

// resumeRun reads the export path and resumes its run from the
// checkpoint at iteration from (the last when from < 0).
func resumeRun(path string, from int) (*runner.Runner, error) {
	data, err := jsonstrict.ReadFile(path, MaxExportBytes)
	if err != nil {
		return nil, err
	}
	if err := provideExportFiles(data, path); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	r, err := runner.ResumeExport(data, from, scenario.CLI)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return r, nil
}

const validateHelp = `Usage: dpsim validate [--epsilon E [--horizon K]] SCENARIO

Checks the scenario without running it. Broken rules are errors (exit 1,
one line naming the field); soft assumptions that do not hold are printed
as warnings, the memory estimate dpsim run checks (docs/guarantees.md)
and the weight matrix's properties are listed, followed by
the calibration (with --epsilon or a calibrate section: the noise scales
that meet ε) and what the algorithm's source proves: the convergence
case, the predicted steady-state error, the infinite-horizon budget.

`

func cmdValidate(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("validate", validateHelp, stdout)
	cal := calibFlags(fs)
	env, stop := processEnv()
	defer stop()
	b, err := parseAndLoad(env.ctx, fs, args, stdin, cal)
	if err != nil {
		return err
	}
	defer printTheory(stdout, b)
	fmt.Fprintf(stdout, "%s: valid (%s, %d agents, dimension %d, %d iterations)\n",
		b.Scenario.Name, b.Factory.Title, b.Env.Problem.Agents(), b.Env.Problem.Dim(), b.Scenario.Iterations)
	est := b.Estimate(scenario.CLI)
	fmt.Fprintf(stdout, "  memory: about %s for dpsim run (%s); its export pins about %s\n", scenario.Bytes(est.Total), est, scenario.Bytes(est.Pinned))
	list := func(label string, fs []weights.Finding) {
		for _, f := range fs {
			mark := "yes"
			if !f.Holds {
				mark = "no "
			}
			fmt.Fprintf(stdout, "  %s: %s %s: %s\n", label, mark, f.Name, f.Detail)
		}
	}
	if b.Env.Reports == nil {
		list("weights", b.Env.Report.Findings)
	}
	for _, r := range b.Factory.Matrices {
		list("weights."+r.Role, b.Env.Reports[r.Role].Findings)
	}
	if sm, ok := b.Accountant.(interface{ Summary() string }); ok {
		fmt.Fprintf(stdout, "  privacy: %s\n", sm.Summary())
	}
	fmt.Fprint(stdout, check.Warnings(b.Warnings))
	return nil
}

const presetsHelp = `Usage: dpsim presets

Lists the built-in scenarios (run one with "dpsim run preset:NAME") and
experiments (run one with "dpsim sweep preset:NAME").

`

func cmdPresets(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("presets", presetsHelp, stdout)
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usagef("presets", "takes no arguments (got %q)", fs.Arg(0))
	}
	for _, p := range scenario.Presets() {
		fmt.Fprintf(stdout, "%-30s %-11s %s\n", p.Name, "scenario", p.Title)
	}
	listExperiments(stdout)
	return nil
}

const pluginsHelp = `Usage: dpsim plugins

Prints, as JSON, every plug-in a scenario may name — algorithms, problems,
graph kinds and weight builders — each with its parameters: name, kind,
one-line doc, default, range and options, and for graph kinds and weight
builders the parameters a scenario must give ("required"). The page draws
its forms from this.

`

const versionHelp = `Usage: dpsim version

Prints the version this binary names in its exports (the CSV's
dpsim_version line): the commit it was built from, "+dirty" when the tree
had uncommitted changes, or "devel" when Go stamped no version control
information (go run, go test, -buildvcs=false). ./build.sh builds ./dpsim
and the page stamped with the same commit.

`

func cmdVersion(args []string, stdout io.Writer) error {
	fs := newFlags("version", versionHelp, stdout)
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usagef("version", "takes no arguments (got %q)", fs.Arg(0))
	}
	_, err := fmt.Fprintln(stdout, version.String())
	return err
}

func cmdPlugins(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("plugins", pluginsHelp, stdout)
	if err := fs.parse(args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		return usagef("plugins", "takes no arguments (got %q)", fs.Arg(0))
	}
	b, err := jsonout.MarshalIndent(scenario.Plugins(), "", "  ")
	if err != nil {
		return err // not reached: descriptions are plain data
	}
	_, err = fmt.Fprintf(stdout, "%s\n", b)
	return err
}

// printTheory lists the calibration and what the algorithm's source
// proves about the scenario: convergence case, predicted error,
// infinite-horizon budget.
func printTheory(w io.Writer, b *scenario.Built) {
	if c := b.Calibration; c != nil {
		fmt.Fprintf(w, "  calibration: %s; ε predicted after: %s\n", c, c.After)
		for _, ch := range c.Channels {
			fmt.Fprintf(w, "    noise.%s scale: %v → %v\n", ch.Channel, ch.Before, ch.After)
		}
	}
	th := b.Theory
	if th == nil {
		return
	}
	fmt.Fprintf(w, "  theory (%s): %s\n", th.Source, th.Convergence)
	if pe := th.Error; pe != nil {
		if pe.Available {
			fmt.Fprintf(w, "  predicted steady-state error: (1/n)·E‖x − 1x*‖² ≤ %.4g (ρ(A) = %.6g; %s)\n", pe.PerAgent, pe.Rate, pe.Source)
		} else {
			fmt.Fprintf(w, "  predicted steady-state error: unavailable: %s\n", pe.Reason)
		}
	}
	if ih := th.InfiniteHorizon; ih != nil {
		if ih.Available {
			fmt.Fprintf(w, "  infinite-horizon ε: %s (agent %d; %s)\n", ih.Epsilon, ih.Agent, ih.Source)
		} else {
			fmt.Fprintf(w, "  infinite-horizon ε: unavailable: %s\n", ih.Reason)
		}
	}
}

// newEavesdropper returns the --eavesdrop recorder of agent on b, refusing
// an agent outside the network or a view too large to write.
func newEavesdropper(b *scenario.Built, agent, every int) (*eavesdrop.Recorder, error) {
	n := b.Env.Problem.Agents()
	if agent < 0 || agent >= n {
		return nil, usagef("run", "--eavesdrop-agent must be from 0 to %d, the scenario's agents (got %d)", n-1, agent)
	}
	frames := min(b.Scenario.Iterations/every+2, eavesdrop.MaxFrames)
	links := 1 + len(b.Env.Graph.In(agent)) + len(b.Env.Graph.Out(agent))
	if numbers := int64(frames) * int64(4*links+6) * int64(b.Env.Problem.Dim()); numbers > 20_000_000 {
		return nil, usagef("run", "--eavesdrop would write about %d numbers (%d frames × %d links × dimension %d): at most 2e7; raise --eavesdrop-every", numbers, frames, links, b.Env.Problem.Dim())
	}
	return eavesdrop.New(b.Env.Problem, b.Algorithm, agent, every)
}

// headline is the summary's first metric: the optimality, or, for a
// problem without a known optimum (optimality NaN), its stationarity
// rather than a bare "NaN".
func headline(p metrics.Point, extra []string) string {
	if !math.IsNaN(p.Optimality) {
		return fmt.Sprintf("optimality %.3g", p.Optimality)
	}
	if i := slices.Index(extra, metrics.ColStationarity); i >= 0 && i < len(p.Extra) {
		return fmt.Sprintf("stationarity %.3g (no known optimum)", p.Extra[i])
	}
	return "optimality — (no known optimum)"
}
