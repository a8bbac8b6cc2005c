//go:build unix

package recal_test

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time (user + system) the process has
// spent, for benchmarks on a shared machine, where wall time swings with
// the load while CPU time does not.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
