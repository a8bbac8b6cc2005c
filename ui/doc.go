// Package ui is the bridge between the browser page and the Go program:
// it registers window.dpsim (play, pause, step, reset, speed, seed,
// scenario loading, metrics and exports) with syscall/js and vert, and
// publishes window.dpsimState for the page and the end-to-end tests.
// docs/bridge.md is the contract.
//
// Everything here builds only for js/wasm, except package query (the URL
// parameters), which is pure Go and tested natively.
package ui
