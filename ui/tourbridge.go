//go:build js && wasm

package ui

import (
	"syscall/js"

	"dpsim/core/tour"
)

// registerTour adds dpsim.tour() to window.dpsim: the tour's lessons
// with what cmd/mktour measured (core/tour's results.json, as
// committed), for public/tour.js.
func (a *App) registerTour(fn func(name string, f func(args []js.Value) any)) {
	fn("tour", func([]js.Value) any { return string(tour.ResultsJSON()) })
}
