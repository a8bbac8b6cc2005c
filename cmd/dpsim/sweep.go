package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"dpsim/cmd/internal/shardflag"
	"dpsim/core/experiment"
	"dpsim/core/jsonstrict"
	"dpsim/core/scenario"
	"dpsim/render/figure"
)

const sweepHelp = `Usage: dpsim sweep [--workers N] [--out NAME.json] [--shard i/n] [--runs N] [--epsilon E] [--quiet] EXPERIMENT

Runs a Monte Carlo sweep (docs/experiments.md): every series, every x
point, every seeded run, on N workers (default: every core), and writes
NAME.json (per series and x the statistics, the expectations' verdicts and
every run's final metrics), NAME.csv (tidy statistics) and the figure as
NAME.svg, NAME.png and NAME.pdf. The JSON is byte-identical for any worker
count, and for shards merged with "dpsim merge". Here --workers counts
runs at a time, each on one goroutine (so N runs use N cores, never more;
DPSIM_WORKERS, the agents' goroutines of "dpsim run", does not apply).

EXPERIMENT is an experiment file, "-" for standard input, or preset:NAME
(see "dpsim presets"). A progress bar with the time left goes to standard
error. Ctrl-C (or SIGTERM, or SIGHUP when the terminal closes) stops
handing out runs, lets the running ones stop, and writes what finished,
marked "partial": true. Every output is checked before the first run,
and each file is written whole or not at all (docs/guarantees.md).

On a cluster, --shard i/n (0 ≤ i < n) runs every n-th run from the i-th and
writes only the JSON (default NAME.part-i-of-n.json); without --shard the
shard is read from JOB_COMPLETION_INDEX and DPSIM_SHARDS (Kubernetes
Indexed Job) or SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_COUNT and
SLURM_ARRAY_TASK_MIN (Slurm array). See docs/cluster.md.

`

// sweepEnv is what the sweep command takes from the process, so tests can
// give their own.
type sweepEnv struct {
	getenv func(string) string
	// ctx is cancelled on Ctrl-C.
	ctx context.Context
	// isTTY says whether standard error is a terminal (a redrawn bar) or
	// not (a line now and then).
	isTTY bool
	// saving, when not nil (the process's own signals), is set once the
	// command starts the work whose result a signal saves (saveOnSignal);
	// until then a signal ends the process at once.
	saving *atomic.Bool
}

// saveOnSignal marks the start of the work a signal stops gracefully —
// a run whose export so far is written, a sweep's runs, the figures
// after the JSON — rather than at once.
func (e sweepEnv) saveOnSignal() {
	if e.saving != nil {
		e.saving.Store(true)
	}
}

// processEnv returns the environment of a command run by the process:
// its signals and standard error. Until the command calls saveOnSignal,
// a first signal (Ctrl-C, SIGTERM, SIGHUP) ends the process at once with
// one line: nothing has been written then, and the work under way (a
// problem's optimum solved on MNIST, a calibration, reading the parts of
// a merge) need not finish for anything to be saved. After it, the first
// signal cancels the context, and a second one kills at once.
func processEnv() (sweepEnv, func()) {
	// SIGHUP (the terminal closed) saves what finished, as Ctrl-C does.
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	tty := false
	if fi, err := os.Stderr.Stat(); err == nil {
		tty = fi.Mode()&os.ModeCharDevice != 0
	}
	saving, over := new(atomic.Bool), new(atomic.Bool)
	go func() {
		<-ctx.Done()
		if over.Load() {
			return // the command returned: stop, not a signal, ended ctx
		}
		if !saving.Load() {
			fmt.Fprintln(os.Stderr, "dpsim: interrupted before anything was written; nothing written")
			os.Exit(1)
		}
		stop()
	}()
	return sweepEnv{getenv: os.Getenv, ctx: ctx, isTTY: tty, saving: saving}, func() { over.Store(true); stop() }
}

func cmdSweep(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	env, stop := processEnv()
	defer stop()
	defer collectSeldom()() // many small runs
	return sweep(env, args, stdin, stdout, stderr)
}

