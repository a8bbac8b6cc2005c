// Command dpsim runs dpsim scenarios without a browser.
//
//	dpsim run [--out FILE] [--csv FILE] SCENARIO
//	dpsim validate SCENARIO
//	dpsim presets
//	dpsim sweep [--workers N] [--out NAME.json] [--shard i/n] EXPERIMENT
//	dpsim merge --out NAME.json PART.json...
//
// SCENARIO is a JSON file, "-" for standard input, or preset:NAME.
// Errors go to standard error as one line, with a non-zero exit status.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"dpsim/core/check"
	"dpsim/core/jsonstrict"
	"dpsim/core/runner"
	"dpsim/core/scenario"
	"dpsim/core/weights"
)

const usage = `dpsim: differentially private decentralized optimization, headless.

Usage:
  dpsim run [--out FILE] [--csv FILE] [--quiet] SCENARIO
  dpsim validate SCENARIO
  dpsim presets
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
	case "sweep":
		err = cmdSweep(args[1:], stdin, stdout, stderr)
	case "merge":
		err = cmdMerge(args[1:], stdout, stderr)
	case "-h", "--help", "-help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		err = fmt.Errorf("unknown command %q; the commands are run, validate, presets, sweep and merge", args[0])
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

// load reads and builds a scenario from a file, stdin or a preset.
func load(arg string, stdin io.Reader) (*scenario.Built, error) {
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
// and builds the scenario.
func parseAndLoad(fs *flag.FlagSet, args []string, stdin io.Reader, stderr io.Writer) (*scenario.Built, error) {
	if err := parseFlags(fs, args); err != nil {
		return nil, err
	}
	arg, err := oneArg(fs, stderr)
	if err != nil {
		return nil, err
	}
	return load(arg, stdin)
}

const runHelp = `Usage: dpsim run [--out FILE] [--csv FILE] [--quiet] SCENARIO

Runs the scenario and writes the run export (JSON: the scenario with every
random choice pinned, warnings, weight-matrix findings, metrics per recorded
iteration, the privacy ledger, and the states at the checkpoints).
The same scenario and seeds always give byte-identical files.

`

func cmdRun(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("run", runHelp, stderr)
	out := fs.String("out", "", "write the JSON export to `FILE` (default: standard output)")
	csv := fs.String("csv", "", "also write the metrics as CSV to `FILE`")
	quiet := fs.Bool("quiet", false, "do not print warnings and the summary to standard error")
	b, err := parseAndLoad(fs, args, stdin, stderr)
	if err != nil {
		return err
	}
	// A run may take minutes: find out now, not after it, that an output
	// cannot be written.
	if err := checkOutputs(map[string]string{"--out": *out, "--csv": *csv}); err != nil {
		return err
	}
	if !*quiet {
		fmt.Fprint(stderr, check.Warnings(b.Warnings))
	}
	r := runner.New(b)
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
	}
	return nil
}

const validateHelp = `Usage: dpsim validate SCENARIO

Checks the scenario without running it. Broken rules are errors (exit 1,
one line naming the field); soft assumptions that do not hold are printed
as warnings, and the weight matrix's properties are listed.

`

func cmdValidate(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("validate", validateHelp, stderr)
	b, err := parseAndLoad(fs, args, stdin, stderr)
	if err != nil {
		return err
	}
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
