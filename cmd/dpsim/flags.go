package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"
	"time"

	"dpsim/cmd/internal/shardflag"
	"dpsim/core/check"
	"dpsim/core/experiment"
	"dpsim/core/pool"
	"dpsim/core/scenario"
)

// usageError is a command-line mistake (a flag, a missing argument): one
// line naming it, a pointer to the command's help, and exit status 2. The
// help itself is printed only when asked for, so that the mistake is not
// buried under 30 lines of flags.
type usageError struct{ cmd, msg string }

func (e *usageError) Error() string {
	if e.cmd == "" {
		return "dpsim: " + e.msg + "; see dpsim --help"
	}
	return "dpsim " + e.cmd + ": " + e.msg + "; see dpsim " + e.cmd + " --help"
}

func usagef(cmd, format string, args ...any) error {
	return &usageError{cmd: cmd, msg: fmt.Sprintf(format, args...)}
}

// flags is a command's flag set with its help text.
type flags struct {
	*flag.FlagSet
	help   string
	stdout io.Writer
}

// newFlags returns the flag set of command name. The flag package prints
// nothing: --help goes to standard output in full, a mistake to standard
// error in one line (usageError).
func newFlags(name, help string, stdout io.Writer) *flags {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {}
	return &flags{FlagSet: fs, help: help, stdout: stdout}
}

// parse parses args; it prints the help and returns flag.ErrHelp for
// -h/--help, and a usageError for anything else it cannot parse.
func (fs *flags) parse(args []string) error {
	err := fs.Parse(args)
	if err == nil {
		return nil
	}
	if errors.Is(err, flag.ErrHelp) {
		fmt.Fprint(fs.stdout, fs.help)
		fs.SetOutput(fs.stdout)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
		return err
	}
	return usagef(fs.Name(), "%s", fs.explain(err))
}

// The flag package's own wordings, which explain rewrites.
var (
	flagInvalid   = regexp.MustCompile(`^invalid (?:boolean )?value "(.*)" for (?:flag )?-([^:]+): `)
	flagUndefined = regexp.MustCompile(`^flag provided but not defined: -+(.*)$`)
	flagNoArg     = regexp.MustCompile(`^flag needs an argument: -+(.*)$`)
)

// explain words a parse error as every other flag error is worded: the
// flag, its rule and the value ("--runs: must be a whole number (got
// "1e3")"), not the flag package's "invalid value … parse error".
func (fs *flags) explain(err error) string {
	msg := check.OneLine(err.Error())
	if m := flagInvalid.FindStringSubmatch(msg); m != nil {
		rule := "has no such value"
		if f := fs.Lookup(m[2]); f != nil {
			if g, ok := f.Value.(flag.Getter); ok {
				switch g.Get().(type) {
				case int, int64:
					rule = "must be a whole number"
				case uint, uint64:
					rule = "must be a whole number ≥ 0"
				case float64:
					rule = "must be a number"
				case bool:
					rule = "must be true or false"
				case time.Duration:
					rule = "must be a duration such as 90s or 5m"
				}
			}
		}
		if strings.HasSuffix(msg, "value out of range") {
			rule += " that fits in 64 bits"
		}
		if i := strings.LastIndex(msg, ": "); rule == "has no such value" && i > 0 {
			rule = msg[i+2:] // a flag.Value's own rule
		}
		return flagError(m[2], rule, strconv.Quote(m[1])).Error()
	}
	if m := flagUndefined.FindStringSubmatch(msg); m != nil {
		return "unknown flag --" + m[1]
	}
	if m := flagNoArg.FindStringSubmatch(msg); m != nil {
		return "--" + m[1] + " needs a value"
	}
	return msg
}

