package main

import (
	"runtime"
	"syscall"
)

// cpuClock returns the thread's CPU time in nanoseconds (the goroutine
// is locked to its thread).
func cpuClock() func() float64 {
	runtime.LockOSThread()
	return func() float64 {
		var r syscall.Rusage
		if syscall.Getrusage(syscall.RUSAGE_THREAD, &r) != nil {
			return 0
		}
		return float64(r.Utime.Nano() + r.Stime.Nano())
	}
}
