//go:build wasm && !purego

package num

// dotsWasm is Dots' kernel in WebAssembly assembly (lanes_wasm.s): Go's
// wasm backend sends every jump of a compiled loop through the
// function's block dispatcher, structured loops do not.
//
//go:noescape
func dotsWasm(z, x, out *float64, d, n int)

// dots is Dots' kernel: dotsWasm over whole rows.
func dots(z, x, out []float64) {
	if len(out) > 0 && len(x) > 0 {
		dotsWasm(&z[0], &x[0], &out[0], len(x), len(out))
		return
	}
	dotsGo(z, x, out)
}

// dotsAt is dotsAtGo: the shard gradients' WebAssembly kernels take their
// rows by index (core/problems/internal/learn).
func dotsAt(f []float32, off []int, x, out []float64) { dotsAtGo(f, off, x, out) }
