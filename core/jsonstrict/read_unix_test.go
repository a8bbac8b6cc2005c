//go:build unix

package jsonstrict

import (
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
