package nn

import (
	"runtime"
	"syscall"
)

// threadCPU locks the goroutine to its thread and returns a function
// giving the thread's CPU time (user + system) in nanoseconds, so that a
// benchmark on a shared machine can report CPU time beside wall time.
func threadCPU() (now func() float64, unlock func()) {
	runtime.LockOSThread()
	return func() float64 {
		var r syscall.Rusage
		if syscall.Getrusage(syscall.RUSAGE_THREAD, &r) != nil {
			return 0
		}
		return float64(r.Utime.Nano() + r.Stime.Nano())
	}, runtime.UnlockOSThread
}
