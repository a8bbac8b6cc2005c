//go:build !amd64 || purego

package num

// expToPaths are ExpTo's code paths on this machine: one, Exp's body.
var expToPaths = []struct {
	name string
	f    func(dst, src []float64)
}{{"ExpTo", ExpTo}}
