//go:build unix

package main

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// Issue 15, class 3: -dir naming a named pipe blocked os.OpenRoot until a
// writer appeared; it is refused at once as "not a folder".
func TestDirFIFORefused(t *testing.T) {
	pipe := filepath.Join(t.TempDir(), "pipe")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Skip(err)
	}
	if h, err := NewHandler(pipe); err == nil || !strings.Contains(err.Error(), "is not a folder") {
		if h != nil {
			h.Close()
		}
		t.Errorf("-dir %s: error %v", pipe, err)
	}
}
