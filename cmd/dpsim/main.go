// Command dpsim runs dpsim scenarios without a browser.
//
//	dpsim run [--out FILE] [--csv FILE] SCENARIO
//	dpsim run --resume EXPORT.json [--from K] [--out FILE] [--csv FILE]
//	dpsim validate SCENARIO
//	dpsim presets
//	dpsim plugins
//	dpsim sweep [--workers N] [--out NAME.json] [--shard i/n] EXPERIMENT
//	dpsim merge --out NAME.json PART.json...
//
// SCENARIO is a JSON file, "-" for standard input, or preset:NAME.
// Errors go to standard error as one line, with a non-zero exit status.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strings"

	"dpsim/core/check"
	_ "dpsim/core/data/files" // registers the committed datasets for data.Load
	"dpsim/core/jsonstrict"
	"dpsim/core/runner"
	"dpsim/core/scenario"
	"dpsim/core/weights"
)

const usage = `dpsim: differentially private decentralized optimization, headless.

Usage:
  dpsim run [--out FILE] [--csv FILE] [--quiet] SCENARIO
  dpsim run --resume EXPORT.json [--from K] [--out FILE] [--csv FILE]
  dpsim validate SCENARIO
  dpsim presets
  dpsim plugins
  dpsim sweep [--workers N] [--out NAME.json] [--shard i/n] [--quiet] EXPERIMENT
  dpsim merge --out NAME.json PART.json...

SCENARIO is a JSON scenario file (docs/scenario.md), "-" for standard
input, or preset:NAME for a built-in scenario (see "dpsim presets").
EXPERIMENT is a Monte Carlo sweep (docs/experiments.md), a file, "-" or
preset:NAME.
"dpsim COMMAND --help" describes a command.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is main without the process: it returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
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
	case "-h", "--help", "-help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		err = fmt.Errorf("unknown command %q; the commands are run, validate, presets, plugins, sweep and merge", args[0])
	}
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, errUsage):
		return 2
	}
	fmt.Fprintln(stderr, "dpsim: "+oneLine(err.Error()))
	return 1
}

var errUsage = errors.New("usage")

func oneLine(s string) string { return strings.ReplaceAll(strings.TrimSpace(s), "\n", "; ") }

func newFlags(name, help string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, help)
		fs.PrintDefaults()
	}
	return fs
}

func parseFlags(fs *flag.FlagSet, args []string) error {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return errUsage
	}
	return nil
}

// calibration holds the --epsilon and --horizon flags, which ask for
// equal-privacy calibration as a scenario's "calibrate" section does.
type calibration struct {
	epsilon *float64
	horizon *int
}

func calibFlags(fs *flag.FlagSet) *calibration {
	return &calibration{
		epsilon: fs.Float64("epsilon", 0, "calibrate every noise scale so that the algorithm's own accountant reports this `ε` (replaces the scenario's calibrate section)"),
		horizon: fs.Int("horizon", 0, "the iteration count `K` the --epsilon target holds at (default: the scenario's iterations)"),
	}
}

// apply writes the flags into the scenario.
func (c *calibration) apply(s *scenario.Scenario) error {
	if c == nil || (*c.epsilon == 0 && *c.horizon == 0) {
		return nil
	}
	if *c.epsilon == 0 {
		return fmt.Errorf("--horizon needs --epsilon")
	}
	s.Calibrate = &scenario.Calibrate{Epsilon: *c.epsilon, Iterations: *c.horizon}
	return nil
}

// load reads and builds a scenario from a file, stdin or a preset.
func load(arg string, stdin io.Reader) (*scenario.Built, error) {
	return loadWith(arg, stdin, nil)
}

// loadWith is load with the calibration flags applied before building.
func loadWith(arg string, stdin io.Reader, cal *calibration) (*scenario.Built, error) {
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
	if err := cal.apply(s); err != nil {
		return nil, err
	}
	b, err := scenario.Build(s)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", arg, err)
	}
	return b, nil
}

func oneArg(fs *flag.FlagSet, stderr io.Writer) (string, error) {
	if fs.NArg() != 1 {
		fmt.Fprintf(stderr, "dpsim %s: give exactly one SCENARIO (a file, - or preset:NAME)\n", fs.Name())
		fs.Usage()
		return "", errUsage
	}
	return fs.Arg(0), nil
}

// parseAndLoad parses a command's flags and its one SCENARIO argument,
// and builds the scenario (calibrated when cal's flags ask).
func parseAndLoad(fs *flag.FlagSet, args []string, stdin io.Reader, stderr io.Writer, cal ...*calibration) (*scenario.Built, error) {
	if err := parseFlags(fs, args); err != nil {
		return nil, err
	}
	arg, err := oneArg(fs, stderr)
	if err != nil {
		return nil, err
	}
	var c *calibration
	if len(cal) > 0 {
		c = cal[0]
	}
	return loadWith(arg, stdin, c)
}

const runHelp = `Usage: dpsim run [--out FILE] [--csv FILE] [--quiet] [--epsilon E [--horizon K]] SCENARIO
       dpsim run --resume EXPORT.json [--from K] [--out FILE] [--csv FILE] [--quiet]

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

