//go:build !linux && !js

package nn

// threadCPU reports no CPU time where getrusage per thread is missing:
// the benchmark then reports wall time only.
func threadCPU() (now func() float64, unlock func()) {
	return func() float64 { return 0 }, func() {}
}
