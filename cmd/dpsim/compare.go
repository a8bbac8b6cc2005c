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

const compareHelp = `Usage: dpsim compare [--dir DIR] [--quiet] [--epsilon E [--horizon K]] COMPARISON

Runs every entry of a comparison (docs/compare.md: a base scenario and a
list of algorithm sections, format dpsim-compare/1) on the same problem
instance, graph and seeds, and writes each entry's run export to
DIR/NAME.json, NAME the entry's scenario name (<base>-<i>-<kind>): the
bytes "dpsim run" writes for that entry's scenario, and the page's export
of the same entry. --epsilon calibrates every entry to ε = E with its own
accountant (replacing the comparison's calibrate section); an entry that
cannot be calibrated runs uncalibrated, and the summary says why. The
summary reads each entry's ε from its ledger after the run.
COMPARISON is a file or "-" for standard input.

`

// cmdCompare is "dpsim compare".
func cmdCompare(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	env, stop := processEnv()
	defer stop()
	fs := newFlags("compare", compareHelp, stdout)
	dir := fs.String("dir", ".", "write the entries' exports into `DIR`")
	quiet := fs.Bool("quiet", false, "do not print the summary to standard error")
	cal := calibFlags(fs)
	if err := fs.parse(args); err != nil {
		return err
	}
	if err := cal.check(); err != nil {
		return err
	}
	if fs.NArg() != 1 {
		return usagef("compare", "give exactly one COMPARISON (a file or -); got %d arguments", fs.NArg())
	}
	arg := fs.Arg(0)
	var data []byte
	var err error
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
	if cal.given() {
		c = c.WithBase(c.BaseScenario(), &scenario.Calibrate{Epsilon: *cal.epsilon, Iterations: *cal.horizon})
	}
	if fi, err := os.Stat(*dir); err != nil || !fi.IsDir() {
		return flagError("dir", "must be an existing folder", *dir)
	}
	cb, err := scenario.BuildComparison(c, scenario.CLI)
	if err != nil {
		return fmt.Errorf("%s: %w", arg, err)
	}
	var lines []string
	for i, b := range cb.Entries {
		r := runner.New(b)
		interrupted, runErr := runUntil(env.ctx, r)
		if interrupted {
			return fmt.Errorf("interrupted at iteration %d of %s: the exports written so far are complete, this one was not written", r.Iter(), b.Scenario.Name)
		}
		if runErr != nil {
			return fmt.Errorf("%s: %w", cb.Labels[i], runErr)
		}
		path := filepath.Join(*dir, b.Scenario.Name+".json")
		if err := writeFile("--dir", path, r.WriteExport); err != nil {
			return err
		}
		last := r.Metrics.Latest()
		line := fmt.Sprintf("%-28s %s; consensus %.3g; max ε %s (ledger) → %s",
			cb.Labels[i], headline(last, r.Metrics.Series.ExtraNames), last.Consensus, r.Ledger().Max, path)
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
