//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"dpsim/core/experiment"
	"dpsim/core/scenario"
)

// Issue 28, class 4: a full disk during the final write (every file
// limited to 4 KiB, as ulimit -f does) leaves each command's previous
// output as it was — attack wrote in place and left invalid JSON — and
// no temporary file beside it.
func TestFullDiskKeepsOldOutputs(t *testing.T) {
	if testing.Short() {
		t.Skip("runs dpsim in child processes")
	}
	dir := t.TempDir()
	cmp := comparisonFile(t, t.TempDir(), "c.json", nil)
	const old = `{"the previous complete result": true}`
	for _, c := range []struct {
		name, out string
		args      []string
	}{
		{"attack", "a.json", []string{"attack", "--steps", "20", "--out", filepath.Join(dir, "a.json")}},
		{"compare", "gtdp-fig2-1-gt-dp.json", []string{"compare", "--quiet", "--dir", dir, cmp}},
		{"run", "r.json", []string{"run", "--quiet", "--out", filepath.Join(dir, "r.json"), "preset:gtdp-rendezvous"}},
		{"sweep", "s.json", []string{"sweep", "--quiet", "--runs", "2", "--out", filepath.Join(dir, "s.json"), "preset:gtdp-error-bands"}},
	} {
		out := filepath.Join(dir, c.out)
		if err := os.WriteFile(out, []byte(old), 0o644); err != nil {
			t.Fatal(err)
		}
		msg, err := child([]string{"DPSIM_TEST_FSIZE=4096"}, c.args...).CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(string(msg), "file too large") {
			t.Errorf("%s on a full disk: %v, %q; want exit 1 and the write's error", c.name, err, msg)
		}
		if b, _ := os.ReadFile(out); string(b) != old {
			t.Errorf("%s: the full disk left %d bytes of %s: %.60q", c.name, len(b), c.out, b)
		}
		for _, n := range names(dir) {
			if strings.HasSuffix(n, ".tmp") {
				t.Errorf("%s: left %s", c.name, n)
			}
		}
	}
}

// Issue 28, class 6: a signal during the long work before anything is
// written — compare's calibration to ε = 10⁶ over 10⁷ iterations, which
// took 6–20 s to notice Ctrl-C, and building softmax on MNIST (its x*
// solve, 7 s) — ends dpsim at once, in one line, writing nothing.
func TestSignalStopsLongWorkAtOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("runs dpsim in child processes")
	}
	dir := t.TempDir()
	cmp := comparisonFile(t, dir, "slow.json", func(c map[string]any) {
		base := c["base"].(map[string]any)
		base["iterations"] = 10_000_000
		base["record"] = map[string]any{"every": 100000}
		c["calibrate"] = map[string]any{"epsilon": 1e6}
	})
	var s map[string]any
	json.Unmarshal(read(t, "../../core/scenario/presets/gtdp-softmax-synthetic.json"), &s)
	s["problem"] = map[string]any{"kind": "softmax", "params": map[string]any{"dataset": "mnist"}}
	smx := filepath.Join(dir, "softmax-mnist.json")
	b, _ := json.Marshal(s)
	os.WriteFile(smx, b, 0o644)
	out := t.TempDir()
	for _, args := range [][]string{
		{"compare", "--dir", out, cmp},
		{"validate", smx},
		{"run", "--out", filepath.Join(out, "x.json"), smx},
	} {
		cmd := child([]string{"DPSIM_TEST_AS=8000000000"}, args...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(500 * time.Millisecond)
		cmd.Process.Signal(syscall.SIGINT)
		sent := time.Now()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			took := time.Since(sent)
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != 1 {
				t.Errorf("%v: %v after SIGINT; want exit status 1", args, err)
			}
			if took > 2*time.Second {
				t.Errorf("%v: stopped %v after SIGINT; want at once", args, took)
			}
			oneLineErr(t, args[0], stderr.String(), "interrupted")
			t.Logf("%s: stopped %v after SIGINT: %s", args[0], took.Round(time.Millisecond), strings.TrimSpace(stderr.String()))
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			<-done
			t.Errorf("%v: still running 30 s after SIGINT", args)
		}
	}
	if ns := names(out); len(ns) != 0 {
		t.Errorf("interrupted commands wrote %v", ns)
	}
}

// peakRSS runs dpsim args in a child with env (its address space bounded
// at 8 GB, as ulimit -v) and returns its peak resident memory in bytes,
// the memory limit it held itself to when it ended (runtime/debug), and
// its standard error.
func peakRSS(t *testing.T, env []string, args ...string) (rss, limit int64, stderr string) {
	t.Helper()
	cmd := child(append([]string{"DPSIM_TEST_AS=8000000000", "DPSIM_TEST_REPORT_LIMIT=1"}, env...), args...)
	var buf bytes.Buffer
	cmd.Stderr = &buf
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %v\n%s", args, err, buf.String())
	}
	m := limitLine.FindStringSubmatch(buf.String())
	if m == nil {
		t.Fatalf("%v: no memory limit reported\n%s", args, buf.String())
	}
	limit, _ = strconv.ParseInt(m[1], 10, 64)
	rss = cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss // KiB on Linux
	if m := peakLine.FindStringSubmatch(buf.String()); m != nil {
		// The child's own (VmHWM): the rusage's is at least this test
		// process's resident memory when it started the child.
		rss, _ = strconv.ParseInt(m[1], 10, 64)
	}
	return rss * 1024, limit, buf.String()
}

