//go:build !amd64 || purego

package num

// dotsPortable is dotsGo: the portable path (under js/wasm, Dots itself
// is the WebAssembly assembly).
func dotsPortable(z, x, out []float64) { dotsGo(z, x, out) }