`

func cmdRun(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("run", runHelp, stderr)
	out := fs.String("out", "", "write the JSON export to `FILE` (default: standard output)")
	csv := fs.String("csv", "", "also write the metrics as CSV to `FILE`")
	quiet := fs.Bool("quiet", false, "do not print warnings and the summary to standard error")
	resume := fs.String("resume", "", "continue the run recorded in the export `EXPORT.json` from one of its checkpoints, instead of running a SCENARIO")
	from := fs.Int("from", -1, "with --resume, the checkpoint's iteration `K` (default: the export's last checkpoint)")
	cal := calibFlags(fs)
	var b *scenario.Built
	var r *runner.Runner
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *resume == "" {
		if *from != -1 {
			return fmt.Errorf("--from needs --resume EXPORT.json")
		}
		arg, err := oneArg(fs, stderr)
		if err != nil {
			return err
		}
		if b, err = loadWith(arg, stdin, cal); err != nil {
			return err
		}
		r = runner.New(b)
	} else {
		var err error
		if r, err = resumeRun(fs, *resume, *from, cal); err != nil {
			return err
		}
		b = r.Built()
	}
	// A run may take minutes: find out now, not after it, that an output
	// cannot be written.
	if err := checkOutputs(map[string]string{"--out": *out, "--csv": *csv}); err != nil {
		return err
	}
	if !*quiet {
		fmt.Fprint(stderr, check.Warnings(b.Warnings))
	}
	// Metrics beyond the first scenario.SpillKeep points wait in a temporary file, so
	// that a long run recorded at every iteration keeps memory flat.
	spill, err := os.CreateTemp("", "dpsim-metrics-*")
	if err != nil {
		return fmt.Errorf("creating a temporary file for the metrics: %w", err)
	}
	defer os.Remove(spill.Name())
	defer spill.Close()
	r.Metrics.Series.Spill(spill, scenario.SpillKeep)
	runErr := r.Run()
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
		if err := writeFile("--csv", *csv, r.Metrics.Series.WriteCSV); err != nil {
			return err
		}
	}
	if runErr != nil {
		return runErr
	}
	if !*quiet {
		last := r.Metrics.Latest()
		fmt.Fprintf(stderr, "%s: %d iterations; optimality %.3g, consensus %.3g; max ε %s\n",
			b.Scenario.Name, r.Iter(), last.Optimality, last.Consensus, r.Ledger().Max)
		if st := r.SteadyState(); !math.IsNaN(st.Predicted[0]) {
			fmt.Fprintf(stderr, "steady-state error (mean from iteration %d) %.4g; the theory predicts ≤ %.4g\n", st.From, st.Measured, st.Predicted[0])
		}
		if c := b.Calibration; c != nil {
			fmt.Fprintf(stderr, "calibrated: %s\n", c)
		}
	}
	return nil
}

// MaxExportBytes bounds the export --resume reads.
const MaxExportBytes = 1 << 30

// resumeRun reads the export path and resumes its run from the
// checkpoint at iteration from (the last when from < 0).
func resumeRun(fs *flag.FlagSet, path string, from int, cal *calibration) (*runner.Runner, error) {
	if fs.NArg() != 0 {
		return nil, fmt.Errorf("--resume continues the export's own scenario: give no SCENARIO (got %q)", fs.Arg(0))
	}
	if *cal.epsilon != 0 || *cal.horizon != 0 {
		return nil, fmt.Errorf("--resume continues the export's run with its noise scales: --epsilon and --horizon do not apply")
	}
	if from < -1 {
		return nil, fmt.Errorf("--from must be a checkpoint's iteration, 0 or more (got %d)", from)
	}
	data, err := jsonstrict.ReadFile(path, MaxExportBytes)
	if err != nil {
		return nil, err
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
as warnings, and the weight matrix's properties are listed, followed by
the calibration (with --epsilon or a calibrate section: the noise scales
that meet ε) and what the algorithm's source proves: the convergence
case, the predicted steady-state error, the infinite-horizon budget.

`

func cmdValidate(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("validate", validateHelp, stderr)
	cal := calibFlags(fs)
	b, err := parseAndLoad(fs, args, stdin, stderr, cal)
	if err != nil {
		return err
	}
	defer printTheory(stdout, b)
	fmt.Fprintf(stdout, "%s: valid (%s, %d agents, dimension %d, %d iterations)\n",
		b.Scenario.Name, b.Factory.Title, b.Env.Problem.Agents(), b.Env.Problem.Dim(), b.Scenario.Iterations)
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
	fs := newFlags("presets", presetsHelp, stderr)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return errUsage
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

func cmdPlugins(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("plugins", pluginsHelp, stderr)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if fs.NArg() != 0 {
		fs.Usage()
		return errUsage
	}
	b, err := json.MarshalIndent(scenario.Plugins(), "", "  ")
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
