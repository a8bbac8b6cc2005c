package nonconvex

// axpys adds Σ_s w[s]·z_s to out for the rows z_s of z (len(out) each),
// each entry's terms in row order (the bits of one axpy after another),
// four rows per pass over out (axpys4: AVX2 or WebAssembly assembly),
// then the rest one at a time.
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
