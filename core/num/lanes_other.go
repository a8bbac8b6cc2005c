//go:build (!amd64 && !wasm) || purego

package num

// dots is dotsGo where no assembly is written (lanes_amd64.s,
// lanes_wasm.s).
func dots(z, x, out []float64) { dotsGo(z, x, out) }

// dotsAt is dotsAtGo where no assembly is written.
func dotsAt(f []float32, off []int, x, out []float64) { dotsAtGo(f, off, x, out) }
