//go:build !linux && !js

package main

// cpuClock reports no CPU time on other systems.
func cpuClock() func() float64 { return func() float64 { return 0 } }
