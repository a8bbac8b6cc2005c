//go:build unix

package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// A dpsim killed (SIGKILL) between creating an output's temporary file
// and renaming it leaves .NAME.pidPID.*.tmp beside the output; the next
// write of the same output removes it, since PID no longer runs, and
// leaves alone the temporary of a live process (here: this test's own,
// as if another dpsim were writing the same output) and every other file.
func TestStaleTemporariesRemoved(t *testing.T) {
	if testing.Short() {
		t.Skip("runs dpsim in child processes")
	}
	dir := t.TempDir()
	out := filepath.Join(dir, "x.json")
	cmd := child([]string{"DPSIM_TEST_KILL_BEFORE_RENAME=1"}, "run", "--quiet", "--out", out, "preset:gtdp-rendezvous")
	_, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("the child was not killed: %v", err)
	}
	stale := ".x.json.pid" + strconv.Itoa(cmd.Process.Pid) + "."
	names := func() []string {
		ents, _ := os.ReadDir(dir)
		var ns []string
		for _, e := range ents {
			ns = append(ns, e.Name())
		}
		return ns
	}
	left := names()
	if len(left) != 1 || !strings.HasPrefix(left[0], stale) || !strings.HasSuffix(left[0], ".tmp") {
		t.Fatalf("after the kill the folder holds %v, want one %s*.tmp", left, stale)
	}
	live := ".x.json.pid" + strconv.Itoa(os.Getpid()) + ".123.tmp"
	for _, f := range []string{live, ".x.json.pidnope.tmp", ".y.json.pid1.tmp", "notes.txt"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("keep"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if msg, err := child(nil, "run", "--quiet", "--out", out, "preset:gtdp-rendezvous").CombinedOutput(); err != nil {
		t.Fatalf("second run: %v, %s", err, msg)
	}
	got := names()
	want := []string{".x.json.pidnope.tmp", ".y.json.pid1.tmp", live, "notes.txt", "x.json"}
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("after the next write the folder holds %v, want %v", got, want)
	}
}
