//go:build unix && !js

package pld

import (
	"syscall"
	"time"
)

// cpuTime is the process's CPU time so far (user and system): on a
// shared machine it measures the work a benchmark does, whatever else
// runs (BenchmarkLedger reports it as cpu-ns/op beside the wall time).
func cpuTime() (time.Duration, bool) {
	var r syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &r) != nil {
		return 0, false
	}
	return time.Duration(r.Utime.Nano() + r.Stime.Nano()), true
}
