//go:build js && wasm

package ui

import (
	"syscall/js"
	"unsafe"
)

// float64sToJS copies xs into a new Float64Array with one memcpy; vert is
// 40–300× slower for bulk numbers (browser-recipes.md §2).
func float64sToJS(xs []float64) js.Value {
	u8 := js.Global().Get("Uint8Array").New(len(xs) * 8)
	if len(xs) > 0 {
		js.CopyBytesToJS(u8, unsafe.Slice((*byte)(unsafe.Pointer(&xs[0])), len(xs)*8))
	}
	return js.Global().Get("Float64Array").New(u8.Get("buffer"))
}

// setColumns sets a history's or metrics' columns on o (history,
// metrics), each a Float64Array.
func setColumns(o js.Value, it, opt, cons, obj, stat []float64) {
	o.Set("iter", float64sToJS(it))
	o.Set("optimality", float64sToJS(opt))
	o.Set("consensus", float64sToJS(cons))
	o.Set("objective", float64sToJS(obj))
	o.Set("stationarity", float64sToJS(stat))
}

// download offers data to the user as a file.
func download(name, mime string, data []byte) {
	u8 := js.Global().Get("Uint8Array").New(len(data))
	js.CopyBytesToJS(u8, data)
	opts := js.Global().Get("Object").New()
	opts.Set("type", mime)
	blob := js.Global().Get("Blob").New([]any{u8}, opts)
	url := js.Global().Get("URL").Call("createObjectURL", blob)
	doc := js.Global().Get("document")
	a := doc.Call("createElement", "a")
	a.Set("href", url)
	a.Set("download", name)
	doc.Get("body").Call("appendChild", a)
	a.Call("click")
	a.Call("remove")
	// Revoking at once can cancel the download.
	var revoke js.Func
	revoke = js.FuncOf(func(js.Value, []js.Value) any {
		js.Global().Get("URL").Call("revokeObjectURL", url)
		revoke.Release()
		return nil
	})
	js.Global().Call("setTimeout", revoke, 2000)
}
