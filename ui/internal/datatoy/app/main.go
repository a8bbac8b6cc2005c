//go:build js && wasm

// Command app is the page's program (wasm/app) with the data toy
// registered: a problem that loads a committed dataset, which no built-in
// problem does yet. The end-to-end test e2e/data.test.js builds it and
// serves it in place of dpsim.wasm, to check how the page fetches a
// dataset on demand. It is never part of the site.
package main

import (
	"fmt"

	"dpsim/ui"
	"dpsim/ui/internal/datatoy"
)

func main() {
	if _, err := datatoy.Register(); err != nil {
		panic(fmt.Sprintf("registering the data toy: %v", err))
	}
	ui.Run("dpsim (data toy)")
}
