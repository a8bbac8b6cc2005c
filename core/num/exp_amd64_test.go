//go:build amd64 && !purego

package num

// expToPaths are ExpTo's code paths on this machine: AVX2 (where the CPU
// has it: then ExpTo itself) and SSE2 alone.
var expToPaths = []struct {
	name string
	f    func(dst, src []float64)
}{
	{"ExpTo", ExpTo},
	{"ExpTo-SSE2", func(dst, src []float64) {
		old := hasAVX2
		hasAVX2 = false
		defer func() { hasAVX2 = old }()
		ExpTo(dst, src)
	}},
}