// given reports whether the flag was set on the command line (as opposed
// to holding its default).
func (fs *flags) given(name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// flagError is a flag value that breaks its rule: "--workers: must be
// between 1 and 1024 (got 0)".
func flagError(name, rule string, value any) error {
	return fmt.Errorf("--%s: %s (got %v)", name, rule, value)
}

// positiveFinite checks a float flag that must be a finite number > 0
// when given: NaN and ±Inf parse as floats but mean nothing as an ε.
func positiveFinite(name string, v float64) error {
	if math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 {
		return flagError(name, "must be a finite number greater than 0", v)
	}
	return nil
}

// intRange checks an integer flag against lo ≤ v ≤ hi.
func intRange(name string, v, lo, hi int) error {
	if v < lo || v > hi {
		return flagError(name, fmt.Sprintf("must be between %d and %d", lo, hi), v)
	}
	return nil
}

// WorkersEnv names the environment variable that sets --workers of the
// commands that run one run at a time (run, compare) when the flag is not
// given: a setting of the machine, not of the scenario.
const WorkersEnv = "DPSIM_WORKERS"

// agentWorkers adds --workers to a command that runs one run at a time.
func agentWorkers(fs *flags) *int {
	return fs.Int("workers", pool.Auto, "run the agents of each iteration on `N` goroutines: 0 every core once an iteration is long enough to gain (default $"+WorkersEnv+", else 0); the export is the same bytes for every N")
}

// workersOf resolves --workers: the flag when given, else $DPSIM_WORKERS
// when set, else pool.Auto; out of range, either is one line naming it.
func workersOf(fs *flags, v int, getenv func(string) string) (int, error) {
	if fs.given("workers") {
		if pool.Check(v) != nil {
			return 0, flagError("workers", pool.Rule, v)
		}
		return v, nil
	}
	var s string
	if getenv != nil {
		s = getenv(WorkersEnv)
	}
	if s == "" {
		return pool.Auto, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || pool.Check(n) != nil {
		return 0, fmt.Errorf("%s: %s (got %q)", WorkersEnv, pool.Rule, s)
	}
	return n, nil
}

// estimateWith is b's CLI estimate with the gradients its pool of
// workers runs at once and the tight bound's releases (a run and a
// comparison keep it) where they fit, refused in one line past the CLI's
// budget: naming --workers, its value and the most that fit when one
// gradient at a time would fit, and otherwise the fields of its largest
// part (Build checked the scenario's own estimate). off says why the run
// keeps no tight bound (Runner.TrackTightUnless).
func estimateWith(b *scenario.Built, workers int) (est scenario.Estimate, off string, err error) {
	base := b.Estimate(scenario.CLI)
	n := pool.Widest(workers, b.Env.Problem.Agents())
	est, off = b.KeepTight(base.WithGradients(n), scenario.CLI)
	if err := scenario.CheckCLI(est); err != nil {
		fits := func(k int) bool { return scenario.CheckCLI(base.WithGradients(k)) == nil }
		if n > 1 && fits(1) {
			var got any = workers
			if workers == pool.Auto {
				got = fmt.Sprintf("0: every core, %d at once", n)
			}
			return est, off, experiment.WorkersRefusal("--workers", got, n, "gradient running at once", base.Scratch, est.Total, scenario.CLIBudget, "the run", experiment.MostThatFit(n, fits))
		}
		return est, off, err
	}
	return est, off, nil
}

// MaxWorkers bounds --workers: each worker holds a run's state, and more
// workers than cores only add memory.
const MaxWorkers = 1024

// shardFromEnv reads the shard from a cluster's environment
// (experiment.ShardFromEnv), refusing a count without an index: a job that
// sets DPSIM_SHARDS or SLURM_ARRAY_TASK_COUNT but no index would otherwise
// run every task in every shard.
func shardFromEnv(getenv func(string) string) (experiment.Shard, bool, error) {
	for _, p := range [][2]string{{"DPSIM_SHARDS", "JOB_COMPLETION_INDEX"}, {"SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_ID"}} {
		if getenv(p[0]) != "" && getenv(p[1]) == "" {
			return experiment.Shard{}, false, fmt.Errorf("%s=%s is set but %s is not: a shard count needs its index", p[0], getenv(p[0]), p[1])
		}
	}
	sh, ok, err := experiment.ShardFromEnv(getenv)
	if err != nil || !ok {
		return sh, ok, err
	}
	sh, err = shardflag.Check("the shard from the environment", sh)
	return sh, err == nil, err
}
