//go:build js

package nn

import "syscall/js"

// threadCPU returns node's process CPU time (user + system) in
// nanoseconds: the wasm runs on one thread, and V8's compiler and
// collector threads add a little.
func threadCPU() (now func() float64, unlock func()) {
	proc := js.Global().Get("process")
	return func() float64 {
		if proc.IsUndefined() {
			return 0
		}
		u := proc.Call("cpuUsage")
		return (u.Get("user").Float() + u.Get("system").Float()) * 1000
	}, func() {}
}
