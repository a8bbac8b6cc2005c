//go:build unix

package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"dpsim/cmd/internal/outfile"
	"dpsim/core/scenario"
)

// TestMain lets a test run dpsim in a child process (the test binary
// itself), so that it can kill it or send it signals: with
// DPSIM_TEST_ARGS set (arguments separated by \x1f), the binary is dpsim;
// with DPSIM_TEST_KILL_BEFORE_RENAME set as well, it kills itself the
// moment an output's temporary file is complete, before the rename; with
// DPSIM_TEST_SIGINT_AT=K, dpsim run sends itself SIGINT (a real signal,
// through the real handler) after K iterations, or SIGTERM with
// DPSIM_TEST_SIGNAL=TERM; DPSIM_TEST_FSIZE=N
// limits every file it writes to N bytes (RLIMIT_FSIZE, as ulimit -f: a
// full disk at N bytes) and DPSIM_TEST_AS=N its address space (as ulimit
// -v), so that a runaway child cannot take the machine;
// DPSIM_TEST_REPORT_LIMIT=1 ends its standard error with the memory limit
// the command set (runtime/debug).
func TestMain(m *testing.M) {
	if args := os.Getenv("DPSIM_TEST_ARGS"); args != "" {
		for _, l := range []struct {
			env      string
			resource int
		}{{"DPSIM_TEST_FSIZE", syscall.RLIMIT_FSIZE}, {"DPSIM_TEST_AS", syscall.RLIMIT_AS}} {
			if n, err := strconv.ParseUint(os.Getenv(l.env), 10, 64); err == nil {
				if err := syscall.Setrlimit(l.resource, &syscall.Rlimit{Cur: n, Max: n}); err != nil {
					panic(err)
				}
			}
		}
		holdMemory(scenario.CLIBudget) // as main does
		if os.Getenv("DPSIM_TEST_KILL_BEFORE_RENAME") != "" {
			outfile.BeforeRename = func(string) { syscall.Kill(os.Getpid(), syscall.SIGKILL) }
		}
		if k, err := strconv.Atoi(os.Getenv("DPSIM_TEST_SIGINT_AT")); err == nil {
			sig := syscall.SIGINT
			if os.Getenv("DPSIM_TEST_SIGNAL") == "TERM" {
				sig = syscall.SIGTERM
			}
			testHookIteration = func(done int) {
				if done == k {
					syscall.Kill(os.Getpid(), sig)
					// Let the handler see it before the next iteration or
					// two: a short run would otherwise end first.
					time.Sleep(200 * time.Millisecond)
				}
			}
		}
		held := debug.SetMemoryLimit(-1)
		testHookHold = func(limit int64) { held = limit }
		code := run(strings.Split(args, "\x1f"), os.Stdin, os.Stdout, os.Stderr)
		if os.Getenv("DPSIM_TEST_REPORT_LIMIT") != "" {
			// The memory limit the command held itself to (the last
			// holdMemory set; it gives it back when it returns).
			fmt.Fprintf(os.Stderr, "\ndpsim-test: memory limit %d\n", held)
			// Its own peak resident memory: the rusage's counts the test
			// process's too (exec.Command starts the child in the
			// parent's memory, whose high-water mark exec keeps).
			if st, err := os.ReadFile("/proc/self/status"); err == nil {
				if m := regexp.MustCompile(`(?m)^VmHWM:\s+(\d+) kB$`).FindSubmatch(st); m != nil {
					fmt.Fprintf(os.Stderr, "dpsim-test: peak rss %s\n", m[1])
				}
			}
		}
		os.Exit(code)
	}
	limit, gc := collector()
	code := m.Run()
	// A command run in this process that keeps its memory limit or GOGC
	// (holdMemory, collectSeldom) leaves every later test collecting
	// under them: a small run's limit cost TestPrivacyTable 38 CPU-s
	// against 10.
	if l, g := collector(); (l != limit || g != gc) && code == 0 {
		fmt.Fprintf(os.Stderr, "a test left this process's memory limit at %d bytes and GOGC at %d (were %d and %d): a command must defer what holdMemory and collectSeldom return\n", l, g, limit, gc)
		code = 1
	}
	os.Exit(code)
}

