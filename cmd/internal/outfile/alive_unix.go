//go:build unix

package outfile

import (
	"errors"
	"syscall"
)

// processAlive reports whether process pid exists (signal 0 checks
// without sending; EPERM means it exists under another user). Only "no
// such process" counts as dead.
func processAlive(pid int) bool {
	return !errors.Is(syscall.Kill(pid, 0), syscall.ESRCH)
}
