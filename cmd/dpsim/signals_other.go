//go:build !unix

package main

import (
	"os"
	"syscall"
)

// stopSignals end a command the way Ctrl-C does (no SIGHUP here).
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM}
