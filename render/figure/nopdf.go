//go:build js && wasm

package figure

import (
	"errors"

	"gonum.org/v1/plot/vg"
)

// The browser offers SVG and PNG; leaving the PDF writer out keeps the
// solver wasm smaller.
func pdfCanvas(w, h vg.Length) (vg.CanvasWriterTo, error) {
	return nil, errors.New("figure: PDF is written by the CLI only")
}
