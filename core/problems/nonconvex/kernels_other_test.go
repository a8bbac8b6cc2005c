//go:build !amd64

package nonconvex

// kernelPaths are the row kernels' code paths on this machine: one
// (assembly under js/wasm, Go elsewhere).
var kernelPaths = []struct {
	name string
	use  func() (restore func())
}{{"default", func() func() { return func() {} }}}
