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
	"testing"
)

// Issue 28, class 2: Ctrl-C (SIGINT) or SIGTERM during dpsim run writes
// the export so far with a checkpoint where the run stopped, and says so
// in one line that names that iteration and the command that continues
// it; --resume then writes the uninterrupted run's export byte for byte
// (and its CSV), even when the resumed run is itself interrupted and
// resumed again. Before, the line promised "--resume continues it" for an
// export that held no checkpoint. Real signals, through the real
// handler, in child processes.
func TestSignalWritesResumableCheckpoint(t *testing.T) {
	if testing.Short() {
		t.Skip("runs dpsim in child processes")
	}
	dir := t.TempDir()
	scen, whole, wholeCSV := gtdpRun(t, dir, 6, 3000, `{"every": 7, "checkpoints": [0, 1000, 3000]}`)
	want, _ := os.ReadFile(whole)
	wantCSV, _ := os.ReadFile(wholeCSV)
	line := regexp.MustCompile(`^dpsim: interrupted at iteration (\d+) of 3000: (\S+) holds the run so far, marked "partial": true, with a checkpoint at iteration (\d+): dpsim run --resume (\S+) continues it\n$`)
	// interrupt runs dpsim with args, signalled after k iterations, and
	// returns the iteration it stopped at, after checking its message and
	// its export.
	interrupt := func(sig string, k int, out string, args ...string) int {
		t.Helper()
		cmd := child([]string{"DPSIM_TEST_SIGINT_AT=" + strconv.Itoa(k), "DPSIM_TEST_SIGNAL=" + sig},
			append([]string{"run", "--quiet", "--out", out}, args...)...)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		err := cmd.Run()
		var ee *exec.ExitError
		m := line.FindStringSubmatch(stderr.String())
		if !errors.As(err, &ee) || ee.ExitCode() != 1 || m == nil || m[2] != out || m[4] != out || m[1] != m[3] {
			t.Fatalf("SIG%s at %d: %v, %q", sig, k, err, stderr.String())
		}
		at, _ := strconv.Atoi(m[1])
		var ex struct {
			Status      string
			Partial     bool
			Iter        int `json:"iterations_run"`
			Checkpoints []struct {
				Iteration int
			}
		}
		b, _ := os.ReadFile(out)
		if err := json.Unmarshal(b, &ex); err != nil || ex.Status != "paused" || !ex.Partial || ex.Iter != at || at < k ||
			len(ex.Checkpoints) == 0 || ex.Checkpoints[len(ex.Checkpoints)-1].Iteration != at {
			t.Fatalf("SIG%s at %d: the message says iteration %d; the export: %+v, %v", sig, k, at, ex, err)
		}
		return at
	}
	for _, c := range []struct {
		sig    string
		at     int
		second int // 0: resume to the end at once
	}{{"INT", 400, 0}, {"TERM", 1000, 2200}, {"INT", 0, 0}} {
		part := filepath.Join(dir, "part-"+c.sig+strconv.Itoa(c.at)+".json")
		at := interrupt(c.sig, c.at, part, scen)
		if c.second > 0 {
			// The resumed run is interrupted in turn; its export resumes too.
			again := filepath.Join(dir, "again.json")
			if at2 := interrupt(c.sig, c.second, again, "--resume", part); at2 <= at {
				t.Fatalf("interrupted again at %d, before %d", at2, at)
			}
			part = again
		}
		out, csv := filepath.Join(dir, "r.json"), filepath.Join(dir, "r.csv")
		if code, _, errs := dpsim(t, "", "run", "--quiet", "--resume", part, "--out", out, "--csv", csv); code != 0 {
			t.Fatalf("SIG%s at %d: resume: exit %d: %s", c.sig, c.at, code, errs)
		}
		got, _ := os.ReadFile(out)
		gotCSV, _ := os.ReadFile(csv)
		var ex struct {
			Checkpoints []struct{ Iteration int }
		}
		json.Unmarshal(got, &ex)
		if !bytes.Equal(got, want) {
			t.Fatalf("SIG%s at %d: the resumed export differs from the uninterrupted run's (checkpoints %v)", c.sig, c.at, ex.Checkpoints)
		}
		// The resumed CSV has no ε per agent before the checkpoint it
		// resumed from (docs/exports.md).
		var resumedAt struct {
			Checkpoints []struct{ Iteration int }
		}
		b, _ := os.ReadFile(part)
		json.Unmarshal(b, &resumedAt)
		k := resumedAt.Checkpoints[len(resumedAt.Checkpoints)-1].Iteration
		if w, g := resumedCSV(t, wantCSV, k), resumedCSV(t, gotCSV, -1); w != g {
			t.Errorf("SIG%s at %d: the resumed CSV differs", c.sig, c.at)
		}
	}
}
