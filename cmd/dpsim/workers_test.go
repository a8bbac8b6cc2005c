package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --workers and DPSIM_WORKERS choose how many goroutines run a run's
// agents; the export is the same bytes for every choice (a dataset-backed
// CNN run here), and a bad value is one line naming the flag or the
// variable, the rule and the value, before anything is built.
func TestWorkersFlagAndSetting(t *testing.T) {
	dir := t.TempDir()
	run := func(env string, args ...string) (int, string, string) {
		t.Helper()
		t.Setenv(WorkersEnv, env)
		return dpsim(t, "", args...)
	}
	var exports []string
	for i, c := range []struct {
		env  string
		args []string
	}{
		{"1", nil},
		{"", []string{"--workers", "3"}},
		{"", nil},                            // Auto
		{"2", nil},                           // the setting alone
		{"lots", []string{"--workers", "1"}}, // the flag wins over a broken setting
	} {
		out := filepath.Join(dir, "x"+string(rune('a'+i))+".json")
		args := append(append([]string{"run", "--quiet", "--out", out}, c.args...), "preset:gtdp-cnn-mnist")
		if code, _, errs := run(c.env, args...); code != 0 {
			t.Fatalf("%s=%q %v: exit %d: %s", WorkersEnv, c.env, c.args, code, errs)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		exports = append(exports, string(data))
	}
	for i, e := range exports[1:] {
		if e != exports[0] {
			t.Errorf("run %d: another export than on one worker: %s", i+1, firstDiff(exports[0], e))
		}
	}

	for _, c := range []struct {
		env  string
		args []string
		want string
	}{
		{"", []string{"run", "--workers", "-1", "preset:gtdp-rendezvous"}, "--workers: must be a whole number from 0 (every core, once an iteration is long enough to gain) to 1024 (got -1)"},
		{"", []string{"run", "--workers", "1025", "preset:gtdp-rendezvous"}, "--workers: must be a whole number from 0"},
		{"many", []string{"run", "preset:gtdp-rendezvous"}, `DPSIM_WORKERS: must be a whole number from 0 (every core, once an iteration is long enough to gain) to 1024 (got "many")`},
		{"-3", []string{"run", "--resume", "x.json"}, `DPSIM_WORKERS: must be a whole number from 0`},
		{"", []string{"compare", "--workers", "-2", "x.json"}, "--workers: must be a whole number from 0"},
		{"9999", []string{"compare", "x.json"}, `DPSIM_WORKERS: must be a whole number from 0`},
	} {
		code, out, errs := run(c.env, c.args...)
		if code == 0 || out != "" || !strings.Contains(errs, c.want) || strings.Count(strings.TrimSpace(errs), "\n") != 0 {
			t.Errorf("%s=%q %v: exit %d, stdout %q, stderr %q; want one line saying %q", WorkersEnv, c.env, c.args, code, out, errs, c.want)
		}
	}
}
