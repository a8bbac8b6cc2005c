//go:build js && wasm

// Command app is the page's program (wasm/app) with the wave toy
// registered: a problem without a known optimum, which no built-in
// problem is yet. The end-to-end test e2e/nooptimum.test.js builds it and
// serves it in place of dpsim.wasm, to check what the page shows for such
// a problem. It is never part of the site.
package main

import (
	"fmt"

	"dpsim/ui"
	"dpsim/ui/internal/wavetoy"
)

func main() {
	if _, err := wavetoy.Register(); err != nil {
		panic(fmt.Sprintf("registering the wave toy: %v", err))
	}
	ui.Run("dpsim (wave toy)")
}
