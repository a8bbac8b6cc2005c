//go:build !wasm

package weights

// MixRow adds Σ_e vals[e]·x_{cols[e]} to acc, where x holds a block of
// len(acc) values per agent (agent j's at x[j·len(acc) : (j+1)·len(acc)]):
// one row of (W ⊗ I)·x without its diagonal, the algorithms' hot loop.
// Four neighbours per pass halve the loads and stores of acc and let the
// products overlap; the grouping (w1·x1 + w2·x2) + (w3·x3 + w4·x4) is the
// summation order, the same in the WebAssembly version (mixrow_wasm.s),
// so that traces stay bit-identical; every product is rounded before
// its sum (float64(…)), so that GOAMD64=v3 cannot fuse one into a
// multiply-add either. A column outside x or fewer vals than cols panics.
func MixRow(acc, x []float64, cols []int, vals []float64) {
	d := len(acc)
	vals = vals[:len(cols)]
	e := 0
	for ; e+3 < len(cols); e += 4 {
		j1, j2, j3, j4 := cols[e], cols[e+1], cols[e+2], cols[e+3]
		w1, w2, w3, w4 := vals[e], vals[e+1], vals[e+2], vals[e+3]
		o1 := x[j1*d : (j1+1)*d]
		o2 := x[j2*d : (j2+1)*d]
		o3 := x[j3*d : (j3+1)*d]
		o4 := x[j4*d : (j4+1)*d]
		o1, o2, o3, o4 = o1[:len(acc)], o2[:len(acc)], o3[:len(acc)], o4[:len(acc)]
		for c := range acc {
			acc[c] += float64(float64(w1*o1[c])+float64(w2*o2[c])) + float64(float64(w3*o3[c])+float64(w4*o4[c]))
		}
	}
	for ; e < len(cols); e++ {
		j, w := cols[e], vals[e]
		o := x[j*d : (j+1)*d]
		o = o[:len(acc)]
		for c := range acc {
			acc[c] += float64(w * o[c])
		}
	}
}
