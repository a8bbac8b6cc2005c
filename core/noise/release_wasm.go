package noise

// addRows sets out[i·stride+c] = v[i·dim+c] + nz[i·dim+c] for every row i
// < rows and c < dim; Release has checked the lengths. Under WebAssembly
// it is assembly (release_wasm.s): Go's wasm backend routes every jump of
// a compiled loop through a dispatcher, which made this simple pass cost
// about 3.7 ns per value.
//
//go:noescape
func addRows(out, v, nz []float64, rows, dim, stride int)
