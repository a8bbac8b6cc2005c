//go:build !unix

package recal_test

import "time"

// processCPU reports no CPU time where getrusage is missing (js/wasm):
// the benchmarks then report wall time alone.
func processCPU() (time.Duration, bool) { return 0, false }
