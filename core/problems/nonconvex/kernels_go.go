//go:build !wasm

package nonconvex

import "math"

// axpys4Go adds w[s]·z_s to out for the rows z_s of z (len(out) each),
// four rows per pass over out, each entry's terms in row order. len(w) is
// a multiple of 4 and z holds len(w) rows (axpys has checked). It is
// axpys4 off amd64 and wasm, and on amd64 without AVX2.
func axpys4Go(z, w, out []float64) {
	d := len(out)
	for s := 0; s+4 <= len(w); s += 4 {
		a := z[s*d : (s+1)*d : (s+1)*d]
		b := z[(s+1)*d : (s+2)*d : (s+2)*d]
		c := z[(s+2)*d : (s+3)*d : (s+3)*d]
		e := z[(s+3)*d : (s+4)*d : (s+4)*d]
		a, b, c, e = a[:len(out)], b[:len(out)], c[:len(out)], e[:len(out)]
		ww := w[s : s+4 : s+4]
		wa, wb, wc, we := ww[0], ww[1], ww[2], ww[3]
		j := 0
		for ; j+2 <= len(out); j += 2 {
			v, u := out[j], out[j+1]
			v += float64(wa * a[j])
			u += float64(wa * a[j+1])
			v += float64(wb * b[j])
			u += float64(wb * b[j+1])
			v += float64(wc * c[j])
			u += float64(wc * c[j+1])
			v += float64(we * e[j])
			u += float64(we * e[j+1])
			out[j], out[j+1] = v, u
		}
		if j < len(out) {
			v := out[j]
			v += float64(wa * a[j])
			v += float64(wb * b[j])
			v += float64(wc * c[j])
			v += float64(we * e[j])
			out[j] = v
		}
	}
}

// marginsGo sets s[t] = −y[t]·s[t] (the margin −y·xᵀz of each sample)
// and e[t] = −|s[t]|, the argument of the exponential both branches of the
// sigmoid and of softplus take. It is margins off amd64 and wasm, and the
// tail of the AVX2 one.
func marginsGo(y, s, e []float64) {
	y, e = y[:len(s)], e[:len(s)]
	for t, v := range s {
		v = -y[t] * v
		s[t] = v
		e[t] = -math.Abs(v)
	}
}

// sigmoidsGo sets s[t] = −y[t]·σ(s[t]) from e[t] = e^(−|s[t]|): σ(v) is
// 1/(1 + e^(−v)) for v ≥ 0 and e^v/(1 + e^v) below (sigmoid's two
// branches), its numerator picked by an integer select (a conditional
// move, not a branch mispredicted on half the samples). It is sigmoids
// off amd64 and wasm, and the tail of the AVX2 one.
func sigmoidsGo(y, s, e []float64) {
	y, e = y[:len(s)], e[:len(s)]
	for t, v := range s {
		ev := e[t]
		nb := math.Float64bits(ev)
		if v >= 0 {
			nb = oneBits
		}
		s[t] = -y[t] * (math.Float64frombits(nb) / (1 + ev))
	}
}
