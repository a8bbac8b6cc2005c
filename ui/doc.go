// Package ui is the bridge between the browser page and the Go program:
// it registers window.dpsim (play, pause, step, reset, speed, seed,
// scenario loading, metrics and exports) with syscall/js and vert, and
// publishes window.dpsimState for the page and the end-to-end tests.
// docs/bridge.md is the contract.
//
// The bridge builds only for js/wasm; what it shows of a run (Live: the
// plot's history and headline metric, Status) and package query (the URL
// parameters) are pure Go and tested natively.
package ui
