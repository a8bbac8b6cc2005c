//go:build !wasm && !amd64

package nonconvex

// The row kernels are the Go versions here (kernels_go.go).
func axpys4(z, w, out []float64) { axpys4Go(z, w, out) }
func margins(y, s, e []float64)  { marginsGo(y, s, e) }
func sigmoids(y, s, e []float64) { sigmoidsGo(y, s, e) }