// peakLine is the child's own peak resident memory in KiB, reported with
// DPSIM_TEST_REPORT_LIMIT set where /proc tells it.
var peakLine = regexp.MustCompile(`(?m)^dpsim-test: peak rss (\d+)$`)

// limitLine is the child's line with DPSIM_TEST_REPORT_LIMIT set: the
// memory limit it held itself to.
var limitLine = regexp.MustCompile(`(?m)^dpsim-test: memory limit (\d+)$`)

// gcLine reads the heap sizes of a GODEBUG=gctrace=1 line, "… A->B->C MB …":
// the heap when the collection started, when it ended, and what was live.
var gcLine = regexp.MustCompile(`(\d+)->(\d+)->(\d+) MB`)

// peakLive runs dpsim args in a child whose collector runs at every 10 %
// of growth (GOGC=10, no memory limit) and returns its peak resident
// memory and the most memory any collection found live: the peak of what
// the process held, to within that tenth, however long the freed pages
// stay resident.
func peakLive(t *testing.T, args ...string) (rss, live int64) {
	t.Helper()
	rss, _, trace := peakRSS(t, []string{"GOGC=10", "GOMEMLIMIT=off", "GODEBUG=gctrace=1"}, args...)
	for _, m := range gcLine.FindAllStringSubmatch(trace, -1) {
		l, _ := strconv.ParseInt(m[3], 10, 64)
		live = max(live, l<<20)
	}
	if live == 0 {
		t.Fatalf("%v: no collection traced", args)
	}
	return rss, live
}

