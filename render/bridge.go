//go:build js && wasm

package render

import (
	"syscall/js"
	"unsafe"

	"github.com/hajimehoshi/ebiten/v2"

	"dpsim/render/scene"
)

// The simulator writes vertices in ebiten.Vertex's layout
// (scene.PackVertices): these fail to compile if ebiten changes it.
var (
	_ [unsafe.Sizeof(ebiten.Vertex{}) - 4*scene.VertexFloats]struct{}
	_ [4*scene.VertexFloats - unsafe.Sizeof(ebiten.Vertex{})]struct{}
	_ [unsafe.Offsetof(ebiten.Vertex{}.ColorR) - 16]struct{}
	_ [16 - unsafe.Offsetof(ebiten.Vertex{}.ColorR)]struct{}
	_ [unsafe.Offsetof(ebiten.Vertex{}.Custom0) - 32]struct{}
	_ [32 - unsafe.Offsetof(ebiten.Vertex{}.Custom0)]struct{}
)

// Bridge is the Source of the page's simulator (wasm/app), a separate Go
// program in the same page, reached through window.dpsim (docs/bridge.md:
// viewUpdate, viewFrame, viewCopy). The simulator writes each picture's
// bytes straight into the view's buffers: the page exposes the view's
// WebAssembly memory as window.dpsimViewMemory, and the view hands the
// simulator the addresses and lengths of its own slices.
type Bridge struct{}

func (Bridge) api() js.Value { return js.Global().Get("dpsim") }

// Ready implements Source: the simulator has registered its bridge.
func (b Bridge) Ready() bool {
	a := b.api()
	return a.Truthy() && a.Get("viewFrame").Truthy() && js.Global().Get("dpsimViewMemory").Truthy()
}

// Update implements Source.
func (b Bridge) Update() { b.api().Call("viewUpdate") }

// Frame implements Source. viewFrame answers null (unchanged) or
// [vertices, indices, then V0, V1, I0, I1 of each span]; viewCopy then
// fills the view's buffers.
func (b Bridge) Frame(w, h int, ratio float64, buf *Buffers) bool {
	a := b.api()
	r := a.Call("viewFrame", w, h, ratio)
	if r.Type() != js.TypeObject || !js.Global().Get("Array").Call("isArray", r).Bool() {
		return false // unchanged, or the simulator failed (it says so itself)
	}
	n := r.Length()
	if n < 2 || (n-2)%4 != 0 {
		return false
	}
	nv, ni := r.Index(0).Int(), r.Index(1).Int()
	buf.Spans = buf.Spans[:0]
	for k := 2; k < n; k += 4 {
		buf.Spans = append(buf.Spans, scene.Span{V0: r.Index(k).Int(), V1: r.Index(k + 1).Int(), I0: r.Index(k + 2).Int(), I1: r.Index(k + 3).Int()})
	}
	buf.size(nv, ni)
	if nv == 0 || ni == 0 {
		buf.Spans = buf.Spans[:0]
		return true
	}
	// The simulator takes the byte views over this program's memory
	// itself: made here, any allocation of ours (the call's arguments)
	// could grow the memory and detach them. While this call runs this
	// program allocates nothing.
	a.Call("viewCopy",
		int(uintptr(unsafe.Pointer(&buf.Vertices[0]))), nv*int(unsafe.Sizeof(ebiten.Vertex{})),
		int(uintptr(unsafe.Pointer(&buf.Indices[0]))), ni*4)
	return true
}