// collector returns the process's memory limit and GOGC, unchanged.
func collector() (limit int64, gc int) {
	gc = debug.SetGCPercent(100)
	debug.SetGCPercent(gc)
	return debug.SetMemoryLimit(-1), gc
}

// child returns dpsim args as a child process with extra environment.
func child(env []string, args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), append(env, "DPSIM_TEST_ARGS="+strings.Join(args, "\x1f"))...)
	return cmd
}

// Issue 15, class 3: sweep and merge read their inputs as dpsim run
// does: a named pipe, a device or an oversized file is refused before a
// byte is read, in one line.
func TestSweepAndMergeInputsAreBounded(t *testing.T) {
	dir := t.TempDir()
	pipe := filepath.Join(dir, "pipe.json")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Skip(err)
	}
	big := filepath.Join(dir, "big.json")
	f, _ := os.Create(big)
	f.Truncate(MaxPartBytes + 1) // sparse: costs no disk
	f.Close()
	bigExp := filepath.Join(dir, "bigexp.json")
	f, _ = os.Create(bigExp)
	f.Truncate(4<<20 + 1)
	f.Close()
	out := filepath.Join(dir, "m.json")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"sweep", pipe}, "pipe.json: is a named pipe, not a regular file; to read a stream, give - and redirect it to standard input"},
		{[]string{"sweep", bigExp}, "bigexp.json: is 4.0 MiB (4194305 bytes); the limit is 4 MiB (4194304 bytes)"},
		{[]string{"sweep", dir}, "is a folder"},
		{[]string{"merge", "--out", out, pipe}, "pipe.json: is a named pipe"},
		{[]string{"merge", "--out", out, big}, "big.json: is 256.0 MiB (268435457 bytes); the limit is 256 MiB (268435456 bytes)"},
	}
	for _, dev := range []string{"/dev/zero", "/dev/urandom"} {
		if _, err := os.Stat(dev); err == nil {
			cases = append(cases, struct {
				args []string
				want string
			}{[]string{"sweep", dev}, dev + ": is a device, not a regular file"},
				struct {
					args []string
					want string
				}{[]string{"merge", "--out", out, dev}, dev + ": is a device, not a regular file"})
		}
	}
	for _, c := range cases {
		code, _, errs := dpsim(t, "", c.args...)
		if code != 1 {
			t.Errorf("%v: exit %d", c.args, code)
		}
		oneLineErr(t, strings.Join(c.args, " "), errs, c.want)
	}
	if _, err := os.Stat(out); err == nil {
		t.Error("merge wrote an output")
	}
}

// Issue 15, class 5: a run and a sweep killed during their final write
// leave the previous result intact — and the run leaves no spill file.
func TestKillDuringFinalWriteKeepsOldFile(t *testing.T) {
	if testing.Short() {
		t.Skip("runs dpsim in child processes")
	}
	dir := t.TempDir()
	tmp := filepath.Join(dir, "tmp")
	os.Mkdir(tmp, 0o755)
	for _, c := range []struct {
		name string
		args func(out string) []string
	}{
		{"run", func(out string) []string { return []string{"run", "--quiet", "--out", out, "preset:gtdp-rendezvous"} }},
		{"sweep", func(out string) []string {
			return []string{"sweep", "--quiet", "--runs", "2", "--out", out, "preset:gtdp-error-bands"}
		}},
	} {
		out := filepath.Join(dir, c.name+".json")
		const old = "THE PREVIOUS COMPLETE RESULT"
		os.WriteFile(out, []byte(old), 0o644)
		cmd := child([]string{"DPSIM_TEST_KILL_BEFORE_RENAME=1", "TMPDIR=" + tmp}, c.args(out)...)
		msg, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
			t.Fatalf("%s: the child was not killed: %v\n%s", c.name, err, msg)
		}
		if b, _ := os.ReadFile(out); string(b) != old {
			t.Errorf("%s: killed during the final write, the old result became %d bytes", c.name, len(b))
		}
		if ents, _ := os.ReadDir(tmp); len(ents) != 0 {
			t.Errorf("%s: left in TMPDIR after SIGKILL: %v", c.name, ents)
		}
	}
}

