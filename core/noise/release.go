//go:build !wasm

package noise

// addRows sets out[i·stride+c] = v[i·dim+c] + nz[i·dim+c] for every row i
// < rows and c < dim; Release has checked the lengths.
func addRows(out, v, nz []float64, rows, dim, stride int) {
	n := rows * dim
	if stride == dim { // one flat pass
		out, v, nz = out[:n], v[:n], nz[:n]
		for c, z := range nz {
			out[c] = v[c] + z
		}
		return
	}
	for i := range rows {
		z := nz[i*dim : (i+1)*dim]
		o := out[i*stride : i*stride+dim]
		vi := v[i*dim : (i+1)*dim]
		o, vi = o[:len(z)], vi[:len(z)]
		for c := range z {
			o[c] = vi[c] + z[c]
		}
	}
}