func sweep(env sweepEnv, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlags("sweep", sweepHelp, stdout)
	workers := fs.Int("workers", min(runtime.NumCPU(), MaxWorkers), "run `N` runs at a time")
	out := fs.String("out", "", "write `NAME.json` and, beside it, NAME.csv, .svg, .png and .pdf (default: the experiment's name)")
	shardFlag := fs.String("shard", "", "run only shard `i/n` of the runs (0 ≤ i < n)")
	runs := fs.Int("runs", 0, "replace the experiment's runs per point by `N` (recorded in the output)")
	quiet := fs.Bool("quiet", false, "no progress bar and no summary on standard error")
	eps := fs.Float64("epsilon", 0, "calibrate every series to `ε`: each run's noise is scaled so that its algorithm's own accountant reports ε after the run's iterations (sets calibrate in the experiment's set)")
	task0 := fs.Int("print-task", -1, "print the scenario of run number `T` (with its seeds) instead of sweeping; \"dpsim run\" replays it")
	if err := fs.parse(args); err != nil {
		return err
	}
	// Every flag is range-checked before the experiment is read.
	if fs.NArg() != 1 {
		return usagef("sweep", "give exactly one EXPERIMENT (a file, - or preset:NAME); got %d arguments", fs.NArg())
	}
	if err := intRange("workers", *workers, 1, MaxWorkers); err != nil {
		return err
	}
	if fs.given("runs") {
		if err := intRange("runs", *runs, 1, experiment.MaxRuns); err != nil {
			return err
		}
	}
	if fs.given("epsilon") {
		if err := positiveFinite("epsilon", *eps); err != nil {
			return err
		}
	}
	if fs.given("print-task") {
		if err := intRange("print-task", *task0, 0, experiment.MaxTasks-1); err != nil {
			return err
		}
	}
	// A task is numbered in the whole experiment: a cluster job's shard
	// (from the environment) does not apply to printing one.
	shard, err := shardOf(*shardFlag, fs.given("shard"), !fs.given("print-task"), env.getenv)
	if err != nil {
		return err
	}
	if shard != nil && fs.given("print-task") {
		return usagef("sweep", "--print-task names a run of the whole experiment: give no --shard with it")
	}
	arg := fs.Arg(0)
	e, ps, err := loadExperiment(arg, stdin)
	if err != nil {
		return err
	}
	// The outputs are known once the experiment's name is: check them now,
	// not after hours of runs.
	name := e.Name
	if shard != nil {
		name = fmt.Sprintf("%s.part-%d-of-%d", e.Name, shard.Index, shard.Count)
	}
	base, err := outBase(*out, name)
	if err != nil {
		return err
	}
	if !fs.given("print-task") {
		if err := checkFiles(fileInputs(arg), resultOutputs(base, shard == nil)); err != nil {
			return err
		}
	}
	if fs.given("runs") {
		e.Runs = *runs
		if e, err = experiment.Parse(e.JSON()); err != nil {
			return fmt.Errorf("--runs: %w", err)
		}
	}
	if fs.given("epsilon") {
		// Equal privacy for every series: one calibrate section in the
		// experiment's set, replacing any calibration it had. The value is
		// finite (checked above), so its JSON is a number.
		set := experiment.Overrides{}
		for k, v := range e.Set {
			if k != "calibrate" && !strings.HasPrefix(k, "calibrate.") {
				set[k] = v
			}
		}
		cal, err := json.Marshal(map[string]float64{"epsilon": *eps})
		if err != nil {
			return flagError("epsilon", "must be a finite number greater than 0", *eps)
		}
		set["calibrate"] = cal
		e.Set = set
		if e, err = experiment.Parse(e.JSON()); err != nil {
			return fmt.Errorf("--epsilon: %w", err)
		}
	}
	var task *int
	if fs.given("print-task") {
		task = task0
	}
	return execute(env, e, ps, arg, base, shard, task, *workers, *quiet, stdout, stderr)
}

