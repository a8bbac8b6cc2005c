// Package render is the ebiten view of dpsim: it draws a scene.Frame (the
// network, packets coloured by their noise, the plane of estimates) with
// batched triangles, and adapts a scene.Player and scene.Model to an
// ebiten.Game.
//
// It builds for js/wasm only: the browser is where it runs, and a native
// ebiten build needs cgo and X11 headers. Its logic lives in the pure
// package render/scene, which is tested everywhere.
package render
