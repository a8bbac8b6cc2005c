// Package ui is the page's simulator (wasm/app, no ebiten) and its bridge:
// it registers window.dpsim (play, pause, step, reset, speed, seed,
// scenario loading, metrics and exports) with syscall/js and vert,
// publishes window.dpsimState for the page and the end-to-end tests, and
// hands the view program (wasm/view) each picture it asks for
// (viewUpdate, viewFrame, viewCopy: ui/viewbridge.go). docs/bridge.md is
// the contract.
//
// The bridge builds only for js/wasm; what it shows of a run (Live: the
// plot's history and headline metric, Status) and package query (the URL
// parameters) are pure Go and tested natively.
package ui
