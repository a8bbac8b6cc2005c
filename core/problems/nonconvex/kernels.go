package nonconvex

// dots sets out[s] = xᵀz_s for the rows z_s of z (len(x) each), four rows
// at a time (dots4: AVX2 assembly on amd64 where the CPU has it,
// WebAssembly assembly under js/wasm, Go elsewhere), then the rest one at
// a time; each sum runs left to right from 0 in its own accumulator, as
// learn.Dot's. Products are wrapped in float64(…) so that no platform
// fuses them into the sums (core/num).
func dots(z, x, out []float64) {
	d := len(x)
	z = z[:len(out)*d] // too few rows panics here, before the assembly
	s := len(out) &^ 3
	dots4(z[:s*d], x, out[:s])
	for ; s < len(out); s++ {
		a := z[s*d : (s+1)*d : (s+1)*d]
		a = a[:len(x)]
		var sa float64
		for j, v := range x {
			sa += float64(v * a[j])
		}
		out[s] = sa
	}
}

// axpys adds Σ_s w[s]·z_s to out for the rows z_s of z (len(out) each),
// each entry's terms in row order (the bits of one axpy after another),
// four rows per pass over out (axpys4: AVX2 or WebAssembly assembly, as
// dots4), then the rest one at a time.
func axpys(z, w, out []float64) {
	d := len(out)
	z = z[:len(w)*d]
	s := len(w) &^ 3
	axpys4(z[:s*d], w[:s], out)
	for ; s < len(w); s++ {
		a := z[s*d : (s+1)*d : (s+1)*d]
		a = a[:len(out)]
		wa := w[s]
		for j, v := range out {
			out[j] = v + float64(wa*a[j])
		}
	}
}
