package learn

// The float32 rows' four-row kernels (Dots and Axpys on ijcnn1 and the
// other feature sets). Under js/wasm and on amd64 with AVX2 whole blocks
// of rows run in assembly (kernels_wasm.s, kernels_amd64.s); these do
// the rest, and everything under purego.

// dot4Float32 is dot4Pixels for float32 rows.
func dot4Float32(a, b, c, e []float32, x []float64) (sa, sb, sc, se float64) {
	a, b, c, e = a[:len(x)], b[:len(x)], c[:len(x)], e[:len(x)]
	for j, v := range x {
		sa += float64(float64(a[j]) * v)
		sb += float64(float64(b[j]) * v)
		sc += float64(float64(c[j]) * v)
		se += float64(float64(e[j]) * v)
	}
	return
}

// axpy4Float32 is axpy4Pixels for float32 rows.
func axpy4Float32(ca, cb, cc, ce float64, a, b, c, e []float32, out []float64) {
	a, b, c, e = a[:len(out)], b[:len(out)], c[:len(out)], e[:len(out)]
	for j, v := range out {
		v += float64(ca * float64(a[j]))
		v += float64(cb * float64(b[j]))
		v += float64(cc * float64(c[j]))
		v += float64(ce * float64(e[j]))
		out[j] = v
	}
}
