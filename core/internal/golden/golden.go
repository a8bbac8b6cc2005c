// Package golden compares a test's output with a file in its package's
// testdata folder, and rewrites the file when the test is run with its
// -update flag after a deliberate change.
package golden

import (
	"os"
	"path/filepath"
	"testing"
)

// Check fails t unless got equals the file at path; with update it first
// writes got there.
func Check(t testing.TB, path, got string, update bool) {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("output differs from %s (run with -update after a deliberate change):\n%s", path, got)
	}
}