// Issue 15, class 5: SIGHUP (a closed terminal) saves the finished runs
// of a sweep as Ctrl-C does, instead of killing it.
func TestSIGHUPSavesSweep(t *testing.T) {
	if testing.Short() {
		t.Skip("runs dpsim in a child process")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "cut.json")
	cmd := child(nil, "sweep", "--workers", "2", "--out", out, "preset:gtdp-noise-sweep")
	stderr, _ := cmd.StderrPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stderr)
	for sc.Scan() {
		if strings.Contains(sc.Text(), "runs  10.0 %") {
			cmd.Process.Signal(syscall.SIGHUP)
			break
		}
	}
	go func() {
		for sc.Scan() {
		}
	}()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 {
			t.Fatalf("after SIGHUP: %v; want exit status 1 after saving", err)
		}
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		t.Fatal("the sweep did not stop after SIGHUP")
	}
	var r struct {
		Partial         bool
		Finished, Tasks int
	}
	b, err := os.ReadFile(out)
	if err != nil || json.Unmarshal(b, &r) != nil || !r.Partial || r.Finished == 0 {
		t.Fatalf("after SIGHUP: %v, %+v", err, r)
	}
}

// Issue 15, class 5: Ctrl-C during dpsim run writes the export so far,
// marked paused, and exits 1; Ctrl-C and then a kill during that final
// write leave the previous export intact. No spill file is left either way.
func TestCtrlCDuringRun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs dpsim in child processes")
	}
	dir := t.TempDir()
	tmp := filepath.Join(dir, "tmp")
	os.Mkdir(tmp, 0o755)
	scen := filepath.Join(dir, "long.json")
	os.WriteFile(scen, []byte(`{"name":"long","seed":1,"graph":{"kind":"ring","n":3},"weights":{"kind":"metropolis"},
	  "problem":{"kind":"rendezvous","params":{"dim":1}},"algorithm":{"kind":"gt-dp","params":{"alpha":0.1}},
	  "noise":{"eta":{"dist":"laplace","scale":0},"xi":{"dist":"laplace","scale":0}},"iterations":10000000,"record":{"every":1000}}`), 0o644)
	out := filepath.Join(dir, "x.json")
	msg, err := child([]string{"DPSIM_TEST_SIGINT_AT=100", "TMPDIR=" + tmp}, "run", "--quiet", "--out", out, scen).CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(string(msg), "dpsim: interrupted at iteration ") ||
		!strings.Contains(string(msg), " of 10000000: "+out+` holds the run so far, marked "partial": true, with a checkpoint at iteration `) {
		t.Fatalf("after SIGINT: %v, %q", err, msg)
	}
	var ex struct {
		Status    string
		Partial   bool
		Iteration int `json:"iterations_run"`
	}
	b, _ := os.ReadFile(out)
	if err := json.Unmarshal(b, &ex); err != nil || ex.Status != "paused" || !ex.Partial || ex.Iteration < 100 || ex.Iteration >= 10000000 {
		t.Errorf("export after SIGINT: %+v, %v", ex, err)
	}
	// Ctrl-C, then killed while writing: the export just written stays.
	msg, err = child([]string{"DPSIM_TEST_SIGINT_AT=100", "DPSIM_TEST_KILL_BEFORE_RENAME=1", "TMPDIR=" + tmp}, "run", "--quiet", "--out", out, scen).CombinedOutput()
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("the child was not killed: %v, %q", err, msg)
	}
	if b2, _ := os.ReadFile(out); string(b2) != string(b) {
		t.Error("killed during the final write, the previous export changed")
	}
	if ents, _ := os.ReadDir(tmp); len(ents) != 0 {
		t.Errorf("left in TMPDIR: %v", ents)
	}
}
