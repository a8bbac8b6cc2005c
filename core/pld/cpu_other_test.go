//go:build !unix || js

package pld

import "time"

// cpuTime is not measured here (js/wasm has one thread: its wall time is
// its CPU time).
func cpuTime() (time.Duration, bool) { return 0, false }