// execute plans experiment e (read from arg) from its points ps
// (provideExperimentFiles; worked out again if e changed since), runs
// the tasks of shard (all when nil) on workers, and writes its result
// under base; with task it prints that task's scenario instead.
func execute(env sweepEnv, e *experiment.Experiment, ps *experiment.Points, arg, base string, shard *experiment.Shard, task *int, workers int, quiet bool,
	stdout, stderr io.Writer) error {
	plan, err := experiment.NewPlanFrom(env.ctx, e, ps)
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return fmt.Errorf("interrupted while planning %s: no run started, nothing written", arg)
		}
		return fmt.Errorf("%s: %w", arg, err)
	}
	if task != nil {
		sc, err := plan.Scenario(*task)
		if err != nil {
			return fmt.Errorf("--print-task: %w", err)
		}
		_, err = stdout.Write(append(sc.JSON(), '\n'))
		return err
	}
	if shard != nil && shard.Count > plan.Tasks() {
		return fmt.Errorf("shard %d/%d: the experiment has %d runs, so the shard count must be at most %d", shard.Index, shard.Count, plan.Tasks(), plan.Tasks())
	}
	tasks := plan.AllTasks()
	if shard != nil {
		tasks = plan.ShardTasks(*shard)
	}

	plan.WorkersSetting = "--workers"
	// Checked here, before the progress bar, once: Execute does not
	// check again what was checked (Plan.MemoryChecked).
	if err := plan.CheckMemory(len(tasks), workers, scenario.CLIBudget); err != nil {
		return err
	}
	defer holdMemory(plan.Estimate(len(tasks), workers).Total)()
	bar := newProgress(stderr, len(tasks), quiet, env.isTTY)
	env.saveOnSignal()
	t0 := time.Now()
	recs, runErr := plan.Execute(env.ctx, tasks, workers, bar.update)
	bar.finish()
	if runErr != nil && !errors.Is(runErr, context.Canceled) {
		return runErr
	}
	// No cancel hook here: after a first Ctrl-C the finished runs are
	// still assembled and saved; a second Ctrl-C kills at once.
	res, err := experiment.Assemble(plan, recs, shard)
	if err != nil {
		return err
	}
	// A Ctrl-C while the figures are drawn stops them (the JSON and CSV
	// are written first); after a first Ctrl-C during the runs the
	// figures of the partial result are drawn regardless, and a second
	// Ctrl-C kills at once.
	drawCtx := env.ctx
	if runErr != nil {
		drawCtx = context.Background()
	}
	written, err := writeResult(drawCtx, plan, res, base, shard == nil)
	if err != nil {
		return err
	}
	if !quiet {
		fmt.Fprintf(stderr, "%s: %d of %d runs in %s on %d workers; wrote %s\n", e.Name, len(recs), len(tasks),
			time.Since(t0).Round(time.Millisecond), min(workers, max(len(tasks), 1)), strings.Join(written, ", "))
		if shard == nil {
			printVerdicts(stderr, res)
		}
	}
	if runErr != nil {
		return fmt.Errorf("interrupted: %d of %d runs finished; %s.json is marked \"partial\": true", len(recs), len(tasks), base)
	}
	return nil
}

// fileInputs returns arg as a list of input files, or none for - and
// preset:NAME.
func fileInputs(arg string) []string {
	if arg == "-" || strings.HasPrefix(arg, "preset:") {
		return nil
	}
	return []string{arg}
}

// resultOutputs lists the files writeResult writes.
func resultOutputs(base string, figures bool) []output {
	outs := []output{{"--out", base + ".json"}}
	if figures {
		for _, ext := range []string{"csv", figure.SVG, figure.PNG, figure.PDF} {
			outs = append(outs, output{"--out", base + "." + ext})
		}
	}
	return outs
}

// loadExperiment reads the experiment arg names (a file, - or
// preset:NAME), reads the user's data files its points train on and
// returns it with its points, which planning takes (execute).
func loadExperiment(arg string, stdin io.Reader) (*experiment.Experiment, *experiment.Points, error) {
	var data []byte
	var err error
	switch {
	case strings.HasPrefix(arg, "preset:"):
		data, err = experiment.PresetJSON(strings.TrimPrefix(arg, "preset:"))
	case arg == "-":
		data, err = jsonstrict.ReadAll(stdin, "standard input", experiment.MaxBytes)
	default:
		// Not os.ReadFile: a named pipe would block and /dev/zero would
		// exhaust memory (the same reading as dpsim run's).
		data, err = jsonstrict.ReadFile(arg, experiment.MaxBytes)
	}
	if err != nil {
		return nil, nil, err
	}
	e, err := experiment.Parse(data)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", arg, err)
	}
	ps, err := provideExperimentFiles(e, arg)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", arg, err)
	}
	return e, ps, nil
}

// shardOf is the shard --shard names (flag, when given), or else, when
// fromEnv, the one a cluster job's environment names; nil: every run.
func shardOf(flag string, given, fromEnv bool, getenv func(string) string) (*experiment.Shard, error) {
	if given {
		sh, err := shardflag.Parse(flag)
		if err != nil {
			return nil, err
		}
		return &sh, nil
	}
	if !fromEnv {
		return nil, nil
	}
	sh, ok, err := shardFromEnv(getenv)
	if err != nil || !ok {
		return nil, err
	}
	return &sh, nil
}

