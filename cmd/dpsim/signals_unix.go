//go:build unix

package main

import (
	"os"
	"syscall"
)

// stopSignals end a command the way Ctrl-C does: SIGHUP (the terminal
// closed) too, so that a closed terminal saves what finished.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}