// Issue 28, class 7: the memory estimates cover what a run and a sweep
// really take at their peak, and not absurdly more. A sweep on the
// communication axis (points along the run) was estimated 2–3 times
// below its peak and died out of memory; mushrooms on 3000 agents was
// refused as 84 MiB to pin where the export holds 7 MB; a communication
// grid of two values was estimated as if it had 10⁵ points.
//
// The CLI holds its process to the estimate (a soft memory limit), and a
// collector given that room uses it: with the CLI's settings the peak RSS
// is the limit itself, plus the binary's pages, plus however far a
// collector slowed by a loaded machine lets the heap overshoot a soft
// limit (the ring of 2000: a peak RSS of 274 MiB on a quiet machine, 11
// MiB of it the binary's and the rest up to its 266.7 MiB limit; 285 MiB
// with six busy processes beside it). That figure measures the machine,
// not the estimate: it is printed, not asserted.
// What is asserted is stable: the command holds itself to exactly its
// estimate; and, from a child whose collector runs at every 10 % of
// growth (the least room a process can run in), the most memory live
// fits what the estimate holds, and that child's peak RSS fits the
// estimate with the binary's own pages.
func TestMemoryEstimatesCoverMeasuredPeaks(t *testing.T) {
	if testing.Short() {
		t.Skip("runs dpsim in child processes")
	}
	dir := t.TempDir()
	write := func(name string, v any) string {
		b, _ := json.Marshal(v)
		p := filepath.Join(dir, name)
		os.WriteFile(p, b, 0o644)
		return p
	}
	preset := func(path string) map[string]any {
		var m map[string]any
		json.Unmarshal(read(t, path), &m)
		return m
	}
	ring := preset("../../core/scenario/presets/gtdp-rendezvous.json")
	ring["graph"] = map[string]any{"kind": "ring", "n": 2000}
	ring["problem"].(map[string]any)["params"] = map[string]any{"dim": 200, "box": 10}
	ring["iterations"] = 50
	ring["record"] = map[string]any{"every": 1, "checkpoints": []int{0, 25, 50}}
	mush := preset("../../core/scenario/presets/gtdp-logistic-mushrooms.json")
	mush["graph"] = map[string]any{"kind": "ring", "n": 3000}
	mush["iterations"] = 20
	comm := preset("../../core/experiment/presets/communication-gtdp-ring-vs-complete.json")
	comm["set"] = map[string]any{"iterations": 20000, "record.every": 1}
	comm["runs"] = 2
	delete(comm, "expectations")
	x := comm["x"].(map[string]any)
	delete(x, "values")
	along := write("along.json", comm)
	comm["set"] = map[string]any{"iterations": 50000, "record.every": 1}
	x["values"] = []int{0, 1600000}
	grid := write("grid.json", comm)

	// The CNN's gradients on 128 goroutines, far above the cores: each
	// holds its own scratch (the estimate counted one per core).
	cnn := preset("../../core/scenario/presets/gtdp-cnn-mnist.json")
	cnn["graph"] = map[string]any{"kind": "ring", "n": 128}
	cnn["problem"].(map[string]any)["params"].(map[string]any)["train_rows"] = 1024
	cnn["iterations"] = 2
	cnn["record"] = map[string]any{"every": 1}

	// The tight accountant's releases: with decaying noise, one distinct
	// ε per agent, iteration and channel.
	tight := preset("../../core/scenario/presets/gtdp-rendezvous.json")
	tight["graph"] = map[string]any{"kind": "ring", "n": 500}
	tight["iterations"] = 2000
	tight["record"] = map[string]any{"every": 100}

	// GT-DP on a ring of 2000 in dimension 200 without checkpoints: the
	// algorithm's gradients and the initial states the run keeps for its
	// export, and the export's text held compact and indented at once,
	// were uncounted (held 59 MiB estimated, 85 MiB live).
	wide := preset("../../core/scenario/presets/gtdp-rendezvous.json")
	wide["graph"] = map[string]any{"kind": "ring", "n": 2000}
	wide["problem"].(map[string]any)["params"] = map[string]any{"dim": 200, "box": 10}
	wide["iterations"] = 3
	wide["record"] = map[string]any{"every": 1, "replay": false}

	// Replay arrays of 240,000 values, written by default: counted 32
	// bytes a value (held 15 MiB estimated, 25 MiB live).
	replay := preset("../../core/scenario/presets/gtdp-rendezvous.json")
	replay["graph"] = map[string]any{"kind": "ring", "n": 20}
	replay["problem"].(map[string]any)["params"] = map[string]any{"dim": 2, "box": 10}
	replay["iterations"] = 3000
	replay["record"] = map[string]any{"every": 100}

	for _, c := range []struct {
		name, file string
		sweep      bool
		workers    int
	}{
		{"GT-DP on a ring of 2000, dimension 200, no checkpoints (state copies, the export's indenting)", write("wide.json", wide), false, 0},
		{"GT-DP on a ring of 20, 3000 iterations, 240,000 replay values", write("replay.json", replay), false, 0},
		{"GT-DP on a ring of 500, 2000 iterations of decaying noise (the tight accountant)", write("tight.json", tight), false, 0},
		{"CNN on 128 agents, --workers 128", write("cnn.json", cnn), false, 128},
		{"ring of 2000, dimension 200, 3 checkpoints", write("ring.json", ring), false, 0},
		{"mushrooms on 3000 agents", write("mushrooms.json", mush), false, 0},
		{"communication axis, 2×2 runs × 20001 points", along, true, 0},
		{"communication grid of 2 values, 2×2 runs of 50001 points", grid, true, 0},
	} {
		var total, room int64
		args := []string{"run", "--quiet", "--out", filepath.Join(dir, "out.json"), c.file}
		if c.sweep {
			e, err := experiment.Parse(read(t, c.file))
			if err != nil {
				t.Fatal(err)
			}
			p, err := experiment.NewPlan(e)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			est := p.Estimate(p.Tasks(), 2)
			total, room = est.Total, est.Room
			args = []string{"sweep", "--quiet", "--workers", "2", "--out", filepath.Join(dir, "out.json"), c.file}
		} else {
			s, err := scenario.Parse(read(t, c.file))
			if err != nil {
				t.Fatal(err)
			}
			b, err := scenario.Build(s)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			est, _, err := estimateWith(b, c.workers)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			total, room = est.Total, est.Room
			if c.workers != 0 {
				args = append([]string{"run", "--workers", strconv.Itoa(c.workers)}, args[1:]...)
			}
		}
		held := total - room
		cliRSS, limit, _ := peakRSS(t, nil, args...)
		real, heap := peakLive(t, args...)
		t.Logf("%s: estimate %s (held %s); peak RSS %s with the CLI's settings (limit %s); at GOGC=10 peak RSS %s, at most %s live",
			c.name, scenario.Bytes(total), scenario.Bytes(held), scenario.Bytes(cliRSS), scenario.Bytes(limit), scenario.Bytes(real), scenario.Bytes(heap))
		if want := min(total, scenario.CLIBudget); limit != want {
			t.Errorf("%s: the command held itself to %d bytes; want its estimate, %d", c.name, limit, want)
		}
		const binary = 16 << 20 // the binary's own pages, outside the Go memory limit
		if real > total+binary {
			t.Errorf("%s: peak RSS %s at GOGC=10 beyond the estimate %s and the binary's %s", c.name, scenario.Bytes(real), scenario.Bytes(total), scenario.Bytes(binary))
		}
		if held < heap {
			t.Errorf("%s: held %s estimated, but %s was live (GOGC=10)", c.name, scenario.Bytes(held), scenario.Bytes(heap))
		}
		if held > 3*heap {
			t.Errorf("%s: held %s estimated, over three times the %s live at most (GOGC=10)", c.name, scenario.Bytes(held), scenario.Bytes(heap))
		}
	}
}
