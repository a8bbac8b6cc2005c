//go:build !wasm && !amd64

package nonconvex

// dots4 and axpys4 are the Go versions here (kernels_go.go).
func dots4(z, x, out []float64)  { dots4Go(z, x, out) }
func axpys4(z, w, out []float64) { axpys4Go(z, w, out) }
