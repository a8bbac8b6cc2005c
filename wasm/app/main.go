//go:build js && wasm

// Command app is the browser program of dpsim (public/dpsim.wasm): the
// ebiten view of the network and the JS bridge the page's controls call.
package main

import (
	"dpsim/ui"
)

func main() {
	ui.Run("dpsim")
}
