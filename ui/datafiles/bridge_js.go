//go:build js && wasm

package datafiles

import (
	"fmt"
	"syscall/js"
	"time"

	"dpsim/core/data"
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

// ProvideUserJS is provideUserFile(name, Uint8Array, pin), the same on
// the main page, in its heavy runs' Worker (ui/remote.go) and in the
// Experiments panel's workers (wasm/solver): it keeps the file under
// name for the session (data.ProvideUserPinned); with pin (a sha256 the
// scenario names) other content is refused naming both hashes. Bytes
// over data.MaxUserFileBytes are refused before they are copied.
// Returns {ok, sha256, bytes, ms, error}.
func ProvideUserJS(args []js.Value) js.Value {
	o := js.Global().Get("Object").New()
	o.Set("ok", false)
	if len(args) < 2 || args[0].Type() != js.TypeString || !args[1].InstanceOf(js.Global().Get("Uint8Array")) {
		o.Set("error", "provideUserFile needs a file name and a Uint8Array")
		return o
	}
	name, n := args[0].String(), args[1].Get("length").Int()
	if n > data.MaxUserFileBytes {
		o.Set("error", fmt.Sprintf("%s: %d bytes: a data file may have at most %d (256 MiB)", name, n, data.MaxUserFileBytes))
		return o
	}
	pin := ""
	if len(args) > 2 && args[2].Type() == js.TypeString {
		pin = args[2].String()
	}
	b := make([]byte, n)
	js.CopyBytesToGo(b, args[1])
	t0 := time.Now()
	sha, err := data.ProvideUserPinned(name, b, pin)
	o.Set("ms", float64(time.Since(t0).Microseconds())/1000)
	if err != nil {
		o.Set("error", err.Error())
		return o
	}
	o.Set("ok", true)
	o.Set("sha256", sha)
	o.Set("bytes", n)
	return o
}