func outBase(out, name string) (string, error) {
	if out == "" {
		return name, nil
	}
	if !strings.HasSuffix(out, ".json") || out == ".json" {
		return "", flagError("out", "name a .json file (the CSV and figures go beside it)", strconv.Quote(out))
	}
	return strings.TrimSuffix(out, ".json"), nil
}

// writeResult writes base.json and, for a whole sweep, base.csv and the
// figures, each atomically (writeFile). It returns the files written.
// Drawing a figure stops when ctx is done (between series, before the
// encoding): the files written so far stay, and the error says so.
func writeResult(ctx context.Context, plan *experiment.Plan, res *experiment.Result, base string, figures bool) ([]string, error) {
	files := []struct {
		ext  string
		data func() ([]byte, error)
	}{{"json", func() ([]byte, error) { return res.JSON(), nil }}}
	if figures {
		fd := plan.Figure(res)
		files = append(files, struct {
			ext  string
			data func() ([]byte, error)
		}{"csv", func() ([]byte, error) { return plan.CSV(res), nil }})
		for _, f := range []string{figure.SVG, figure.PNG, figure.PDF} {
			files = append(files, struct {
				ext  string
				data func() ([]byte, error)
			}{f, func() ([]byte, error) { return figure.BytesContext(ctx, fd, f) }})
		}
	}
	var written []string
	for _, f := range files {
		data, err := f.data()
		if errors.Is(err, context.Canceled) {
			return written, fmt.Errorf("interrupted while drawing %s.%s: wrote %s; the figures from there on are not written", base, f.ext, strings.Join(written, ", "))
		}
		if err != nil {
			return written, fmt.Errorf("%s.%s: %w", base, f.ext, err)
		}
		path := base + "." + f.ext
		if err := writeBytes("--out", path, data); err != nil {
			return written, err
		}
		written = append(written, path)
	}
	return written, nil
}

func printVerdicts(w io.Writer, res *experiment.Result) {
	if a := res.Audit; a != nil {
		fmt.Fprintf(w, "  %-13s %s\n", a.Verdict, a.Summary)
		for _, t := range a.Tests {
			fmt.Fprintf(w, "                %s: ε ≥ %.4g (FPR %d/%d ≤ %.3g, FNR %d/%d ≤ %.3g at %g %% each)\n", t.Statistic, float64(t.Epsilon),
				t.FPR.Count, t.FPR.Runs, float64(t.FPR.Upper), t.FNR.Count, t.FNR.Runs, float64(t.FNR.Upper), 100*t.Confidence)
		}
		fmt.Fprintf(w, "                neighbour: %s\n", a.Neighbour)
	}
	for _, x := range res.Expectations {
		fmt.Fprintf(w, "  %-13s %s\n                %s\n", x.Verdict, x.Claim, x.Summary)
	}
}

// MaxPartBytes bounds each file dpsim merge reads: a sweep's JSON holds
// a few hundred bytes per run, so this is room for about half a million
// runs per part; split larger sweeps into more shards.
const MaxPartBytes = 256 << 20

// MaxMergeBytes bounds all the parts of one merge together: their records
// are decoded and assembled in memory, at several times their size in
// text, and the result must fit the CLI's 4 GiB budget
// (scenario.CLIBudget) as a sweep's own estimate does.
const MaxMergeBytes = 1 << 30

const mergeHelp = `Usage: dpsim merge --out NAME.json PART.json...

Combines the outputs of "dpsim sweep --shard" (or any results of the same
experiment) into exactly what one unsharded sweep writes: NAME.json, with
NAME.csv and the figures beside it when every run is present.

`

func cmdMerge(args []string, stdout, stderr io.Writer) error {
	env, stop := processEnv()
	defer stop()
	return merge(env, args, stdout, stderr)
}

