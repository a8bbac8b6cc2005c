//go:build js && wasm

package render

import (
	"image"
	"image/color"

	"github.com/hajimehoshi/ebiten/v2"

	"dpsim/render/scene"
)

// View draws frames. The zero value is ready to use; its buffers are
// reused from frame to frame.
type View struct {
	// AntiAlias turns on ebiten's antialiasing, which roughly doubles the
	// cost under a software GPU.
	AntiAlias bool

	verts []ebiten.Vertex
	white *ebiten.Image // a 1×1 white sub-image, the triangles' source
	op    ebiten.DrawTrianglesOptions
	// Vertices and Calls describe the last Draw, for diagnostics.
	Vertices, Calls int
}

// Draw draws a mesh onto screen, one DrawTriangles32 call per span (of
// at most scene.DefaultBatch vertices; a typical frame is one call).
func (v *View) Draw(screen *ebiten.Image, mesh *scene.Mesh) {
	if v.white == nil {
		img := ebiten.NewImage(3, 3)
		img.Fill(color.White)
		v.white = img.SubImage(image.Rect(1, 1, 2, 2)).(*ebiten.Image)
	}
	if cap(v.verts) < len(mesh.Vertices) {
		v.verts = make([]ebiten.Vertex, len(mesh.Vertices), len(mesh.Vertices)+len(mesh.Vertices)/4)
	}
	v.verts = v.verts[:len(mesh.Vertices)]
	for i, s := range mesh.Vertices {
		v.verts[i] = ebiten.Vertex{
			DstX: s.X, DstY: s.Y, SrcX: 1, SrcY: 1,
			ColorR: s.R, ColorG: s.G, ColorB: s.B, ColorA: s.A,
		}
	}
	v.op = ebiten.DrawTrianglesOptions{
		ColorScaleMode: ebiten.ColorScaleModePremultipliedAlpha,
		AntiAlias:      v.AntiAlias,
	}
	v.Vertices, v.Calls = len(v.verts), 0
	for _, sp := range mesh.Spans {
		if sp.I1 > sp.I0 {
			screen.DrawTriangles32(v.verts[sp.V0:sp.V1], mesh.Indices[sp.I0:sp.I1], v.white, &v.op)
			v.Calls++
		}
	}
}
