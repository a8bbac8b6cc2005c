// Package render is the page's view (wasm/view): an ebiten.Game that draws
// the pictures a Source hands it, with batched triangles. Its sources are
// the simulator, a separate Go program in the same page that plays the run
// and builds each picture (Bridge, through window.dpsim), and, until the
// simulator is up, the scenario's build-time snapshot (SnapshotSource).
// It holds no simulation, so that the view stays a minimal ebiten program
// plus render/scene.
//
// It builds for js/wasm only: the browser is where it runs, and a native
// ebiten build needs cgo and X11 headers. Its logic lives in the pure
// package render/scene (Driver, Mesh, Snapshot), which is tested
// everywhere.
package render
