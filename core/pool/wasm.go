//go:build wasm

package pool

// native is false under WebAssembly: one thread, so every call runs on
// the calling goroutine with no overhead (the page splits heavy runs over
// Web Workers instead).
const native = false
