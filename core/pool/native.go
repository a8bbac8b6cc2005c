//go:build !wasm

package pool

// native: goroutines run on several cores.
const native = true
