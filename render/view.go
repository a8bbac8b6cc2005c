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
	// cost under a software GPU. It draws with ebiten's own triangles
	// shader, not the flat one.
	AntiAlias bool

	white  *ebiten.Image  // a 1×1 white sub-image, the triangles' source
	flat   *ebiten.Shader // nil: ebiten's own shader (see flatShader)
	op     ebiten.DrawTrianglesOptions
	flatOp ebiten.DrawTrianglesShaderOptions
	// Vertices and Calls describe the last Draw, for diagnostics.
	Vertices, Calls int
}

// flatShader paints each pixel its triangle's vertex colour, which is
// premultiplied, as ebiten's own shader takes it in
// ColorScaleModePremultipliedAlpha. ebiten's shader reads the source
// image and multiplies: from the white pixel the picture is drawn with,
// the same value (1 × c = c exactly), so the same picture, but the texture
// read is a good part of a pixel's cost where WebGL runs on the CPU
// (SwiftShader), and the picture covers the whole canvas.
const flatShader = `//kage:unit pixels

package main

func Fragment(dstPos vec4, srcPos vec2, color vec4) vec4 {
	return color
}
`

// Draw draws b onto screen, one draw call per span.
func (v *View) Draw(screen *ebiten.Image, b *Buffers) {
	if v.white == nil {
		img := ebiten.NewImage(3, 3)
		img.Fill(color.White)
		v.white = img.SubImage(image.Rect(1, 1, 2, 2)).(*ebiten.Image)
		s, err := ebiten.NewShader([]byte(flatShader))
		if err != nil {
			// A fixed source that ebiten cannot compile is a bug, but
			// ebiten's own shader draws the same picture.
			println("render: the flat shader does not compile; drawing with ebiten's:", err.Error())
		}
		v.flat = s
	}
	v.op = ebiten.DrawTrianglesOptions{
		ColorScaleMode: ebiten.ColorScaleModePremultipliedAlpha,
		AntiAlias:      v.AntiAlias,
	}
	v.Vertices, v.Calls = len(b.Vertices), 0
	for _, sp := range b.Spans {
		if sp.I1 <= sp.I0 {
			continue
		}
		vs, is := b.Vertices[sp.V0:sp.V1], b.Indices[sp.I0:sp.I1]
		if v.flat != nil && !v.AntiAlias {
			screen.DrawTrianglesShader32(vs, is, v.flat, &v.flatOp)
		} else {
			screen.DrawTriangles32(vs, is, v.white, &v.op)
		}
		v.Calls++
	}
}
