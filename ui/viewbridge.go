//go:build js && wasm

package ui

import (
	"syscall/js"
	"time"
	"unsafe"

	"dpsim/render/scene"
)

// viewOut is the last picture handed to the view, packed as its bytes.
type viewOut struct {
	verts []float32 // scene.VertexFloats per vertex, ebiten.Vertex's layout
	idx   []uint32
	spans []any
}

// registerView installs the view program's side of the bridge
// (docs/bridge.md): the view (wasm/view, render.Bridge) calls viewUpdate
// and viewFrame on every tick, and viewCopy (the addresses and lengths of
// its vertex and index buffers) to receive a changed picture's bytes into
// its own memory.
func (a *App) registerView(fn func(string, func([]js.Value) any)) {
	fn("viewUpdate", func([]js.Value) any {
		a.game.Update(time.Now())
		return nil
	})
	fn("viewFrame", func(args []js.Value) any {
		if len(args) < 3 || args[0].Type() != js.TypeNumber || args[1].Type() != js.TypeNumber || args[2].Type() != js.TypeNumber {
			return nil
		}
		w, h, ratio := args[0].Int(), args[1].Int(), args[2].Float()
		if w < 1 || h < 1 || !(ratio > 0) {
			return nil
		}
		mesh, changed := a.game.Draw(w, h, ratio)
		if !changed {
			return nil
		}
		o := &a.viewOut
		o.spans = o.spans[:0]
		if mesh == nil {
			o.verts, o.idx = o.verts[:0], o.idx[:0]
		} else {
			o.verts = scene.PackVertices(o.verts, mesh.Vertices)
			o.idx = mesh.Indices
			for _, s := range mesh.Spans {
				o.spans = append(o.spans, s.V0, s.V1, s.I0, s.I1)
			}
		}
		out := append([]any{len(o.verts) / scene.VertexFloats, len(o.idx)}, o.spans...)
		return out
	})
	fn("viewCopy", func(args []js.Value) any {
		o := &a.viewOut
		if len(args) < 4 || len(o.verts) == 0 || len(o.idx) == 0 {
			return nil
		}
		for _, v := range args[:4] {
			if v.Type() != js.TypeNumber {
				return nil
			}
		}
		vb, ib := unsafe.Slice((*byte)(unsafe.Pointer(&o.verts[0])), 4*len(o.verts)), unsafe.Slice((*byte)(unsafe.Pointer(&o.idx[0])), 4*len(o.idx))
		if args[1].Int() != len(vb) || args[3].Int() != len(ib) {
			return nil // not the last viewFrame's mesh
		}
		// Byte views over the view's memory, made here: the view, blocked
		// in this call, cannot grow (and detach) it meanwhile.
		mem := js.Global().Get("dpsimViewMemory").Get("buffer")
		u8 := js.Global().Get("Uint8Array")
		js.CopyBytesToJS(u8.New(mem, args[0].Int(), len(vb)), vb)
		js.CopyBytesToJS(u8.New(mem, args[2].Int(), len(ib)), ib)
		return nil
	})
}
