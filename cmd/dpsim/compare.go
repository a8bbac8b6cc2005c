package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"dpsim/core/jsonstrict"
	"dpsim/core/runner"
	"dpsim/core/scenario"
)

const compareHelp = `Usage: dpsim compare [--dir DIR] [--quiet] [--workers N] [--epsilon E [--horizon K]] COMPARISON

Runs every entry of a comparison (docs/compare.md: a base scenario and a
list of algorithm sections, format dpsim-compare/1) on the same problem
instance, graph and seeds, and writes each entry's run export to
DIR/NAME.json, NAME the entry's scenario name (<base>-<i>-<kind>): the
bytes "dpsim run" writes for that entry's scenario, and the page's export
of the same entry. --epsilon calibrates every entry to ε = E with its own
accountant (replacing the comparison's calibrate section); an entry that
cannot be calibrated runs uncalibrated, and the summary says why. The
summary reads each entry's ε from its ledger after the run; each entry's
warnings are printed before the runs, as "dpsim run" prints them.
Every export's name is checked before anything is built or run (the
folder exists, no export is a folder or the comparison file itself), and
each is written whole or not at all (docs/guarantees.md). Ctrl-C (or
SIGTERM, or SIGHUP) stops at once, the calibration searches included;
the exports of the entries that finished stay. The entries run one after
the other, each with --workers as "dpsim run" (every core once an
iteration is long enough to gain; the exports do not depend on it).
COMPARISON is a file or "-" for standard input.

`

// cmdCompare is "dpsim compare".
func cmdCompare(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	env, stop := processEnv()
	defer stop()
	return compare(env, args, stdin, stdout, stderr)
}

// compare is "dpsim compare" with the process's signals given (tests give
// their own).
func compare(env sweepEnv, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("compare", compareHelp, stdout)
	dir := fs.String("dir", ".", "write the entries' exports into `DIR`")
	quiet := fs.Bool("quiet", false, "do not print the entries' warnings and the summary to standard error")
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
	if fs.NArg() != 1 {
		return usagef("compare", "give exactly one COMPARISON (a file or -); got %d arguments", fs.NArg())
	}
	if fi, err := os.Stat(*dir); err != nil || !fi.IsDir() {
		return flagError("dir", "must be an existing folder", *dir)
	}
	arg := fs.Arg(0)
	var data []byte
	if arg == "-" {
		data, err = jsonstrict.ReadAll(stdin, "standard input", scenario.MaxBytes)
	} else {
		data, err = jsonstrict.ReadFile(arg, scenario.MaxBytes)
	}
	if err != nil {
		return err
	}
	c, err := scenario.ParseComparison(data)
	if err != nil {
		return fmt.Errorf("%s: %w", arg, err)
	}
	if b := c.BaseScenario(); b != nil {
		if err := provideFiles(dirOf(arg), b); err != nil {
			return fmt.Errorf("%s: %w", arg, err)
		}
	}
	if cal.given() {
		c = c.WithBase(c.BaseScenario(), &scenario.Calibrate{Epsilon: *cal.epsilon, Iterations: *cal.horizon})
	}
	// Every export's name is known from the file alone: check them all
	// now, not after the first entries ran.
	outs := make([]output, len(c.Compare))
	for i := range c.Compare {
		outs[i] = output{fmt.Sprintf("the export of compare[%d] (--dir)", i), filepath.Join(*dir, c.EntryName(i)+".json")}
	}
	if err := checkFiles(fileInputs(arg), outs); err != nil {
		return err
	}
	cb, err := scenario.BuildComparisonCancel(c, scenario.CLI, func() bool { return env.ctx.Err() != nil })
	if err != nil {
		if env.ctx.Err() != nil {
			return fmt.Errorf("%s: %v; nothing written", arg, err)
		}
		return fmt.Errorf("%s: %w", arg, err)
	}
	if !*quiet {
		for i, b := range cb.Entries {
			for _, w := range b.Warnings {
				fmt.Fprintf(stderr, "warning: %s: %s\n", cb.Labels[i], w)
			}
		}
	}
	// The entries run one after the other: the largest is what is held.
	var most int64
	tightOff := make([]string, len(cb.Entries))
	for i, b := range cb.Entries {
		est, off, err := estimateWith(b, workers)
		if err != nil {
			return fmt.Errorf("%s: %w", cb.Labels[i], err)
		}
		most, tightOff[i] = max(most, est.Total), off
	}
	defer holdMemory(most)()
	env.saveOnSignal() // the exports of the entries that finish stay
	var lines []string
	for i, b := range cb.Entries {
		r := runner.New(b)
		r.SetWorkers(workers)
		r.TrackTightUnless(tightOff[i]) // its export is dpsim run's
		interrupted, runErr := runUntil(env.ctx, r)
		if interrupted {
			return fmt.Errorf("interrupted at iteration %d of %s: the exports written so far are complete, this one was not written", r.Iter(), b.Scenario.Name)
		}
		if runErr != nil {
			return fmt.Errorf("%s: %w", cb.Labels[i], runErr)
		}
		path := outs[i].path
		if err := writeFile(outs[i].flag, path, r.WriteExport); err != nil {
			return err
		}
		last := r.Metrics.Latest()
		led := r.Ledger()
		line := fmt.Sprintf("%-28s %s; consensus %.3g; max ε %s (ledger)%s → %s",
			cb.Labels[i], headline(last, r.Metrics.Series.ExtraNames), last.Consensus, led.Max, tightSummary(led), path)
		if n := cb.Notes[i]; n != "" {
			line += "\n    not calibrated: " + n
		}
		lines = append(lines, line)
	}
	if !*quiet {
		fmt.Fprintln(stderr, strings.Join(lines, "\n"))
	}
	return nil
}
