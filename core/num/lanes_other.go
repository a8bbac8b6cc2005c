//go:build (!amd64 && !wasm) || purego

package num

// dots is dotsGo where no assembly is written (lanes_amd64.s,
// lanes_wasm.s).
func dots(z, x, out []float64) { dotsGo(z, x, out) }
