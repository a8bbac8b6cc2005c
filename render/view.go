//go:build js && wasm

package render

import (
	"image"
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"
)

// View draws pictures. The zero value is ready to use.
type View struct {
	// AntiAlias turns on ebiten's antialiasing, which roughly doubles the
	// cost under a software GPU.
	AntiAlias bool

	white *ebiten.Image // a 1×1 white sub-image, the triangles' source
	op    ebiten.DrawTrianglesOptions
	// Vertices and Calls describe the last Draw, for diagnostics.
	Vertices, Calls int
}

// Draw draws b onto screen, one DrawTriangles32 call per span.
func (v *View) Draw(screen *ebiten.Image, b *Buffers) {
	if v.white == nil {
		img := ebiten.NewImage(3, 3)
		img.Fill(color.White)
		v.white = img.SubImage(image.Rect(1, 1, 2, 2)).(*ebiten.Image)
	}
	v.op = ebiten.DrawTrianglesOptions{
		ColorScaleMode: ebiten.ColorScaleModePremultipliedAlpha,
		AntiAlias:      v.AntiAlias,
	}
	v.Vertices, v.Calls = len(b.Vertices), 0
	for _, sp := range b.Spans {
		if sp.I1 > sp.I0 {
			screen.DrawTriangles32(b.Vertices[sp.V0:sp.V1], b.Indices[sp.I0:sp.I1], v.white, &v.op)
			v.Calls++
		}
	}
}
