package main

import "syscall/js"

// cpuClock returns node's process CPU time in nanoseconds, as the
// JavaScript references measure theirs (process.cpuUsage).
func cpuClock() func() float64 {
	proc := js.Global().Get("process")
	return func() float64 {
		u := proc.Call("cpuUsage")
		return (u.Get("user").Float() + u.Get("system").Float()) * 1000
	}
}
