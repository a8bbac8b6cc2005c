//go:build !(js && wasm)

package figure

import (
	"time"

	"codeberg.org/go-pdf/fpdf"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/vgpdf"
)

func init() {
	// A PDF records when it was made; a fixed date keeps the same figure
	// the same file.
	epoch := time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	fpdf.SetDefaultCreationDate(epoch)
	fpdf.SetDefaultModificationDate(epoch)
	fpdf.SetDefaultCatalogSort(true)
}

func pdfCanvas(w, h vg.Length) (vg.CanvasWriterTo, error) { return vgpdf.New(w, h), nil }
