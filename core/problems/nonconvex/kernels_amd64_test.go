//go:build amd64

package nonconvex

// kernelPaths are the row kernels' code paths on this machine: AVX2
// (where the CPU has it, the default) and the Go versions; each use
// switches to its path and returns the switch back.
var kernelPaths = []struct {
	name string
	use  func() (restore func())
}{
	{"default", func() func() { return func() {} }},
	{"Go", func() func() {
		old := hasAVX2
		hasAVX2 = false
		return func() { hasAVX2 = old }
	}},
}
