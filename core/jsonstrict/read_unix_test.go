//go:build unix

package jsonstrict

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A named pipe without a writer would block an open for reading forever.
func TestReadFileRefusesAFIFO(t *testing.T) {
	name := filepath.Join(t.TempDir(), "f")
	if err := syscall.Mkfifo(name, 0o600); err != nil {
		t.Skip(err)
	}
	_, err := ReadFile(name, 1<<20)
	if err == nil || !strings.Contains(err.Error(), "is a named pipe, not a regular file") {
		t.Errorf("got %v", err)
	}
}

// A regular file swapped for a named pipe between the check and the open
// is refused too, without blocking on the open.
func TestReadFileRefusesAFIFOSwappedIn(t *testing.T) {
	name := filepath.Join(t.TempDir(), "f.json")
	if err := os.WriteFile(name, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	testHookAfterStat = func() {
		os.Remove(name)
		if err := syscall.Mkfifo(name, 0o600); err != nil {
			t.Skip(err)
		}
	}
	defer func() { testHookAfterStat = nil }()
	_, err := ReadFile(name, 1<<20)
	if err == nil || !strings.Contains(err.Error(), "is a named pipe, not a regular file") {
		t.Errorf("got %v", err)
	}
}
