//go:build js && wasm

package datafiles

import (
	"syscall/js"
	"time"
)

// ProvideJS is the page's provideData(file, Uint8Array) call, the same
// on the main page and in the Experiments panel's workers: it copies the
// bytes, hands them to Provide and returns {ok, error, ms}, ms being how
// long the check and decode held the calling thread.
func (p *Provided) ProvideJS(args []js.Value) js.Value { return p.provideJS(args, p.Provide) }

func (p *Provided) provideJS(args []js.Value, take func(string, []byte) error) js.Value {
	o := js.Global().Get("Object").New()
	o.Set("ok", false)
	o.Set("error", "")
	o.Set("ms", 0)
	if len(args) < 2 || args[0].Type() != js.TypeString || !args[1].InstanceOf(js.Global().Get("Uint8Array")) {
		o.Set("error", "provideData needs a file name and a Uint8Array")
		return o
	}
	b := make([]byte, args[1].Get("length").Int())
	js.CopyBytesToGo(b, args[1])
	t0 := time.Now()
	err := take(args[0].String(), b)
	o.Set("ms", float64(time.Since(t0).Microseconds())/1000)
	if err != nil {
		o.Set("error", err.Error())
	} else {
		o.Set("ok", true)
	}
	return o
}

// KeepJS is ProvideJS that keeps the bytes without decoding them (Keep):
// the page's thread hands them to the Worker that builds the run.
func (p *Provided) KeepJS(args []js.Value) js.Value {
	return p.provideJS(args, p.Keep)
}