// merge is "dpsim merge" with the process's signals given.
func merge(env sweepEnv, args []string, stdout, stderr io.Writer) error {
	fs := newFlags("merge", mergeHelp, stdout)
	out := fs.String("out", "", "write `NAME.json` (required)")
	quiet := fs.Bool("quiet", false, "no summary on standard error")
	if err := fs.parse(args); err != nil {
		return err
	}
	if *out == "" || fs.NArg() == 0 {
		return usagef("merge", "give --out NAME.json and at least one PART.json")
	}
	base, err := outBase(*out, "")
	if err != nil {
		return err
	}
	// Whether the figures are written depends on the parts; check them all.
	if err := checkFiles(fs.Args(), resultOutputs(base, true)); err != nil {
		return err
	}
	// All the parts together first, from their sizes alone: a merge too
	// large to assemble is refused before a byte is read.
	total := int64(0)
	for _, p := range fs.Args() {
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() {
			total += fi.Size()
		}
	}
	if total > MaxMergeBytes {
		return fmt.Errorf("the %d parts hold %s together; dpsim merge reads at most %s (their records take several times that in memory, beyond the %s budget): the sweep is too large for one result — lower its runs or points", fs.NArg(), scenario.Bytes(total), scenario.Bytes(MaxMergeBytes), scenario.Bytes(scenario.CLIBudget))
	}
	var parts [][]byte
	for _, p := range fs.Args() {
		// Reading and decoding many large parts takes seconds.
		if env.ctx.Err() != nil {
			return fmt.Errorf("interrupted while reading the parts: nothing written")
		}
		// Regular files only, bounded: a named pipe, /dev/zero or a
		// runaway file is refused before it is read.
		data, err := jsonstrict.ReadFile(p, MaxPartBytes)
		if err != nil {
			return err
		}
		parts = append(parts, data)
	}
	res, err := experiment.MergeCancel(fs.Args(), parts, func() bool { return env.ctx.Err() != nil })
	if errors.Is(err, experiment.ErrInterrupted) {
		return fmt.Errorf("interrupted while merging the parts: nothing written")
	}
	if err != nil {
		return err
	}
	_, plan, err := experiment.ReadResult(res.JSON())
	if err != nil {
		return err
	}
	env.saveOnSignal() // a signal while drawing keeps the files written
	written, err := writeResult(env.ctx, plan, res, base, !res.Partial)
	if err != nil {
		return err
	}
	if !*quiet {
		fmt.Fprintf(stderr, "merged %d parts: %d of %d runs; wrote %s\n", len(parts), res.Finished, res.Tasks, strings.Join(written, ", "))
		if res.Partial {
			fmt.Fprintf(stderr, "  partial: %d runs are missing, so no CSV or figure was written\n", res.Tasks-res.Finished)
		} else {
			printVerdicts(stderr, res)
		}
	}
	return nil
}

// progress draws "[#####.....] 123/2800 runs  4.4 %  ETA 2m31s" on standard
// error: redrawn in place at most ten times a second on a terminal, a line
// every 10 % otherwise.
type progress struct {
	w          io.Writer
	total      int
	quiet, tty bool
	start      time.Time
	mu         sync.Mutex
	last       time.Time
	lastDecile int
	drawn      bool
}

func newProgress(w io.Writer, total int, quiet, tty bool) *progress {
	return &progress{w: w, total: total, quiet: quiet, tty: tty, start: time.Now()}
}

func (p *progress) update(done int) {
	if p.quiet {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	now := time.Now()
	if p.tty {
		if now.Sub(p.last) < 100*time.Millisecond && done < p.total {
			return
		}
		p.last, p.drawn = now, true
		fmt.Fprintf(p.w, "\r%s", p.line(done, now))
		return
	}
	if d := done * 10 / max(p.total, 1); d > p.lastDecile || done == p.total {
		p.lastDecile = d
		fmt.Fprintln(p.w, p.line(done, now))
	}
}

func (p *progress) line(done int, now time.Time) string {
	const width = 30
	frac := float64(done) / float64(max(p.total, 1))
	n := int(frac * width)
	el := now.Sub(p.start)
	eta := "ETA —"
	if done > 0 && done < p.total {
		eta = "ETA " + (time.Duration(float64(el) / frac * (1 - frac))).Round(time.Second).String()
	} else if done == p.total {
		eta = "done in " + el.Round(100*time.Millisecond).String()
	}
	return fmt.Sprintf("[%s%s] %d/%d runs %5.1f %%  %s   ", strings.Repeat("#", n), strings.Repeat(".", width-n), done, p.total, 100*frac, eta)
}

func (p *progress) finish() {
	if p.drawn {
		fmt.Fprintln(p.w)
	}
}

// listExperiments prints the experiment presets for "dpsim presets".
func listExperiments(w io.Writer) {
	for _, p := range experiment.Presets() {
		fmt.Fprintf(w, "%-30s %-11s %s\n", p.Name, "experiment", p.Title)
	}
}
