//go:build unix

package main

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Row 2 of the robustness issue: a named pipe without a writer blocked
// the CLI forever; it is refused before it is opened.
func TestFIFOArgumentIsRefused(t *testing.T) {
	name := filepath.Join(t.TempDir(), "pipe.json")
	if err := syscall.Mkfifo(name, 0o600); err != nil {
		t.Skip(err)
	}
	code, _, errs := dpsim(t, "", "validate", name)
	if code != 1 || !strings.Contains(errs, "pipe.json: is a named pipe, not a regular file; to read a stream, give - and redirect it to standard input") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
}
